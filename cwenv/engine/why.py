"""Why an action is not legal now: :meth:`Combat.why_illegal` and the error's message.

The answer is derived from the one legality function, never from a second copy of the
rules: the action is first looked up in ``legal_actions()``; when it is missing, the
reason is the first check of that function that excludes it — the same problem functions
the legality function is built from (:mod:`cwenv.engine.offers`, the turn's movement
search, ``reaction_problem``, ``mumm_problem``, the check's ``pre_problem`` and
``post_problem``, restricted play's tags). Reasons are English, like the error messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.engine import offers as o
from cwenv.engine.actions import (
    ARG_OF,
    DECISIONS_OF,
    HANDLUNG_KINDS,
    ZEHREND_ARG,
    Action,
    ActionKind,
    ArgKind,
    Decision,
    DecisionKind,
)
from cwenv.engine.checks import CheckFrame, mumm_problem
from cwenv.engine.conditions import (
    SHAKE_COST,
    prompt_shakes,
    reaction_problem,
    zehrend_shake_problem,
)
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.engine.tables.mumm import SPEND_OF_KIND
from cwenv.model.types import Condition, Maneuver

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat
    from cwenv.engine.turn import TurnFrame

K = ActionKind
_CELL_KINDS = frozenset({K.MOVE, K.SCHWIERIG, K.DOOR, K.DRAG_TO})
_TARGET_KINDS = frozenset({K.ATTACK, K.MANEUVER, K.ZIELEN, K.HACK, K.STABILISE, K.HELFEN})
_REACTION_KINDS = frozenset({K.DEFEND, K.DROP_PRONE, K.BLOCKADE_ATTACK, K.CATCH_FALL})
_WEAPON_KINDS = frozenset({K.DRAW, K.PICK_UP, K.RELOAD, K.FREE_WEAPON})
_FREE_TURN = frozenset({K.END_TURN, K.MUMM_SHAKE, K.MUMM_PROBE})


def why_illegal(c: Combat, action: object) -> str | None:
    """None when ``action`` is legal now, else why not (one short English sentence)."""
    if c.outcome is not None:
        return "the combat is over"
    d = c.decision
    if d is None:
        return "no decision is pending"
    if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
        return f"{action!r} is not an Action of a known ActionKind"
    if c.is_legal(action):
        return None
    kind = action.kind
    if d.kind not in DECISIONS_OF[kind]:
        answers = "/".join(sorted(x.name for x in DECISIONS_OF[kind]))
        return (
            f"a {kind.name} answers a {answers} decision, but the pending decision is "
            f"{d.kind.name} ({d.kind.label})"
        )
    if not 0 <= action.actor < len(c.fighters):
        return f"there is no fighter {action.actor}"
    if action.actor != d.fighter:
        return (
            f"it is not {c.fighters[action.actor].name}'s decision: "
            f"{c.fighters[d.fighter].name} decides now ({d.kind.name})"
        )
    f = c.fighters[d.fighter]
    turn = d.kind is DecisionKind.TURN
    reason = (
        _field_problem(c, action)
        or _restricted(c, d, action)
        or (_turn_problem(c, f, action) if turn else None)  # the turn's structure first
        or _price_problem(c, f, action)
        or (_prompt_problem(c, f, d, action) if not turn else None)
    )
    if reason is not None:
        return reason
    return f"not among the {len(c.legal_actions())} legal choices of this {d.kind.name} decision"


_T, _C, _I, _M = "target", "cell", "arg", "mumm"
_FIELDS: dict[ActionKind, frozenset[str]] = {
    **{k: frozenset({_C}) for k in (K.MOVE, K.SCHWIERIG, K.DOOR)},
    **{k: frozenset({_T, _I}) for k in (K.ATTACK, K.MANEUVER, K.HACK)},
    **{k: frozenset({_T}) for k in (K.ZIELEN, K.STABILISE, K.HELFEN, K.CHOOSE_ACTOR)},
    **{k: frozenset({_T}) for k in (K.NO_DEFENCE, K.STAY_UP, K.LET_PASS, K.DRAG_STOP)},
    **{k: frozenset({_I}) for k in (K.UPLOAD, K.DRAW, K.PICK_UP, K.USE_ITEM, K.RELOAD)},
    **{k: frozenset({_I}) for k in (K.RUCKSACK, K.CYBERWARE, K.SHAKE, K.FREE_WEAPON)},
    K.MUMM_SHAKE: frozenset({_I}),
    K.DEFEND: frozenset({_T, _I, _M}),
    K.BLOCKADE_ATTACK: frozenset({_T, _I, _M}),
    K.DROP_PRONE: frozenset({_T, _M}),
    K.CATCH_FALL: frozenset({_M}),
    K.DRAG_TO: frozenset({_T, _C}),
}
"""The fields each kind of action uses; the others are −1 (``mumm`` 0), see Action."""
_ARG_MISMATCH = [k.name for k in K if (_I in _FIELDS.get(k, ())) != (ARG_OF[k] is not ArgKind.NONE)]
if _ARG_MISMATCH:  # the arg a kind uses is the one ARG_OF names a meaning for
    raise ImportError(f"why.py and actions.ARG_OF disagree about arg: {_ARG_MISMATCH}")


def _field_problem(c: Combat, a: Action) -> str | None:
    """A field the kind does not use, or a cell, target or index naming nothing here."""
    used = _FIELDS.get(a.kind, frozenset())
    for name in (_T, _C, _I, _M):
        unset = 0 if name == _M else -1
        if name not in used and getattr(a, name) != unset:
            return f"a {a.kind.name} takes no {name}: it must be {unset}"
    if _M in used and a.mumm not in (0, 1):
        return "mumm is 0 (pay with a reaction) or 1 (with Mumm, M05)"
    if a.kind in _CELL_KINDS and not 0 <= a.cell < c.bm.size:
        return f"cell {a.cell} is not a known cell of the {c.bm.width}×{c.bm.height} map"
    if a.kind in _TARGET_KINDS and not 0 <= a.target < len(c.fighters):
        return f"there is no fighter {a.target} to target"
    f = c.fighters[a.actor]
    if a.kind is K.MANEUVER and a.arg not in set(Maneuver):
        return f"there is no Kampfmanöver {a.arg}"
    if a.kind in (K.SHAKE, K.MUMM_SHAKE) and a.arg not in set(Condition):
        if a.kind is K.MUMM_SHAKE and a.arg >= ZEHREND_ARG:  # M08 on a Zehrend (X55)
            return zehrend_shake_problem(c, f, a.arg - ZEHREND_ARG)
        return f"there is no condition {a.arg}"
    if a.kind in (K.UPLOAD, K.HACK) and not 0 <= a.arg < len(f.spec.hacks):
        return f"{f.name} has no hack {a.arg}"
    if a.kind is K.ATTACK and not 0 <= a.arg < len(f.weapons):
        return f"{f.name} has no weapon {a.arg}"
    if a.kind in _WEAPON_KINDS and not 0 <= a.arg < len(f.spec.weapons):
        return f"{f.name} carries no weapon {a.arg}"
    if a.kind is K.USE_ITEM and not 0 <= a.arg < len(f.items):
        return f"{f.name} has no item {a.arg} in hand"
    if a.kind is K.RUCKSACK and not 0 <= a.arg < len(f.backpack):
        return f"{f.name} has no item {a.arg} in the backpack"
    if a.kind is K.CYBERWARE and not 0 <= a.arg < len(f.spec.cyberware):
        return f"{f.name} has no cyberware {a.arg}"
    return None


def _unrestricted(c: Combat, d: Decision) -> list[Action]:
    """The legal choices before restricted play removes any (the same legality function)."""
    if d.kind is DecisionKind.TURN:
        from cwenv.engine.turn import turn_actions, turn_of

        turn = turn_of(c, d.fighter)
        routes, hard = turn.routes, turn.hard_routes  # turn_actions rebuilds the searches
        try:
            return turn_actions(c, d.fighter)
        finally:
            turn.routes, turn.hard_routes = routes, hard
    return [*prompt_shakes(c, d.kind, d.fighter), *(d.actions or ())]


def _restricted(c: Combat, d: Decision, a: Action) -> str | None:
    banned = c.forbidden.get(c.fighters[d.fighter].side)
    if not banned or a not in _unrestricted(c, d):
        return None
    from cwenv.engine.tactics import TACTICS, tactic_tags

    tags = [t for t in tactic_tags(c.bm, a) if t in banned]
    if not tags:  # every choice was banned: restricted play keeps only the declining one
        return "restricted play leaves this decision only its last choice"
    side = c.fighters[d.fighter].side.label
    return "restricted play forbids " + side + " " + ", ".join(f"{t} ({TACTICS[t]})" for t in tags)


def _price_problem(c: Combat, f: FighterState, a: Action) -> str | None:
    """A Mumm spend the fighter cannot pay (M01–M09, M11)."""
    spend = SPEND_OF_KIND.get(a.kind)
    if spend is None:
        return None
    problem = mumm_problem(c, f, spend.cost)
    if problem is None:
        return None
    detail = f": it costs {spend.cost}, {f.name} has {f.mumm}" if f.mumm < spend.cost else ""
    return f"{spend.label} ({spend.name}) is not affordable: {problem}{detail}"


# -- the turn --------------------------------------------------------------------------------
def _turn_problem(c: Combat, f: FighterState, a: Action) -> str | None:
    from cwenv.engine.turn import turn_of

    turn = turn_of(c, f.idx)
    kind = a.kind
    recovered = kind is K.MUMM_EXTRA_ACTION and turn.recovered(f)  # M07 after Z02's probe
    if turn.benommen and kind not in _FREE_TURN and not recovered:
        return "benommen: the turn's Handlung is the Mumm-Probe, and there is no movement (Z02)"
    if kind is K.END_TURN and turn.benommen:
        return "benommen: the Mumm-Probe comes first, it is the turn's Handlung (Z02)"
    if kind is K.MUMM_PROBE and not turn.benommen:
        return "only a fighter benommen at the start of its turn rolls the Mumm-Probe (Z02)"
    if kind in HANDLUNG_KINDS and turn.handlungen <= 0:
        return "the turn's Handlung is used (H00)"
    if kind is K.MUMM_EXTRA_ACTION:
        if turn.handlungen > 0:
            return "the Handlung is not used yet: M07 adds one after it"
        if f.extra_action_used:
            return "M07 once per round: used already"
    if kind is K.END_TURN:
        return "moved this turn: the Handlung the movement belongs to must follow (X40)"
    if kind is K.MUMM_SHAKE:
        return _mumm_shake_problem(f, a)
    if kind in (K.MOVE, K.SCHWIERIG):
        return _move_problem(c, f, a, turn)
    return _handlung_problem(c, f, a)


def _mumm_shake_problem(f: FighterState, a: Action) -> str | None:
    from cwenv.engine.tables.conditions import CONDITIONS

    if a.zehrend_slot is not None:
        return None  # held and allowed: _field_problem asked zehrend_shake_problem (X55)
    cond = a.condition
    if not f.conditions >> cond & 1:
        return f"{f.name} is not {cond.label}"
    if not CONDITIONS[cond].mumm_shake:
        return f"M08 cannot end {cond.label}; it ends by {CONDITIONS[cond].ends_by}"
    return None


def _move_problem(c: Combat, f: FighterState, a: Action, turn: TurnFrame) -> str | None:
    """B01, H07: where the fighter's movement search cannot take it."""
    from cwenv.battlemap.steps import has_difficult_terrain
    from cwenv.engine.turn import move_search

    left = turn.move_left(c, f)
    if left <= 0:
        return "no movement left this turn (B01)"
    difficult = a.kind is K.SCHWIERIG
    if difficult and not has_difficult_terrain(c.bm):
        return "the map has no difficult terrain for a Schwierige Bewegung (H07)"
    search = move_search(c, f)
    far = search.reach(4 * c.bm.size + left, difficult=difficult)
    x, y = c.bm.cell(a.cell)
    if a.cell in far.dest_set:
        metres = far.route(a.cell).metres
        return f"not enough metres: ({x}, {y}) is {metres} m away, {left} m are left"
    if not difficult and a.cell in search.reach(4 * c.bm.size, difficult=True).dest_set:
        return f"({x}, {y}) is reached only by a Schwierige Bewegung (H07)"
    return f"({x}, {y}) cannot be reached: walls, occupied cells or standing enemies bar it"


