"""Which steps move past an enemy within its melee reach (R04 Blockadeangriff, X43).

R04: 'Versucht ein Gegner sich innerhalb deiner Nahkampfreichweite an dir vorbeizubewegen
(nicht wegbewegen), so kannst du ihn mit einer Reaktion angreifen.' On the grid a step
``a → b`` is judged by the guard's Chebyshev distance (B01) at both ends and by the step's
direction relative to the line from the guard to ``a``. :func:`passes` is the one place
that reading lives; the engine's Blockadeangriff and the route search's provocation count
both call it, so the route the search prefers is the one that provokes least in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cwenv.battlemap.grid import BattleMap
from cwenv.rules.readings import BlockadeGeometry


def passes(geometry: BlockadeGeometry, r: tuple[int, int], s: tuple[int, int], reach: int) -> bool:
    """R04, X43: whether the step ``s`` (dx, dy) from ``r`` (the mover's offset from the
    guard) moves past a guard of melee ``reach``.

    * PASSING (default): the step starts inside reach and neither approaches nor moves
      away: it keeps the distance, or runs at right angles to the line to the guard (out of
      a diagonal corner of the reach, where a sideways step leaves the square of reach).
      Straight towards or away is never passing, whatever the reach.
    * STAY_IN_REACH: both ends inside reach at the same distance (the corner exit is free,
      so a mover can weave past a reach-1 guard at no extra cost).
    * ENTER_REACH: any step ending inside reach that does not move away.
    """
    rx, ry = r
    bx, by = rx + s[0], ry + s[1]
    da = max(abs(rx), abs(ry))
    db = max(abs(bx), abs(by))
    if geometry is BlockadeGeometry.ENTER_REACH:
        return db <= reach and db <= da
    if da > reach:
        return False
    if da == db:
        return True
    return geometry is BlockadeGeometry.PASSING and rx * s[0] + ry * s[1] == 0


@dataclass(frozen=True, slots=True)
class Guard:
    """An enemy who could make a Blockadeangriff: its cell and best melee reach."""

    bit: int
    x: int
    y: int
    reach: int


class Threat:
    """The enemies a mover could provoke (R04): ``masks[c]`` is the bit set of guards a
    step out of (or, under ENTER_REACH, into) cell ``c`` can provoke; :meth:`count` says
    how many a step actually passes."""

    __slots__ = ("_masks", "bm", "geometry", "guards")

    def __init__(self, bm: BattleMap, guards: Sequence[Guard], geometry: BlockadeGeometry) -> None:
        self.bm = bm
        self.geometry = geometry
        self.guards = {g.bit: g for g in guards}
        self._masks: list[int] | None = None

    @property
    def masks(self) -> list[int]:
        """Built on first use: the native search (cwenv/battlemap/paths_core.py) reads only
        the guards."""
        masks = self._masks
        if masks is None:
            masks = self._masks = self._build_masks()
        return masks

    def _build_masks(self) -> list[int]:
        bm = self.bm
        masks = [0] * bm.size
        # Under ENTER_REACH a step from one metre outside reach can provoke.
        extra = 1 if self.geometry is BlockadeGeometry.ENTER_REACH else 0
        for g in self.guards.values():
            span = g.reach + extra
            for y in range(max(0, g.y - span), min(bm.height, g.y + span + 1)):
                row = y * bm.width
                for x in range(max(0, g.x - span), min(bm.width, g.x + span + 1)):
                    masks[row + x] |= g.bit
        return masks

    def count(self, a: int, b: int) -> int:
        """How many guards the step a → b moves past (R04, X43)."""
        masks = self._masks
        here = (self.masks if masks is None else masks)[a]
        if not here:
            return 0
        xs, ys = self.bm.xs, self.bm.ys
        s = (xs[b] - xs[a], ys[b] - ys[a])
        n = 0
        while here:
            bit = here & -here
            here ^= bit
            g = self.guards[bit]
            if passes(self.geometry, (xs[a] - g.x, ys[a] - g.y), s, g.reach):
                n += 1
        return n
