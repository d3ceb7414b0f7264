"""The straightforward encoders of encoding 2, kept as the reference of the fast ones.

:class:`PlainCandidateEncoder` is ``cwenv.envs.candidates.CandidateEncoder`` as written
before it was vectorised (issue #18, commit c98bcea): one action and one standpoint at a
time, every feature in its own assignment. :class:`PlainEntityEncoder` is the entity
encoder with the coarse map of then, built cell by cell for every decision.
tests/test_encoding2_identical.py compares the fast encoders' arrays with them byte for
byte, so the rewrite computes the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cwenv.battlemap.los import terrain_cover
from cwenv.engine.actions import ARG_OF, HANDLUNG_KINDS, Action, ArgKind, mumm_price
from cwenv.engine.fighter import FighterState
from cwenv.engine.preview import mean_damage_per_qs, preview_attack
from cwenv.engine.state import Combat
from cwenv.envs.candidates import (
    _C,
    _CELL_MOVES,
    _ODDS,
    _WEAPON_DAMAGE,
    CANDIDATE_FEATURES,
    VS_FEATURES,
    candidate_bounds,
)
from cwenv.envs.entities import (
    _COND0,
    _E,
    _EHIGH,
    _ELOW,
    _M,
    _MHIGH,
    _MLOW,
    _STATIC,
    COARSE_BLOCK,
    COARSE_RADIUS,
    COARSE_SIDE,
    ENTITY_FEATURES,
    MAP_CHANNELS,
    MAX_ENTITIES,
    EntityEncoder,
    entity_rows,
)
from cwenv.envs.observe import _context_fighter
from cwenv.envs.tables import F32, SCALE_MAP, GameTables
from cwenv.model.types import Side, WeaponKind


class PlainCandidateEncoder:
    """The candidate rows as the first encoder computed them, one action at a time."""

    def __init__(self, tables: GameTables, k: int) -> None:
        self.t = tables
        self.k = k
        self._low, self._high = candidate_bounds(k)
        self._opaque: bytes = b""
        self._cover: dict[tuple[int, int], int] = {}

    def _terrain(self, c: Combat, src: int, dst: int) -> int:
        key = (src, dst)
        level = self._cover.get(key)
        if level is None:
            level = self._cover[key] = int(terrain_cover(c.bm, c.opaque, src, dst))
        return level

    def encode(
        self,
        c: Combat,
        decider: int,
        rows: Sequence[int],
        legal: Sequence[Action],
        width: int | None = None,
    ) -> tuple[F32, F32, F32, F32, F32]:
        """(candidates, kind, target row, vs, mask) for ``legal``; ``rows`` are the entity
        rows; ``width`` rows (default K: a staged decision above K asks for one per action)."""
        # The checks of K and of the kinds are the fast encoder's; the test stays within both.
        if bytes(c.opaque) != self._opaque:
            self._opaque, self._cover = bytes(c.opaque), {}
        k, f32 = (self.k if width is None else width), np.float32
        feats, kind = np.zeros((k, len(CANDIDATE_FEATURES)), f32), np.zeros(k, f32)
        target, mask = np.full(k, -1.0, f32), (np.arange(k) < len(legal)).astype(f32)
        vs = np.zeros((k, MAX_ENTITIES, len(VS_FEATURES)), f32)
        row_of = {j: r for r, j in enumerate(rows)}
        me = c.fighters[decider]
        others = [c.fighters[j] for j in rows]
        foes = [
            r for r, g in enumerate(others) if g.standing and g.on_map and g.side is not me.side
        ]
        standpoints: dict[int, tuple[F32, tuple[float, ...]]] = {}
        for i, a in enumerate(legal):
            kind[i] = int(a.kind)
            if a.target >= 0:
                target[i] = row_of[a.target]
            stand = a.cell if a.kind in _CELL_MOVES else me.pos
            seen = standpoints.get(stand)
            if seen is None:
                seen = standpoints[stand] = self._standpoint(c, stand, others, foes)
            vs[i] = seen[0]
            feats[i] = self._row(c, a, me, seen[1])
        np.clip(feats, self._low, self._high, out=feats)
        return feats, kind, target, vs, mask

    def _standpoint(
        self, c: Combat, cell: int, others: list[FighterState], foes: list[int]
    ) -> tuple[F32, tuple[float, ...]]:
        """The vs rows of a standpoint and its summary over the standing enemies."""
        out = np.zeros((MAX_ENTITIES, len(VS_FEATURES)), dtype=np.float32)
        dist = c.bm.distance
        for r, g in enumerate(others):
            if r == 0 or not g.on_map:
                continue
            out[r] = (self._terrain(c, g.pos, cell) / 3, dist(g.pos, cell) / SCALE_MAP)
        if not foes:
            return out, (1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0)
        cover = [float(out[r, 0]) for r in foes]
        ds = [float(out[r, 1]) for r in foes]
        in_reach = sum(1 for r in foes if dist(others[r].pos, cell) <= others[r].melee_reach)
        return out, (
            min(cover), sum(cover) / len(cover), max(cover),
            sum(1 for v in cover if v < 1.0) / 15, min(ds), sum(ds) / len(ds), in_reach / 15,
        )  # fmt: skip

    def _row(self, c: Combat, a: Action, f: FighterState, summary: tuple[float, ...]) -> F32:
        t = self.t
        v = np.zeros(len(CANDIDATE_FEATURES), dtype=np.float32)
        v[_C["valid"]] = 1.0
        v[_C["handlung"]] = a.kind in HANDLUNG_KINDS
        if a.target >= 0:
            g = c.fighters[a.target]
            v[_C["has_target"]] = 1.0
            v[_C["target_self"]] = a.target == f.idx
            v[_C["target_ally"]] = a.target != f.idx and g.side is f.side
            v[_C["target_enemy"]] = g.side is not f.side and g.side is not Side.NEUTRAL
        if a.cell >= 0:
            v[_C["has_cell"]] = 1.0
            v[_C["cell_dx"]] = (t.xs[a.cell] - t.xs[f.pos]) / SCALE_MAP
            v[_C["cell_dy"]] = (t.ys[a.cell] - t.ys[f.pos]) / SCALE_MAP
            v[_C["cell_distance/movement"]] = c.bm.distance(f.pos, a.cell) / max(1, f.spec.movement)
            v[_C["cell_elevation_diff/10"]] = (c.bm.elevation[a.cell] - c.bm.elevation[f.pos]) / 10
        stand = a.cell if a.kind in _CELL_MOVES else f.pos
        v[_C["dest_cover_min/3"] : _C["dest_exit_distance/63"]] = summary
        v[_C["dest_exit_distance/63"]] = t.exit_distance[stand] / SCALE_MAP
        v[_C["arg/16"]] = max(a.arg, 0) / 16
        v[_C["mumm_flag"]] = a.mumm
        cost = mumm_price(a)
        v[_C["mumm_cost/5"]] = cost / 5
        v[_C["mumm_cost_fraction"]] = cost / f.mumm if f.mumm else float(cost > 0)
        if ARG_OF[a.kind] is ArgKind.WEAPON and 0 <= a.arg < len(f.weapons):
            w = f.weapons[a.arg]
            rng, dmg = t.weapon_static[f.idx][a.arg]
            v[_C["weapon_melee"] : _C["attack_success"]] = (
                w.kind is WeaponKind.MELEE, w.kind is WeaponKind.RANGED, w.area_radius > 0,
                rng, dmg, f.ammo[a.arg] / w.magazine if w.magazine > 0 else 1.0,
                a.arg == f.drawn,
            )  # fmt: skip
        if a.kind in _ODDS:
            p = preview_attack(c, a)
            if p is not None:
                dmg_lp = (
                    p.expected_qs * mean_damage_per_qs(c, a) if a.kind in _WEAPON_DAMAGE else 0.0
                )
                lp = max(1, c.fighters[a.target].lp)
                v[_C["attack_success"] :] = (
                    p.success, p.hit, p.expected_qs / 3, dmg_lp / 20, dmg_lp / lp,
                    int(p.cover) / 3, p.defence is not None, p.probenwert / 30,
                )  # fmt: skip
        return v


class PlainEntityEncoder(EntityEncoder):
    """The entity encoder as of c98bcea: one array per row, the condition bits of every row
    counted afresh, the coarse map cell by cell (no cache per standpoint)."""

    def encode(self, c: Combat, decider: int, legal: Sequence[Action]) -> tuple[F32, F32, F32, F32]:
        """(entities, entity_mask, global, map) for ``decider``, who decides ``legal``."""
        me = c.fighters[decider]
        rows = entity_rows(self.slots, decider)
        cache = self._obs1._cover_cache(c)
        ctx = _context_fighter(c)
        ents = np.zeros((MAX_ENTITIES, len(ENTITY_FEATURES)), dtype=np.float32)
        for r, j in enumerate(rows):
            ents[r] = np.array(self._row(c, me, c.fighters[j], cache, ctx), dtype=np.float32)
        mask = np.zeros(MAX_ENTITIES, dtype=np.float32)
        mask[: len(rows)] = 1.0
        np.clip(ents, _ELOW, _EHIGH, out=ents)
        return ents, mask, self._global(c, me, legal), self._map(c, me)

    def _condition_bits(self, conditions: int) -> tuple[int, ...]:
        return tuple((conditions >> b) & 1 for b in range(_E["zehrend/3"] - _COND0))

    def _map(self, c: Combat, me: FighterState) -> F32:
        t = self.t
        side = COARSE_BLOCK * COARSE_SIDE
        x0, y0 = t.xs[me.pos] - COARSE_RADIUS, t.ys[me.pos] - COARSE_RADIUS
        sx, sy = x0 + COARSE_RADIUS, y0 + COARSE_RADIUS  # corner in padded coordinates
        cells = np.zeros((len(MAP_CHANNELS), side, side), dtype=np.float32)
        cells[: len(_STATIC)] = self._static[:, sy : sy + side, sx : sx + side]
        here = c.bm.elevation[me.pos]
        cells[_M["elevation"]] = (self._elevation[sy : sy + side, sx : sx + side] - here) / 5
        for cell in t.doors:
            px, py = t.xs[cell] - x0, t.ys[cell] - y0
            if 0 <= px < side and 0 <= py < side:
                cells[_M["door_closed" if c.solid[cell] else "door_open"], py, px] = 1.0
        for g in c.fighters:
            px, py = t.xs[g.pos] - x0, t.ys[g.pos] - y0
            if g.idx == me.idx or not g.on_map or not (0 <= px < side and 0 <= py < side):
                continue
            if not g.standing:
                ch = "fallen"
            elif g.side is me.side:
                ch = "ally"
            elif g.side is Side.NEUTRAL:
                ch = "neutral"
            else:
                ch = "enemy"
            cells[_M[ch], py, px] += 3.0  # a block's mean then counts fighters / 3
        shape = (len(MAP_CHANNELS), COARSE_SIDE, COARSE_BLOCK, COARSE_SIDE, COARSE_BLOCK)
        out: F32 = cells.reshape(shape).mean(axis=(2, 4)).astype(np.float32)
        np.clip(out, _MLOW, _MHIGH, out=out)
        return out
