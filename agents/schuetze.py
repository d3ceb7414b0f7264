"""Der Schütze: fights from cover at range.

As a game master would run it: the Schütze moves to a cell where it has cover against most
of the enemies' guns (C01, C02: cover is directional, so it is measured against every
enemy's position) and from which it still has a shot, keeps its distance from blades,
shoots the most dangerous enemy (the highest expected damage per round), aims (Zielen, H11)
when the exact odds say the aimed shot is worth more than two plain ones, and after firing
slips back into better cover with the movement it has left (unless that would waste an aim,
X03). Shot at while in half cover it drops prone (R06: three-quarter cover then) when that
saves more than the reaction and the prone penalties cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from agents.board import Board, cover_cells
from agents.doctrine import Doctrine, DoctrineConfig
from agents.estimates import danger
from cwenv.engine.fighter import FighterState
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import WeaponKind


class SchuetzeConfig(DoctrineConfig):
    kind: Literal["schuetze"] = "schuetze"
    danger_weight: float = Field(
        default=1.0, ge=0, description="Exponent of the preference for the most dangerous foe."
    )
    keep_distance: int = Field(
        default=3, ge=0, le=40, description="Metres it tries to keep from the nearest enemy."
    )
    distance_weight: float = Field(
        default=1.5, ge=0, description="LP per metre closer than keep_distance."
    )
    melee_weight: float = Field(default=0.6, ge=0, description="Discount on melee attacks.")


class Schuetze(Doctrine):
    kind = "schuetze"
    default_description = (
        "Doktrin Schütze: kämpft aus der Deckung, zielt, nimmt den gefährlichsten Gegner"
    )
    config: SchuetzeConfig

    def __init__(self, config: SchuetzeConfig | None = None) -> None:
        super().__init__(config or SchuetzeConfig())
        self.stand_weight = 0.7

    def target_weight(self, board: Board, t: FighterState) -> float:
        """Prefer the most dangerous enemy: (its danger / the mean danger) ** weight."""
        key = ("tw", t.idx)
        hit = board.cache.get(key)
        if hit is None:
            total = 0.0  # added in order, as its native twin does (sum() rounds otherwise
            for e in board.enemies:  # from Python 3.12 on)
                total += danger(board, e)
            mean = total / len(board.enemies) if board.enemies else 0.0
            hit = (danger(board, t) / mean) ** self.config.danger_weight if mean > 0 else 1.0
            board.cache[key] = hit
        return hit

    def candidate_key(self, board: Board, cell: int) -> float:
        return self.candidate_keys(board, (cell,))[0]

    def candidate_keys(self, board: Board, cells: Sequence[int]) -> list[float]:
        """Cells by cover first (C01, C02), then nearest to twice the distance kept."""
        cover, near, keep = (
            cover_cells(board.bm),
            board.nearest_enemy_distance,
            2 * self.config.keep_distance,
        )
        return [(0.0 if c in cover else 100.0) + abs(near(c) - keep) for c in cells]

    def armed(self, board: Board) -> bool:
        """Whether it has a gun to fight with: drawn or drawable, loaded or reloadable
        (H04, H05). Without one it fights like anybody else."""
        hit = board.cache.get(("armed",))
        if hit is None:
            me = board.me
            hit = float(
                any(
                    w.kind is WeaponKind.RANGED
                    and not me.dropped >> i & 1
                    and not me.jammed >> i & 1
                    and (me.ammo[i] > 0 or me.reloads[i] != 0 or not w.uses_ammo)
                    for i, w in enumerate(me.weapons)
                )
            )
            board.cache[("armed",)] = hit
        return bool(hit)

    def cell_bonus(self, board: Board, cell: int, acting: bool) -> float:
        if not self.armed(board):
            return 0.0
        near = board.nearest_enemy_distance(cell)
        return -self.config.distance_weight * max(0, self.config.keep_distance - near)

    def weapon_weight(self, board: Board, w: WeaponSpec) -> float:
        if w.kind is WeaponKind.MELEE and self.armed(board):
            return self.config.melee_weight
        return 1.0
