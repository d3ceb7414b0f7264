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
  (:func:`cwenv.engine.preview.preview_attack`, A01–A06, D01/D02; natively under the native
  engine, :mod:`cwenv.envs.previews_core`), the Mumm it costs (M01–M09).

Rows past the legal count are zero with ``candidate_mask`` 0. A decision with more than K
legal actions raises :class:`~cwenv.envs.errors.EncodingError`: no action is dropped (the
envs encode such a decision with a row for every action, ``width``, and choose it in
stages: :mod:`cwenv.envs.stages`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cwenv.battlemap.los import terrain_cover
from cwenv.engine.actions import ARG_OF, HANDLUNG_KINDS, Action, ActionKind, ArgKind, mumm_price
from cwenv.engine.fighter import FighterState
from cwenv.engine.preview import mean_damage_per_qs, preview_attack
from cwenv.engine.state import Combat
from cwenv.envs.encode_core import NativeEncoder
from cwenv.envs.entities import MAX_ENTITIES, N_DECISIONS
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
# Per action kind value: the kind sets above as lookup tables over a column of kinds.
_CELL_MOVE = np.zeros(MAX_ACTION_KINDS, dtype=bool)
_CELL_MOVE[[int(kind) for kind in _CELL_MOVES]] = True
_HANDLUNG = np.zeros(MAX_ACTION_KINDS, dtype=bool)
_HANDLUNG[[int(kind) for kind in HANDLUNG_KINDS]] = True
_ODDS_KIND = np.zeros(MAX_ACTION_KINDS, dtype=bool)
_ODDS_KIND[[int(kind) for kind in _ODDS]] = True
_WEAPON_ARGS = frozenset(kind for kind in ActionKind if ARG_OF[kind] is ArgKind.WEAPON)
_WEAPON_ARG = np.zeros(MAX_ACTION_KINDS, dtype=bool)
_WEAPON_ARG[[int(kind) for kind in _WEAPON_ARGS]] = True
_NO_FOES = np.array((1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0))
"""A standpoint's summary when no enemy stands: full cover, none in sight, far away."""


def candidate_bounds(k: int) -> tuple[F32, F32]:
    low = np.zeros((k, len(CANDIDATE_FEATURES)), dtype=np.float32)
    low[:, _C["cell_dx"]] = low[:, _C["cell_dy"]] = low[:, _C["cell_elevation_diff/10"]] = -1.0
    return low, np.ones_like(low)


class CandidateEncoder:
    """Candidate rows of one game's decisions, computed column by column across the
    candidates: what they share (a standpoint's cover towards every fighter, the decider's
    weapons, the sides of the targets) is worked out once per decision. Terrain cover is
    cached per firing cell while no door moves."""

    def __init__(self, tables: GameTables, k: int) -> None:
        self.t = tables
        self.k = k
        self._low, self._high = candidate_bounds(k)
        self._opaque: bytes = b""
        self._covers: dict[int, np.ndarray] = {}  # firing cell -> level per cell, −1 unknown
        self._xs = np.asarray(tables.xs, dtype=np.int64)
        self._ys = np.asarray(tables.ys, dtype=np.int64)
        self._exit = np.asarray(tables.exit_distance, dtype=np.float64) / SCALE_MAP
        self._elevation: tuple[object, np.ndarray] = (None, np.zeros(0, dtype=np.int64))
        self._prices: dict[tuple[int, bool], int] = {}  # (kind, pays Mumm) -> price
        self.native = NativeEncoder(tables, N_DECISIONS, (_CELL_MOVES, _ODDS, _WEAPON_ARGS))

    def _cover_levels(self, c: Combat, src: int, cells: np.ndarray) -> np.ndarray:
        """The terrain cover (C01, C02; FULL where sight is blocked) at each of ``cells``
        against fire from ``src``."""
        known = self._covers.get(src)
        if known is None:
            known = self._covers[src] = np.full(c.bm.size, -1, dtype=np.int8)
        levels: np.ndarray = known[cells]
        if (levels < 0).any():
            for cell in np.unique(cells[levels < 0]).tolist():
                known[cell] = int(terrain_cover(c.bm, c.opaque, src, cell))
            levels = known[cells]
        return levels

    def _distances(self, cell: int, cells: np.ndarray) -> np.ndarray:
        """Chebyshev metres (B01) from ``cell`` to each of ``cells``."""
        dx = np.abs(self._xs[cells] - self._xs[cell])
        out: np.ndarray = np.maximum(dx, np.abs(self._ys[cells] - self._ys[cell]))
        return out

    def encode(
        self,
        c: Combat,
        decider: int,
        rows: Sequence[int],
        legal: Sequence[Action],
        width: int | None = None,
    ) -> tuple[F32, F32, F32, F32, F32]:
        """(candidates, kind, target row, vs, mask) for ``legal``; ``rows`` are the entity
        rows. ``width`` (default K) is the number of rows: the two-stage choice of
        :mod:`cwenv.envs.stages` encodes every legal action of a decision above K at once."""
        n = len(legal)
        k = self.k if width is None else width
        if n > k:
            raise EncodingError(
                f"{n} legal actions for {c.game.names[decider]}, but encoding 2 "
                f"holds K={k} candidates: raise K (cwenv.envs.encoding2.DEFAULT_K); "
                "no legal action is dropped"
            )
        feats = np.zeros((k, len(CANDIDATE_FEATURES)), dtype=np.float32)
        kind = np.zeros(k, dtype=np.float32)
        target = np.full(k, -1.0, dtype=np.float32)
        vs = np.zeros((k, MAX_ENTITIES, len(VS_FEATURES)), dtype=np.float32)
        mask = np.zeros(k, dtype=np.float32)
        mask[:n] = 1.0
        if n == 0:
            return feats, kind, target, vs, mask
        v = feats[:n]
        odds = self.native.candidates(c, decider, rows, legal, (feats, kind, target, vs))
        if odds is None:
            odds = self._reference(c, decider, rows, legal, feats, kind, target, vs)
            self._previews(c, legal, v, odds)
        elif odds and not self.native.previews(c, legal, feats, odds):
            self._previews(c, legal, v, odds)
        np.clip(v, self._low[0], self._high[0], out=v)  # every row has the same bounds
        return feats, kind, target, vs, mask

    def _reference(
        self,
        c: Combat,
        decider: int,
        rows: Sequence[int],
        legal: Sequence[Action],
        feats: F32,
        kind: F32,
        target: F32,
        vs: F32,
    ) -> list[int]:
        """The Python encoder of the rows but the odds (the statement the core follows):
        fills the arrays, returns the candidates whose previews come next."""
        if bytes(c.opaque) != self._opaque:
            self._opaque, self._covers = bytes(c.opaque), {}
        n = len(legal)
        # One row of ints per action: kind, actor, target, cell, arg, mumm.
        acts = np.array([a[:6] for a in legal], dtype=np.int64).reshape(n, 6)
        kinds, targets, cells, args, mumms = (acts[:, j] for j in (0, 2, 3, 4, 5))
        if (kinds >= MAX_ACTION_KINDS).any():
            a = legal[int(np.argmax(kinds >= MAX_ACTION_KINDS))]
            raise EncodingError(f"{a!r}: action kind {int(a.kind)} ≥ {MAX_ACTION_KINDS}")
        me = c.fighters[decider]
        kind[:n] = kinds
        row_of = np.full(len(c.fighters), -1, dtype=np.int64)
        row_of[list(rows)] = np.arange(len(rows))
        aimed = targets >= 0
        target[:n][aimed] = row_of[targets[aimed]]
        stand = np.where(_CELL_MOVE[kinds], cells, me.pos)
        v = feats[:n]
        spots, which = np.unique(stand, return_inverse=True)
        spot_vs, summary = self._standpoints(c, spots, [c.fighters[j] for j in rows], me)
        vs[:n] = spot_vs[which]
        v[:, _C["dest_cover_min/3"] : _C["dest_exit_distance/63"]] = summary[which]
        self._what(c, me, legal, v, kinds, targets, cells, args, mumms, stand)
        odds: list[int] = np.flatnonzero(_ODDS_KIND[kinds]).tolist()
        return odds

    def _standpoints(
        self, c: Combat, spots: np.ndarray, others: list[FighterState], me: FighterState
    ) -> tuple[F32, np.ndarray]:
        """Each standpoint's vs rows and its summary over the standing enemies: cover
        min, mean, max, enemies in sight, nearest and mean distance, melee reaches."""
        out = np.zeros((len(spots), MAX_ENTITIES, len(VS_FEATURES)), dtype=np.float32)
        seen = [r for r, g in enumerate(others) if r and g.on_map]
        if not seen:
            return out, np.tile(_NO_FOES, (len(spots), 1))
        srcs = [others[r].pos for r in seen]
        levels = np.stack([self._cover_levels(c, src, spots) for src in srcs])
        metres = np.maximum(  # (seen, spots): Chebyshev metres (B01)
            np.abs(self._xs[spots][None, :] - self._xs[srcs][:, None]),
            np.abs(self._ys[spots][None, :] - self._ys[srcs][:, None]),
        )
        out[:, seen, 0] = (levels / 3).T
        out[:, seen, 1] = (metres / SCALE_MAP).T
        foes = [
            k for k, r in enumerate(seen) if others[r].standing and others[r].side is not me.side
        ]
        if not foes:
            return out, np.tile(_NO_FOES, (len(spots), 1))
        # Float64 of the float32 entries, summed foe by foe in roster order: the same
        # numbers, in the same order, as a sum over each standpoint's foes.
        cover = out[:, [seen[k] for k in foes], 0].T.astype(np.float64)
        ds = out[:, [seen[k] for k in foes], 1].T.astype(np.float64)
        cover_sum, ds_sum = cover[0].copy(), ds[0].copy()
        for j in range(1, len(foes)):
            cover_sum += cover[j]
            ds_sum += ds[j]
        reaches = np.array([others[seen[k]].melee_reach for k in foes])[:, None]
        reach = (metres[foes] <= reaches).sum(axis=0)
        return out, np.stack(
            (
                cover.min(axis=0), cover_sum / len(foes), cover.max(axis=0),
                (cover < 1.0).sum(axis=0) / 15, ds.min(axis=0), ds_sum / len(foes),
                reach / 15,
            ),
            axis=1,
        )  # fmt: skip

    def _what(
        self,
        c: Combat,
        me: FighterState,
        legal: Sequence[Action],
        v: np.ndarray,
        kinds: np.ndarray,
        targets: np.ndarray,
        cells: np.ndarray,
        args: np.ndarray,
        mumms: np.ndarray,
        stand: np.ndarray,
    ) -> None:
        """Fill the rows ``v`` but the standpoint summary and the odds: what each action is."""
        v[:, _C["valid"]] = 1.0
        v[:, _C["handlung"]] = _HANDLUNG[kinds]
        aimed = targets >= 0
        if aimed.any():
            side = me.side
            ally = np.array([g.side is side for g in c.fighters])
            enemy = np.array(
                [g.side is not side and g.side is not Side.NEUTRAL for g in c.fighters]
            )
            t = targets[aimed]
            v[aimed, _C["has_target"]] = 1.0
            v[aimed, _C["target_self"]] = t == me.idx
            v[aimed, _C["target_ally"]] = (t != me.idx) & ally[t]
            v[aimed, _C["target_enemy"]] = enemy[t]
        placed = cells >= 0
        if placed.any():
            to = cells[placed]
            pos = me.pos
            elevation = self._elevations(c)
            v[placed, _C["has_cell"]] = 1.0
            v[placed, _C["cell_dx"]] = (self._xs[to] - self._xs[pos]) / SCALE_MAP
            v[placed, _C["cell_dy"]] = (self._ys[to] - self._ys[pos]) / SCALE_MAP
            v[placed, _C["cell_distance/movement"]] = self._distances(pos, to) / max(
                1, me.spec.movement
            )
            v[placed, _C["cell_elevation_diff/10"]] = (elevation[to] - elevation[pos]) / 10
        v[:, _C["dest_exit_distance/63"]] = self._exit[stand]
        v[:, _C["arg/16"]] = np.maximum(args, 0) / 16
        v[:, _C["mumm_flag"]] = mumms
        # One price per (kind, pays Mumm) among the candidates, spread to all of them.
        pays = kinds * 2 + (mumms != 0)
        _, first, which = np.unique(pays, return_index=True, return_inverse=True)
        cost = np.array([self._price(legal[i]) for i in first.tolist()], dtype=np.int64)[which]
        v[:, _C["mumm_cost/5"]] = cost / 5
        v[:, _C["mumm_cost_fraction"]] = cost / me.mumm if me.mumm else cost > 0
        armed = _WEAPON_ARG[kinds] & (args >= 0) & (args < len(me.weapons))
        if armed.any():
            v[armed, _C["weapon_melee"] : _C["attack_success"]] = self._weapons(me)[args[armed]]

    def _previews(self, c: Combat, legal: Sequence[Action], v: np.ndarray, odds: list[int]) -> None:
        """The odds of the candidates ``odds`` (attacks, manoeuvres, hacks; A01-A06,
        D01/D02): exact success and hit chances, expected QS and damage."""
        for i in odds:
            a = legal[i]
            p = preview_attack(c, a)
            if p is not None:
                dmg_lp = (
                    p.expected_qs * mean_damage_per_qs(c, a) if a.kind in _WEAPON_DAMAGE else 0.0
                )
                lp = max(1, c.fighters[a.target].lp)
                v[i, _C["attack_success"] :] = (
                    p.success, p.hit, p.expected_qs / 3, dmg_lp / 20, dmg_lp / lp,
                    int(p.cover) / 3, p.defence is not None, p.probenwert / 30,
                )  # fmt: skip

    def _price(self, a: Action) -> int:
        """M01–M09: a price reads the action's kind and whether it pays Mumm only."""
        key = (int(a.kind), a.mumm != 0)
        cost = self._prices.get(key)
        if cost is None:
            cost = self._prices[key] = mumm_price(a)
        return cost

    def _elevations(self, c: Combat) -> np.ndarray:
        bm, elevation = self._elevation
        if bm is not c.bm:
            elevation = np.asarray(c.bm.elevation, dtype=np.int64)
            self._elevation = (c.bm, elevation)
        return elevation

    def _weapons(self, f: FighterState) -> np.ndarray:
        """The weapon columns of each of ``f``'s weapon slots (X12 damage via the tables)."""
        rows = np.zeros((len(f.weapons), _C["attack_success"] - _C["weapon_melee"]))
        for slot, w in enumerate(f.weapons):
            rng, dmg = self.t.weapon_static[f.idx][slot]
            rows[slot] = (
                w.kind is WeaponKind.MELEE, w.kind is WeaponKind.RANGED, w.area_radius > 0,
                rng, dmg, f.ammo[slot] / w.magazine if w.magazine > 0 else 1.0,
                slot == f.drawn,
            )  # fmt: skip
        return rows
