"""The battle map: a grid of 1 m cells with terrain and elevation (B, C).

Cells are addressed internally by an integer index ``y * width + x`` (fast to store and
compare); :class:`Cell` tuples are the public face. The map is static; what changes in a
fight (doors opened or closed) lives in the combat state as an opacity overlay.

Terrain (legend characters are the defaults of :data:`DEFAULT_LEGEND`):

====================  ====  ==================================================================
terrain               char  meaning
====================  ====  ==================================================================
FLOOR                 ``.``  open ground
WALL                  ``#``  blocks movement and sight: full, massive cover (C01, C02)
COVER_HALF            ``=``  low wall, car, crate: impassable; half cover from its side (C02)
COVER_THREE_QUARTER   ``%``  embrasure, narrow gap: impassable; three-quarter cover (C02)
WATER                 ``~``  swimming: Schwierige Bewegung, half speed (B04)
CLIMB                 ``H``  a ledge climbed onto from below and down from above (B03, X62)
DOOR_CLOSED           ``+``  a closed door: like a wall until opened (H04)
DOOR_OPEN             ``/``  an open door: floor until closed
FIRE                  ``*``  burning ground: a Zehrend (Feuer) danger zone (D03)
====================  ====  ==================================================================

Elevation is a second layer in whole metres. A step up of at most one metre is a hurdle
taken in stride (B02); higher steps need a climb onto a CLIMB cell (B03); a step down of up
to half Bewegung (min. 1 m) is absorbed (B06), deeper drops are falls (B05), and off a CLIMB
cell a deep step down is climbed down its face (B03, X62 ``climb_down``). Gaps are low
cells between higher ones: jumping them is B02.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING

from cwenv.model.types import Cell

if TYPE_CHECKING:
    from cwenv.battlemap.los import SightLine


class Terrain(IntEnum):
    FLOOR = 0
    WALL = 1
    COVER_HALF = 2
    COVER_THREE_QUARTER = 3
    WATER = 4
    CLIMB = 5
    DOOR_CLOSED = 6
    DOOR_OPEN = 7
    FIRE = 8

    @property
    def standable(self) -> bool:
        return self in _STANDABLE

    @property
    def opaque(self) -> bool:
        return self is Terrain.WALL or self is Terrain.DOOR_CLOSED

    @property
    def described(self) -> str:
        """The terrain in a message, with its map character: ``a wall '#'``."""
        char = next(ch for ch, t in DEFAULT_LEGEND.items() if t is self)
        return f"{_TERRAIN_WORDS[self]} {char!r}"


_TERRAIN_WORDS = {
    Terrain.FLOOR: "floor",
    Terrain.WALL: "a wall",
    Terrain.COVER_HALF: "half cover",
    Terrain.COVER_THREE_QUARTER: "three-quarter cover",
    Terrain.WATER: "water",
    Terrain.CLIMB: "a climbable ledge",
    Terrain.DOOR_CLOSED: "a closed door",
    Terrain.DOOR_OPEN: "an open door",
    Terrain.FIRE: "fire",
}


_STANDABLE = frozenset(
    {Terrain.FLOOR, Terrain.WATER, Terrain.CLIMB, Terrain.DOOR_OPEN, Terrain.FIRE}
)

DEFAULT_LEGEND: dict[str, Terrain] = {
    ".": Terrain.FLOOR,
    "#": Terrain.WALL,
    "=": Terrain.COVER_HALF,
    "%": Terrain.COVER_THREE_QUARTER,
    "~": Terrain.WATER,
    "H": Terrain.CLIMB,
    "+": Terrain.DOOR_CLOSED,
    "/": Terrain.DOOR_OPEN,
    "*": Terrain.FIRE,
}

MAX_MAP_SIDE = 128


class MapError(ValueError):
    """A battle map is malformed (ragged rows, unknown characters, bad elevation)."""


def _base36(ch: str) -> int:
    if ch.isdigit():
        return int(ch)
    if "a" <= ch.lower() <= "z":
        return 10 + ord(ch.lower()) - ord("a")
    raise MapError(f"elevation character {ch!r} is not 0-9 or a-z")


@dataclass(frozen=True, eq=False)
class BattleMap:
    """An immutable grid. Build one with :meth:`from_rows`."""

    width: int
    height: int
    terrain: tuple[Terrain, ...]
    elevation: tuple[int, ...]
    name: str = "map"
    spawns: dict[str, tuple[int, ...]] = field(default_factory=dict)
    exits: tuple[int, ...] = ()
    # Derived lookup tables, filled in __post_init__.
    xs: tuple[int, ...] = field(init=False, repr=False)
    ys: tuple[int, ...] = field(init=False, repr=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    # Lines of fire depend only on geometry, so every combat on this map shares them.
    line_cache: dict[int, SightLine] = field(init=False, repr=False, default_factory=dict)
    # Terrain steps per movement profile (steps.py), likewise shared.
    edge_cache: dict[object, object] = field(init=False, repr=False, default_factory=dict)

    def __getstate__(self) -> dict[str, object]:
        """Pickled and deep-copied without its caches, which are rebuilt on demand (and
        whose native core entries, docs/native.md, cannot be pickled)."""
        return {**self.__dict__, "line_cache": {}, "edge_cache": {}}

    def __post_init__(self) -> None:
        n = self.width * self.height
        if len(self.terrain) != n or len(self.elevation) != n:
            raise MapError("terrain and elevation must have width × height cells")
        object.__setattr__(self, "xs", tuple(i % self.width for i in range(n)))
        object.__setattr__(self, "ys", tuple(i // self.width for i in range(n)))
        object.__setattr__(self, "neighbours", tuple(self._neighbours(i) for i in range(n)))

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[str],
        *,
        elevation_rows: Sequence[str] | None = None,
        legend: dict[str, Terrain] | None = None,
        name: str = "map",
        spawns: dict[str, Iterable[Cell]] | None = None,
        exits: Iterable[Cell] = (),
        spawn_chars: dict[str, str] | None = None,
    ) -> BattleMap:
        """Parse an ASCII grid. ``spawn_chars`` maps a character to a spawn-zone name;
        such cells are floor and join that zone."""
        legend = dict(DEFAULT_LEGEND if legend is None else legend)
        spawn_chars = spawn_chars or {}
        if not rows:
            raise MapError("a map needs at least one row")
        width = len(rows[0])
        if width == 0 or width > MAX_MAP_SIDE or len(rows) > MAX_MAP_SIDE:
            raise MapError(f"map sides must be 1..{MAX_MAP_SIDE} cells")
        terrain: list[Terrain] = []
        zones: dict[str, list[int]] = {}
        for y, row in enumerate(rows):
            if len(row) != width:
                raise MapError(f"row {y + 1} has {len(row)} cells; row 1 has {width}")
            for x, ch in enumerate(row):
                if ch in spawn_chars:
                    zones.setdefault(spawn_chars[ch], []).append(y * width + x)
                    terrain.append(Terrain.FLOOR)
                elif ch in legend:
                    terrain.append(legend[ch])
                else:
                    allowed = "".join(sorted(legend)) + "".join(sorted(spawn_chars))
                    raise MapError(
                        f"row {y + 1}, column {x + 1}: unknown character {ch!r}; "
                        f"allowed: {allowed!r}"
                    )
        elevation = [0] * (width * len(rows))
        if elevation_rows is not None:
            if len(elevation_rows) != len(rows):
                raise MapError(f"elevation has {len(elevation_rows)} rows; the map {len(rows)}")
            for y, row in enumerate(elevation_rows):
                if len(row) != width:
                    raise MapError(f"elevation row {y + 1} has {len(row)} cells; expected {width}")
                for x, ch in enumerate(row):
                    elevation[y * width + x] = _base36(ch)
        for zone, cells in (spawns or {}).items():
            zones.setdefault(zone, []).extend(c.y * width + c.x for c in cells)
        return cls(
            width=width,
            height=len(rows),
            terrain=tuple(terrain),
            elevation=tuple(elevation),
            name=name,
            spawns={k: tuple(v) for k, v in zones.items()},
            exits=tuple(c.y * width + c.x for c in exits),
        )

    # -- addressing ---------------------------------------------------------------------
    def index(self, x: int, y: int) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise MapError(f"cell ({x}, {y}) is outside the {self.width}×{self.height} map")
        return y * self.width + x

    def cell(self, i: int) -> Cell:
        return Cell(self.xs[i], self.ys[i])

    def distance(self, a: int, b: int) -> int:
        """Chebyshev distance in metres (diagonals count 1 m, B01)."""
        dx = self.xs[a] - self.xs[b]
        dy = self.ys[a] - self.ys[b]
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        return dx if dx > dy else dy

    def nearest(self, cell: int, spots: Sequence[tuple[int, int]], none: int) -> int:
        """Chebyshev metres (B01) from ``cell`` to the nearest of the (x, y) ``spots``;
        ``none`` when there are none. Written out: agents ask it for every reachable cell."""
        x, y = self.xs[cell], self.ys[cell]
        best = none
        for sx, sy in spots:
            dx = sx - x if sx > x else x - sx
            dy = sy - y if sy > y else y - sy
            d = dx if dx > dy else dy
            if d < best:
                best = d
        return best

    @property
    def size(self) -> int:
        return self.width * self.height

    def _neighbours(self, i: int) -> tuple[int, ...]:
        x, y = i % self.width, i // self.width
        out = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.width and 0 <= ny < self.height:
                    out.append(ny * self.width + nx)
        return tuple(out)

    def initial_opacity(self) -> bytearray:
        """1 where a cell blocks sight (walls, closed doors) at the start of a fight."""
        return bytearray(self._per_cell("opaque", lambda t: t.opaque))

    def initial_solid(self) -> bytearray:
        """1 where no one may stand (walls, closed doors) at the start of a fight."""
        return bytearray(self._per_cell("solid", lambda t: not t.standable))

    def _per_cell(self, key: str, test: Callable[[Terrain], bool]) -> bytes:
        # every combat on the map starts from these: made once, kept with the caches
        got = self.edge_cache.get(key)
        if not isinstance(got, bytes):
            got = self.edge_cache[key] = bytes(1 if test(t) else 0 for t in self.terrain)
        return got

    def render_rows(self) -> list[str]:
        """The terrain as ASCII rows (default legend characters)."""
        chars = {t: ch for ch, t in DEFAULT_LEGEND.items()}
        return [
            "".join(chars[self.terrain[y * self.width + x]] for x in range(self.width))
            for y in range(self.height)
        ]
