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
from cwenv.content.render import SIDE_RGB, TERRAIN_RGB, to_rgb
from cwenv.engine.narration import narrate
from cwenv.engine.state import Combat

CELL_PX = 12
EVENT_LINES = 8
_CHAR = {t: ch for ch, t in DEFAULT_LEGEND.items()}


def _byte(rgb: tuple[float, float, float]) -> tuple[int, int, int]:
    r, g, b = (round(255 * v) for v in rgb)
    return (r, g, b)


# One palette with the map PNGs (cwenv.content.render); frames also colour doors by state.
_TERRAIN_RGB = {t: _byte(rgb) for t, rgb in TERRAIN_RGB.items()} | {
    Terrain.DOOR_CLOSED: (139, 26, 26),
    Terrain.DOOR_OPEN: (230, 170, 170),
}
_SIDE_RGB = {side: _byte(to_rgb(colour)) for side, colour in SIDE_RGB.items()}
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


def render_frame(c: Combat | None, mode: str | None) -> str | npt.NDArray[np.uint8] | None:
    """What ``env.render()`` returns for ``mode``: an RGB array, the text map (``ansi``), or
    ``None`` after printing it (``human``) or when there is nothing to show."""
    if c is None or mode is None:
        return None
    if mode == "rgb_array":
        return render_rgb(c)
    text = render_text(c)
    if mode == "human":
        print(text)
        return None
    return text
