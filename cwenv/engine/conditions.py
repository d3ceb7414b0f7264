"""Gaining and losing conditions, shaking them off with Mumm, and paying for reactions
(Z01–Z07, R01, R02, M05, M08, X24, X38).

Shared by every frame that inflicts a condition or asks for a reaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.checks import can_spend_mumm, spend_mumm
from cwenv.model.types import Condition, MummSpend
from cwenv.rules.options import BenommenReactions, ShakeTiming

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
    if cond is Condition.BENOMMEN or cond is Condition.NIEDERGEWORFEN:
        f.let_go()  # B03, X40: knocked off or dazed, a climber loses its hold
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


SHAKE_COST = MummSpend.ZUSTAND_ABSCHUETTELN.cost


def mumm_shakes(c: Combat, f: FighterState) -> list[Action]:
    """M08: 'Gib 2 Mummpunkte aus, um einen Zustand … sofort aufzuheben' — one choice per
    condition held, Sterbend excepted, when ``f`` may pay 2 Mumm (M11, X10, X11)."""
    if not f.conditions or not can_spend_mumm(c, f, SHAKE_COST):
        return []
    return [
        Action(ActionKind.MUMM_SHAKE, f.idx, index=int(cond))
        for cond in f.condition_list()
        if cond is not Condition.STERBEND
    ]


def prompt_shakes(c: Combat, kind: DecisionKind, fighter: int) -> list[Action]:
    """M08 at a decision outside the fighter's turn structure (X38 ``mumm_shake_timing``):
    'sofort' allows the spend at any of the fighter's decisions — before it defends,
    strikes a Blockadeangriff, catches a fall or rolls a check. Not at ORDER, which the
    side answers for several fighters."""
    if kind is DecisionKind.ORDER or c.options.mumm_shake_timing is not ShakeTiming.ANY_DECISION:
        return []
    f = c.fighters[fighter]
    if f.dead or f.down:
        return []  # kampfunfähig: nothing to gain (X44 keeps it niedergeworfen), M04 only
    shakes = mumm_shakes(c, f)
    if shakes and c.turn_fighter == f.idx and c.turn_benommen():
        # Z02: this turn's Handlung goes to the Mumm-Probe whatever happens now; shaking
        # Benommen off is worth it in the TURN decision before the probe, not during it.
        shakes = [a for a in shakes if a.index != Condition.BENOMMEN]
    return shakes


def shake_with_mumm(c: Combat, f: FighterState, cond: Condition) -> None:
    """M08: pay 2 Mumm and end ``cond`` at once."""
    spend_mumm(c, f, MummSpend.ZUSTAND_ABSCHUETTELN)
    lose_condition(c, f, cond, "Mumm")


def shake_to_react(c: Combat, f: FighterState) -> bool:
    """M08 + X24: a benommen fighter who cannot react could shake Benommen off with Mumm
    and then pay a reaction (one left, or one more Mumm for M05); it is asked anyway, with
    only the shake and the declining choice until it shakes."""
    if not f.standing or not f.conditions >> Condition.BENOMMEN & 1:
        return False
    opts = c.options
    if opts.benommen_reactions is BenommenReactions.KEPT:
        return False
    if opts.mumm_shake_timing is not ShakeTiming.ANY_DECISION:
        return False
    extra = 0 if f.reactions > 0 else MummSpend.ZUSAETZLICHE_REAKTION.cost
    return can_spend_mumm(c, f, SHAKE_COST + extra)
