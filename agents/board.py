"""A per-decision snapshot of the combat for the doctrines, with the engine's own rule helpers.

The engine's pure helpers that agents need (``check_parts``, ``cover_against``,
``reaction_choices``, ``armour_after_mode``, ``defence_values``, ``plan_attack``,
``area_targets``) take a :class:`~cwenv.engine.view.CombatView`, the handful of a combat's
attributes they read. A :class:`Board` satisfies it structurally, built
from the read-only :class:`~cwenv.agent.DecisionView`, so agents use the engine's rules
instead of re-implementing them and never touch the live combat. Results that do not change
within one decision are cached on the board.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from cwenv.agent import DecisionView
from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.battlemap.los import has_line_of_sight, terrain_cover
from cwenv.engine.checks import check_parts
from cwenv.engine.conditions import reaction_choices
from cwenv.engine.cover import cover_against
from cwenv.engine.fighter import FighterState
from cwenv.engine.game import VictoryKind
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import CheckValue, CoverLevel, Side

if TYPE_CHECKING:
    from agents.estimates import DamageProfile, Estimate
    from cwenv.engine.events import Event
    from cwenv.rules.options import RuleOptions

# Both caches hold their map weakly: keyed by the map object itself, an entry dies with its
# map. (Keyed by ``id(map)`` a freed map's address was reused by the next one loaded, which
# then got the old map's answers: nondeterministic play across env loads, issue #19.)
COVER_CELLS: weakref.WeakKeyDictionary[BattleMap, frozenset[int]] = weakref.WeakKeyDictionary()
"""Per map: cells with a cover object within 1 m, where terrain cover is possible."""

FIELDS: weakref.WeakKeyDictionary[BattleMap, dict[tuple[tuple[int, ...], bytes], list[int]]] = (
    weakref.WeakKeyDictionary()
)
"""Per map: walking-distance fields toward a set of cells, per targets and door state."""

_FIELDS_PER_MAP = 4096
"""Bound on one map's fields (door states times target sets); the cache restarts beyond."""

FAR = 999
"""Distance of a cell no walk reaches."""

_STEP_COST = {Terrain.DOOR_CLOSED: 2, Terrain.WATER: 3, Terrain.FIRE: 3}
"""Extra effort of a step: opening a door (H04), swimming (B04, a Schwierige Bewegung),
walking through fire (D03)."""


class _Walks:
    """One map's walking graph and its fields toward single cells, per door state."""

    __slots__ = ("adjacent", "cost", "doors", "single")

    def __init__(self, bm: BattleMap) -> None:
        terrain, elev = bm.terrain, bm.elevation
        passable = [t.standable or t is Terrain.DOOR_CLOSED for t in terrain]
        # walking n -> cell: n passable, and a climb of more than 1 m needs a climbable cell
        self.adjacent = tuple(
            tuple(
                n
                for n in bm.neighbours[cell]
                if passable[n]
                and not (elev[cell] - elev[n] > 1 and terrain[cell] is not Terrain.CLIMB)
            )
            for cell in range(bm.size)
        )
        self.cost = [_STEP_COST.get(t, 1) for t in terrain]  # of a step onto the cell
        self.doors = tuple(i for i, t in enumerate(terrain) if t is Terrain.DOOR_CLOSED)
        self.single: dict[tuple[int, bytes], npt.NDArray[np.int64]] = {}

    def field(self, target: int, doors: bytes) -> npt.NDArray[np.int64]:
        """Steps from every cell to ``target`` (Dial's search: steps cost 1 to 3)."""
        key = (target, doors)
        hit = self.single.get(key)
        if hit is not None:
            return hit
        if len(self.single) > _FIELDS_PER_MAP:
            self.single.clear()
        cost = self.cost
        if self.doors:
            cost = cost.copy()
            for door, shut in zip(self.doors, doors, strict=True):
                cost[door] = 2 if shut else 1  # an opened door costs a plain step
        adjacent = self.adjacent
        dist = [FAR] * len(cost)
        dist[target] = 0
        buckets: list[list[int]] = [[target]]
        d = 0
        while d < len(buckets):
            for cell in buckets[d]:
                if dist[cell] != d:
                    continue  # reached cheaper since
                for n in adjacent[cell]:
                    nd = d + cost[n]
                    if nd < dist[n]:
                        dist[n] = nd
                        while len(buckets) <= nd:
                            buckets.append([])
                        buckets[nd].append(n)
            d += 1
        hit = self.single[key] = np.array(dist, dtype=np.int64)
        return hit


_WALKS: weakref.WeakKeyDictionary[BattleMap, _Walks] = weakref.WeakKeyDictionary()