def _handlung_problem(c: Combat, f: FighterState, a: Action) -> str | None:
    """H01–H12, K01–K05: the offers' problem functions for this Handlung."""
    kind = a.kind
    if kind in _TARGET_KINDS:
        t = c.fighters[a.target]
        problem = _target_problem(c, f, t, a)
        return None if problem is None else f"{kind.label} on {t.name}: {problem}"
    if kind is K.UPLOAD and f.upload_progress[a.arg] >= f.spec.hacks[a.arg].upload:
        return "the hack is uploaded already (H03)"
    if kind is K.SPRINT:
        if f.prone:
            return "niedergeworfen: stand up first (H02)"
        return "no movement to sprint with (H08)"
    if kind is K.AUFSTEHEN:
        return f"{f.name} is not niedergeworfen (H02)"
    if kind is K.DOOR:
        return o.door_problem(c, f, a.cell)
    if kind is K.DRAW:
        if f.dropped >> a.arg & 1:
            return "the weapon was dropped: pick it up (H04)"
        return "the weapon is drawn already"
    if kind is K.PICK_UP:
        return "the weapon was not dropped"
    if kind is K.USE_ITEM:
        item = f.items[a.arg]
        return o.item_problem(f, item.kind, item.condition)
    if kind is K.RELOAD:
        return o.reload_problem(f, a.arg)
    if kind is K.CYBERWARE:
        return o.cyberware_problem(f, a.arg)
    if kind is K.SHAKE:
        return o.shake_problem(c, f, a.condition)
    if kind is K.FREE_WEAPON:
        return "the weapon is not jammed"
    return None


