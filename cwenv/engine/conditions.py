"""Gaining and losing conditions, shaking them off with Mumm, and paying for reactions
(Z01–Z07, R01, R02, M05, M08, X24, X38).

Shared by every frame that inflicts a condition or asks for a reaction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.actions import ZEHREND_ARG, ZEHREND_SLOTS, Action, ActionKind, DecisionKind
from cwenv.engine.checks import can_spend_mumm, mumm_problem, spend_mumm
from cwenv.engine.prompts_core import prompts_of
from cwenv.engine.tables.conditions import CONDITIONS
from cwenv.model.types import Condition, MummSpend
from cwenv.rules.options import BenommenReactions, ShakeTiming, ZehrendShake

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat
    from cwenv.engine.view import CombatView


SUBSTITUTE: dict[Condition, Condition] = {
    cond: rule.substitute for cond, rule in CONDITIONS.items() if rule.substitute is not None
}
"""'Erleidest du erneut X …, so erhältst du stattdessen Y' (Z01–Z07, from the table)."""


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
        instead = CONDITIONS[cond].substitute
        if steps >= c.options.escalation_steps or instead is None:
            return
        cond = instead
        steps += 1
    f.conditions |= 1 << cond
    c.count(f"condition:{cond.name}")
    c.emit(ev.ConditionGained(f.idx, cond.label, original.label if cond is not original else ""))
    on_gain = CONDITIONS[cond].on_gain
    if on_gain is not None:
        on_gain(c, f)  # e.g. B03/X40 losing a climb's hold, X24 Benommen's reactions
    c.mark_dirty()


def lose_condition(c: Combat, f: FighterState, cond: Condition, cause: str) -> None:
    if f.conditions >> cond & 1:
        f.conditions &= ~(1 << cond)
        c.emit(ev.ConditionLost(f.idx, cond.label, cause))


def can_use_reaction(c: Combat, f: FighterState) -> bool:
    """Able to react at all: standing, and not benommen unless X24 keeps reactions."""
    return react_problem(c, f) is None


def react_problem(c: CombatView, f: FighterState) -> str | None:
    """Why ``f`` cannot react at all (R01, X24), None when it can."""
    if not f.standing:
        return "the fighter is not standing"
    if f.conditions >> Condition.BENOMMEN & 1:
        if c.options.benommen_reactions is BenommenReactions.KEPT:
            return None
        return "benommen: no reactions (X24 benommen_reactions)"
    return None


def reaction_problem(c: CombatView, f: FighterState, with_mumm: int) -> str | None:
    """Why ``f`` cannot pay for a reaction this way (0: one of the round's reactions,
    1: Mumm, M05, only once none is left), None when it can."""
    problem = react_problem(c, f)
    # X38: under mumm_reaction_while_benommen M05 buys a reaction past Benommen's block
    bought = with_mumm and f.standing and c.options.mumm_reaction_while_benommen
    if problem is not None and not bought:
        return problem
    if not with_mumm:
        return None if f.reactions > 0 else "no reactions left this round (R01)"
    if f.reactions > 0 and problem is None:
        return "a reaction is left: Mumm (M05) pays only for one more"
    spend = mumm_problem(c, f, MummSpend.ZUSAETZLICHE_REAKTION.cost)
    return None if spend is None else f"an extra reaction (M05): {spend}"


def reaction_choices(c: CombatView, f: FighterState) -> tuple[int, ...]:
    """Ways to pay for a reaction: 0 = one of the round's reactions, 1 = Mumm (M05)."""
    if reaction_problem(c, f, 0) is None:
        return (0,)
    if reaction_problem(c, f, 1) is None:
        return (1,)
    return ()


def pay_reaction(c: Combat, f: FighterState, with_mumm: int, kind: ev.ReactionKind) -> None:
    if with_mumm:
        spend_mumm(c, f, MummSpend.ZUSAETZLICHE_REAKTION)
    else:
        f.reactions -= 1
    c.count(f"reaction:{kind.label}")
    c.emit(ev.ReactionUsed(f.idx, kind, f.reactions, bool(with_mumm)))


SHAKE_COST = MummSpend.ZUSTAND_ABSCHUETTELN.cost


