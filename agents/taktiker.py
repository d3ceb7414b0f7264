"""Der Taktiker: focus fire, exact odds for every reaction and every Mumm point.

As a game master would run it: the whole side concentrates on the weakest enemy it can
reach (the lowest share of LP left; a knock-out counts extra), from cover where it can. It
defends only when the exact odds say the defence saves more than the reaction is worth
(A02–A04: the attack's roll is known, all 100 defence rolls are compared), spends Mumm by
expected value — Probe verbessern (M02), Probe wiederholen (M03), Treffer wegstecken (M06),
Dem Tod von der Schippe springen (M04), Zusätzliche Aktion (M07), Zustand abschütteln
(M08) — shakes a condition off (H12) when the condition costs more than the action, uses
medkits and stabilises the dying (D09), and once angeschlagen (D06, Z01) and outnumbered it
falls back out of reach and into cover.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from agents.board import Board, cover_cells
from agents.doctrine import Doctrine, DoctrineConfig
from cwenv.engine.fighter import FighterState
from cwenv.model.types import Condition


class TaktikerConfig(DoctrineConfig):
    kind: Literal["taktiker"] = "taktiker"
    focus_weight: float = Field(
        default=2.0, ge=0, description="Extra weight on the weakest enemy (by LP share lost)."
    )
    retreat_weight: float = Field(
        default=1.0, ge=0, description="LP per metre of distance while falling back."
    )
    retreat_risk: float = Field(
        default=1.5, ge=0, description="Weight of damage taken while falling back."
    )
    stabilise_worth: float = Field(
        default=4.0, ge=0, description="Worth of stabilising a dying ally (D09), in LP."
    )


class Taktiker(Doctrine):
    kind = "taktiker"
    default_description = "Doktrin Taktiker: Fokusfeuer, Reaktionen und Mumm nach exakten Chancen"
    config: TaktikerConfig

    def __init__(self, config: TaktikerConfig | None = None) -> None:
        super().__init__(config or TaktikerConfig())
        self.stabilise_worth = self.config.stabilise_worth

    def target_weight(self, board: Board, t: FighterState) -> float:
        """Focus fire: 1 + focus_weight × the share of its LP the enemy has lost."""
        lost = 1.0 - max(t.lp, 0) / t.spec.lp
        return 1.0 + self.config.focus_weight * lost

    def retreating(self, board: Board) -> bool:
        """Angeschlagen (Z01) and outnumbered: fall back."""
        hit = board.cache.get(("retreat",))
        if hit is None:
            me = board.me
            hit = float(me.has(Condition.ANGESCHLAGEN) and len(board.enemies) > len(board.allies))
            board.cache[("retreat",)] = hit
        return bool(hit)

    def risk(self, board: Board) -> float:
        if self.retreating(board):
            return self.config.retreat_risk
        return self.config.risk_weight

    def cell_bonus(self, board: Board, cell: int, acting: bool) -> float:
        if self.retreating(board):
            return self.config.retreat_weight * min(board.nearest_enemy_distance(cell), 12)
        return 0.0

    def candidate_key(self, board: Board, cell: int) -> float:
        return self.candidate_keys(board, (cell,))[0]

    def candidate_keys(self, board: Board, cells: Sequence[int]) -> list[float]:
        """Cells by cover first (C01, C02), then nearest to the enemy — or, falling back,
        farthest from it."""
        cover, near = cover_cells(board.bm), board.nearest_enemy_distance
        if self.retreating(board):
            return [(0.0 if c in cover else 3.0) - near(c) for c in cells]
        return [(0.0 if c in cover else 3.0) + near(c) for c in cells]