def _target_problem(c: Combat, f: FighterState, t: FighterState, a: Action) -> str | None:
    kind = a.kind
    if kind is K.STABILISE:
        return o.stabilise_problem(c, f, t)
    if kind is K.HELFEN:
        return o.helfen_problem(c, f, t)
    if kind is K.ZIELEN and (problem := o.zielen_weapon_problem(f)) is not None:
        return problem
    problem = o.target_problem(c, f, t)
    if problem is not None:
        return problem
    memo: o.Memo = {}
    if kind is K.ATTACK:
        problem = o.weapon_problem(f, a.arg) or o.attack_problem(c, f, t, a.arg, memo)
        w = f.weapons[a.arg]
        return _with_distance(c, f, t, problem, f"{w.name} reaches {w.max_range} m")
    if kind is K.MANEUVER:
        rule = MANEUVERS[a.maneuver]
        problem = o.grapple_problem(c, f, t) or rule.limit(f, t)
        return None if problem is None else f"{rule.label} ({rule.rule}): {problem}"
    if kind is K.ZIELEN:
        problem = o.zielen_problem(c, f, t, memo)
        w = f.weapons[f.drawn]
        return _with_distance(c, f, t, problem, f"{w.name} reaches {w.max_range} m")
    hack = f.spec.hacks[a.arg]  # HACK
    if f.upload_progress[a.arg] < hack.upload:
        return f"{hack.name} is not uploaded: {f.upload_progress[a.arg]}/{hack.upload} (H03)"
    problem = o.hack_problem(c, f, t, a.arg, memo)
    return _with_distance(c, f, t, problem, f"{hack.name} reaches {hack.range_m} m")


