"""Encoding 2, the state (issue #18): one row per fighter, a global row and a coarse map.

Everything is seen from the **decider** (the fighter whose decision it is) and sized by
capacities only, never by the scenario: ``MAX_ENTITIES`` rows (row 0 is the decider, then
its allies in roster order, then everyone else in roster order — the same order as the
target slots of encoding 1, without the gaps), ``COARSE_SIDE``² blocks of the map. A
network that pools over the rows and reads the map through a fixed-size layer therefore
has the same size on every map, for every roster and every rule enum up to its capacity.

The feature lists are the spec (``docs/env.md`` "Encoding 2"); a native port computes the
same numbers in the same order. Values lie in [0, 1] except relative positions, height
differences and LP fractions ([−1, 1]); every array is clipped to that.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind
from cwenv.engine.fighter import FighterState
from cwenv.engine.payloads import AttackPrompt
from cwenv.engine.state import Combat
from cwenv.envs.capacity import MAX_FIGHTERS, MAX_WEAPONS
from cwenv.envs.encode_core import NativeEncoder
from cwenv.envs.features import Padded, feature_names
from cwenv.envs.layout import ActionLayout, Slots
from cwenv.envs.observe import Observer, _context_fighter, _sight_and_cover
from cwenv.envs.tables import F32, PATCH_RADIUS, SCALE_MAP, G, GameTables
from cwenv.model.types import Side, WeaponKind

MAX_ENTITIES = MAX_FIGHTERS
COARSE_BLOCK = 3  # cells per block side
COARSE_SIDE = 9  # blocks per map side: the map covers 27 × 27 cells around the decider
COARSE_RADIUS = COARSE_BLOCK * COARSE_SIDE // 2  # 13 cells each way

ENTITY_SPEC = (
    "present", "is_self", "ally", "enemy", "neutral", "on_map", "standing", "down", "dead",
    "fled", "prone", "lp_fraction", "lp/60", "lp_max/60", Padded("condition", "conditions"),
    "zehrend/3", "reactions/3", "mumm/5", "mumm_fraction", "aim_stacks/3", "aimed_at",
    "turn_fighter", "context_fighter", "dx", "dy", "distance", "elevation_diff/10",
    "line_of_sight", "their_cover/3", "my_cover/3", "armour/10", "movement/10", "size/4",
    "best_range/30", "best_damage/20", "has_melee", "has_ranged", "drawn_range/30",
    "drawn_damage/20", "drawn_ammo_fraction", "usable_weapons/8", "in_their_melee_reach",
    "in_my_melee_reach", "threat",
)  # fmt: skip
GLOBAL_SPEC = (
    Padded("decision", "decision_kinds"), "decision_none", "attack_total/30", "my_turn",
    "round/limit", "round/50", "has_round_limit", "handlung_left", "move_left",
    "legal_actions/K", "allies/15", "enemies/15", "allies_standing/15", "enemies_standing/15",
    "exit_distance/63", "has_exits", "extra_action_used", "items/6", "backpack/6",
    "cyberware_uses/6", "hacks_ready/6", "hacks_uploading/6",
)  # fmt: skip
MAP_CHANNELS = (
    "off_map", "wall", "cover_half", "cover_three_quarter", "water", "climb", "fire", "exit",
    "door_closed", "door_open", "elevation", "ally", "enemy", "neutral", "fallen",
)  # fmt: skip
"""Each block's value: the fraction of its 9 cells that are so (``elevation``: the mean
height relative to the decider in metres / 5, clipped to [−1, 1]; fighters: how many stand
there / 3). The decider's own block is the centre one, (4, 4)."""

ENTITY_FEATURES = feature_names(ENTITY_SPEC)
GLOBAL_FEATURES = feature_names(GLOBAL_SPEC)
_E = {n: k for k, n in enumerate(ENTITY_FEATURES)}
_GL = {n: k for k, n in enumerate(GLOBAL_FEATURES)}
_COND0 = _E["condition_0"]
_NCOND = _E["zehrend/3"] - _COND0
_DEC0 = _GL["decision_0"]
N_DECISIONS = _GL["decision_none"] - _DEC0
_STATIC = ("off_map", "wall", "cover_half", "cover_three_quarter", "water", "climb", "fire", "exit")
_M = {n: k for k, n in enumerate(MAP_CHANNELS)}
_MOVING = [_M[n] for n in ("door_closed", "door_open", "ally", "enemy", "neutral", "fallen")]


