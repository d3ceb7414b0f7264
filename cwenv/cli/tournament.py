"""``cwenv tournament``: a resumable round robin, results in SQLite, openskill ratings.

Kill it at any moment and run the same command again: the plan is finished with every game
exactly once and the standings equal those of an uninterrupted run.
Exit codes: 0 done, 1 error, 3 nondeterminism found (a replayed game gave a different
result), 130 interrupted (results so far are kept).
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cwenv.cli.common import resumable_run, split_names
from cwenv.extras import MissingExtraError
from cwenv.runner.backends import MAX_JOBS
from cwenv.runner.errors import RunnerError
from cwenv.runner.jobs import JobFileError
from cwenv.runner.plan import TournamentConfig
from cwenv.runner.progress import progress_bar
from cwenv.runner.tournament import TournamentRun, run_tournament


class BackendChoice(StrEnum):
    local = "local"
    ray = "ray"


def tournament(
    agents: str = typer.Option(..., "--agents", help="Comma-separated agents, e.g. greedy,random."),
    scenarios: str = typer.Option(
        ..., "--scenarios", help="Comma-separated scenarios or jobs (job:NAME, docs/jobs.md)."
    ),
    games: int = typer.Option(10, "--games", min=1, help="Games per pairing, side and scenario."),
    seed: int = typer.Option(0, "--seed", help="Tournament seed."),
    db: Path = typer.Option(..., "--db", help="SQLite results file (created or resumed)."),
    jobs: int = typer.Option(
        1, "--jobs", min=1, max=MAX_JOBS, help="Worker processes (or Ray CPUs)."
    ),
    backend: BackendChoice = typer.Option(
        BackendChoice.local, "--backend", help="Where games run."
    ),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    name: str = typer.Option("main", "--name", help="Tournament name (part of every game id)."),
    recheck: int = typer.Option(
        0, "--recheck", min=0, help="Replay this many recorded games to detect nondeterminism."
    ),
    batch: int = typer.Option(64, "--batch", min=1, help="Results per database transaction."),
    ray_address: str | None = typer.Option(None, "--ray-address", help="Ray cluster address."),
    as_json: bool = typer.Option(False, "--json", help="End with one JSON object."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Round robin: every pairing plays both sides of every scenario, N games each."""
    config = TournamentConfig(split_names(agents), split_names(scenarios), games, seed, rules, name)
    try:
        with resumable_run(), progress_bar("tournament", progress and not as_json) as bar:
            run = run_tournament(
                config,
                db,
                jobs=jobs,
                backend=backend.value,
                ray_address=ray_address,
                batch=batch,
                recheck=recheck,
                on_start=bar.start,
                on_game=bar.advance,
            )
    except (RunnerError, MissingExtraError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2 if isinstance(exc, JobFileError) else 1) from None
    for conflict in run.conflicts:
        typer.echo(
            f"nondeterminism: game {conflict.game_id} replayed with result "
            f"{conflict.new_digest}, stored {conflict.stored_digest}",
            err=True,
        )
    if as_json:
        typer.echo(json.dumps(run.to_json()))
    else:
        print_standings(Console(), run)
    if run.conflicts:
        raise typer.Exit(3)


def print_standings(console: Console, run: TournamentRun) -> None:
    """The ratings table and the win-rate matrix."""
    data = run.to_json()
    console.print(
        f"Turnier {data['tournament_id']}: {data['games_done']}/{data['games_planned']} Spiele "
        f"({data['played_now']} jetzt gespielt) → {run.db}"
    )
    table = Table(title="Wertung (openskill PlackettLuce)")
    for col in ("#", "Agent", "μ", "σ", "ordinal μ−3σ"):
        table.add_column(col, justify="left" if col == "Agent" else "right")
    ranked = sorted(data["ratings"].items(), key=lambda kv: (-kv[1]["ordinal"], kv[0]))
    for rank, (agent, r) in enumerate(ranked, 1):
        table.add_row(
            str(rank), agent, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"
        )
    console.print(table)
    agents = [a for a, _ in ranked]
    matrix = Table(title="Siegquote Zeile gegen Spalte (95 % Wilson)")
    matrix.add_column("Agent")
    for b in agents:
        matrix.add_column(b, justify="right")
    for a in agents:
        cells = []
        for b in agents:
            rec = data["win_rates"][a].get(b)
            if rec is None:
                cells.append("—")
            else:
                low, high = rec["ci95"]
                cells.append(f"{rec['win_rate']:.0%} [{low:.0%}–{high:.0%}] n={rec['games']}")
        matrix.add_row(a, *cells)
    console.print(matrix)
    if data["nondeterministic"]:
        console.print(f"[red]Nichtdeterminismus:[/red] {', '.join(data['nondeterministic'])}")


def main() -> None:  # pragma: no cover - module entry: python -m cwenv.cli.tournament
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(tournament)
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