def mumm_shakes(c: Combat, f: FighterState) -> list[Action]:
    """M08: 'Gib 2 Mummpunkte aus, um einen Zustand … sofort aufzuheben' — one choice per
    condition held that its table entry lets Mumm end (not Sterbend) and per Zehrend held
    that X55 lets it end, when ``f`` may pay 2 Mumm (M11, X10, X11)."""
    if not (f.conditions or f.zehrend) or not can_spend_mumm(c, f, SHAKE_COST):
        return []
    shakes = [
        Action(ActionKind.MUMM_SHAKE, f.idx, arg=int(cond))
        for cond in f.condition_list()
        if CONDITIONS[cond].mumm_shake
    ]
    shakes.extend(
        Action(ActionKind.MUMM_SHAKE, f.idx, arg=ZEHREND_ARG + slot)
        for slot in range(min(len(f.zehrend), ZEHREND_SLOTS))
        if zehrend_shake_problem(c, f, slot) is None
    )
    return shakes


def zehrend_shake_problem(c: Combat, f: FighterState, slot: int) -> str | None:
    """Why M08 cannot end the Zehrend at ``slot`` of ``f.zehrend`` (D03, Z08, X55), None
    when it can."""
    from cwenv.engine.movement import in_danger_zone

    if not 0 <= slot < min(len(f.zehrend), ZEHREND_SLOTS):
        return f"{f.name} holds no Zehrend {slot} (it holds {len(f.zehrend)})"
    reading = c.options.zehrend_mumm_shake
    if reading is ZehrendShake.NEVER:
        return "M08 ends no Zehrend (X55 zehrend_mumm_shake: never)"
    kind = f.zehrend[slot]
    if reading is ZehrendShake.REFUSED_IN_ZONE and in_danger_zone(c, f, kind):
        return f"zehrend ({kind}): its danger zone is still there (X55 refused_in_zone)"
    return None


def prompt_shakes(c: Combat, kind: DecisionKind, fighter: int) -> list[Action]:
    """M08 at a prompt (X38): the native core's answer where it is built and takes the
    game (src/prompts.cpp PromptShakes), else :func:`reference_prompt_shakes`'s."""
    native = prompts_of(c)
    if native is not None:
        return native.shakes(c, kind is DecisionKind.ORDER, fighter)
    return reference_prompt_shakes(c, kind, fighter)


def reference_prompt_shakes(c: Combat, kind: DecisionKind, fighter: int) -> list[Action]:
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
        shakes = [a for a in shakes if a.arg != Condition.BENOMMEN]
    return shakes


def shake_with_mumm(c: Combat, f: FighterState, action: Action) -> Condition | None:
    """M08: pay 2 Mumm and end the condition or Zehrend ``action`` names at once; returns
    the condition shaken off (None for a Zehrend, which no choice depends on)."""
    spend_mumm(c, f, MummSpend.ZUSTAND_ABSCHUETTELN)
    slot = action.zehrend_slot
    if slot is None:
        lose_condition(c, f, action.condition, "Mumm")
        return action.condition
    from cwenv.engine.movement import in_danger_zone

    kind = f.zehrend[slot]
    f.zehrend = f.zehrend[:slot] + f.zehrend[slot + 1 :]
    if not in_danger_zone(c, f, kind):  # X55 reapplied: in the zone the mark stays (D03)
        f.zone_zehrend = tuple(k for k in f.zone_zehrend if k != kind)
    c.emit(ev.ConditionLost(f.idx, f"zehrend ({kind})", "mit Mumm aufgehoben"))
    return None


def reapply_zone_zehrend(c: Combat) -> None:
    """D03, X55 reapplied: a Zehrend shaken off with Mumm inside its danger zone starts
    again at the end of the round if the fighter still stands there (the cause is not
    removed); one who has left it is free of it."""
    from cwenv.engine.damage import gain_zehrend
    from cwenv.engine.movement import in_danger_zone

    for f in c.fighters:
        for kind in f.zone_zehrend:
            if kind in f.zehrend:
                continue
            if not f.dead and in_danger_zone(c, f, kind):
                gain_zehrend(c, f, kind)  # not held: starts it, returns no frame
            else:
                f.zone_zehrend = tuple(k for k in f.zone_zehrend if k != kind)


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
