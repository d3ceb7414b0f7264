"""Draw a scenario's battle map as a PNG (matplotlib, Agg backend, no pyplot state).

One map cell is ``cell_px`` pixels square, so the picture's aspect ratio is the map's.
Terrain colours: floor grey (lighter the higher it lies), walls dark, half cover tan,
three-quarter cover brown, water blue, climbable ledges yellow, burning ground orange,
doors red (closed: filled, open: outlined), exits green. Fighters are discs coloured by
side, numbered in roster order and labelled with their names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cwenv.battlemap.grid import Terrain
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


def _fighters(ax: Any, game: Game, labels: bool) -> None:
    """Discs by side with the roster number; names above (even columns) or below (odd
    columns), so that neighbours' labels do not overlap."""
    from matplotlib.patches import Circle

    bm = game.battlemap
    number = {"fontsize": 9, "color": "white", "ha": "center", "va": "center", "zorder": 4}
    box = {"facecolor": "white", "alpha": 0.75, "pad": 0.4, "linewidth": 0}
    for k, (spec, pos) in enumerate(zip(game.roster, game.positions, strict=True)):
        cx, cy = bm.xs[pos] + 0.5, bm.ys[pos] + 0.5
        ax.add_patch(Circle((cx, cy), 0.32, color=SIDE_RGB[spec.side], zorder=3))
        ax.text(cx, cy, str(k + 1), fontweight="bold", **number)
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


def render_map(game: Game, out: str | Path, *, cell_px: int = 40, labels: bool = True) -> Path:
    """Write the map of ``game`` with its fighters at their start cells to ``out`` (PNG)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - matplotlib is the "plots" extra
        raise RuntimeError("rendering needs matplotlib: pip install 'cwenv[plots]'") from exc

    bm = game.battlemap
    w, h = bm.width, bm.height
    fig = Figure(figsize=(w * cell_px / DPI, h * cell_px / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.set_axis_off()
    ax.imshow(_image(game), extent=(0, w, h, 0), interpolation="nearest")
    grid: dict[str, Any] = {"color": "white", "linewidth": 0.4, "alpha": 0.6}
    for x in range(w + 1):
        ax.plot([x, x], [0, h], **grid)
    for y in range(h + 1):
        ax.plot([0, w], [y, y], **grid)
    _terrain_marks(ax, game)
    _fighters(ax, game, labels)
    out_path = Path(out)
    fig.savefig(out_path, dpi=DPI, format="png")
    return out_path
