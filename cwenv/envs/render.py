"""Rendering: the battle map as text (``ansi``) or as an RGB image (``rgb_array``).

Text: the map in its legend characters (``#`` wall, ``=`` half cover, ``%`` three-quarter
cover, ``~`` water, ``H`` ledge, ``+``/``/`` doors, ``*`` fire, ``E`` exit), fighters as
letters (``A`` = roster index 0; upper case standing, lower case down, ``x`` dead), a
legend line per fighter and the last narrated events in German.

Image: one ``CELL_PX`` square per cell; fighters are squares coloured by side (dimmed when
down, black when dead), the deciding fighter framed in yellow.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cwenv.battlemap.grid import DEFAULT_LEGEND, Terrain
from cwenv.engine.narration import narrate
from cwenv.engine.state import Combat
from cwenv.model.types import Side

CELL_PX = 12
EVENT_LINES = 8
_CHAR = {t: ch for ch, t in DEFAULT_LEGEND.items()}
_TERRAIN_RGB = {
    Terrain.FLOOR: (216, 216, 216),
    Terrain.WALL: (51, 51, 56),
    Terrain.COVER_HALF: (199, 161, 102),
    Terrain.COVER_THREE_QUARTER: (140, 97, 56),
    Terrain.WATER: (74, 143, 217),
    Terrain.CLIMB: (224, 191, 64),
    Terrain.DOOR_CLOSED: (139, 26, 26),
    Terrain.DOOR_OPEN: (230, 170, 170),
    Terrain.FIRE: (242, 115, 26),
}
_SIDE_RGB = {Side.RUNNER: (31, 119, 180), Side.GEGNER: (214, 39, 40), Side.NEUTRAL: (140, 140, 140)}
_EXIT_RGB = (26, 158, 26)


def fighter_symbol(idx: int, standing: bool, dead: bool) -> str:
    if dead:
        return "x"
    ch = chr(ord("A") + idx)
    return ch if standing else ch.lower()


def render_text(c: Combat) -> str:
    bm = c.bm
    grid = [
        [_CHAR[t] for t in bm.terrain[y * bm.width : (y + 1) * bm.width]] for y in range(bm.height)
    ]
    for cell in bm.exits:
        grid[bm.ys[cell]][bm.xs[cell]] = "E"
    for cell, t in enumerate(bm.terrain):
        if t in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
            grid[bm.ys[cell]][bm.xs[cell]] = "+" if c.solid[cell] else "/"
    for f in sorted(c.fighters, key=lambda g: (not g.dead, g.standing)):  # standing on top
        if f.on_map:
            grid[bm.ys[f.pos]][bm.xs[f.pos]] = fighter_symbol(f.idx, f.standing, f.dead)
    lines = ["".join(row) for row in grid]
    decider = c.current_fighter()
    lines.append(
        f"Runde {c.round}" + (f" – entscheidet: {c.fighters[decider].name}" if decider >= 0 else "")
    )
    for f in c.fighters:
        status = "tot" if f.dead else "geflohen" if f.fled else "kampfunfähig" if f.down else ""
        conds = ", ".join(cond.label for cond in f.condition_list())
        extra = "; ".join(x for x in (status, conds) if x)
        lines.append(
            f"{fighter_symbol(f.idx, True, False)} {f.name} ({f.side.label}) LP {f.lp}/{f.spec.lp}"
            + (f" [{extra}]" if extra else "")
        )
    names = c.game.names
    lines.extend(narrate(e, names) for e in c.events[-EVENT_LINES:])
    if c.outcome is not None:
        winner = c.outcome.winner.label if c.outcome.winner is not None else "Unentschieden"
        lines.append(f"Ergebnis: {winner} ({c.outcome.reason})")
    return "\n".join(lines) + "\n"


def render_rgb(c: Combat) -> npt.NDArray[np.uint8]:
    bm = c.bm
    cells = np.array([_TERRAIN_RGB[t] for t in bm.terrain], dtype=np.uint8)
    for cell, t in enumerate(bm.terrain):
        if t in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
            cells[cell] = _TERRAIN_RGB[Terrain.DOOR_CLOSED if c.solid[cell] else Terrain.DOOR_OPEN]
    for cell in bm.exits:
        cells[cell] = _EXIT_RGB
    img = cells.reshape(bm.height, bm.width, 3).repeat(CELL_PX, axis=0).repeat(CELL_PX, axis=1)
    img[::CELL_PX, :, :] = (img[::CELL_PX, :, :] * 0.85).astype(np.uint8)  # grid lines
    img[:, ::CELL_PX, :] = (img[:, ::CELL_PX, :] * 0.85).astype(np.uint8)
    decider = c.current_fighter()
    pad = CELL_PX // 6
    for f in c.fighters:
        if not f.on_map:
            continue
        x0, y0 = bm.xs[f.pos] * CELL_PX, bm.ys[f.pos] * CELL_PX
        colour = np.array(_SIDE_RGB[f.side], dtype=np.float64)
        if f.dead:
            colour[:] = 0.0
        elif not f.standing:
            colour = colour * 0.45 + 120.0
        if f.idx == decider:
            img[y0 : y0 + CELL_PX, x0 : x0 + CELL_PX] = (255, 215, 0)
        img[y0 + pad : y0 + CELL_PX - pad, x0 + pad : x0 + CELL_PX - pad] = colour.astype(np.uint8)
    return np.ascontiguousarray(img)
