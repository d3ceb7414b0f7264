"""The legality of the prompts: the choices of every decision but TURN (M01–M03, M05, M09,
P03, R04, R05, R06, A02, A03, X14, X21, X22, X38, X53).

A prompt carries its choices ready-made (``Decision.actions``); the frame that asks builds
them with the functions here, and ``Combat.legal_actions`` puts the M08 shakes of
:func:`~cwenv.engine.conditions.prompt_shakes` before them. Each function asks the native
core where it is built and takes the game (``cwenv/engine/prompts_core.py``,
src/prompts.cpp, docs/native.md "The prompts") and is otherwise its ``reference_`` twin, the
statement of the rule: the same list in the same order (tests/test_native_prompts.py).
``CWENV_ENGINE=python`` keeps the references.

Ported are the kinds in :data:`PORTED`; the kinds in :data:`UNPORTED` build their choices
in their frames in Python under either engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.conditions import (
    can_use_reaction,
    reaction_choices,
    reference_prompt_shakes,
    shake_to_react,
)
from cwenv.engine.parts import PartKind
from cwenv.engine.payloads import BlockadePrompt
from cwenv.engine.prompts_core import prompts_of
from cwenv.invariants import present
from cwenv.model.types import AttackMode, WeaponKind

if TYPE_CHECKING:
    from cwenv.engine.checks import CheckFrame
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

_K = DecisionKind
PORTED = frozenset(
    {_K.PRE_CHECK, _K.POST_CHECK, _K.KEEP, _K.NIEDERWERFEN, _K.DEFEND, _K.BLOCKADE, _K.STURZ}
)
"""Decision kinds whose choices the core lists (with the M08 shakes at them)."""
UNPORTED = frozenset({_K.ORDER, _K.DAMAGE, _K.DEATH, _K.DRAG})
"""Decision kinds whose choices stay Python's under the native engine too, the M08 shakes
at them the core's: ORDER (roundflow.py: the tied fighters, no rule to check), DAMAGE and
DEATH (damage.py: two fixed choices once the Mumm is affordable, M04, M06) and DRAG
(effects.py: the movement search's destinations, native already)."""

PRE_SPENDS = (ActionKind.PRE_ACTIONBONUS, ActionKind.PRE_IMPROVE, ActionKind.PRE_GROSSER_WURF)
POST_SPENDS = (ActionKind.POST_AVERT, ActionKind.POST_REROLL)


# -- a check's Mumm prompts (CheckFrame) -------------------------------------------------------
def check_spends(c: Combat, frame: CheckFrame, f: FighterState, after: bool) -> tuple[Action, ...]:
    """PRE_CHECK (P03, M02, M09, X14, X38) or, ``after`` the roll, POST_CHECK (M01, M03,
    X53): the spends open, then the declining choice (no spend, or accepting the roll);
    empty when there is nothing to decide."""
    native = prompts_of(c)
    if native is not None:
        return native.post_check(c, frame) if after else native.pre_check(c, frame)
    return reference_check_spends(c, frame, f, after)


def reference_check_spends(
    c: Combat, frame: CheckFrame, f: FighterState, after: bool
) -> tuple[Action, ...]:
    problem = frame.post_problem if after else frame.pre_problem
    acts = [
        Action(k, f.idx) for k in (POST_SPENDS if after else PRE_SPENDS) if problem(c, f, k) is None
    ]
    if acts or (not after and malus_to_shake(c, frame, f)):
        acts.append(Action(ActionKind.POST_ACCEPT if after else ActionKind.PRE_NONE, f.idx))
    return tuple(acts)


def malus_to_shake(c: Combat, frame: CheckFrame, f: FighterState) -> bool:
    """M08 before the roll (X38): a condition whose malus is part of this check could be
    shaken off now, so the check is a decision even without M02/M09."""
    # by arg: a condition's value (a Zehrend's, from ZEHREND_ARG on, is no malus here)
    shakes = {a.arg for a in reference_prompt_shakes(c, DecisionKind.PRE_CHECK, f.idx)}
    return any(
        source.kind is PartKind.CONDITION and source.ref in shakes
        for source, _ in frame.parts[1 : frame.own]
    )


def keep_choices(c: Combat, frame: CheckFrame) -> tuple[Action, ...]:
    """KEEP (M03): 'Du entscheidest anschliessend, welches der beiden Ergebnisse gilt'."""
    native = prompts_of(c)
    if native is not None:
        return native.keep(frame)
    return reference_keep_choices(c, frame)


def reference_keep_choices(c: Combat, frame: CheckFrame) -> tuple[Action, ...]:
    keep = tuple(Action(k, frame.fighter) for k in (ActionKind.KEEP_SECOND, ActionKind.KEEP_FIRST))
    if present(frame.result, "the reroll").patzer and not c.options.mumm_keep_first_on_patzer:
        keep = keep[:1]  # X38: a rerolled Patzer stands (M01 may still avert it)
    return keep


# -- a target's reactions to an attack (AttackFrame) -------------------------------------------
def niederwerfen_choices(c: Combat, t: FighterState, a: FighterState) -> tuple[Action, ...]:
    """NIEDERWERFEN (R06, X23, M05): when targeted, before the attack roll, dropping prone
    (paid as reaction_choices says) or not; empty when the target is not asked."""
    native = prompts_of(c)
    if native is not None:
        return native.niederwerfen(c, t.idx, a.idx)
    return reference_niederwerfen_choices(c, t, a)


def reference_niederwerfen_choices(
    c: Combat, t: FighterState, a: FighterState
) -> tuple[Action, ...]:
    pay = reaction_choices(c, t)
    if not pay and not shake_to_react(c, t):
        return ()
    drop = [Action(ActionKind.DROP_PRONE, t.idx, a.idx, mumm=pay[0])] if pay else []
    return (*drop, Action(ActionKind.STAY_UP, t.idx, a.idx))


def defence_choices(
    c: Combat, t: FighterState, a: FighterState, mode: AttackMode, index: int
) -> tuple[Action, ...]:
    """DEFEND (A02, R02, R03, A03, M05, X21, X22): the target's defence values, paid as
    reaction_choices says (X22: free against a Kampfmanöver), then not defending; empty
    when the target is not asked."""
    native = prompts_of(c)
    if native is not None:
        return native.defence(c, t.idx, a.idx, int(mode), index)
    return reference_defence_choices(c, t, a, mode, index)


def reference_defence_choices(
    c: Combat, t: FighterState, a: FighterState, mode: AttackMode, index: int
) -> tuple[Action, ...]:
    from cwenv.engine.attack_plan import defence_values  # it imports the frames, they this

    pay = reaction_choices(c, t)
    if mode is AttackMode.MANEUVER and c.options.maneuver_reaction_cost == 0:
        pay = (0,) if can_use_reaction(c, t) else ()  # X22: a free defence, if able
    if not pay and not shake_to_react(c, t):
        return ()
    choices = [
        Action(ActionKind.DEFEND, t.idx, a.idx, arg=int(v), mumm=pay[0])
        for v in (defence_values(c, mode, a, index) if pay else ())
    ]
    choices.append(Action(ActionKind.NO_DEFENCE, t.idx, a.idx))
    return tuple(choices)


# -- reactions to movement (MoveFrame, FallFrame) -----------------------------------------------
def blockade_attack_choices(
    c: Combat, mover: FighterState, g: FighterState, a: int, b: int
) -> tuple[Action, ...]:
    """BLOCKADE (R04, M05, M08, X38): ``g``'s Blockadeangriffe on ``mover`` stepping a→b
    with each usable melee weapon in reach, then letting it pass; a benommen ``g`` who
    could shake it off is asked with none yet; empty when ``g`` is not asked."""
    native = prompts_of(c)
    if native is not None:
        return native.blockade(c, g.idx, mover.idx, a, b)
    return reference_blockade_attack_choices(c, mover, g, a, b)


def reference_blockade_attack_choices(
    c: Combat, mover: FighterState, g: FighterState, a: int, b: int
) -> tuple[Action, ...]:
    pay = reaction_choices(c, g)
    if not pay and not shake_to_react(c, g):
        return ()
    near = min(c.bm.distance(g.pos, a), c.bm.distance(g.pos, b))
    weapons = [
        wi
        for wi, w in enumerate(g.weapons)
        if w.kind is WeaponKind.MELEE and g.weapon_usable(wi) and near <= w.reach
    ]
    if not weapons:
        return ()
    choices = [
        Action(ActionKind.BLOCKADE_ATTACK, g.idx, mover.idx, -1, wi, pay[0])
        for wi in (weapons if pay else ())
    ]
    choices.append(Action(ActionKind.LET_PASS, g.idx, mover.idx))
    return tuple(choices)


def catch_fall_choices(c: Combat, f: FighterState) -> tuple[Action, ...]:
    """STURZ (R05, B06, M05): catching the fall with a reaction (or M05), or not; a
    benommen faller who could shake it off first (M08, X38) is asked with the shake only;
    empty when the faller is not asked."""
    native = prompts_of(c)
    if native is not None:
        return native.catch_fall(c, f.idx)
    return reference_catch_fall_choices(c, f)


def reference_catch_fall_choices(c: Combat, f: FighterState) -> tuple[Action, ...]:
    pay = reaction_choices(c, f)
    if not pay and not shake_to_react(c, f):
        return ()
    catch = [Action(ActionKind.CATCH_FALL, f.idx, mumm=pay[0])] if pay else []
    return (*catch, Action(ActionKind.NO_CATCH, f.idx))


class PromptKindError(ValueError):
    """A decision :func:`asked_choices` cannot work out again: not a ported prompt kind,
    or asked by a frame that does not ask it."""


def asked_choices(c: Combat, reference: bool = False) -> tuple[Action, ...]:
    """The pending ported prompt's choices worked out again now from the frame that asked
    (the top of the stack): by the functions above, or (``reference``) by their reference
    twins (tests/test_native_prompts.py, benchmarks/native.py)."""
    from cwenv.engine.attack import AttackFrame
    from cwenv.engine.checks import CheckFrame

    d = present(c.decision, "a pending decision")
    top = c._stack[-1]
    f = c.fighters[d.fighter]
    if d.kind not in PORTED:
        raise PromptKindError(f"{d.kind.name} prompts are not ported (prompts.UNPORTED)")
    if isinstance(top, CheckFrame):
        if d.kind is not _K.KEEP:
            spends = reference_check_spends if reference else check_spends
            return spends(c, top, f, d.kind is _K.POST_CHECK)
        return (reference_keep_choices if reference else keep_choices)(c, top)
    if d.kind is _K.STURZ:
        return (reference_catch_fall_choices if reference else catch_fall_choices)(c, f)
    if isinstance(d.payload, BlockadePrompt):
        step = d.payload
        blockade = reference_blockade_attack_choices if reference else blockade_attack_choices
        return blockade(c, c.fighters[step.mover], f, step.start, step.end)
    if not isinstance(top, AttackFrame):
        raise PromptKindError(f"a {d.kind.name} prompt asked by {type(top).__name__}")
    attacker = c.fighters[top.attacker]
    if d.kind is _K.NIEDERWERFEN:
        drop = reference_niederwerfen_choices if reference else niederwerfen_choices
        return drop(c, f, attacker)
    defend = reference_defence_choices if reference else defence_choices
    return defend(c, f, attacker, top.mode, top.index)
