"""The observation encoder: a dict of fixed-shape float32 arrays seen from one fighter.

Shapes never depend on the scenario nor on how many conditions, sides or prompt kinds the
rules have (see :mod:`cwenv.envs.capacity` for the maxima and the padding; the feature
names are in :mod:`cwenv.envs.features`). Every
value lies in [0, 1] except relative positions, height differences and the ``elevation``
grid channel, which lie in [−1, 1]; all arrays are clipped to those bounds, so the
declared Box spaces are honest.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cwenv.battlemap.los import has_line_of_sight
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, DecisionKind
from cwenv.engine.cover import cover_against
from cwenv.engine.fighter import FighterState
from cwenv.engine.payloads import AttackPrompt, BlockadePrompt, DragPrompt
from cwenv.engine.state import Combat
from cwenv.envs.capacity import MAX_CONDITIONS, MAX_SIDES
from cwenv.envs.errors import EncodingError
from cwenv.envs.features import (
    CONTEXT_FEATURES,
    OTHER_FEATURES,
    SELF_FEATURES,
    WEAPON_FEATURES,
)
from cwenv.envs.layout import MAX_OTHERS, MAX_WEAPONS, ActionLayout, IntArray, Slots
from cwenv.envs.tables import (
    F32,
    GRID_CHANNELS,
    PATCH,
    PATCH_RADIUS,
    SCALE_MAP,
    STATIC_CHANNELS,
    G,
    GameTables,
)
from cwenv.model.types import Side, WeaponKind

__all__ = [  # the feature lists live in cwenv.envs.features; importable from here too
    "CONTEXT_FEATURES",
    "OTHER_FEATURES",
    "SELF_FEATURES",
    "SHAPES",
    "WEAPON_FEATURES",
    "Observer",
    "bounds",
]

_SI = {n: k for k, n in enumerate(SELF_FEATURES)}
_OI = {n: k for k, n in enumerate(OTHER_FEATURES)}
_CI = {n: k for k, n in enumerate(CONTEXT_FEATURES)}
_NONE = _CI["decision_none"]
if MAX_CONDITIONS != 16:  # a raised capacity must widen the unpacking below as well
    raise EncodingError(
        f"MAX_CONDITIONS is {MAX_CONDITIONS}, but cwenv/envs/observe.py unpacks the "
        "condition bits as two bytes (16 slots): add a byte lookup per 8 more slots"
    )
# Condition slot k is bit k of FighterState.conditions: two byte lookups give all 16 slots
# (padded slots are bits no condition sets, so they stay 0).
_BYTE_BITS = tuple(tuple(float(b >> k & 1) for k in range(8)) for b in range(256))
_SIDE = {s: tuple(float(s == k) for k in range(MAX_SIDES)) for s in Side}

SHAPES: dict[str, tuple[int, ...]] = {
    "self": (len(SELF_FEATURES),),
    "weapons": (MAX_WEAPONS, len(WEAPON_FEATURES)),
    "allies": (MAX_OTHERS, len(OTHER_FEATURES)),
    "enemies": (MAX_OTHERS, len(OTHER_FEATURES)),
    "context": (len(CONTEXT_FEATURES),),
    "grid": (len(GRID_CHANNELS), PATCH, PATCH),
}
"""Observation keys and shapes (the Dict space)."""


def bounds(key: str) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of one observation key."""
    shape = SHAPES[key]
    low = np.zeros(shape, dtype=np.float32)
    high = np.ones(shape, dtype=np.float32)
    if key in ("allies", "enemies"):
        for name in ("dx", "dy", "elevation_diff/10"):
            low[:, _OI[name]] = -1.0
        low[:, _OI["lp_fraction"]] = -1.0
    elif key == "self":
        low[_SI["lp_fraction"]] = -1.0
    elif key == "grid":
        low[G["elevation"]] = -1.0
    return low, high


_LOW_HIGH = {key: bounds(key) for key in SHAPES}


def _clip(key: str, a: F32) -> F32:
    low, high = _LOW_HIGH[key]
    return np.clip(a, low, high, out=a)