def _with_distance(
    c: Combat, f: FighterState, t: FighterState, problem: str | None, reach: str
) -> str | None:
    if problem == o.OUT_OF_RANGE:
        return f"{problem}: {c.bm.distance(f.pos, t.pos)} m away, {reach}"
    return problem


# -- prompts ---------------------------------------------------------------------------------
def _prompt_problem(c: Combat, f: FighterState, d: Decision, a: Action) -> str | None:
    kind = a.kind
    if kind is K.MUMM_SHAKE:
        return _prompt_shake_problem(c, f, d, a)
    frame = c._stack[-1] if c._stack else None
    if isinstance(frame, CheckFrame) and d.kind is DecisionKind.PRE_CHECK:
        problem = frame.pre_problem(c, f, kind)
        if problem is not None:
            return problem
    if isinstance(frame, CheckFrame) and d.kind is DecisionKind.POST_CHECK:
        problem = frame.post_problem(c, f, kind)
        if problem is not None:
            return problem
    same = [x for x in d.actions or () if x.kind is kind]
    if kind in _REACTION_KINDS and not any(x.mumm == a.mumm for x in same):
        problem = reaction_problem(c, f, a.mumm)
        if problem is not None:
            how = "with Mumm (M05)" if a.mumm else "with one of the round's reactions"
            return f"cannot pay the reaction {how}: {problem}"
    if not same:
        return f"{kind.label} is not offered at this {d.kind.label} decision"
    if kind is K.DEFEND and all(x.arg != a.arg for x in same):
        offered = ", ".join(x.skill.label for x in same)
        return f"this attack is not defended with that value; it is met with {offered} (A03)"
    if all(x.arg != a.arg for x in same):
        offered = ", ".join(str(x.arg) for x in same)
        return f"{ARG_OF[kind].value} {a.arg} is not offered at this decision (offered: {offered})"
    if all(x.target != a.target for x in same):
        return f"this decision is about {c.fighters[same[0].target].name}"
    if kind is K.DRAG_TO:
        return "the cell is beyond the drag's reach (half Bewegung, K03)"
    if kind is K.CHOOSE_ACTOR:
        tied = ", ".join(c.fighters[x.target].name for x in same)
        return f"only a tied fighter acts now: {tied} (I04, I13)"
    return None


def _prompt_shake_problem(c: Combat, f: FighterState, d: Decision, a: Action) -> str:
    from cwenv.rules.options import ShakeTiming

    if d.kind is DecisionKind.ORDER:
        return "M08 is not spent at the side's ORDER decision"
    if c.options.mumm_shake_timing is not ShakeTiming.ANY_DECISION:
        return "M08 only in the own turn (X38 mumm_shake_timing)"
    if f.down:
        return f"{f.name} is down: only M04 is left"
    problem = _mumm_shake_problem(f, a) or mumm_problem(c, f, SHAKE_COST)
    if problem is not None:
        return problem
    return "benommen in its own turn: its Handlung is the Mumm-Probe anyway (Z02)"