def walk_field(bm: BattleMap, targets: tuple[int, ...], opaque: bytearray) -> list[int]:
    """Steps from every cell to the nearest of ``targets`` over standable cells and closed
    doors, round walls and cover objects; doors, water and fire cost extra (B01–B06 only
    roughly: a guide for moving toward the enemy, not the movement rules).

    The nearest of several targets is the least of the walks to each, and a walk toward
    one cell depends on the doors alone: those fields are kept per map, so when one enemy
    moves only its own field is searched anew."""
    fields = FIELDS.get(bm)
    if fields is None:
        fields = FIELDS[bm] = {}
    key = (targets, bytes(opaque))
    hit = fields.get(key)
    if hit is not None:
        return hit
    if len(fields) > _FIELDS_PER_MAP:
        fields.clear()
    walks = _WALKS.get(bm)
    if walks is None:
        walks = _WALKS[bm] = _Walks(bm)
    doors = bytes(opaque[d] for d in walks.doors)
    dist: list[int] = [FAR] * bm.size
    if targets:
        dist = np.minimum.reduce([walks.field(t, doors) for t in targets]).tolist()
    fields[key] = dist
    return dist


def hostile_sides(side: Side) -> tuple[Side, ...]:
    """Whom a side fights: Runner and Gegner each other; neutrals nobody."""
    if side is Side.RUNNER:
        return (Side.GEGNER,)
    if side is Side.GEGNER:
        return (Side.RUNNER,)
    return ()


def cover_cells(bm: BattleMap) -> frozenset[int]:
    """Cells next to a half or three-quarter cover object (C01, C02: cover within 1 m)."""
    hit = COVER_CELLS.get(bm)
    if hit is None:
        cover = (Terrain.COVER_HALF, Terrain.COVER_THREE_QUARTER)
        hit = frozenset(
            i
            for i in range(bm.size)
            if bm.terrain[i].standable and any(bm.terrain[n] in cover for n in bm.neighbours[i])
        )
        COVER_CELLS[bm] = hit
    return hit