class Observer:
    """Builds observations for one game (static tables are cached here)."""

    def __init__(self, tables: GameTables, layout: ActionLayout, slots: Slots) -> None:
        self.t = tables
        self.layout = layout
        self.slots = slots
        self._handlung = np.zeros(layout.size, dtype=np.bool_)
        for kind in HANDLUNG_KINDS:
            sec = layout.by_kind[kind]
            self._handlung[sec.start : sec.start + sec.size] = True
        self._world: object = None
        self._cover: dict[tuple[int, int], tuple[bool, float, float]] = {}

    def observe(
        self,
        c: Combat,
        viewer: int,
        legal: Sequence[Action] | None,
        indices: IntArray | None,
        step: int,
        max_steps: int,
    ) -> dict[str, F32]:
        """The observation of fighter ``viewer``; ``legal``/``indices`` when it decides now."""
        me = c.fighters[viewer]
        attackable: set[int] = set()
        handlung = False
        if indices is not None:
            handlung = bool(self._handlung[indices].any())
            attack = self.layout.by_kind[ActionKind.ATTACK]
            hits = indices[(indices >= attack.start) & (indices < attack.start + attack.size)]
            for slot in set(((hits - attack.start) // attack.n).tolist()):
                attackable.add(self.slots.fighter_at(viewer, slot))
        moves = self._move_offsets(indices)
        ctx = _context_fighter(c)
        cache = self._cover_cache(c)
        allies, _ = self._others(c, me, self.slots.allies[viewer], attackable, ctx, cache)
        enemies, cover_e = self._others(c, me, self.slots.enemies[viewer], attackable, ctx, cache)
        return {
            "self": self._self(c, me, cover_e, handlung, moves),
            "weapons": self._weapons(me),
            "allies": allies,
            "enemies": enemies,
            "context": self._context(c, me, legal, step, max_steps),
            "grid": self._grid(c, me, moves),
        }

    # -- pieces -----------------------------------------------------------------------------
    def _move_offsets(self, indices: IntArray | None) -> tuple[IntArray, IntArray] | None:
        if indices is None:
            return None
        sec = self.layout.by_kind[ActionKind.MOVE]
        sel = indices[(indices >= sec.start) & (indices < sec.start + sec.size)] - sec.start
        side, r = self.layout.move_side, self.layout.move_radius
        return sel % side - r, sel // side - r

    def _self(
        self,
        c: Combat,
        me: FighterState,
        cover: list[float],
        handlung: bool,
        moves: tuple[IntArray, IntArray] | None,
    ) -> F32:
        t, i = self.t, me.idx
        x, y = t.xs[me.pos], t.ys[me.pos]
        move_left = 0.0
        if moves is not None and len(moves[0]):
            reach = int(np.maximum(np.abs(moves[0]), np.abs(moves[1])).max())
            move_left = reach / self.layout.move_radius
        hacks = me.spec.hacks
        ready = sum(1 for p, h in zip(me.upload_progress, hacks, strict=True) if p >= h.upload)
        loading = sum(1 for p, h in zip(me.upload_progress, hacks, strict=True) if 0 < p < h.upload)
        v = np.array(
            (
                me.lp / t.lp_max_list[i], t.lp_max_list[i] / 60,
                *_BYTE_BITS[me.conditions & 255], *_BYTE_BITS[me.conditions >> 8 & 255],
                len(me.zehrend) / 3, me.down, me.dead, me.fled, me.reactions / 3, me.mumm / 5,
                me.mumm / me.mumm_max if me.mumm_max else 0.0, me.aim_stacks / 3,
                *t.other_static[i][2:4], t.other_static[i][4],
                x / max(1, t.width - 1), y / max(1, t.height - 1), c.bm.elevation[me.pos] / 10,
                *_SIDE[me.side],
                min(cover, default=0.0), max(cover, default=0.0), len(cover) / MAX_OTHERS,
                t.exit_distance[me.pos] / SCALE_MAP, len(t.exit_xy) > 0, handlung, move_left,
                me.extra_action_used, len(me.items) / 6, len(me.backpack) / 6,
                sum(me.cyber_uses) / 6, ready / 6, loading / 6,
            ),
            dtype=np.float32,
        )  # fmt: skip
        return _clip("self", v)

    def _weapons(self, me: FighterState) -> F32:
        t, i = self.t, me.idx
        out = np.zeros((MAX_WEAPONS, len(WEAPON_FEATURES)), dtype=np.float32)
        rows = []
        for k, w in enumerate(me.weapons):
            rows.append(
                (
                    1.0, k == me.drawn, me.weapon_usable(k), w.kind is WeaponKind.MELEE,
                    w.kind is WeaponKind.RANGED, w.area_radius > 0,
                    me.ammo[k] / w.magazine if w.magazine > 0 else 1.0,
                    t.weapon_static[i][k][0], t.weapon_static[i][k][1],
                    bool(me.jammed >> k & 1 or me.dropped >> k & 1),
                )
            )  # fmt: skip
        out[: len(rows)] = rows
        return np.clip(out, 0.0, 1.0, out=out)

    def _others(
        self,
        c: Combat,
        me: FighterState,
        rows: Sequence[int],
        attackable: set[int],
        ctx_fighter: int,
        cache: dict[tuple[int, int], tuple[bool, float, float]],
    ) -> tuple[F32, list[float]]:
        """Feature rows for ``rows``; also my cover against each standing foe I can see.
        Threat and melee reach count only for fighters who may attack me (A01)."""
        t = self.t
        bm = c.bm
        xs, ys, elev = t.xs, t.ys, bm.elevation
        out = np.zeros((MAX_OTHERS, len(OTHER_FEATURES)), dtype=np.float32)
        if not rows:
            return out, []
        cover_vs: list[float] = []
        mx, my, me_elev = xs[me.pos], ys[me.pos], elev[me.pos]
        lp_max, aim_target, aim = t.lp_max_list, me.aim_target, me.aim_stacks / 3
        friendly_fire = c.options.friendly_fire
        table = []
        for j in rows:
            g = c.fighters[j]
            gx, gy = xs[g.pos], ys[g.pos]
            dx, dy = gx - mx, gy - my
            dist = max(abs(dx), abs(dy))
            standing = not (g.dead or g.down or g.fled)
            danger = standing and (friendly_fire or g.side is not me.side)
            key = (me.idx, j)
            seen = cache.get(key)
            if seen is None:
                seen = _sight_and_cover(c, me, g)
                cache[key] = seen
            sight, theirs, mine = seen
            if sight and standing and g.side is not me.side:
                cover_vs.append(mine)
            table.append(
                (
                    1.0, standing, g.down, g.dead, g.fled, g.prone, g.side is Side.NEUTRAL,
                    dx / SCALE_MAP, dy / SCALE_MAP, dist / SCALE_MAP, (elev[g.pos] - me_elev) / 10,
                    sight, theirs, mine, g.lp / lp_max[j], lp_max[j] / 60,
                    *_BYTE_BITS[g.conditions & 255], *_BYTE_BITS[g.conditions >> 8 & 255],
                    len(g.zehrend) / 3, g.reactions / 3,
                    g.mumm / g.mumm_max if g.mumm_max else 0.0,
                    self._threat(g, me, dist, sight) if danger else 0.0, j in attackable,
                    aim if aim_target == j else 0.0, c.turn_fighter == j, ctx_fighter == j,
                    *t.other_static[j], dist <= g.melee_reach if danger else False,
                )
            )  # fmt: skip
        out[: len(table)] = table
        return _clip("allies", out), cover_vs

    def _cover_cache(self, c: Combat) -> dict[tuple[int, int], tuple[bool, float, float]]:
        """Sight and cover depend only on where everyone is, who is down or prone and which
        doors are shut: reuse them while none of that changes."""
        world = (
            bytes(c.opaque),
            tuple((f.pos, f.on_map, f.dead, f.down, f.prone) for f in c.fighters),
        )
        if world != self._world:
            self._world = world
            self._cover = {}
        return self._cover

    def _threat(self, g: FighterState, me: FighterState, dist: int, sight: bool) -> float:
        """Average damage of ``g``'s best usable weapon that can reach ``me`` this turn
        (melee: reach plus Bewegung; ranged: range and line of sight), as a fraction of
        ``me``'s current LP (at least 1)."""
        best = 0.0
        for k, melee, reach, damage in self.t.weapon_rows[g.idx]:
            if damage <= best or not (dist <= reach if melee or sight else False):
                continue
            if g.weapon_usable(k):
                best = damage
        return min(1.0, best / max(1, me.lp))

    def _context(
        self,
        c: Combat,
        me: FighterState,
        legal: Sequence[Action] | None,
        step: int,
        max_steps: int,
    ) -> F32:
        v = np.zeros(len(CONTEXT_FEATURES), dtype=np.float32)
        d = c.decision
        deciding = legal is not None and d is not None
        if deciding and d is not None:
            v[int(d.kind)] = 1.0
            about = d.payload
            roll = about.attack.roll if isinstance(about, AttackPrompt) else None
            if d.kind is DecisionKind.DEFEND and roll is not None:
                v[_CI["attack_total/30"]] = roll.total / 30
        else:
            v[_NONE] = 1.0
        limit = self.t.round_limit
        v[_CI["deciding"] :] = (
            deciding, c.round / limit if limit else 0.0, c.round / 50, limit > 0,
            step / max_steps, len(legal) / 64 if legal is not None else 0.0,
            c.turn_fighter == me.idx,
        )  # fmt: skip
        return _clip("context", v)

    def _grid(self, c: Combat, me: FighterState, moves: tuple[IntArray, IntArray] | None) -> F32:
        t = self.t
        r = PATCH_RADIUS
        x, y = t.xs[me.pos], t.ys[me.pos]  # padded coordinates of the patch's corner
        out = np.zeros((len(GRID_CHANNELS), PATCH, PATCH), dtype=np.float32)
        out[:STATIC_CHANNELS] = t.static_grid[:, y : y + PATCH, x : x + PATCH]
        elev = t.elevation[y : y + PATCH, x : x + PATCH] - c.bm.elevation[me.pos]
        out[G["elevation"]] = np.clip(elev / 5.0, -1.0, 1.0)
        closed, opened = out[G["door_closed"]], out[G["door_open"]]
        for cell in t.doors:
            px, py = t.xs[cell] - x + r, t.ys[cell] - y + r
            if 0 <= px < PATCH and 0 <= py < PATCH:
                if c.solid[cell]:
                    closed[py, px] = 1.0
                else:
                    opened[py, px] = 1.0
        for g in c.fighters:
            if not g.on_map:
                continue
            px, py = t.xs[g.pos] - x + r, t.ys[g.pos] - y + r
            if not (0 <= px < PATCH and 0 <= py < PATCH):
                continue
            if g.idx == me.idx:
                ch = G["self"]
            elif not g.standing:
                ch = G["fallen"]
            elif g.side is me.side:
                ch = G["ally"]
            elif g.side is Side.NEUTRAL:
                ch = G["neutral"]
            else:
                ch = G["enemy"]
            out[ch, py, px] = 1.0
        if moves is not None:
            dx, dy = moves
            near = (np.abs(dx) <= r) & (np.abs(dy) <= r)
            out[G["move_target"], dy[near] + r, dx[near] + r] = 1.0
        return out


def _sight_and_cover(c: Combat, me: FighterState, g: FighterState) -> tuple[bool, float, float]:
    """(line of sight, ``g``'s cover against ``me``, ``me``'s cover against ``g``), the
    covers as level / 3 (C01–C04 via the engine's ``cover_against``)."""
    if not g.on_map or g.dead or not has_line_of_sight(c.bm, c.opaque, me.pos, g.pos):
        return False, 0.0, 0.0
    theirs = cover_against(c, me, g, ranged=True).level / 3
    mine = cover_against(c, g, me, ranged=True).level / 3
    return True, theirs, mine


def _context_fighter(c: Combat) -> int:
    """The other fighter a prompt is about: the attacker (DEFEND, NIEDERWERFEN), the mover
    (BLOCKADE) or the dragged fighter (DRAG); −1 otherwise."""
    d = c.decision
    if d is None:
        return -1
    about = d.payload
    if isinstance(about, AttackPrompt):  # DEFEND, NIEDERWERFEN
        return about.attack.attacker
    if isinstance(about, BlockadePrompt):
        return about.mover
    if isinstance(about, DragPrompt):
        return about.target
    return -1