def entity_bounds() -> tuple[F32, F32]:
    low = np.zeros((MAX_ENTITIES, len(ENTITY_FEATURES)), dtype=np.float32)
    for name in ("lp_fraction", "dx", "dy", "elevation_diff/10"):
        low[:, _E[name]] = -1.0
    return low, np.ones_like(low)


def map_bounds() -> tuple[F32, F32]:
    low = np.zeros((len(MAP_CHANNELS), COARSE_SIDE, COARSE_SIDE), dtype=np.float32)
    low[_M["elevation"]] = -1.0
    return low, np.ones_like(low)


_ELOW, _EHIGH = entity_bounds()
_MLOW, _MHIGH = map_bounds()


def entity_rows(slots: Slots, decider: int) -> tuple[int, ...]:
    """The fighter in each entity row for ``decider``: itself, its allies, everyone else."""
    return (decider, *slots.allies[decider], *slots.enemies[decider])


class EntityEncoder:
    """The entity rows, the global row and the coarse map of one game's decisions."""

    def __init__(self, tables: GameTables, slots: Slots, k: int) -> None:
        self.t = tables
        self.slots = slots
        # ``k`` scales the feature legal_count/K (clipped at 1): the K the network was
        # trained with, not the padding, so a session padded wider for a big decision at
        # play time shows the network the same number it saw in training (issue #18).
        self.k = k
        # Encoding 1's observer lends its cached sight/cover and its threat estimate, so
        # both encodings read the same numbers off the engine.
        self._obs1 = Observer(tables, ActionLayout(1, 1), slots)
        pad = COARSE_RADIUS - PATCH_RADIUS
        static = np.pad(tables.static_grid, ((0, 0), (pad, pad), (pad, pad)))
        static[G["off_map"]][:pad, :] = 1.0
        static[G["off_map"]][-pad:, :] = 1.0
        static[G["off_map"]][:, :pad] = 1.0
        static[G["off_map"]][:, -pad:] = 1.0
        self._static = static[[G[name] for name in _STATIC]]
        self._elevation = np.pad(tables.elevation, pad)
        self._terrain_blocks: dict[int, F32] = {}  # the decider's cell -> its static blocks
        self._bits: dict[int, tuple[int, ...]] = {}
        self.native = NativeEncoder(tables, N_DECISIONS)

    def encode(self, c: Combat, decider: int, legal: Sequence[Action]) -> tuple[F32, F32, F32, F32]:
        """(entities, entity_mask, global, map) for ``decider``, who decides ``legal``: the
        core's under the native engine, else :meth:`encode_reference`'s (the same bytes)."""
        me = c.fighters[decider]
        out = (
            np.zeros((MAX_ENTITIES, len(ENTITY_FEATURES)), dtype=np.float32),
            np.zeros(MAX_ENTITIES, dtype=np.float32),
            np.zeros(len(GLOBAL_FEATURES), dtype=np.float32),
            np.zeros((len(MAP_CHANNELS), COARSE_SIDE, COARSE_SIDE), dtype=np.float32),
        )
        rows = entity_rows(self.slots, decider)
        allies = len(self.slots.allies[decider])
        if self.native.entities(c, decider, rows, allies, legal, self.k, self._terrain(c, me), out):
            return out
        return self.encode_reference(c, decider, legal)

    def encode_reference(
        self, c: Combat, decider: int, legal: Sequence[Action]
    ) -> tuple[F32, F32, F32, F32]:
        """The Python encoder: the statement of the encoding the core follows."""
        me = c.fighters[decider]
        rows = entity_rows(self.slots, decider)
        cache = self._obs1._cover_cache(c)
        ctx = _context_fighter(c)
        ents = np.zeros((MAX_ENTITIES, len(ENTITY_FEATURES)), dtype=np.float32)
        ents[: len(rows)] = [self._row(c, me, c.fighters[j], cache, ctx) for j in rows]
        mask = np.zeros(MAX_ENTITIES, dtype=np.float32)
        mask[: len(rows)] = 1.0
        np.clip(ents, _ELOW, _EHIGH, out=ents)
        return ents, mask, self._global(c, me, legal), self._map(c, me)

    def _row(
        self,
        c: Combat,
        me: FighterState,
        g: FighterState,
        cache: dict[tuple[int, int], tuple[bool, float, float]],
        ctx: int,
    ) -> tuple[float | bool | int, ...]:
        t, j = self.t, g.idx
        xs, ys, elev = t.xs, t.ys, c.bm.elevation
        dx, dy = xs[g.pos] - xs[me.pos], ys[g.pos] - ys[me.pos]
        dist = max(abs(dx), abs(dy))
        is_self = g.idx == me.idx
        if is_self:
            sight, theirs, mine = True, 0.0, 0.0
        else:
            seen = cache.get((me.idx, j))
            if seen is None:
                seen = cache[(me.idx, j)] = _sight_and_cover(c, me, g)
            sight, theirs, mine = seen
        standing = g.standing
        hostile = g.side is not me.side
        danger = standing and not is_self and (c.options.friendly_fire or hostile)
        drawn = g.drawn if 0 <= g.drawn < len(g.weapons) else -1
        d_range = d_dmg = d_ammo = 0.0
        if drawn >= 0:
            d_range, d_dmg = t.weapon_static[j][drawn]
            w = g.weapons[drawn]
            d_ammo = g.ammo[drawn] / w.magazine if w.magazine > 0 else 1.0
        kinds = [w.kind for w in g.weapons]
        usable = sum(1 for k in range(len(g.weapons)) if g.weapon_usable(k))
        lp_max = t.lp_max_list[j]
        v = (
            1.0, is_self, not is_self and not hostile, hostile and g.side is not Side.NEUTRAL,
            g.side is Side.NEUTRAL, g.on_map, standing, g.down, g.dead, g.fled, g.prone,
            g.lp / lp_max, g.lp / 60, lp_max / 60,
            *self._condition_bits(g.conditions),
            len(g.zehrend) / 3, g.reactions / 3, g.mumm / 5,
            g.mumm / g.mumm_max if g.mumm_max else 0.0,
            (me.aim_stacks if is_self else g.aim_stacks) / 3,
            me.aim_target == j and not is_self, c.turn_fighter == j, ctx == j,
            dx / SCALE_MAP, dy / SCALE_MAP, dist / SCALE_MAP,
            (elev[g.pos] - elev[me.pos]) / 10, sight, theirs, mine,
            *t.other_static[j][2:5], *t.other_static[j][0:2],
            WeaponKind.MELEE in kinds, WeaponKind.RANGED in kinds, d_range, d_dmg, d_ammo,
            usable / MAX_WEAPONS, danger and dist <= g.melee_reach,
            standing and not is_self and dist <= me.melee_reach,
            self._obs1._threat(g, me, dist, sight) if danger else 0.0,
        )  # fmt: skip
        return v

    def _condition_bits(self, conditions: int) -> tuple[int, ...]:
        """The condition bit set as one 0/1 per condition slot (few distinct sets occur)."""
        bits = self._bits.get(conditions)
        if bits is None:
            bits = self._bits[conditions] = tuple((conditions >> b) & 1 for b in range(_NCOND))
        return bits

    def _global(self, c: Combat, me: FighterState, legal: Sequence[Action]) -> F32:
        v = np.zeros(len(GLOBAL_FEATURES), dtype=np.float32)
        d = c.decision
        if d is not None:
            v[_DEC0 + int(d.kind)] = 1.0
            about = d.payload
            if isinstance(about, AttackPrompt) and about.attack.roll is not None:
                v[_GL["attack_total/30"]] = about.attack.roll.total / 30
        else:
            v[_GL["decision_none"]] = 1.0
        t = self.t
        allies = [c.fighters[i] for i in self.slots.allies[me.idx]]
        others = [c.fighters[i] for i in self.slots.enemies[me.idx]]
        move = [a for a in legal if a.kind is ActionKind.MOVE]
        reach = max((c.bm.distance(me.pos, a.cell) for a in move), default=0)
        hacks = me.spec.hacks
        prog = list(zip(me.upload_progress, hacks, strict=True))
        limit = t.round_limit
        v[_GL["my_turn"] :] = (
            c.turn_fighter == me.idx, c.round / limit if limit else 0.0, c.round / 50,
            limit > 0, any(a.kind in HANDLUNG_KINDS for a in legal),
            reach / max(1.0, float(me.spec.movement)), len(legal) / self.k,
            len(allies) / 15, len(others) / 15, sum(f.standing for f in allies) / 15,
            sum(f.standing for f in others) / 15, t.exit_distance[me.pos] / SCALE_MAP,
            len(t.exit_xy) > 0, me.extra_action_used, len(me.items) / 6,
            len(me.backpack) / 6, sum(me.cyber_uses) / 6,
            sum(1 for p, h in prog if p >= h.upload) / 6,
            sum(1 for p, h in prog if 0 < p < h.upload) / 6,
        )  # fmt: skip
        return np.clip(v, 0.0, 1.0, out=v)

    def _map(self, c: Combat, me: FighterState) -> F32:
        t = self.t
        side = COARSE_BLOCK * COARSE_SIDE
        x0, y0 = t.xs[me.pos] - COARSE_RADIUS, t.ys[me.pos] - COARSE_RADIUS
        terrain = self._terrain(c, me)
        # Doors and fighters count whole cells (1, or 3 a fighter), so their block sums are
        # exact in any order: add them per block, then divide as the mean does.
        moved = np.zeros((len(MAP_CHANNELS), COARSE_SIDE, COARSE_SIDE), dtype=np.float32)
        for cell in t.doors:
            px, py = t.xs[cell] - x0, t.ys[cell] - y0
            if 0 <= px < side and 0 <= py < side:
                ch = _M["door_closed" if c.solid[cell] else "door_open"]
                moved[ch, py // COARSE_BLOCK, px // COARSE_BLOCK] += 1.0
        for g in c.fighters:
            px, py = t.xs[g.pos] - x0, t.ys[g.pos] - y0
            if g.idx == me.idx or not g.on_map or not (0 <= px < side and 0 <= py < side):
                continue
            if not g.standing:
                ch = _M["fallen"]
            elif g.side is me.side:
                ch = _M["ally"]
            elif g.side is Side.NEUTRAL:
                ch = _M["neutral"]
            else:
                ch = _M["enemy"]
            moved[ch, py // COARSE_BLOCK, px // COARSE_BLOCK] += 3.0  # mean: fighters / 3
        out = terrain.copy()
        out[_MOVING] = moved[_MOVING] / np.float32(COARSE_BLOCK * COARSE_BLOCK)
        np.clip(out, _MLOW, _MHIGH, out=out)
        return out

    def _terrain(self, c: Combat, me: FighterState) -> F32:
        """The static blocks of the map around ``me`` (terrain and height), cached per cell."""
        terrain = self._terrain_blocks.get(me.pos)
        if terrain is None:
            terrain = self._terrain_blocks[me.pos] = self._blocks(self._cells(c, me))
        return terrain

    def _cells(self, c: Combat, me: FighterState) -> F32:
        """The 27 × 27 cells around ``me`` in the map channels that never change: terrain
        and height (the others zero)."""
        t = self.t
        side = COARSE_BLOCK * COARSE_SIDE
        sx, sy = t.xs[me.pos], t.ys[me.pos]  # the window's corner in padded coordinates
        cells = np.zeros((len(MAP_CHANNELS), side, side), dtype=np.float32)
        cells[: len(_STATIC)] = self._static[:, sy : sy + side, sx : sx + side]
        here = c.bm.elevation[me.pos]
        cells[_M["elevation"]] = (self._elevation[sy : sy + side, sx : sx + side] - here) / 5
        return cells

    @staticmethod
    def _blocks(cells: F32) -> F32:
        """Each block's mean of its cells (a cached window is reduced exactly as a fresh
        one: the same shapes, so the same order of sums)."""
        shape = (len(MAP_CHANNELS), COARSE_SIDE, COARSE_BLOCK, COARSE_SIDE, COARSE_BLOCK)
        out: F32 = cells.reshape(shape).mean(axis=(2, 4)).astype(np.float32)
        return out
