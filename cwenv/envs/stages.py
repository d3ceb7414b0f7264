"""Encoding 2's staged choice: a decision with more legal actions than K (issue #18).

K rows hold every legal action of nearly every decision (the training pool's measured
maximum is 727, its 99th percentile 138), but nothing bounds a decision's
movement destinations but the map. A decision above K is therefore chosen in steps of the
env, and no legal action becomes unreachable:

* **Stage 1** shows every action that is not a cell move (MOVE, SCHWIERIG) as its own row,
  and the cell moves cut into *groups*: sorted by kind, then by the Z-order of their cell
  (neighbouring cells stay together), then by their legal index, and cut into as many
  contiguous groups of near-equal size as the rows left free allow. A group's row is the
  real row of one of its moves (the middle one in that order), so the network scores it as
  it scores any move. Choosing an action, or a group of one, plays it.
* **Stage 2** follows the choice of a larger group: its rows are exactly that group's
  moves, and the choice plays. Only a group above K (more than (K − other actions)·K cell
  moves: with K = 512 not on any map up to 64×64 cells, 8,192 cell moves, and none at
  all in the training pool) is cut again the same way, into K groups, one stage further.

A decision whose other actions alone fill K (never measured: a few dozen at most; a test
K of 16 meets it) has all its actions cut into groups the same way, ordered by kind first:
any K ≥ 2 plays every decision. The rows of a stage are in legal order, legal ones first,
padded as usual; the entity rows, the global row and the map are those of the whole
decision in every stage (its legal count reads K/K). A stage that chooses a group does not
touch the engine.

Everything is pure numpy on the arrays of the whole decision (encoded once, with a row for
every legal action), so both engines give the same bytes wherever the encoder does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cwenv.engine.actions import Action, ActionKind
from cwenv.envs.errors import EncodingError
from cwenv.envs.tables import F32

CELL_MOVES = frozenset({ActionKind.MOVE, ActionKind.SCHWIERIG})


@dataclass(frozen=True, slots=True)
class Stage:
    """What the rows of one stage of a decision above K stand for.

    ``number`` counts from 1; ``k`` is the rows a stage may show; ``rows[i]`` the legal
    index whose row stands in row ``i`` (a group's representative); ``groups[i]`` the
    legal indices row ``i`` chooses among (one index for an action; a group's moves in
    their kind/Z order); ``whole`` the observation of the decision with every legal
    action's row, which every stage cuts."""

    number: int
    k: int
    rows: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]
    whole: dict[str, F32]

    def action_index(self, row: int) -> int | None:
        """The legal index that row ``row`` plays; None for a group of more than one."""
        group = self.groups[row]
        return group[0] if len(group) == 1 else None

    def row_of(self, legal_index: int) -> int:
        """The row of this stage that leads to legal action ``legal_index``."""
        for row, group in enumerate(self.groups):
            if legal_index in group:
                return row
        raise EncodingError(f"legal action {legal_index} is in no row of stage {self.number}")


def _z_order(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The Morton key of each cell (x and y bits interleaved; 16 bits each)."""
    key = np.zeros(len(x), dtype=np.int64)
    for bit in range(16):
        key |= ((x >> bit) & 1) << (2 * bit)
        key |= ((y >> bit) & 1) << (2 * bit + 1)
    return key


def _stage(
    number: int, k: int, singles: list[int], moves: list[int], whole: dict[str, F32]
) -> Stage:
    """A stage of ``singles`` (one row each) and ``moves`` (in kind/Z order): every one a
    row if they fit ``k``, else the moves cut into the rows left free, contiguous groups
    of near-equal size (the first ``len % count`` one move larger)."""
    rows: list[tuple[int, tuple[int, ...]]] = [(i, (i,)) for i in singles]
    if len(singles) + len(moves) <= k:
        rows += [(i, (i,)) for i in moves]
    else:
        count = k - len(singles)
        size, extra = divmod(len(moves), count)
        start = 0
        for g in range(count):
            stop = start + size + (g < extra)
            chunk = tuple(moves[start:stop])
            rows.append((chunk[len(chunk) // 2], chunk))
            start = stop
    rows.sort()
    return Stage(number, k, tuple(r for r, _ in rows), tuple(m for _, m in rows), whole)


def first_stage(
    legal: Sequence[Action], k: int, xs: np.ndarray, ys: np.ndarray, whole: dict[str, F32]
) -> Stage:
    """Stage 1 of a decision with more than ``k`` legal actions (``whole``: its rows).
    ``xs``/``ys``: each cell's coordinates."""
    kinds = np.array([int(a.kind) for a in legal], dtype=np.int64)
    cells = np.array([a.cell for a in legal], dtype=np.int64)
    moving = np.isin(kinds, [int(kind) for kind in CELL_MOVES])
    singles: list[int] = np.flatnonzero(~moving).tolist()
    if len(singles) >= k:  # no room for a group: every action is cut into groups
        singles, moving[:] = [], True
    grouped = np.flatnonzero(moving)
    placed = np.maximum(cells[grouped], 0)  # an action without a cell sorts as cell 0
    z = np.where(cells[grouped] >= 0, _z_order(xs[placed], ys[placed]), 0)
    order: list[int] = grouped[np.lexsort((grouped, z, kinds[grouped]))].tolist()
    return _stage(1, k, singles, order, whole)


def next_stage(stage: Stage, row: int) -> Stage:
    """The stage after row ``row`` of ``stage`` chose a group of more than one move: the
    group's moves, each a row (cut again only if they are more than K)."""
    return _stage(stage.number + 1, stage.k, [], list(stage.groups[row]), stage.whole)
