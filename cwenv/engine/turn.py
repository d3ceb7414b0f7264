"""A fighter's turn: movement and one Handlung (H00–H12, B01, M07, M08, Z02).

:func:`turn_actions` is the legality function for TURN decisions; :class:`TurnFrame` runs
the turn, asking for one TURN decision after another until the fighter ends it. Movement
may come before and after the Handlung and be split freely (H00): each MOVE is one leg.

What one TURN decision computed lives on its :class:`TurnFrame`, not on the combat: the
movement searches its MOVE and SCHWIERIG choices came from (``routes``, ``hard_routes``,
which carry those choices out) and the restricted legal list (``legal``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from cwenv.battlemap.blockade import Threat
from cwenv.battlemap.paths import NO_REACH, Reach, reachable
from cwenv.battlemap.steps import MoveProfile, has_difficult_terrain
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.checks import can_spend_mumm, spend_mumm
from cwenv.engine.climbing import (
    ClimbStep,
    Hold,
    climb_actions,
    climb_step,
    holds,
    lost_holds,
)
from cwenv.engine.conditions import mumm_shakes, shake_with_mumm
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.movement import (
    MoveFrame,
    blocked_for,
    move_profile,
    movement_allowance,
    threat_of,
)
from cwenv.engine.offers import handlung_actions, maneuver_allowed
from cwenv.engine.offers_core import native_turn_actions
from cwenv.engine.payloads import TurnPrompt
from cwenv.engine.tables.handlungen import HANDLUNGEN
from cwenv.model.types import Condition, Maneuver, MummSpend
from cwenv.rules.options import ProneBonusUntil

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat


class TurnStage(IntEnum):
    """Where a :class:`TurnFrame` stands."""

    START = 0  # the turn begins (or is skipped: the fighter is not standing)
    ACTING = 1  # TURN decisions until the fighter ends the turn


_START, _ACTING = TurnStage


class TurnFrame(Frame):
    """One turn of fighter ``fighter`` at initiative step (or pass) ``slot``."""

    __slots__ = (
        "benommen",
        "fighter",
        "grants",
        "handlungen",
        "hard_routes",
        "holds",
        "legal",
        "moved",
        "parity",
        "routes",
        "slot",
        "sprint_bonus",
    )

    def __init__(self, fighter: int, slot: int) -> None:
        super().__init__()
        self.fighter = fighter
        self.slot = slot
        self.handlungen = 1
        self.grants = 1  # movement allowances granted (H00; M07 adds one, X38)
        self.sprint_bonus = 0
        self.moved = 0
        self.parity = 0  # X49: diagonal metres so far this turn, odd (1) or even (0)
        self.benommen = False
        self.routes: Reach = NO_REACH  # the current TURN decision's movement search
        self.hard_routes: Reach = NO_REACH  # … and its difficult-step search (H07)
        self.legal: list[Action] | None = None  # its legal choices, restricted (None: stale)
        self.holds: tuple[Hold, ...] = ()  # climbers at a wall (B03, X40)

    def recovered(self, f: FighterState) -> bool:
        """Z02, M07: the turn's Mumm-Probe (its Handlung) ended Benommen, so the fighter
        may act again 'während deiner Initiativephase' — with an extra action (M07)."""
        return self.benommen and self.handlungen <= 0 and not f.conditions >> Condition.BENOMMEN & 1

    def move_left(self, c: Combat, f: FighterState) -> int:
        if self.benommen:
            return 0  # X40: no movement while benommen
        return max(0, self.grants * movement_allowance(c, f) + self.sprint_bonus - self.moved)

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == _START:
            self.stage = _ACTING
            c.turn_fighter = f.idx
            if c.options.niederwerfen_penalty_until is ProneBonusUntil.OWN_NEXT_TURN:
                f.prone_bonus = False  # R06, X23: 'bis zum Beginn ihrer nächsten Runde'
            if not f.standing:
                return DONE
            c.emit(ev.TurnStarted(f.idx, self.slot, c.options.initiative.value == "passes"))
            c.count("turns")
            self.benommen = bool(f.conditions >> Condition.BENOMMEN & 1)
            self.holds = holds(c)
            value = None
        if value is not None:
            frame = self._do(c, f, value)
            if frame is not None:
                return frame
        while True:
            # X40: whoever let go of a wall since the last look (moved, knocked down) falls.
            self.holds, fall = lost_holds(c, self.holds)
            if fall is not None:
                return fall
            if not f.standing or (not self.benommen and f.conditions >> Condition.BENOMMEN & 1):
                return self._end(c, f)
            actions = c.restrict(f.idx, turn_actions(c, f.idx))
            if len(actions) > 1:
                self.legal = actions  # legal_actions() reuses this list
                return Decision(DecisionKind.TURN, f.idx, None, TurnPrompt(self.slot))
            # A single legal choice is forced (END_TURN, the benommen Mumm-Probe): no decision.
            if c.take_forced():
                return DONE
            frame = self._do(c, f, actions[0])
            if frame is not None:
                return frame

    def _end(self, c: Combat, f: FighterState) -> Return:
        c.emit(ev.TurnEnded(f.idx))
        c.turn_fighter = -1
        return DONE

    def _do(self, c: Combat, f: FighterState, action: Action) -> Frame | Return | None:
        kind = action.kind
        c.count(f"action:{kind.name}")
        if kind is ActionKind.END_TURN:
            return self._end(c, f)
        if kind is ActionKind.MOVE:
            route = self.routes.route(action.cell)
            self.moved += route.metres
            self.parity = route.parity
            how = "sprintet" if self.sprint_bonus else "geht"
            return MoveFrame(f.idx, route.cells, how, spent=route.spent)
        if kind is ActionKind.MUMM_EXTRA_ACTION:  # M07
            spend_mumm(c, f, MummSpend.ZUSAETZLICHE_AKTION)
            f.extra_action_used = True
            self.handlungen += 1
            if self.benommen:  # after the Mumm-Probe: the forfeited movement stays lost (X40)
                self.benommen = False
                self.grants = 0
            if c.options.mumm_extra_action_moves:
                self.grants += 1
            return None
        if kind is ActionKind.MUMM_SHAKE:  # M08
            cond = shake_with_mumm(c, f, action)  # a condition, or None for a Zehrend
            if cond is Condition.BENOMMEN and self.benommen:
                self.benommen = False
            return None
        rule = HANDLUNGEN.get(kind)
        if rule is None:
            raise AssertionError(f"unhandled turn action {action!r}")  # pragma: no cover
        self.handlungen -= 1  # H00: one Handlung; its entry in HANDLUNGEN carries it out
        if kind is ActionKind.SCHWIERIG and action.cell in self.hard_routes:
            self.parity = self.hard_routes.route(action.cell).parity  # X49
        return rule.begin(c, f, action, self)


def turn_of(c: Combat, fighter: int) -> TurnFrame:
    for frame in reversed(c._stack):
        if isinstance(frame, TurnFrame) and frame.fighter == fighter:
            return frame
    raise AssertionError("no turn in progress")  # pragma: no cover


def planned_climb(c: Combat, fighter: int, ledge: int) -> ClimbStep | None:
    """What SCHWIERIG to ``ledge`` would climb now, if it is a partial climb (B03, X40)."""
    f = c.fighters[fighter]
    turn = turn_of(c, fighter)
    return climb_step(c, f, ledge, turn.move_left(c, f), turn.hard_routes)


def turn_actions(c: Combat, fighter: int) -> list[Action]:
    """Every legal TURN choice of ``fighter`` (H00–H12, B01–B06, M07, M08, Z02); the
    movement searches they come from are kept on the turn's frame. The native core answers
    where it is built and takes the game (src/turn.cpp), the same list in the same order
    and the same searches (tests/test_native_legality.py); else the reference below."""
    f = c.fighters[fighter]
    turn = turn_of(c, fighter)
    acts = native_turn_actions(c, f, turn)
    if acts is not None:
        return acts
    return reference_turn_actions(c, fighter)


def reference_turn_actions(c: Combat, fighter: int) -> list[Action]:
    """turn_actions in Python: the readable statement of TURN legality."""
    f = c.fighters[fighter]
    turn = turn_of(c, fighter)
    acts: list[Action] = []
    turn.routes = NO_REACH
    turn.hard_routes = NO_REACH
    acts.extend(mumm_shakes(c, f))
    if turn.benommen:
        if turn.handlungen > 0:
            acts.append(Action(ActionKind.MUMM_PROBE, fighter))  # Z02: must
            return acts
        if turn.recovered(f) and _extra_action_open(c, f):
            acts.append(Action(ActionKind.MUMM_EXTRA_ACTION, fighter))  # M07 after Z02
        acts.append(Action(ActionKind.END_TURN, fighter))
        return acts
    move_left = turn.move_left(c, f)
    if move_left > 0:
        search = move_search(c, f)
        turn.routes = search.reach(move_left)
        acts.extend(move_actions(fighter, turn.routes.dests))
        if turn.handlungen > 0 and has_difficult_terrain(c.bm, c.options.hurdles):
            hard = turn.hard_routes = search.reach(move_left, difficult=True)
            acts.extend(schwierig_actions(fighter, hard.dests))
            acts.extend(climb_actions(c, f, move_left, set(hard.dests), hard))
    committed = False
    if turn.handlungen > 0:
        handlungen = handlung_actions(c, f)
        acts.extend(handlungen)
        # X40 alternative: whoever moved must take the Handlung the movement belongs to.
        committed = (
            bool(handlungen) and turn.moved > 0 and not c.options.move_with_forfeited_handlung
        )
    elif _extra_action_open(c, f):
        acts.append(Action(ActionKind.MUMM_EXTRA_ACTION, fighter))
    if not committed:
        acts.append(Action(ActionKind.END_TURN, fighter))
    return acts


def _extra_action_open(c: Combat, f: FighterState) -> bool:
    """M07: once per round, for 2 Mumm (M11, X10, X11)."""
    return not f.extra_action_used and can_spend_mumm(c, f, MummSpend.ZUSAETZLICHE_AKTION.cost)


class MoveSearch(NamedTuple):
    """What a fighter's movement search starts from (B01, R04): the turn's legality and
    ``why_illegal`` search alike, so a refused move is explained by the same search."""

    c: Combat
    f: FighterState
    blocked: bytearray
    occupied: frozenset[int]
    passable: frozenset[int]
    threat: Threat
    profile: MoveProfile
    parity: int = 0  # X49: the turn's diagonal metres so far, odd or even

    def reach(self, budget: int, *, difficult: bool = False) -> Reach:
        """Cells reachable within ``budget`` metres (with one kind of difficult step)."""
        return reachable(
            self.c.bm,
            self.blocked,
            self.f.pos,
            budget,
            self.profile,
            occupied=self.occupied,
            passable_occupied=self.passable,
            threat=self.threat,
            difficult=difficult,
            parity=self.parity,
        )


def move_search(c: Combat, f: FighterState) -> MoveSearch:
    """The inputs of ``f``'s movement search now."""
    passable = frozenset(g.pos for g in c.fighters if g.on_map and (g.side is f.side or g.down))
    return MoveSearch(
        c,
        f,
        blocked_for(c, f),
        frozenset(c.occupant),
        passable,
        threat_of(c, f),
        move_profile(c, f),
        next((t.parity for t in _turns(c) if t.fighter == f.idx), 0),
    )


def _turns(c: Combat) -> list[TurnFrame]:
    """The turns in progress, innermost first."""
    return [frame for frame in reversed(c._stack) if isinstance(frame, TurnFrame)]


_MOVES: dict[int, dict[int, Action]] = {}


def move_actions(fighter: int, cells: list[int]) -> list[Action]:
    """MOVE actions to ``cells``. They are immutable values; sharing them (one table per
    fighter index) spares building hundreds per turn."""
    row = _MOVES.get(fighter)
    if row is None:
        row = _MOVES[fighter] = {}
    out = []
    for cell in cells:
        action = row.get(cell)
        if action is None:
            action = row[cell] = Action(ActionKind.MOVE, fighter, cell=cell)
        out.append(action)
    return out


def schwierig_actions(fighter: int, cells: list[int]) -> list[Action]:
    """SCHWIERIG actions to ``cells`` (H07)."""
    return [Action(ActionKind.SCHWIERIG, fighter, cell=cell) for cell in cells]


def _maneuver_allowed(f: FighterState, t: FighterState, m: Maneuver) -> bool:
    """K01–K05 size limits (kept for callers of the old name; see :mod:`offers`)."""
    return maneuver_allowed(f, t, m)
