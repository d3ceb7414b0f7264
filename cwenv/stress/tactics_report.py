"""The restricted-play report: Markdown, one PNG (every bar with its 95 % interval), JSON
and the resolved config, written atomically into one folder."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from cwenv.runner.atomic import atomic_write_bytes, atomic_write_text
from cwenv.runner.errors import RunnerError
from cwenv.stress.tactics import TacticRow, TacticsRun

REPORT = "report.md"
FIGURE = "tactics.png"
DATA = "tactics.json"
CONFIG = "config.json"

_COLOURS = {"dominant": "#c0392b", "dead": "#7f8c8d", "harmful": "#8e44ad", "": "#2c7fb8"}


def _short(spec: str) -> str:
    """A file given as a path is named by its stem in titles."""
    return Path(spec).stem if spec.endswith((".yaml", ".yml")) else spec


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _signed(x: float) -> str:
    return f"{x:+.1%}"


def _table(rows: list[TacticRow]) -> list[str]:
    lines = [
        "| tactic | | uses per game [95 %] | games using it [95 %] | win rate restricted "
        "[95 %] | baseline | Δ restricted − baseline [95 %] | p (McNemar) | Holm | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        j = r.to_json()
        ul, uh = j["uses_ci95"]
        sl, sh = j["share_ci95"]
        rl, rh = j["restricted_ci95"]
        verdict = f"**{r.verdict}** ({r.reason})" if r.verdict else ""
        lines.append(
            f"| {r.tag} | {r.label} | {r.uses_per_game:.2f} [{ul:.2f}–{uh:.2f}] | "
            f"{_pct(r.share_using)} [{_pct(sl)}–{_pct(sh)}] | "
            f"{_pct(j['restricted_win_rate'])} [{_pct(rl)}–{_pct(rh)}] | "
            f"{_pct(j['baseline_win_rate'])} | {_signed(r.diff.diff)} "
            f"[{_signed(r.diff.low)}, {_signed(r.diff.high)}] | {r.diff.p_value:.2g} | "
            f"{'yes' if r.holm else 'no'} | {verdict} |"
        )
    return lines


def markdown(run: TacticsRun, figure: str = FIGURE) -> str:
    """The report text."""
    cfg = run.config
    rows = run.rows()
    pairs = rows[0].pairs if rows else 0
    lines = [
        f"# Restricted play: {cfg.agent}",
        "",
        f"- scenarios: {', '.join(cfg.scenarios)}",
        f"- rules: {cfg.rules or 'each scenario’s own (default)'}",
        f"- games: {cfg.games} per tactic, scenario and side ({pairs} paired games per "
        f"tactic), seed {cfg.seed}; {run.games_done} games in `{run.db}` "
        f"(plan {run.plan.tournament_id})",
        f"- threshold: ±{cfg.threshold:.0%} win rate; *used in most games*: more than "
        f"{cfg.majority:.0%} of side-games",
        "",
        "Each tactic is forbidden to one side (`AGENT!TAG`, through the legality function) "
        "against the unrestricted agent; every such game is paired with the unrestricted "
        "mirror game on the same dice seed. Δ is the restricted side's win rate minus the same "
        "side's win rate in the paired mirror games (Newcombe 95 % interval); p is the exact "
        "McNemar test on the discordant pairs, Holm-corrected over all tactics (family-wise "
        "5 %). Uses count the unrestricted agent's choices per side and game in the mirror "
        "games. *dominant*: Δ ≤ −threshold, significant, used in most games; *dead*: never "
        "chosen or the interval inside ±threshold; *harmful*: Δ ≥ +threshold, significant.",
        "",
        *_table(rows),
        "",
    ]
    for verdict in ("dominant", "harmful", "dead"):
        tags = [r.tag for r in rows if r.verdict == verdict]
        lines.append(f"- **{verdict}**: {', '.join(tags) if tags else '—'}")
    lines += ["", f"![restricted play]({figure})", ""]
    if len(cfg.scenarios) > 1:
        for scenario in cfg.scenarios:
            lines += [
                f"## {scenario}",
                "",
                "Per scenario (Holm within the scenario):",
                "",
                *_table(run.rows(scenario)),
                "",
            ]
    return "\n".join(lines)


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


def figure(run: TacticsRun, path: Path) -> Path:
    """Left: Δ win rate with its 95 % interval and the ±threshold band; right: the share
    of games using each tactic with its Wilson interval."""
    plt = _pyplot()
    rows = run.rows()
    ys = list(range(len(rows)))
    labels = [r.tag for r in rows]
    colours = [_COLOURS.get(r.verdict, _COLOURS[""]) for r in rows]
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(10.0, 1.4 + 0.32 * len(rows)), sharey=True, width_ratios=[3, 2]
    )
    t = run.config.threshold
    left.axvspan(-t, t, color="#dddddd", alpha=0.5, label=f"±{t:.0%}")
    left.axvline(0.0, color="black", linewidth=0.8)
    for y, r, c in zip(ys, rows, colours, strict=True):
        d = r.diff
        left.errorbar(
            [d.diff], [y], xerr=[[d.diff - d.low], [d.high - d.diff]], fmt="o", color=c, capsize=3
        )
    left.set_yticks(ys, labels=labels)
    left.set_ylim(len(rows) - 0.5, -0.5)
    left.set_xlabel("Δ win rate, restricted − unrestricted (95 % Newcombe)")
    left.grid(axis="x", alpha=0.3)
    left.legend(loc="lower right", fontsize=8)
    shares = [r.share_using for r in rows]
    low = [r.share_using - r.share_ci95[0] for r in rows]
    high = [r.share_ci95[1] - r.share_using for r in rows]
    right.barh(ys, shares, color=colours, alpha=0.8)
    right.errorbar(shares, ys, xerr=[low, high], fmt="none", color="black", capsize=3)
    right.axvline(run.config.majority, color="black", linestyle=":", linewidth=0.8)
    right.set_xlim(0.0, 1.0)
    right.set_xlabel("share of games using it (95 % Wilson)")
    right.grid(axis="x", alpha=0.3)
    scenarios = ", ".join(_short(s) for s in run.config.scenarios)
    fig.suptitle(f"Restricted play: {_short(run.config.agent)} on {scenarios}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return atomic_write_bytes(path, buffer.getvalue())


def write_report(run: TacticsRun, out: str | Path) -> list[Path]:
    """``report.md``, ``tactics.png``, ``tactics.json`` and ``config.json`` into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = [
        atomic_write_text(
            folder / CONFIG, json.dumps(run.resolved_config(), indent=2, ensure_ascii=False) + "\n"
        ),
        atomic_write_text(
            folder / DATA, json.dumps(run.to_json(), indent=2, ensure_ascii=False) + "\n"
        ),
        figure(run, folder / FIGURE),
        atomic_write_text(folder / REPORT, markdown(run) + "\n"),
    ]
    return written
