"""Battle maps as YAML: an ASCII grid, a legend, elevation, spawn zones and exits.

The grid uses the legend of :mod:`cwenv.battlemap.grid` (``.`` floor, ``#`` wall, ``=``
half cover, ``%`` three-quarter cover, ``~`` water, ``H`` climbable ledge, ``+`` closed
door, ``/`` open door, ``*`` burning ground, D03); ``legend`` adds characters of its own.
Cover is scenario data (C02); elevation gives climbs (B03), jumps over gaps (B02) and
falls (B05, B06).
Each cell is 1 m × 1 m; elevation is whole metres, ``0``–``9`` then ``a``–``z`` = 10–35.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema

from cwenv.battlemap.grid import DEFAULT_LEGEND, MAX_MAP_SIDE, BattleMap, MapError, Terrain
from cwenv.content.errors import IssueList, Origin
from cwenv.content.fields import MODEL_CONFIG, CellXY, Name, Text
from cwenv.model.types import Cell
from cwenv.yamlio import ConfigError, ConfigIssue

Char = Annotated[str, Field(min_length=1, max_length=1, pattern=r"^\S$")]
ZoneName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
TERRAIN_NAMES: tuple[str, ...] = (
    *(t.name.lower() for t in Terrain),
    *DEFAULT_LEGEND,
)
"""A terrain by its name (``cover_half``) or by its default legend character (``=``)."""


def _check_terrain(value: str) -> str:
    if value not in TERRAIN_NAMES:
        raise ValueError(f"unknown terrain {value!r}; allowed: {', '.join(TERRAIN_NAMES)}")
    return value


TerrainName = Annotated[
    str, AfterValidator(_check_terrain), WithJsonSchema({"enum": list(TERRAIN_NAMES)})
]

_ELEVATION_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


class MapModel(BaseModel):
    """A battle map: ``configs/maps/<name>.yaml`` or inline under a scenario's ``map``."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    grid: str | list[str]
    legend: dict[Char, TerrainName] = {}
    elevation: str | list[str] | None = None
    spawn_chars: dict[Char, ZoneName] = {}
    spawns: dict[ZoneName, list[CellXY]] = {}
    exit_chars: list[Char] = []
    exits: list[CellXY] = []


def _terrain(name: str) -> Terrain:
    return DEFAULT_LEGEND[name] if name in DEFAULT_LEGEND else Terrain[name.upper()]


def _rows(value: str | list[str]) -> list[str]:
    if isinstance(value, list):
        return list(value)
    rows = value.splitlines()
    while rows and not rows[-1].strip():
        rows.pop()
    return rows


class _Rows:
    """The rows of a grid field and the YAML line of each (a block string's first row is
    on the line below its key)."""

    def __init__(self, where: Origin, field: str, value: str | list[str]) -> None:
        self.where = where
        self.field = field
        self.listed = isinstance(value, list)
        self.rows = _rows(value)
        key_line = where.doc.line((*where.prefix, field))
        self.first = None if key_line is None else key_line + (1 if "\n" in str(value) else 0)

    def issue(self, y: int, message: str) -> ConfigIssue:
        if self.listed:
            return self.where.issue((self.field, y), message)
        line = None if self.first is None else self.first + y
        path = (*self.where.prefix, self.field)
        return ConfigIssue(self.where.doc.source, line, path, f"row {y + 1}: {message}")


def _check_grid(grid: _Rows, legend: dict[str, Terrain], specials: str, issues: IssueList) -> None:
    rows = grid.rows
    if not rows:
        issues.append(grid.where.issue(("grid",), "the grid needs at least one row"))
        return
    width = len(rows[0])
    if not 1 <= width <= MAX_MAP_SIDE or len(rows) > MAX_MAP_SIDE:
        issues.append(
            grid.where.issue(
                ("grid",), f"map sides must be 1..{MAX_MAP_SIDE} cells; got {width}×{len(rows)}"
            )
        )
        return
    allowed = "".join(sorted(legend)) + specials
    for y, row in enumerate(rows):
        if len(row) != width:
            issues.append(grid.issue(y, f"has {len(row)} cells; row 1 has {width}"))
            continue
        for x, ch in enumerate(row):
            if ch not in legend and ch not in specials:
                issues.append(
                    grid.issue(y, f"column {x + 1}: unknown character {ch!r}; allowed: {allowed!r}")
                )
                break


