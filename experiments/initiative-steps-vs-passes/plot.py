"""The study's summary figure and table from the two sweeps' summary.json files:
the fast fighter's win rate and both sides' turns per round against Reflexe, per initiative
system, with 95 % intervals.

    python experiments/initiative-steps-vs-passes/plot.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
SYSTEMS = {"default": "steps (I01–I04)", "passes": "passes (I10–I13)"}


def _estimates(summary: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {(e["variant"], Path(e["scenario"]).stem, e["metric"]): e for e in summary["estimates"]}


def _cell(stem: str) -> tuple[int, bool]:
    match = re.match(r"ini-r(\d+)(-raptor)?$", stem)
    assert match is not None, stem
    return int(match.group(1)), match.group(2) is not None


def main() -> None:
    main_summary = json.loads((HERE / "report-steps-vs-passes" / "summary.json").read_text())
    est = _estimates(main_summary)
    x36 = json.loads((HERE / "report-passes-x36" / "summary.json").read_text())
    est.update({k: v for k, v in _estimates(x36).items() if k[0] == "passes-x36"})
    stems = sorted({k[1] for k in est})
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    lines = []
    for variant, label in (*SYSTEMS.items(), ("passes-x36", "passes, X36: Raptor counts")):
        for raptor in (False, True):
            cells = sorted((*_cell(s), s) for s in stems if _cell(s)[1] is raptor)
            if variant == "passes-x36" and not raptor:
                continue
            style = "--" if raptor else "-"
            name = f"{label}{' + Raptor-Booster' if raptor else ''}"
            for ax, metric in zip(
                axes, ("win_runner", "turns_runner", "turns_gegner"), strict=True
            ):
                pts = [(r, est.get((variant, s, metric))) for r, _, s in cells]
                pts = [(r, e) for r, e in pts if e is not None]
                if not pts:
                    continue
                scale = 100.0 if metric == "win_runner" else 1.0
                ax.errorbar(
                    [r for r, _ in pts],
                    [e["value"] * scale for _, e in pts],
                    yerr=[
                        [(e["value"] - e["low"]) * scale for _, e in pts],
                        [(e["high"] - e["value"]) * scale for _, e in pts],
                    ],
                    fmt="o" + style,
                    capsize=3,
                    label=name,
                )
            for r, _, s in cells:
                e = est.get((variant, s, "win_runner"))
                t = est.get((variant, s, "turns_runner"))
                g = est.get((variant, s, "turns_gegner"))
                if e and t and g:
                    lines.append(
                        f"| {label} | {r} | {'yes' if raptor else 'no'} | "
                        f"{e['value'] * 100:.1f} [{e['low'] * 100:.1f}, {e['high'] * 100:.1f}] | "
                        f"{t['value']:.2f} | {g['value']:.2f} | {e['n']} |"
                    )
    titles = (
        "fast fighter's win rate (%)",
        "fast fighter's turns per round",
        "slow fighter's turns per round (Reflexe 8)",
    )
    for ax, title in zip(axes, titles, strict=True):
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("Reflexe of the fast fighter")
        ax.grid(alpha=0.3)
    axes[0].axhline(50, color="grey", linewidth=1, linestyle=":")
    axes[0].legend(fontsize=7)
    fig.suptitle("Initiative systems: 1 vs 1, greedy agents, 2,000 games per point, 95 % intervals")
    fig.tight_layout()
    fig.savefig(HERE / "reflexe-vs-system.png", dpi=100)
    table = [
        "| system | Reflexe | Raptor | fast fighter wins % [95 %] | fast turns/round "
        "| slow turns/round | games |",
        "|---|---|---|---|---|---|---|",
        *lines,
    ]
    (HERE / "reflexe-vs-system.md").write_text("\n".join(table) + "\n")


if __name__ == "__main__":
    main()
