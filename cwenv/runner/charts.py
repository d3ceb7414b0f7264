"""PNG charts for the tournament report (matplotlib, Agg backend, written atomically)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cwenv.runner.atomic import atomic_write_bytes
from cwenv.runner.errors import RunnerError
from cwenv.runner.ratings import MatchupRow, Rating, Record


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RunnerError(
            "the report needs matplotlib, which is not installed: pip install 'cwenv[plots]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    _pyplot().close(fig)
    return atomic_write_bytes(path, buffer.getvalue())


def _heatmap(
    ax: Any,
    values: list[list[float | None]],
    labels: list[list[str]],
    rows: Sequence[str],
    cols: Sequence[str],
) -> Any:
    import numpy as np

    data = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    image = ax.imshow(data, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(cols)), labels=list(cols), rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), labels=list(rows))
    for i, row in enumerate(labels):
        for j, text in enumerate(row):
            ax.text(j, i, text, ha="center", va="center", fontsize=8)
    return image


def _cell(rec: Record) -> str:
    low, high = rec.ci95
    return f"{rec.win_rate:.0%}\n[{low:.0%}–{high:.0%}]\nn={rec.games}"


def winrate_heatmap(
    matrix: dict[str, dict[str, Record]], agents: Sequence[str], path: Path
) -> Path:
    """Row agent's win rate against column agent, with Wilson intervals."""
    plt = _pyplot()
    values = [[matrix[a][b].win_rate if a != b else None for b in agents] for a in agents]
    labels = [["" if a == b else _cell(matrix[a][b]) for b in agents] for a in agents]
    size = 1.6 + 1.3 * len(agents)
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    image = _heatmap(ax, values, labels, agents, agents)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title("Win rate (row vs column), 95 % Wilson interval")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return _save(fig, path)


def rating_chart(ratings: dict[str, Rating], path: Path) -> Path:
    """μ with a ±2σ bar per agent and the ordinal μ−3σ, best first."""
    plt = _pyplot()
    order = sorted(ratings, key=lambda a: (-ratings[a].ordinal, a))
    mus = [ratings[a].mu for a in order]
    errs = [2.0 * ratings[a].sigma for a in order]
    ords = [ratings[a].ordinal for a in order]
    fig, ax = plt.subplots(figsize=(6.0, 1.0 + 0.5 * len(order)))
    ys = list(range(len(order)))
    ax.errorbar(mus, ys, xerr=errs, fmt="o", capsize=4, label="μ ± 2σ")
    ax.scatter(ords, ys, marker="|", s=200, color="black", label="ordinal μ − 3σ")
    ax.set_yticks(ys, labels=order)
    ax.set_ylim(len(order) - 0.5, -0.5)  # best on top, half a row of air around
    ax.set_xlabel("openskill rating (PlackettLuce)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    return _save(fig, path)


def scenario_heatmap(title: str, rows: Sequence[MatchupRow], path: Path) -> Path:
    """Runner agent (rows) against NSC agent (columns): the runner side's win rate."""
    plt = _pyplot()
    runners = sorted({r.runners for r in rows})
    nscs = sorted({r.nscs for r in rows})
    by_key = {(r.runners, r.nscs): r for r in rows}
    values: list[list[float | None]] = []
    labels: list[list[str]] = []
    for a in runners:
        values.append([])
        labels.append([])
        for b in nscs:
            row = by_key.get((a, b))
            ok = row is not None and row.runner_record.games > 0
            values[-1].append(row.runner_record.win_rate if row is not None and ok else None)
            labels[-1].append(_cell(row.runner_record) if row is not None and ok else "")
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(nscs), 1.2 + 1.1 * len(runners)))
    image = _heatmap(ax, values, labels, runners, nscs)
    ax.set_xlabel("NSC agent")
    ax.set_ylabel("Runner agent")
    ax.set_title(f"{title}: Runner win rate")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return _save(fig, path)
