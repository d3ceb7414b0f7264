"""A fighter's turn: movement and one Handlung (H00–H12, B01, M07, M08, Z02).

:func:`turn_actions` is the legality function for TURN decisions; :class:`TurnFrame` runs
the turn, asking for one TURN decision after another until the fighter ends it. Movement
may come before and after the Handlung and be split freely (H00): each MOVE is one leg.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwenv.battlemap.grid import Terrain
from cwenv.battlemap.los import has_line_of_sight
from cwenv.battlemap.paths import NO_REACH, has_difficult_terrain, reachable
from cwenv.engine import events as ev
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, Decision, DecisionKind
from cwenv.engine.checks import can_spend_mumm, spend_mumm
from cwenv.engine.climbing import (
    ClimbFrame,
    ClimbStep,
    climb_actions,
    climb_step,
)
from cwenv.engine.conditions import mumm_shakes, shake_with_mumm
from cwenv.engine.cover import cover_against
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.handlungen import run_handlung
from cwenv.engine.movement import (
    MoveFrame,
    blocked_for,
    move_profile,
    movement_allowance,
    threat_masks,
)
from cwenv.model.specs import ItemKind
from cwenv.model.types import Condition, Maneuver, MummSpend, Side, WeaponKind
from cwenv.rules.options import ProneBonusUntil

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

SHAKEABLE = (
    Condition.ANGESCHLAGEN,
    Condition.EINGESCHRAENKT,
    Condition.ENTMUTIGT,
    Condition.VERWIRRT,
)
"""H12: conditions an action and a check can end (Niedergeworfen ends by Aufstehen)."""

HELP_RANGE_M = 2


class TurnFrame(Frame):
    """One turn of fighter ``fighter`` at initiative step (or pass) ``slot``."""

    __slots__ = ("benommen", "fighter", "grants", "handlungen", "moved", "slot", "sprint_bonus")

    def __init__(self, fighter: int, slot: int) -> None:
        super().__init__()
        self.fighter = fighter
        self.slot = slot
        self.handlungen = 1
        self.grants = 1  # movement allowances granted (H00; M07 adds one, X38)
        self.sprint_bonus = 0
        self.moved = 0
        self.benommen = False

    def move_left(self, c: Combat, f: FighterState) -> int:
        if self.benommen:
            return 0  # X40: no movement while benommen
        return max(0, self.grants * movement_allowance(c, f) + self.sprint_bonus - self.moved)

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == 0:
            self.stage = 1
            c.turn_fighter = f.idx
            if c.options.niederwerfen_penalty_until is ProneBonusUntil.OWN_NEXT_TURN:
                f.prone_bonus = False  # R06, X23: 'bis zum Beginn ihrer nächsten Runde'
            if not f.standing:
                return DONE
            c.emit(ev.TurnStarted(f.idx, self.slot, c.options.initiative.value == "passes"))
            c.count("turns")
            self.benommen = bool(f.conditions >> Condition.BENOMMEN & 1)
            value = None
        if value is not None:
            frame = self._do(c, f, value)
            if frame is not None:
                return frame
        while True:
            if not f.standing or (not self.benommen and f.conditions >> Condition.BENOMMEN & 1):
                return self._end(c, f)
            actions = c.restrict(f.idx, turn_actions(c, f.idx))
            if len(actions) > 1:
                c.turn_legal = actions  # legal_actions() reuses this list
                return Decision(DecisionKind.TURN, f.idx)
            # A single legal choice is forced (END_TURN, the benommen Mumm-Probe): no decision.
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
            route = c.routes.route(action.cell)
            self.moved += route.metres
            how = "sprintet" if self.sprint_bonus else "geht"
            return MoveFrame(f.idx, route.cells, how)
        if kind is ActionKind.MUMM_EXTRA_ACTION:  # M07
            spend_mumm(c, f, MummSpend.ZUSAETZLICHE_AKTION)
            f.extra_action_used = True
            self.handlungen += 1
            if c.options.mumm_extra_action_moves:
                self.grants += 1
            return None
        if kind is ActionKind.MUMM_SHAKE:  # M08
            cond = Condition(action.index)
            shake_with_mumm(c, f, cond)
            if cond is Condition.BENOMMEN and self.benommen:
                self.benommen = False
            return None
        if kind in HANDLUNG_KINDS:
            self.handlungen -= 1
            if kind is ActionKind.SPRINT:  # H08, X15
                self.sprint_bonus += movement_allowance(c, f) * (
                    c.options.sprint_total_multiplier - 1
                )
                c.emit(ev.Acted(f.idx, "sprintet"))
                return None
            if kind is ActionKind.SCHWIERIG:
                climb = climb_step(c, f, action.cell, self.move_left(c, f))
                if climb is not None:  # B03, X40: part of a high ledge
                    self.moved += climb.metres
                    return ClimbFrame(f.idx, climb)
                self.moved += c.hard_routes.route(action.cell).metres
            if kind is ActionKind.MUMM_PROBE:
                self.benommen = True
            return run_handlung(c, f, action)
        raise AssertionError(f"unhandled turn action {action!r}")  # pragma: no cover


def _frame_of(c: Combat, fighter: int) -> TurnFrame:
    for frame in reversed(c._stack):
        if isinstance(frame, TurnFrame) and frame.fighter == fighter:
            return frame
    raise AssertionError("no turn in progress")  # pragma: no cover


def planned_climb(c: Combat, fighter: int, ledge: int) -> ClimbStep | None:
    """What SCHWIERIG to ``ledge`` would climb now, if it is a partial climb (B03, X40)."""
    f = c.fighters[fighter]
    return climb_step(c, f, ledge, _frame_of(c, fighter).move_left(c, f))


def turn_actions(c: Combat, fighter: int) -> list[Action]:
    """Every legal TURN choice of ``fighter`` (H00–H12, B01–B06, M07, M08, Z02)."""
    f = c.fighters[fighter]
    turn = _frame_of(c, fighter)
    acts: list[Action] = []
    c.routes = NO_REACH
    c.hard_routes = NO_REACH
    acts.extend(mumm_shakes(c, f))
    if turn.benommen:
        if turn.handlungen > 0:
            acts.append(Action(ActionKind.MUMM_PROBE, fighter))  # Z02: must
            return acts
        acts.append(Action(ActionKind.END_TURN, fighter))
        return acts
    move_left = turn.move_left(c, f)
    if move_left > 0:
        blocked = blocked_for(c, f)
        occupied = frozenset(c.occupant)
        passable = frozenset(g.pos for g in c.fighters if g.on_map and (g.side is f.side or g.down))
        threat = threat_masks(c, f)
        profile = move_profile(c, f)
        c.routes = reachable(
            c.bm,
            blocked,
            f.pos,
            move_left,
            profile,
            occupied=occupied,
            passable_occupied=passable,
            threat=threat,
        )
        acts.extend(move_actions(fighter, c.routes.dests))
        if turn.handlungen > 0 and has_difficult_terrain(c.bm):
            c.hard_routes = reachable(
                c.bm,
                blocked,
                f.pos,
                move_left,
                profile,
                occupied=occupied,
                passable_occupied=passable,
                threat=threat,
                difficult=True,
            )
            dests = c.hard_routes.dests
            acts.extend([Action(ActionKind.SCHWIERIG, fighter, cell=cell) for cell in dests])
            acts.extend(climb_actions(c, f, move_left, set(dests)))
    committed = False
    if turn.handlungen > 0:
        handlungen = handlung_actions(c, f)
        acts.extend(handlungen)
        # X40 alternative: whoever moved must take the Handlung the movement belongs to.
        committed = (
            bool(handlungen) and turn.moved > 0 and not c.options.move_with_forfeited_handlung
        )
    elif not f.extra_action_used and can_spend_mumm(c, f, MummSpend.ZUSAETZLICHE_AKTION.cost):
        acts.append(Action(ActionKind.MUMM_EXTRA_ACTION, fighter))
    if not committed:
        acts.append(Action(ActionKind.END_TURN, fighter))
    return acts


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


def can_target(c: Combat, f: FighterState, t: FighterState) -> bool:
    return (
        t.idx != f.idx
        and not t.dead
        and t.on_map
        and (c.options.friendly_fire or t.side is not f.side)
    )


def weapon_reaches(
    c: Combat, f: FighterState, t: FighterState, wi: int, *, area: bool = False
) -> bool:
    """Whether weapon ``wi`` can attack ``t`` now: range, sight and not full cover (A01, C01)."""
    w = f.weapons[wi]
    dist = c.bm.distance(f.pos, t.pos)
    if w.range_modifier(dist) is None:
        return False
    if w.kind is WeaponKind.MELEE:
        return has_line_of_sight(c.bm, c.opaque, f.pos, t.pos)
    cover = cover_against(c, f, t, ranged=True, area=area and w.area_radius > 0)
    return cover.level.value < 3


def handlung_actions(c: Combat, f: FighterState) -> list[Action]:
    """Handlungen open to ``f`` now (H01–H12, K01–K05, P08)."""
    acts: list[Action] = []
    i = f.idx
    bm = c.bm
    opts = c.options
    prone = f.prone
    targets = [t for t in c.fighters if can_target(c, f, t)]
    usable = [wi for wi in range(len(f.weapons)) if f.weapon_usable(wi)]
    memo: dict[tuple[int, bool], bool] = {}

    def open_to(t: FighterState, area: bool) -> bool:
        """A direct ranged attack on ``t`` is possible (not full cover, C01); shared by every
        weapon, Zielen and hack this turn."""
        key = (t.idx, area)
        hit = memo.get(key)
        if hit is None:
            hit = cover_against(c, f, t, ranged=True, area=area).level.value < 3
            memo[key] = hit
        return hit

    for t in targets:
        dist = bm.distance(f.pos, t.pos)
        sight: bool | None = None
        for wi in usable:
            w = f.weapons[wi]
            if w.range_modifier(dist) is None:
                continue
            if w.kind is WeaponKind.MELEE:
                if sight is None:
                    sight = has_line_of_sight(bm, c.opaque, f.pos, t.pos)
                ok = sight
            else:
                ok = open_to(t, w.area_radius > 0)
            if ok:
                acts.append(Action(ActionKind.ATTACK, i, t.idx, index=wi))
    for t in targets:  # K01–K05: unarmed reach, against standing foes
        if t.down or bm.distance(f.pos, t.pos) > 1:
            continue
        for m in Maneuver:
            if _maneuver_allowed(f, t, m):
                acts.append(Action(ActionKind.MANEUVER, i, t.idx, index=int(m)))
    drawn = f.weapons[f.drawn] if f.drawn >= 0 else None
    if drawn is not None and drawn.kind is WeaponKind.RANGED and f.weapon_usable(f.drawn):
        for t in targets:  # H11 Zielen
            if t.down:
                continue
            if t.idx == f.aim_target and f.aim_stacks >= opts.zielen_max_stacks:
                continue
            if drawn.range_modifier(bm.distance(f.pos, t.pos)) is not None and open_to(t, False):
                acts.append(Action(ActionKind.ZIELEN, i, t.idx))
    for hi, hack in enumerate(f.spec.hacks):  # H03, H10
        if f.upload_progress[hi] < hack.upload:
            acts.append(Action(ActionKind.UPLOAD, i, index=hi))
            continue
        for t in targets:
            if bm.distance(f.pos, t.pos) <= hack.range_m and open_to(t, hack.area_radius > 0):
                acts.append(Action(ActionKind.HACK, i, t.idx, index=hi))
    if movement_allowance(c, f) > 0 and not prone:
        acts.append(Action(ActionKind.SPRINT, i))
    if prone:
        acts.append(Action(ActionKind.AUFSTEHEN, i))
    for n in bm.neighbours[f.pos]:  # H04 doors
        if bm.terrain[n] in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN) and n not in c.occupant:
            acts.append(Action(ActionKind.DOOR, i, cell=n))
    for wi in range(len(f.spec.weapons)):  # H04 draw, pick up
        if f.dropped >> wi & 1:
            acts.append(Action(ActionKind.PICK_UP, i, index=wi))
        elif wi != f.drawn:
            acts.append(Action(ActionKind.DRAW, i, index=wi))
    for slot, item in enumerate(f.items):
        if _item_useful(f, item.kind, item.condition):
            acts.append(Action(ActionKind.USE_ITEM, i, index=slot))
    if f.drawn >= 0:
        w = f.weapons[f.drawn]
        if (
            w.uses_ammo
            and w.nachladen >= 1
            and f.ammo[f.drawn] < w.magazine
            and f.reloads[f.drawn] != 0
        ):
            acts.append(Action(ActionKind.RELOAD, i, index=f.drawn))
    for slot in range(len(f.backpack)):
        acts.append(Action(ActionKind.RUCKSACK, i, index=slot))
    for k, ware in enumerate(f.spec.cyberware):
        if ware.ability is not None and f.cyber_uses[k] > 0:
            acts.append(Action(ActionKind.CYBERWARE, i, index=k))
    for cond in SHAKEABLE:
        if f.conditions >> cond & 1:
            if (
                cond is Condition.ANGESCHLAGEN
                and not opts.angeschlagen_shake_below_half
                and (f.lp <= f.spec.lp / 2)
            ):
                continue
            acts.append(Action(ActionKind.SHAKE, i, index=int(cond)))
    for t in c.fighters:  # D09 stabilise another
        if (t.idx != i and not t.dead and t.on_map and t.conditions >> Condition.STERBEND & 1) and (
            not opts.stabilise_needs_adjacent or bm.distance(f.pos, t.pos) <= 1
        ):
            acts.append(Action(ActionKind.STABILISE, i, t.idx))
    if opts.helfen_in_combat and (f.side is Side.RUNNER or opts.nsc_may_help):
        for t in c.fighters:  # P08, X41
            if (
                t.idx != i
                and t.side is f.side
                and t.standing
                and (bm.distance(f.pos, t.pos) <= HELP_RANGE_M)
            ):
                acts.append(Action(ActionKind.HELFEN, i, t.idx))
    jammed = f.jammed
    wi = 0
    while jammed:
        if jammed & 1:
            acts.append(Action(ActionKind.FREE_WEAPON, i, index=wi))
        jammed >>= 1
        wi += 1
    return acts


def _maneuver_allowed(f: FighterState, t: FighterState, m: Maneuver) -> bool:
    """Size limits of K01–K05: Festsetzen up to one category larger, the rest up to the
    attacker's size; Entwaffnen only against armed humanoids."""
    size, tsize = f.spec.size, t.spec.size
    if m is Maneuver.ENTWAFFNEN:
        if not t.spec.humanoid or t.disarmed:
            return False
        return 0 <= t.drawn < len(t.spec.weapons) and not t.dropped >> t.drawn & 1
    if m is Maneuver.FESTSETZEN:
        return tsize <= size + 1
    return tsize <= size


def _item_useful(f: FighterState, kind: ItemKind, condition: Condition | None) -> bool:
    if kind is ItemKind.HEAL:
        return f.lp < f.spec.lp
    return condition is not None and bool(f.conditions >> condition & 1)
