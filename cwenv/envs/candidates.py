"""Encoding 2, the actions (issue #18): one feature row per legal action, padded to K.

Candidate ``i`` is ``Combat.legal_actions()[i]``: the engine's own order, so index → Action
is a lookup and nothing about the action space depends on the map or the rules. Each row
says what the action is and what it would do, in numbers the engine computes itself:

* what: the kind (``candidate_kind``, an integer < ``MAX_ACTION_KINDS``), the target's
  entity row (``candidate_target``, −1 for none), the cell relative to the decider, the
  ``arg`` and the Mumm flag, the weapon's features where ``arg`` is a weapon;
* where the decider would stand (the move's cell, else where it stands now): its terrain
  cover against every entity row and the distance to it (``candidate_vs``, C01/C02 via
  ``terrain_cover``: FULL where sight is blocked), summarised over the standing enemies;
* the odds: exact success and hit chances, expected QS and damage of an attack
  (:func:`cwenv.engine.preview.preview_attack`, A01–A06, D01/D02), the Mumm it costs (M01–M09).

Rows past the legal count are zero with ``candidate_mask`` 0. A decision with more than K
legal actions raises :class:`~cwenv.envs.errors.EncodingError`: no action is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cwenv.battlemap.los import terrain_cover
from cwenv.engine.actions import ARG_OF, HANDLUNG_KINDS, Action, ActionKind, ArgKind, mumm_price
from cwenv.engine.fighter import FighterState
from cwenv.engine.preview import mean_damage_per_qs, preview_attack
from cwenv.engine.state import Combat
from cwenv.envs.entities import MAX_ENTITIES
from cwenv.envs.errors import EncodingError
from cwenv.envs.tables import F32, SCALE_MAP, GameTables
from cwenv.model.types import Side, WeaponKind

MAX_ACTION_KINDS = 64  # ActionKind has 48 members; the kind one-hot's capacity
CANDIDATE_FEATURES = (
    "valid", "handlung", "has_target", "target_self", "target_ally", "target_enemy",
    "has_cell", "cell_dx", "cell_dy", "cell_distance/movement", "cell_elevation_diff/10",
    "dest_cover_min/3", "dest_cover_mean/3", "dest_cover_max/3", "dest_enemies_in_sight/15",
    "dest_nearest_enemy", "dest_mean_enemy_distance", "dest_in_enemy_melee_reach/15",
    "dest_exit_distance/63", "arg/16", "mumm_flag", "mumm_cost/5", "mumm_cost_fraction",
    "weapon_melee", "weapon_ranged", "weapon_area", "weapon_range/30", "weapon_damage/20",
    "weapon_ammo_fraction", "weapon_drawn", "attack_success", "attack_hit",
    "attack_expected_qs/3", "expected_damage/20", "expected_damage/target_lp",
    "target_cover/3", "defence_possible", "probenwert/30",
)  # fmt: skip
VS_FEATURES = ("cover/3", "distance")
"""``candidate_vs[i, r]``: the terrain cover the decider would have at candidate ``i``'s
standpoint against entity row ``r``'s fighter / 3, and their distance / 63."""
_C = {n: k for k, n in enumerate(CANDIDATE_FEATURES)}
_CELL_MOVES = frozenset({ActionKind.MOVE, ActionKind.SCHWIERIG})
_ODDS = frozenset(
    {ActionKind.ATTACK, ActionKind.MANEUVER, ActionKind.HACK, ActionKind.BLOCKADE_ATTACK}
)
_WEAPON_DAMAGE = frozenset({ActionKind.ATTACK, ActionKind.BLOCKADE_ATTACK})


def candidate_bounds(k: int) -> tuple[F32, F32]:
    low = np.zeros((k, len(CANDIDATE_FEATURES)), dtype=np.float32)
    low[:, _C["cell_dx"]] = low[:, _C["cell_dy"]] = low[:, _C["cell_elevation_diff/10"]] = -1.0
    return low, np.ones_like(low)


class CandidateEncoder:
    """Candidate rows of one game's decisions (terrain cover is cached while no door moves)."""

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
        self, c: Combat, decider: int, rows: Sequence[int], legal: Sequence[Action]
    ) -> tuple[F32, F32, F32, F32, F32]:
        """(candidates, kind, target row, vs, mask) for ``legal``; ``rows`` are the entity rows."""
        if len(legal) > self.k:
            raise EncodingError(
                f"{len(legal)} legal actions for {c.game.names[decider]}, but encoding 2 "
                f"holds K={self.k} candidates: raise K (cwenv.envs.encoding2.DEFAULT_K); "
                "no legal action is dropped"
            )
        if bytes(c.opaque) != self._opaque:
            self._opaque, self._cover = bytes(c.opaque), {}
        k = self.k
        feats = np.zeros((k, len(CANDIDATE_FEATURES)), dtype=np.float32)
        kind = np.zeros(k, dtype=np.float32)
        target = np.full(k, -1.0, dtype=np.float32)
        vs = np.zeros((k, MAX_ENTITIES, len(VS_FEATURES)), dtype=np.float32)
        mask = np.zeros(k, dtype=np.float32)
        mask[: len(legal)] = 1.0
        row_of = {j: r for r, j in enumerate(rows)}
        me = c.fighters[decider]
        others = [c.fighters[j] for j in rows]
        foes = [
            r for r, g in enumerate(others) if g.standing and g.on_map and g.side is not me.side
        ]
        standpoints: dict[int, tuple[F32, tuple[float, ...]]] = {}
        for i, a in enumerate(legal):
            if int(a.kind) >= MAX_ACTION_KINDS:
                raise EncodingError(f"{a!r}: action kind {int(a.kind)} ≥ {MAX_ACTION_KINDS}")
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
