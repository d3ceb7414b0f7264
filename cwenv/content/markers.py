"""One marker scheme for every map printed in a terminal (``cwenv play``, ``cwenv scenarios
show``, ``cwenv replay``), with its legend; ``cwenv scenarios render`` letters its fighters
the same way.

Each cell takes two characters: a **glyph** and a **mark**. The glyph is the fighter standing
there (Runner ``A``, ``B`` …, Gegner ``a``, ``b`` …, neutrals ``1``, ``2`` …, counted within
the side in roster order), else a cell the deciding fighter can reach (``:`` freely, ``^`` only
with a Schwierige Bewegung), else the terrain (the characters of the map files; ``>`` an
exit). The mark says more about the cell: after a fighter ``<`` (decides now), ``!`` (an
opponent in focus: a target it can attack now, or the attacker it answers), ``-`` (out of
the fight); after terrain the height in metres (``1``–``9``, then ``a`` = 10 … as in the map
files; blank at 0 m); impassable terrain repeats its glyph, so walls read as ``####``.
Every distinction is a character; the colours only help.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from typing import NamedTuple

from rich.text import Text

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.model.types import Side

SIDE_STYLE = {Side.RUNNER: "bold cyan", Side.GEGNER: "bold red", Side.NEUTRAL: "bold yellow"}
TERRAIN_GLYPH: dict[Terrain, tuple[str, str, str]] = {
    # terrain: (glyph, style, legend name)
    Terrain.FLOOR: (".", "grey50", "Boden"),
    Terrain.WALL: ("#", "white", "Wand"),
    Terrain.COVER_HALF: ("=", "yellow", "halbe Deckung"),
    Terrain.COVER_THREE_QUARTER: ("%", "dark_orange", "Dreivierteldeckung"),
    Terrain.WATER: ("~", "blue", "Wasser"),
    Terrain.CLIMB: ("H", "magenta", "Kletterkante"),
    Terrain.DOOR_CLOSED: ("+", "green", "Tür zu"),
    Terrain.DOOR_OPEN: ("/", "green", "Tür offen"),
    Terrain.FIRE: ("*", "red", "Feuer"),
}
SOLID = frozenset({Terrain.WALL, Terrain.COVER_HALF, Terrain.COVER_THREE_QUARTER})
"""Impassable terrain: its height does not matter, its glyph fills both characters."""
EXIT = (">", "bold green", "Ausgang")
HEIGHT_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
SIDE_MARKS = {Side.RUNNER: "A, B …", Side.GEGNER: "a, b …", Side.NEUTRAL: "1, 2 …"}


class Reach(Enum):
    """How the deciding fighter can get to a cell this turn."""

    FREE = (":", "bold green", "frei erreichbar")
    DIFFICULT = ("^", "bold yellow", "nur mit Schwieriger Bewegung")


class Focus(Enum):
    """What a fighter is to the decision at hand (the mark after its letter)."""

    ACTOR = ("<", "reverse", "entscheidet jetzt")
    OPPONENT = ("!", "bold reverse", "Ziel bzw. Angreifer")
    OUT = ("-", "dim", "ausgeschaltet")


class Placed(NamedTuple):
    """A fighter on the map: roster index, cell, side, and whether it is out of the fight."""

    idx: int
    cell: int
    side: Side
    out: bool = False


def fighter_marker(sides: Sequence[Side], idx: int) -> str:
    """Runners A, B, …; Gegner a, b, …; neutrals 1, 2, … (by order within the side)."""
    side = sides[idx]
    n = sum(1 for s in sides[:idx] if s is side)
    if side is Side.RUNNER:
        return chr(ord("A") + n % 26)
    if side is Side.GEGNER:
        return chr(ord("a") + n % 26)
    return str((n + 1) % 10)


def has_relief(bm: BattleMap) -> bool:
    return any(bm.elevation)


def _x_axis(width: int) -> Text:
    """Column numbers: the tens above the ones, two characters per cell."""
    tens = "".join(f"{x // 10}" if x % 10 == 0 and x else " " for x in range(width))
    ones = "".join(str(x % 10) for x in range(width))
    text = Text(style="grey42")
    if width > 10:
        text.append("   " + " ".join(tens) + "\n")
    text.append("   " + " ".join(ones) + "\n")
    return text


def draw_map(
    bm: BattleMap,
    fighters: Iterable[Placed],
    sides: Sequence[Side],
    *,
    door_open: Callable[[int], bool] | None = None,
    reach: Mapping[int, Reach] | None = None,
    focus: Mapping[int, Focus] | None = None,
    axes: bool = True,
) -> Text:
    """The map in the scheme of the module text. ``sides`` is the roster's sides (for the
    letters); ``door_open`` the doors' current state (the map's own when None)."""
    at: dict[int, Placed] = {}
    for placed in fighters:
        at.setdefault(placed.cell, placed)  # a fighter standing, not one lying below it
    reach = reach or {}
    focus = focus or {}
    exits = set(bm.exits)
    relief = has_relief(bm)
    top = max(bm.elevation)
    text = _x_axis(bm.width) if axes else Text()
    for y in range(bm.height):
        if axes:
            text.append(f"{y:2d} ", style="grey42")
        for x in range(bm.width):
            cell = y * bm.width + x
            here = at.get(cell)
            if here is not None:
                _fighter(text, here, sides, focus)
                continue
            height = HEIGHT_DIGITS[min(bm.elevation[cell], 35)] if relief else " "
            height = " " if height == "0" else height
            terrain = bm.terrain[cell]
            if door_open is not None and terrain in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
                terrain = Terrain.DOOR_OPEN if door_open(cell) else Terrain.DOOR_CLOSED
            how = reach.get(cell)
            if how is not None:
                glyph, style, _ = how.value
            elif cell in exits:
                glyph, style, _ = EXIT
            else:
                glyph, style, _ = TERRAIN_GLYPH[terrain]
                if terrain in SOLID:
                    text.append(glyph * 2, style=style)
                    continue
            # the height as shading too (the digit is what counts without colour)
            shade = f" on grey{int(3 + 20 * bm.elevation[cell] / top)}" if top else ""
            text.append(glyph, style=style + shade)
            text.append(height, style="grey70" + shade)
        text.append("\n")
    return text


def _fighter(text: Text, placed: Placed, sides: Sequence[Side], focus: Mapping[int, Focus]) -> None:
    style = SIDE_STYLE[placed.side]
    how = focus.get(placed.idx)
    if how is None and placed.out:
        how = Focus.OUT
    if how is Focus.OUT:
        style = "dim"
    text.append(fighter_marker(sides, placed.idx), style=style)
    if how is None:
        text.append(" ")
    else:
        mark, mark_style, _ = how.value
        text.append(mark, style=f"{style} {mark_style}" if how is not Focus.OUT else "dim")


def legend(
    bm: BattleMap,
    sides: Sequence[Side],
    *,
    reach: Mapping[int, Reach] | None = None,
    focus: Mapping[int, Focus] | None = None,
    out: bool = False,
) -> Text:
    """The legend of what this map shows: terrain, exits, fighters' letters, marks, heights."""
    items: list[tuple[str, str, str]] = []
    present = set(bm.terrain)
    if Terrain.DOOR_CLOSED in present or Terrain.DOOR_OPEN in present:
        present |= {Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN}  # doors change in a fight
    for terrain, (glyph, style, name) in TERRAIN_GLYPH.items():
        if terrain in present:
            items.append((glyph * 2 if terrain in SOLID else glyph, style, name))
    if bm.exits:
        items.append(EXIT)
    kinds = set((reach or {}).values())
    items += [how.value for how in Reach if how in kinds]
    for side in Side:
        if side in sides:
            items.append((SIDE_MARKS[side], SIDE_STYLE[side], side.label))
    marks = set((focus or {}).values()) | ({Focus.OUT} if out else set())
    # an example letter before each mark: the mark is the character after a fighter's letter
    items += [
        (f"{ex}{how.value[0]}", how.value[1], how.value[2])
        for ex, how in zip("Abc", Focus, strict=True)
        if how in marks
    ]
    if has_relief(bm):
        items.append((".3", "grey62", "Höhe in m hinter dem Feld (leer: 0, a = 10 …)"))
    text = Text()
    for i, (glyph, style, name) in enumerate(items):
        if i:
            text.append("  ")
        text.append(glyph, style=style)
        text.append(f" {name}")
    return text
