"""``cwenv stress variants``: the same seeded games under several rule variants, compared.

Exit codes: 0 done, 1 bad input or a failed game, 3 nondeterminism found, 130 interrupted
(finished games are kept: run the same command again to resume).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cwenv.cli.common import resumable_run, split_names
from cwenv.extras import MissingExtraError, require
from cwenv.runner.backends import MAX_JOBS
from cwenv.runner.errors import RunnerError
from cwenv.runner.progress import progress_bar
from cwenv.stress.outcomes import METRIC_BY_KEY
from cwenv.stress.report import slug
from cwenv.stress.sweep import SweepOutcome, SweepRequest, sweep_and_report
from cwenv.stress.variants import VariantSweepError


def variants(
    base: str = typer.Option("default", "--base", help="Base rule variant (name or YAML file)."),
    variant: list[str] = typer.Option(
        [], "--variant", help="A rule variant to compare with the base (repeatable)."
    ),
    scenarios: str = typer.Option(..., "--scenarios", help="Comma-separated scenarios."),
    agents: str = typer.Option(
        ..., "--agents", help="A (both sides) or A,B (Runner side A, Gegner side B)."
    ),
    games: int = typer.Option(200, "--games", min=1, help="Games per variant and scenario."),
    seed: int = typer.Option(0, "--seed", help="Sweep seed; game i uses game_seed(seed, i)."),
    db: Path = typer.Option(..., "--db", help="SQLite results file (created or resumed)."),
    out: Path = typer.Option(..., "--out", help="Folder for report.md, PNGs and config.json."),
    all_options: bool = typer.Option(
        False, "--all-options", help="Add one variant per alternative reading of every X-option."
    ),
    jobs: int = typer.Option(1, "--jobs", min=1, max=MAX_JOBS, help="Worker processes."),
    name: str = typer.Option("variants", "--name", help="Sweep name (part of every game id)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Play the same seeded games under each rule variant and report what changes."""
    parts = split_names(agents)
    if len(parts) not in (1, 2):
        typer.echo(f"--agents takes one or two agents (A or A,B), got {agents!r}", err=True)
        raise typer.Exit(1)
    request = SweepRequest(
        base,
        tuple(variant),
        split_names(scenarios),
        parts[0],
        parts[-1],
        games,
        seed,
        db,
        out,
        all_options,
        jobs,
        name,
    )
    args = ["--base", base, *(x for v in variant for x in ("--variant", v))]
    args += ["--scenarios", scenarios, "--agents", agents, "--games", str(games)]
    args += ["--seed", str(seed), "--db", str(db), "--out", str(out)]
    args += (["--all-options"] if all_options else []) + (
        ["--name", name] if name != "variants" else []
    )
    command = shlex.join(["cwenv", "stress", "variants", *args])
    try:
        require("plots")  # the report's chart: before any game is played
        with resumable_run(), progress_bar("stress variants", progress) as bar:
            outcome = sweep_and_report(request, command, on_start=bar.start, on_game=bar.advance)
    except (VariantSweepError, RunnerError, MissingExtraError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    print_summary(Console(), outcome)
    if outcome.run.conflicts:
        raise typer.Exit(3)


def print_summary(console: Console, outcome: SweepOutcome) -> None:
    """The significant shifts (rates in percentage points), then where the report is."""
    analysis = outcome.analysis
    flagged = analysis.flagged()
    table = Table(
        title=f"Signifikante Verschiebungen gegen {analysis.base} "
        f"(Holm, {len(analysis.comparisons)} Vergleiche)"
    )
    table.add_column("Szenario")
    table.add_column("Variante", no_wrap=True)
    table.add_column("Grösse")
    table.add_column("Differenz [95 %]")
    table.add_column("p")
    for c in flagged:
        m = METRIC_BY_KEY[c.metric]
        scale = 100.0 if m.proportion else 1.0
        table.add_row(
            slug(c.scenario),
            c.variant,
            m.label,
            f"{c.diff * scale:+.2f} [{c.low * scale:+.2f}, {c.high * scale:+.2f}]",
            f"{c.p_value:.2g}",
        )
    if not flagged:
        table.add_row("—", "keine", "", "", "")
    console.print(table)
    console.print(
        f"{outcome.run.games_done}/{len(outcome.run.plan.games)} Spiele "
        f"({outcome.run.played_now} jetzt gespielt) → {outcome.run.db}; Bericht: {outcome.report}"
    )