def _check_elevation(elev: _Rows, width: int, height: int, issues: IssueList) -> None:
    if len(elev.rows) != height:
        issues.append(
            elev.where.issue(("elevation",), f"has {len(elev.rows)} rows; the grid has {height}")
        )
        return
    for y, row in enumerate(elev.rows):
        if len(row) != width:
            issues.append(elev.issue(y, f"has {len(row)} cells; the grid has {width}"))
            continue
        bad = [ch for ch in row if ch not in _ELEVATION_CHARS]
        if bad:
            issues.append(
                elev.issue(y, f"elevation {bad[0]!r} is not 0-9 or a-z (a = 10 m … z = 35 m)")
            )


def build_map(model: MapModel, where: Origin) -> BattleMap:
    """Check a validated :class:`MapModel` against its own grid and build the map."""
    issues = IssueList()
    legend = dict(DEFAULT_LEGEND)
    legend.update({ch: _terrain(name) for ch, name in model.legend.items()})
    specials = "".join(model.spawn_chars) + "".join(model.exit_chars)
    for i, ch in enumerate(model.exit_chars):
        if ch in model.spawn_chars or ch in legend:
            issues.append(where.issue(("exit_chars", i), f"{ch!r} already has a meaning"))
    for ch in model.spawn_chars:
        if ch in legend:
            issues.append(where.issue(("spawn_chars", ch), f"{ch!r} is a legend character already"))
    grid = _Rows(where, "grid", model.grid)
    _check_grid(grid, legend, specials, issues)
    issues.raise_if_any()
    rows = grid.rows
    width, height = len(rows[0]), len(rows)
    elevation = None
    if model.elevation is not None:
        elev = _Rows(where, "elevation", model.elevation)
        _check_elevation(elev, width, height, issues)
        elevation = elev.rows
    exits = [
        Cell(x, y)
        for y, row in enumerate(rows)
        for x, ch in enumerate(row)
        if ch in model.exit_chars
    ]
    if model.exit_chars:
        table = str.maketrans({ch: "." for ch in model.exit_chars})
        rows = [row.translate(table) for row in rows]
    terrain = {
        (x, y): legend.get(ch, Terrain.FLOOR)
        for y, row in enumerate(rows)
        for x, ch in enumerate(row)
    }

    def cell(path: tuple[str | int, ...], xy: list[int]) -> Cell | None:
        x, y = xy
        if not (0 <= x < width and 0 <= y < height):
            issues.append(where.issue(path, f"cell [{x}, {y}] is outside the {width}×{height} map"))
            return None
        if not terrain[(x, y)].standable:
            issues.append(
                where.issue(
                    path,
                    f"cell [{x}, {y}] is {terrain[(x, y)].described}; a fighter cannot stand there",
                )
            )
            return None
        return Cell(x, y)

    zone_cells: dict[str, list[Cell]] = {}
    for zone, cells in model.spawns.items():
        for i, xy in enumerate(cells):
            c = cell(("spawns", zone, i), xy)
            if c is not None:
                zone_cells.setdefault(zone, []).append(c)
    for i, xy in enumerate(model.exits):
        c = cell(("exits", i), xy)
        if c is not None:
            exits.append(c)
    issues.raise_if_any()
    try:
        return BattleMap.from_rows(
            rows,
            elevation_rows=elevation,
            legend=legend,
            name=model.name,
            spawns=dict[str, Iterable[Cell]](zone_cells),
            exits=exits,
            spawn_chars=dict(model.spawn_chars),
        )
    except MapError as exc:
        raise ConfigError([where.issue(("grid",), str(exc))]) from None
