"""Gaining and losing conditions, and paying for reactions (Z01–Z07, R01, R02, M05, X24).

Shared by every frame that inflicts a condition or asks for a reaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.checks import can_spend_mumm, spend_mumm
from cwenv.model.types import Condition, MummSpend
from cwenv.rules.options import BenommenReactions

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat


SUBSTITUTE = {
    Condition.ANGESCHLAGEN: Condition.BENOMMEN,  # Z01
    Condition.BENOMMEN: Condition.VERWIRRT,  # Z02
    Condition.EINGESCHRAENKT: Condition.BENOMMEN,  # Z03
    Condition.ENTMUTIGT: Condition.BENOMMEN,  # Z04
    Condition.NIEDERGEWORFEN: Condition.EINGESCHRAENKT,  # Z05
    Condition.VERWIRRT: Condition.BENOMMEN,  # Z07
}
"""'Erleidest du erneut X …, so erhältst du stattdessen Y' for every condition but Sterbend."""


def gain_condition(c: Combat, f: FighterState, cond: Condition) -> None:
    """Inflict a condition with the Z substitution chain (Z01–Z07, X19).

    A condition already held is replaced by its substitute; after
    ``options.escalation_steps`` substitutions nothing further happens. Sterbend is handled
    by :class:`LoseLPFrame` (Z06 deals damage instead).
    """
    if f.dead:
        return
    original = cond
    steps = 0
    while f.conditions >> cond & 1:
        if steps >= c.options.escalation_steps or cond not in SUBSTITUTE:
            return
        cond = SUBSTITUTE[cond]
        steps += 1
    f.conditions |= 1 << cond
    c.count(f"condition:{cond.name}")
    c.emit(ev.ConditionGained(f.idx, cond.label, original.label if cond is not original else ""))
    if cond is Condition.BENOMMEN and c.options.benommen_reactions is BenommenReactions.LOST:
        f.reactions = 0  # X24
    c.mark_dirty()


def lose_condition(c: Combat, f: FighterState, cond: Condition, cause: str) -> None:
    if f.conditions >> cond & 1:
        f.conditions &= ~(1 << cond)
        c.emit(ev.ConditionLost(f.idx, cond.label, cause))


def can_use_reaction(c: Combat, f: FighterState) -> bool:
    """Able to react at all: standing, and not benommen unless X24 keeps reactions."""
    if not f.standing:
        return False
    if f.conditions >> Condition.BENOMMEN & 1:
        return c.options.benommen_reactions is BenommenReactions.KEPT
    return True


def reaction_choices(c: Combat, f: FighterState) -> tuple[int, ...]:
    """Ways to pay for a reaction: 0 = one of the round's reactions, 1 = Mumm (M05)."""
    if not can_use_reaction(c, f):
        return ()
    if f.reactions > 0:
        return (0,)
    if can_spend_mumm(c, f, MummSpend.ZUSAETZLICHE_REAKTION.cost):
        return (1,)
    return ()


def pay_reaction(c: Combat, f: FighterState, with_mumm: int, what: str) -> None:
    if with_mumm:
        spend_mumm(c, f, MummSpend.ZUSAETZLICHE_REAKTION)
    else:
        f.reactions -= 1
    c.count(f"reaction:{what}")
    c.emit(ev.ReactionUsed(f.idx, what, f.reactions, bool(with_mumm)))
