"""Draw a scenario's battle map as a PNG (matplotlib, Agg backend, no pyplot state).

One map cell is ``cell_px`` pixels square, so the picture's aspect ratio is the map's.
Terrain colours: floor grey (lighter the higher it lies), walls dark, half cover tan,
three-quarter cover brown, water blue, climbable ledges yellow, burning ground orange,
doors red (closed: filled, open: outlined), exits green. Fighters are coloured by side and
shaped by side too (Runner disc, Gegner square, neutral triangle, so the sides stay apart
without colour), lettered as on the terminal maps (Runner A, B …, Gegner a, b …, neutrals
1, 2 …; :mod:`cwenv.content.markers`) and labelled with their names. The axes count
cells as ``cwenv play`` and ``cwenv advise`` do (x east, y south, from 0); a legend names
every terrain and side on the map, the title names the scenario.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cwenv.battlemap.grid import Terrain
from cwenv.content.markers import fighter_marker
from cwenv.engine.game import Game
from cwenv.model.types import Side

TERRAIN_RGB: dict[Terrain, tuple[float, float, float]] = {
    Terrain.FLOOR: (0.85, 0.85, 0.85),
    Terrain.WALL: (0.20, 0.20, 0.22),
    Terrain.COVER_HALF: (0.78, 0.63, 0.40),
    Terrain.COVER_THREE_QUARTER: (0.55, 0.38, 0.22),
    Terrain.WATER: (0.29, 0.56, 0.85),
    Terrain.CLIMB: (0.88, 0.75, 0.25),
    Terrain.DOOR_CLOSED: (0.85, 0.85, 0.85),
    Terrain.DOOR_OPEN: (0.85, 0.85, 0.85),
    Terrain.FIRE: (0.95, 0.45, 0.10),
}
UNKNOWN_RGB = (1.0, 0.0, 1.0)  # a terrain this module does not know yet
SIDE_RGB = {Side.RUNNER: "#1f77b4", Side.GEGNER: "#d62728", Side.NEUTRAL: "#8c8c8c"}


def to_rgb(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as floats in 0–1."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return (r, g, b)


DPI = 100


def _image(game: Game) -> Any:
    import numpy as np

    bm = game.battlemap
    top = max(bm.elevation)
    img = np.zeros((bm.height, bm.width, 3))
    for i, terrain in enumerate(bm.terrain):
        rgb = np.array(TERRAIN_RGB.get(terrain, UNKNOWN_RGB))
        if terrain in (Terrain.FLOOR, Terrain.DOOR_OPEN, Terrain.DOOR_CLOSED, Terrain.CLIMB):
            rgb = rgb * (0.55 + 0.45 * bm.elevation[i] / top if top else 1.0)  # relief
        img[bm.ys[i], bm.xs[i]] = rgb
    return img


def _terrain_marks(ax: Any, game: Game) -> None:
    from matplotlib.patches import Rectangle

    bm = game.battlemap
    relief = len(set(bm.elevation)) > 1
    small = {"fontsize": 6, "color": "#333333", "ha": "right", "va": "bottom"}
    for i, terrain in enumerate(bm.terrain):
        x, y = bm.xs[i], bm.ys[i]
        if terrain is Terrain.DOOR_CLOSED:
            ax.add_patch(Rectangle((x + 0.1, y + 0.1), 0.8, 0.8, color="#8b1a1a"))
        elif terrain is Terrain.DOOR_OPEN:
            ax.add_patch(Rectangle((x + 0.1, y + 0.1), 0.8, 0.8, fill=False, ec="#8b1a1a", lw=2))
        elif terrain is Terrain.CLIMB:
            ax.add_patch(Rectangle((x, y), 1, 1, fill=False, hatch="--", ec="#7a5c00"))
        if relief and terrain.standable:
            ax.text(x + 0.95, y + 0.95, str(bm.elevation[i]), **small)
    for i in bm.exits:
        ax.add_patch(Rectangle((bm.xs[i], bm.ys[i]), 1, 1, fill=False, ec="#1a9e1a", lw=3))


def _short(name: str, limit: int = 14) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


SIDE_NAMES = {Side.RUNNER: "Runner", Side.GEGNER: "Gegner", Side.NEUTRAL: "Neutral"}


def _marker(side: Side, cx: float, cy: float, **style: Any) -> Any:
    """The side's shape at (cx, cy): disc, square or triangle."""
    from matplotlib.patches import Circle, Rectangle, RegularPolygon

    if side is Side.RUNNER:
        return Circle((cx, cy), 0.32, **style)
    if side is Side.GEGNER:
        return Rectangle((cx - 0.3, cy - 0.3), 0.6, 0.6, **style)
    return RegularPolygon((cx, cy), 3, radius=0.38, **style)


def _fighters(ax: Any, game: Game, labels: bool) -> None:
    """Markers by side with the roster number; names above (even columns) or below (odd
    columns), so that neighbours' labels do not overlap."""
    bm = game.battlemap
    number = {"fontsize": 9, "color": "white", "ha": "center", "va": "center", "zorder": 4}
    box = {"facecolor": "white", "alpha": 0.75, "pad": 0.4, "linewidth": 0}
    sides = [spec.side for spec in game.roster]
    for k, (spec, pos) in enumerate(zip(game.roster, game.positions, strict=True)):
        cx, cy = bm.xs[pos] + 0.5, bm.ys[pos] + 0.5
        ax.add_patch(_marker(spec.side, cx, cy, color=SIDE_RGB[spec.side], zorder=3))
        # the fighter's letter in the terminal maps (cwenv.content.markers), so both read alike
        ax.text(cx, cy, fighter_marker(sides, k), fontweight="bold", **number)
        if labels:
            below = bm.xs[pos] % 2 == 1
            ax.text(
                cx,
                cy + 0.3 if below else cy - 0.3,
                _short(spec.name),
                fontsize=6,
                ha="center",
                va="top" if below else "bottom",
                zorder=5,
                bbox=box,
            )


