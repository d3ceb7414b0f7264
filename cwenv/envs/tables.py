"""Static per-game tables for the observation encoder, computed once per :class:`Game`.

The map is padded by the patch radius so the local grid patch of any fighter is a plain
slice; weapon numbers are arrays so threats are cheap to estimate.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cwenv.battlemap.grid import Terrain
from cwenv.engine.game import Game
from cwenv.engine.hits import damage_bonus
from cwenv.envs.layout import MAX_MAP_SIDE, MAX_WEAPONS
from cwenv.model.types import WeaponKind

F32 = npt.NDArray[np.float32]

PATCH_RADIUS = 7
PATCH = 2 * PATCH_RADIUS + 1
GRID_CHANNELS = (
    "off_map",
    "wall",
    "cover_half",
    "cover_three_quarter",
    "water",
    "climb",
    "door_closed",
    "door_open",
    "fire",
    "exit",
    "elevation",
    "self",
    "ally",
    "enemy",
    "neutral",
    "fallen",
    "move_target",
)
"""Channels of the ``grid`` observation, in order. ``elevation`` is the height relative to
the observer in metres / 5, clipped to [−1, 1]; everything else is 0/1."""
G = {name: k for k, name in enumerate(GRID_CHANNELS)}
STATIC_CHANNELS = 10  # off_map … exit never change during a fight (doors are redrawn)

SCALE_RANGE = 30.0  # metres
SCALE_DAMAGE = 20.0  # LP of an average hit
SCALE_MAP = float(MAX_MAP_SIDE - 1)


W10_MEAN = 5.5


def avg_damage(bonus: int) -> float:
    """Average damage of one QS: one W10 plus the bonus (A06), at least 0."""
    return max(0.0, W10_MEAN + bonus)


class GameTables:
    """Everything about a game the encoder needs that never changes during a fight."""

    def __init__(self, game: Game) -> None:
        bm = game.battlemap
        self.game = game
        self.width, self.height = bm.width, bm.height
        self.xs = bm.xs
        self.ys = bm.ys
        r = PATCH_RADIUS
        h, w = bm.height + 2 * r, bm.width + 2 * r
        grid = np.zeros((STATIC_CHANNELS, h, w), dtype=np.float32)
        grid[G["off_map"]] = 1.0
        grid[G["off_map"], r : r + bm.height, r : r + bm.width] = 0.0
        terrain = np.array([int(t) for t in bm.terrain], dtype=np.int64).reshape(
            bm.height, bm.width
        )
        inner = (slice(r, r + bm.height), slice(r, r + bm.width))
        for channel, kind in (
            ("wall", Terrain.WALL),
            ("cover_half", Terrain.COVER_HALF),
            ("cover_three_quarter", Terrain.COVER_THREE_QUARTER),
            ("water", Terrain.WATER),
            ("climb", Terrain.CLIMB),
            ("fire", Terrain.FIRE),
        ):
            grid[G[channel]][inner] = terrain == int(kind)
        for cell in bm.exits:
            grid[G["exit"], r + bm.ys[cell], r + bm.xs[cell]] = 1.0
        self.static_grid = grid
        elevation = np.zeros((h, w), dtype=np.float32)
        elevation[inner] = np.array(bm.elevation, dtype=np.float32).reshape(bm.height, bm.width)
        self.elevation = elevation
        self.doors = tuple(
            i for i, t in enumerate(bm.terrain) if t in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN)
        )
        self.exit_xy = np.array([[bm.xs[c], bm.ys[c]] for c in bm.exits], dtype=np.int64)
        # Chebyshev metres from every cell to the nearest exit (0 when the map has none).
        self.exit_distance = [0.0] * bm.size
        if bm.exits:
            cx = np.array(bm.xs)[:, None]
            cy = np.array(bm.ys)[:, None]
            d = np.maximum(np.abs(cx - self.exit_xy[:, 0]), np.abs(cy - self.exit_xy[:, 1]))
            self.exit_distance = [float(v) for v in d.min(axis=1)]
        n = len(game.roster)
        # Per fighter and weapon slot: present, melee, ranged, area, range, avg damage.
        self.w_present = np.zeros((n, MAX_WEAPONS), dtype=bool)
        self.w_melee = np.zeros((n, MAX_WEAPONS), dtype=bool)
        self.w_area = np.zeros((n, MAX_WEAPONS), dtype=bool)
        self.w_range = np.zeros((n, MAX_WEAPONS), dtype=np.float32)
        self.w_damage = np.zeros((n, MAX_WEAPONS), dtype=np.float32)
        self.melee_reach = np.zeros(n, dtype=np.int64)
        for i, spec in enumerate(game.roster):
            for k, wpn in enumerate(spec.all_weapons):
                self.w_present[i, k] = True
                self.w_melee[i, k] = wpn.kind is WeaponKind.MELEE
                self.w_area[i, k] = wpn.area_radius > 0
                self.w_range[i, k] = wpn.max_range
                self.w_damage[i, k] = avg_damage(damage_bonus(wpn, game.options))
        self.best_range = self.w_range.max(axis=1)
        self.best_damage = self.w_damage.max(axis=1)
        self.movement = np.array([s.movement for s in game.roster], dtype=np.float32)
        self.armour = np.array([s.armour for s in game.roster], dtype=np.float32)
        self.size = np.array([int(s.size) for s in game.roster], dtype=np.float32)
        self.lp_max = np.array([s.lp for s in game.roster], dtype=np.float32)
        self.lp_max_list = [float(s.lp) for s in game.roster]
        # Threat lookups: (slot, melee, reach incl. Bewegung for melee, average damage).
        self.weapon_rows = [
            [
                (
                    k,
                    bool(self.w_melee[i, k]),
                    float(self.w_range[i, k] + (self.movement[i] if self.w_melee[i, k] else 0)),
                    float(self.w_damage[i, k]),
                )
                for k in range(len(spec.all_weapons))
            ]
            for i, spec in enumerate(game.roster)
        ]
        self.weapon_static = [
            [
                (float(self.w_range[i, k]) / SCALE_RANGE, float(self.w_damage[i, k]) / SCALE_DAMAGE)
                for k in range(len(spec.all_weapons))
            ]
            for i, spec in enumerate(game.roster)
        ]
        # best_range/30, best_damage/20, armour/10, movement/10, size/4 of every fighter.
        self.other_static = [
            (
                float(self.best_range[i]) / SCALE_RANGE,
                float(self.best_damage[i]) / SCALE_DAMAGE,
                float(self.armour[i]) / 10,
                float(self.movement[i]) / 10,
                float(self.size[i]) / 4,
            )
            for i in range(n)
        ]
        limit = game.round_limit
        self.round_limit = limit if limit is not None else 0
