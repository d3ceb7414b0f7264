"""The variant sweep's report: ``report.md``, PNG figures and ``summary.json`` in one folder.

Per scenario one figure of every metric per variant (95 % intervals, the base's value as a
dashed line) and one of every difference from the base (95 % intervals, 0 dashed);
comparisons significant after Holm are red in the figures and marked ✱ in the tables.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from cwenv.runner.atomic import atomic_write_text
from cwenv.stress.charts import Panel, Row, interval_panels
from cwenv.stress.outcomes import METRICS, Comparison, Estimate, Metric, SweepAnalysis

METHODS = (
    "Proportions (win rates, draws, fights decided by a Volltreffer) carry 95 % Wilson "
    "intervals, per-game means normal intervals (mean ± 1.96·s/√n). Every variant plays game "
    "*i* with the same dice seed as the base (common random numbers), so the comparisons are "
    "paired: a proportion's difference has Newcombe's hybrid score interval and the exact "
    "McNemar p on the discordant pairs; a mean's difference is the paired mean difference "
    "with its normal interval and z-test p. All p values of the sweep form one family; ✱ marks "
    "a comparison that stays significant at α = 0.05 after Holm's step-down correction."
)


def slug(text: str) -> str:
    """A file-name-safe stem of a scenario name or path."""
    stem = Path(text).stem if text.endswith((".yaml", ".yml")) else text
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-") or "scenario"


def _fmt(metric: Metric, value: float) -> str:
    return f"{value * 100:.1f} %" if metric.proportion else f"{value:.2f}"


def _est(metric: Metric, e: Estimate) -> str:
    if metric.proportion:
        return f"{e.value * 100:.1f} [{e.low * 100:.1f}, {e.high * 100:.1f}]"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]"


def _diff(metric: Metric, c: Comparison) -> str:
    scale, unit = (100.0, " pp") if metric.proportion else (1.0, "")
    star = " ✱" if c.significant else ""
    return (
        f"{c.diff * scale:+.1f}{unit} [{c.low * scale:+.1f}, {c.high * scale:+.1f}] "
        f"p={c.p_value:.2g}{star}"
    )


LARGE_SWEEP = 12
"""Above this many variants only the differences of :data:`KEY_METRICS` are drawn (the
tables keep everything): a figure of 85 readings × 11 metrics is unreadable and slow."""
KEY_METRICS = ("win_runner", "rounds", "damage_per_round", "volltreffer_decided")


def _figures(analysis: SweepAnalysis, scenario: str, out: Path) -> list[Path]:
    by_key = {(c.variant, c.metric): c for c in analysis.comparisons if c.scenario == scenario}
    base = analysis.base
    large = len(analysis.variants) > LARGE_SWEEP
    metrics = [m for m in METRICS if m.key in KEY_METRICS] if large else list(METRICS)
    value_panels = []
    diff_panels = []
    for m in metrics:
        rows = []
        for v in analysis.variants:
            e = analysis.estimates[(v, scenario, m.key)]
            c = by_key.get((v, m.key))
            rows.append(Row(v, e.value, e.low, e.high, c is not None and c.significant))
        ref = analysis.estimates[(base, scenario, m.key)].value
        value_panels.append(Panel(m.label, rows, reference=ref, percent=m.proportion))
        diffs = []
        for v in analysis.variants[1:]:
            c = by_key[(v, m.key)]
            diffs.append(Row(v, c.diff, c.low, c.high, c.significant))
        diff_panels.append(
            Panel(
                f"{m.label}: variant − {base}",
                diffs,
                xlabel="percentage points" if m.proportion else "",
                reference=0.0,
                percent=m.proportion,
            )
        )
    stem = slug(scenario)
    figures = [
        interval_panels(
            out / f"{stem}-differences.png",
            f"{scenario}: difference from {base} (95 % intervals; red = significant, Holm)",
            diff_panels,
            ncols=len(diff_panels) if large else 3,
        )
    ]
    if not large:
        figures.insert(
            0,
            interval_panels(
                out / f"{stem}-outcomes.png",
                f"{scenario}: outcomes per rule variant (95 % intervals; base dashed)",
                value_panels,
                ncols=3,
            ),
        )
    return figures


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def write_report(
    analysis: SweepAnalysis,
    out: Path,
    *,
    title: str,
    command: str,
    setup: Sequence[str],
    notes: Sequence[str] = (),
    figures: bool = True,
) -> Path:
    """Write ``report.md`` (+ PNGs and ``summary.json``) into ``out``; return the report."""
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "summary.json", json.dumps(analysis.to_json(), indent=1) + "\n")
    lines = [f"# {title}", "", "```", command, "```", ""]
    lines += [f"- {item}" for item in setup]
    flagged = analysis.flagged()
    lines += [
        "",
        f"## Significant shifts (Holm, α = 0.05, {len(analysis.comparisons)} comparisons)",
        "",
    ]
    metric = {m.key: m for m in METRICS}
    if flagged:
        lines += _table(
            (
                "scenario",
                "variant",
                "metric",
                analysis.base,
                "variant",
                "difference [95 %]",
                "test",
            ),
            [
                (
                    c.scenario,
                    c.variant,
                    metric[c.metric].label,
                    _fmt(metric[c.metric], c.base.value),
                    _fmt(metric[c.metric], c.alt.value),
                    _diff(metric[c.metric], c),
                    c.test,
                )
                for c in flagged
            ],
        )
    else:
        lines.append("None: no variant shifts any metric significantly from the base.")
    for scenario in analysis.scenarios:
        lines += ["", f"## {scenario}", ""]
        if figures:
            for fig in _figures(analysis, scenario, out):
                lines += [f"![{fig.stem}]({fig.name})", ""]
        lines += ["### Per variant (95 % intervals; rates in %)", ""]
        lines += _table(
            ("variant", "n", *(m.label for m in METRICS)),
            [
                (
                    v,
                    str(analysis.estimates[(v, scenario, METRICS[0].key)].n),
                    *(_est(m, analysis.estimates[(v, scenario, m.key)]) for m in METRICS),
                )
                for v in analysis.variants
            ],
        )
        by_key = {(c.variant, c.metric): c for c in analysis.comparisons if c.scenario == scenario}
        lines += ["", f"### Difference from {analysis.base} (paired, 95 %, ✱ = Holm)", ""]
        lines += _table(
            ("variant", *(m.label for m in METRICS)),
            [(v, *(_diff(m, by_key[(v, m.key)]) for m in METRICS)) for v in analysis.variants[1:]],
        )
    lines += ["", "## Method", "", METHODS]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    return atomic_write_text(out / "report.md", "\n".join(lines) + "\n")