class Board:
    """What one decision sees: fighters, map, options, and an occupancy table.

    A :class:`~cwenv.engine.view.CombatView` (``options``, ``bm``, ``opaque``,
    ``occupant``, ``fighters``): the engine's rule helpers take the board itself.
    """

    __slots__ = (
        "_checks",
        "_enemy_xy",
        "_events",
        "_offense",
        "_solid",
        "_walk",
        "_weapons",
        "allies",
        "bm",
        "cache",
        "decision",
        "defences",
        "enemies",
        "estimates",
        "exits_goal",
        "fighters",
        "me",
        "occupant",
        "opaque",
        "options",
        "profiles",
        "protected",
        "round",
        "side",
        "tables",
        "view",
    )

    def __init__(self, view: DecisionView) -> None:
        self.view = view
        self.decision = view.decision
        self.options: RuleOptions = view.options
        self.bm = view.battlemap
        self.opaque = bytearray(view.opaque)
        self.fighters: tuple[FighterState, ...] = tuple(view.fighters)
        self.round = view.round
        self.occupant = {f.pos: f.idx for f in self.fighters if f.on_map}
        self.me = self.fighters[self.decision.fighter]
        self.side = self.me.side
        foes = hostile_sides(self.side)
        self.enemies = [f for f in self.fighters if f.side in foes and f.standing]
        self.allies = [f for f in self.fighters if f.side is self.side and f.standing]
        self.protected = frozenset(
            v.vip for v in view.game.victory if v.kind is VictoryKind.PROTECT_VIP and v.vip >= 0
        )
        """Fighters whose fall loses the fight for their side (protect_vip)."""
        self.exits_goal = any(
            v.kind is VictoryKind.REACH_EXIT and v.side is self.side for v in view.game.victory
        ) and bool(self.bm.exits)
        self._checks: dict[tuple[int, int, int], int] = {}
        self._offense: dict[int, float] = {}
        self._events: tuple[Event, ...] | None = None
        self._walk: list[int] | None = None
        self._enemy_xy: list[tuple[int, int]] | None = None
        self._solid: bytearray | None = None
        self._weapons: dict[int, list[tuple[int, WeaponSpec]]] = {}
        self.defences: dict[tuple[object, ...], int | None] = {}
        self.cache: dict[tuple[object, ...], float] = {}
        self.estimates: dict[tuple[object, ...], Estimate] = {}
        self.profiles: dict[tuple[int, int, int], DamageProfile] = {}
        """Damage profiles of a fighter's weapon on a target (``weapon_profile``), keyed by
        both fighters and the weapon's identity: every weapon is held by a fighter of
        this board, alive while it is."""
        self.tables: dict[tuple[object, ...], object] = {}
        """Per-decision tables of the agents (e.g. :mod:`agents.cells`), by name (and, where
        they hold one agent's weights, that agent)."""

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log (read once per decision, on demand)."""
        if self._events is None:
            self._events = tuple(self.view.events)
        return self._events

    # -- check values ------------------------------------------------------------------
    def check_value(
        self,
        f: FighterState,
        check: CheckValue,
        *,
        attack: bool = False,
        reaction: bool = False,
        defence: bool = False,
    ) -> int:
        """The Probenwert ``f`` would get (``check_parts``: conditions Z01–Z07, Behinderung
        A01/X42, Fokus)."""
        key = (f.idx, int(check), attack + 2 * reaction + 4 * defence)
        hit = self._checks.get(key)
        if hit is None:
            parts = check_parts(self, f, check, attack=attack, reaction=reaction, defence=defence)
            hit = sum(v for _, v in parts)
            self._checks[key] = hit
        return hit

    def can_react(self, f: FighterState) -> bool:
        """R01, M05: ``f`` could pay for a defence now (a reaction, or Mumm)."""
        return bool(reaction_choices(self, f))

    # -- geometry ----------------------------------------------------------------------
    def dist(self, a: int, b: int) -> int:
        return self.bm.distance(a, b)

    def sight(self, a: int, b: int) -> bool:
        return has_line_of_sight(self.bm, self.opaque, a, b)

    def cover_now(self, attacker: FighterState, target: FighterState, area: bool) -> CoverLevel:
        """Exact cover of ``target`` against a ranged attack from ``attacker`` where it
        stands (C01–C05, R06, X25: terrain and living cover)."""
        return cover_against(self, attacker, target, ranged=True, area=area).level

    def terrain_cover_at(self, src: int, target: FighterState) -> CoverLevel:
        """Terrain cover of ``target`` against fire from cell ``src`` (C01, C02; living
        cover left out), with R06's prone upgrade of half cover."""
        level = terrain_cover(self.bm, self.opaque, src, target.pos)
        if target.prone and level is CoverLevel.HALF:
            return CoverLevel.THREE_QUARTER
        return level

    def cover_of_cell(self, cell: int, shooter: FighterState) -> CoverLevel:
        """Terrain cover a fighter on ``cell`` would have against ``shooter`` (C01, C02)."""
        return terrain_cover(self.bm, self.opaque, shooter.pos, cell)

    @property
    def solid(self) -> bytearray:
        """Cells no one may enter: non-standable terrain and closed doors (as the combat's
        own ``solid``, rebuilt from the terrain and the doors' opacity)."""
        if self._solid is None:
            doors = (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN)
            terrain, opaque = self.bm.terrain, self.opaque
            self._solid = bytearray(
                (opaque[i] if terrain[i] in doors else int(not terrain[i].standable))
                for i in range(self.bm.size)
            )
        return self._solid

    def single_target_weapons(self, f: FighterState) -> list[tuple[int, WeaponSpec]]:
        """``f``'s usable weapons without an area (index, spec), once per decision."""
        found = self._weapons.get(f.idx)
        if found is None:
            found = self._weapons[f.idx] = [
                (wi, w)
                for wi, w in enumerate(f.weapons)
                if f.weapon_usable(wi) and w.area_radius == 0
            ]
        return found

    def walk_distance(self, cell: int) -> int:
        """Walking steps from ``cell`` to the nearest enemy (round walls and water, through
        doors); the straight-line distance + 50 where no walk reaches one."""
        if not self.enemies:
            return FAR
        if self._walk is None:
            targets = tuple(sorted(e.pos for e in self.enemies))
            self._walk = walk_field(self.bm, targets, self.opaque)
        d = self._walk[cell]
        return d if d < FAR else self.nearest_enemy_distance(cell) + 50

    def nearest_enemy_distance(self, cell: int) -> int:
        """Chebyshev metres from ``cell`` to the nearest standing enemy (99: none)."""
        if not self.enemies:
            return 99
        xy = self._enemy_xy
        if xy is None:
            xs, ys = self.bm.xs, self.bm.ys
            xy = self._enemy_xy = [(xs[e.pos], ys[e.pos]) for e in self.enemies]
        return self.bm.nearest(cell, xy, FAR)

    def exit_distance(self, cell: int) -> int:
        if not self.bm.exits:
            return 0
        return min(self.bm.distance(cell, x) for x in self.bm.exits)

    def foes_of(self, f: FighterState) -> list[FighterState]:
        foes = hostile_sides(f.side)
        return [g for g in self.fighters if g.side in foes and g.standing]

    def offense_cache(self) -> dict[int, float]:
        return self._offense
