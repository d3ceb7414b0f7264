"""PNG charts for stress reports: values with 95 % intervals, one row per label.

:func:`interval_panels` draws one or more panels side by side; each :class:`Panel` is a list
of rows (label, value, low, high) with an optional reference line (the base's value or 0 for
differences) and rows to highlight (significant after Holm). Every stress command draws its
figures with it, so every figure carries its intervals.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.runner.atomic import atomic_write_bytes
from cwenv.runner.charts import _pyplot


@dataclass(frozen=True)
class Row:
    label: str
    value: float
    low: float
    high: float
    highlight: bool = False


@dataclass(frozen=True)
class Panel:
    title: str
    rows: Sequence[Row]
    xlabel: str = ""
    reference: float | None = None
    percent: bool = False


def interval_panels(path: Path, title: str, panels: Sequence[Panel], ncols: int = 2) -> Path:
    """Horizontal point-and-interval plots, ``ncols`` panels per line; highlighted rows red.
    Panels with the same row labels share one label column."""
    plt = _pyplot()
    fig = interval_figure(title, panels, ncols)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return atomic_write_bytes(path, buffer.getvalue())


def interval_figure(title: str, panels: Sequence[Panel], ncols: int = 2) -> Any:
    """The figure of :func:`interval_panels` (for a caller that wants to look at it)."""
    plt = _pyplot()
    ncols = max(1, min(ncols, len(panels)))
    nrows = -(-len(panels) // ncols)
    shared = len({tuple(r.label for r in p.rows) for p in panels}) == 1
    height = max(len(p.rows) for p in panels) * 0.22 + 1.5
    # constrained layout keeps each panel's title clear of the tick labels above it
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(4.8 * ncols, height * nrows + 0.4),
        squeeze=False,
        sharey=shared,
        layout="constrained",
    )
    for k, ax in enumerate(axes.flat):
        if k >= len(panels):
            ax.axis("off")
            continue
        _panel(ax, panels[k], labels=not shared or k % ncols == 0)
    fig.suptitle(title, fontsize=11)
    return fig


def _panel(ax: Any, panel: Panel, labels: bool) -> None:
    scale = 100.0 if panel.percent else 1.0
    ys = list(range(len(panel.rows)))
    for colour, marked in (("tab:blue", False), ("tab:red", True)):
        rows = [(y, r) for y, r in zip(ys, panel.rows, strict=True) if r.highlight is marked]
        if not rows:
            continue
        ax.errorbar(
            [r.value * scale for _, r in rows],
            [y for y, _ in rows],
            xerr=[
                [(r.value - r.low) * scale for _, r in rows],
                [(r.high - r.value) * scale for _, r in rows],
            ],
            fmt="o",
            color=colour,
            capsize=2,
            markersize=3,
            linewidth=1,
        )
    if panel.reference is not None:
        ax.axvline(panel.reference * scale, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(ys, labels=[r.label for r in panel.rows])
    ax.tick_params(axis="y", labelleft=labels)
    ax.set_ylim(len(ys) - 0.5, -0.5)
    ax.set_title(panel.title, fontsize=9)
    ax.set_xlabel(panel.xlabel or ("%" if panel.percent else ""), fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(axis="x", alpha=0.3)
