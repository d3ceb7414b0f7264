"""The doctrines as they scored cells before the per-decision memos of issue #16, for
``tests/test_doctrine_identical.py`` to compare with.

:func:`plain_board` is a :class:`~agents.board.Board` that keeps no damage profile
(``weapon_profile`` computes each one anew) and walks with the multi-source search as
first written (:func:`tests.walk_reference.plain_walk_field`); :class:`PlainStuermer`
values its manoeuvres per cell and manoeuvre, as before, instead of once per enemy.
"""

from __future__ import annotations

from typing import Any

from agents.board import FAR, Board
from agents.stuermer import Stuermer
from cwenv.agent import DecisionView
from tests.walk_reference import plain_walk_field


class _Forget(dict[Any, Any]):
    """A memo that keeps nothing."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


class PlainBoard(Board):
    __slots__ = ()

    def walk_distance(self, cell: int) -> int:
        if not self.enemies:
            return FAR
        if self._walk is None:  # one search per decision, as before
            targets = tuple(sorted(e.pos for e in self.enemies))
            self._walk = plain_walk_field(self.bm, targets, self.opaque)
        d = self._walk[cell]
        return d if d < FAR else self.nearest_enemy_distance(cell) + 50


def plain_board(view: DecisionView) -> Board:
    board = PlainBoard(view)
    board.profiles = _Forget()
    return board


class PlainStuermer(Stuermer):
    def cell_bonus(self, board: Board, cell: int, acting: bool) -> float:
        reach = max(board.me.melee_reach, 1)
        if any(board.dist(cell, e.pos) <= reach for e in board.enemies):
            return self.config.melee_bonus
        return 0.0

    def attack_from(self, board: Board, cell: int) -> float:
        best = super(Stuermer, self).attack_from(board, cell)
        for t in board.enemies:
            if board.dist(cell, t.pos) <= 1:
                for m in self._allowed:
                    best = max(best, self._maneuver(board, t, m))
        return best