TERRAIN_NAMES = {
    Terrain.FLOOR: "Boden",
    Terrain.WALL: "Wand",
    Terrain.COVER_HALF: "halbe Deckung",
    Terrain.COVER_THREE_QUARTER: "Dreivierteldeckung",
    Terrain.WATER: "Wasser",
    Terrain.CLIMB: "Kletterkante",
    Terrain.DOOR_CLOSED: "Tür (zu)",
    Terrain.DOOR_OPEN: "Tür (offen)",
    Terrain.FIRE: "Feuer",
}


def _legend_handles(game: Game) -> list[Any]:
    """One entry per terrain, exit and side that the map shows."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    bm = game.battlemap
    handles: list[Any] = []
    for terrain in Terrain:
        if terrain not in bm.terrain:
            continue
        name = TERRAIN_NAMES.get(terrain, terrain.name)
        if terrain is Terrain.DOOR_CLOSED:
            handles.append(Patch(color="#8b1a1a", label=name))
        elif terrain is Terrain.DOOR_OPEN:
            handles.append(Patch(fill=False, ec="#8b1a1a", lw=2, label=name))
        elif terrain is Terrain.CLIMB:
            handles.append(Patch(fc=TERRAIN_RGB[terrain], hatch="--", ec="#7a5c00", label=name))
        else:
            handles.append(Patch(color=TERRAIN_RGB.get(terrain, UNKNOWN_RGB), label=name))
    if bm.exits:
        handles.append(Patch(fill=False, ec="#1a9e1a", lw=3, label="Ausgang"))
    if len(set(bm.elevation)) > 1:
        handles.append(Patch(color="none", label="Zahl im Feld: Höhe in m"))
    shapes = {Side.RUNNER: "o", Side.GEGNER: "s", Side.NEUTRAL: "^"}
    for side in Side:
        if any(spec.side is side for spec in game.roster):
            handles.append(
                Line2D(
                    [],
                    [],
                    ls="",
                    marker=shapes[side],
                    ms=9,
                    color=SIDE_RGB[side],
                    label=SIDE_NAMES[side],
                )
            )
    return handles


MARGIN_PX = {"left": 34, "right": 12, "top": 44, "bottom": 12}
"""Room around the map for the axes' cell numbers and the title."""
LEGEND_PX = 200
"""Width of the legend column right of the map."""
_LEGEND_ROW_PX = 19


def render_size(game: Game, cell_px: int) -> tuple[int, int]:
    """Width and height in pixels of :func:`render_map`'s picture: ``cell_px`` per cell,
    the margins, and the legend column (the picture grows to fit a long legend)."""
    bm = game.battlemap
    width = MARGIN_PX["left"] + bm.width * cell_px + MARGIN_PX["right"] + LEGEND_PX
    rows = len(_legend_handles(game))
    legend_h = MARGIN_PX["top"] + rows * _LEGEND_ROW_PX + 20
    height = max(MARGIN_PX["top"] + bm.height * cell_px + MARGIN_PX["bottom"], legend_h)
    return width, height


def _ticks(ax: Any, cells: int, axis: str) -> None:
    step = 1 if cells <= 20 else 2 if cells <= 40 else 5
    positions = [i + 0.5 for i in range(0, cells, step)]
    labels = [str(i) for i in range(0, cells, step)]
    if axis == "x":
        ax.set_xticks(positions, labels, fontsize=7)
    else:
        ax.set_yticks(positions, labels, fontsize=7)


def render_map(game: Game, out: str | Path, *, cell_px: int = 40, labels: bool = True) -> Path:
    """Write the map of ``game`` with its fighters at their start cells to ``out`` (PNG)."""
    from cwenv.extras import require

    require("plots")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bm = game.battlemap
    w, h = bm.width, bm.height
    width, height = render_size(game, cell_px)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    left, top = MARGIN_PX["left"], MARGIN_PX["top"]
    # The map's axes keep cell_px per cell; what is left of the picture is margin and legend.
    ax = fig.add_axes(
        (left / width, 1 - (top + h * cell_px) / height, w * cell_px / width, h * cell_px / height)
    )
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.xaxis.tick_top()
    _ticks(ax, w, "x")
    _ticks(ax, h, "y")
    ax.tick_params(length=0, pad=2)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.imshow(_image(game), extent=(0, w, h, 0), interpolation="nearest")
    grid: dict[str, Any] = {"color": "white", "linewidth": 0.4, "alpha": 0.6}
    for x in range(w + 1):
        ax.plot([x, x], [0, h], **grid)
    for y in range(h + 1):
        ax.plot([0, w], [y, y], **grid)
    _terrain_marks(ax, game)
    _fighters(ax, game, labels)
    fig.text(left / width, 1 - 4 / height, game.name, fontsize=10, fontweight="bold", va="top")
    legend_x = (left + w * cell_px + MARGIN_PX["right"]) / width
    fig.legend(
        handles=_legend_handles(game),
        loc="upper left",
        bbox_to_anchor=(legend_x, 1 - top / height),
        fontsize=7,
        frameon=False,
        handlelength=1.6,
        borderaxespad=0,
    )
    out_path = Path(out)
    fig.savefig(out_path, dpi=DPI, format="png")
    return out_path
