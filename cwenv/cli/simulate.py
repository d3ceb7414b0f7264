"""``cwenv simulate SCENARIO``: many seeded games, one agent per side, and their statistics.

The scenario may be of any ruleset (``dice:duel``); sides and counters are named by it."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from cwenv import rulesets
from cwenv.ruleset import Ruleset
from cwenv.runner.backends import MAX_JOBS
from cwenv.runner.errors import RunnerError
from cwenv.runner.jobs import JobFileError
from cwenv.runner.progress import progress_bar
from cwenv.runner.simulate import SimulationConfig, prepare, simulate as run_simulation
from cwenv.runner.task import ruleset_of
from cwenv.runner.win_rates import SimulationStats


def simulate(
    scenario: str = typer.Argument(
        ...,
        help="Scenario name (cwenv scenarios list) or YAML file; RULESET:NAME for another; "
        "job:NAME or a file in a jobs/ folder for a job of several fights (docs/jobs.md).",
    ),
    runners: str = typer.Option("greedy", "--runners", help="Agent for the Runner side."),
    nscs: str = typer.Option("greedy", "--nscs", help="Agent for the Gegner and neutrals."),
    games: int = typer.Option(100, "--games", min=1, help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Run seed; game i uses game_seed(seed, i)."),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    jobs: int = typer.Option(1, "--jobs", min=1, max=MAX_JOBS, help="Worker processes."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Play N seeded games and print win rates (Wilson 95 %), rounds, damage, Mumm, actions."""
    config = SimulationConfig(scenario, runners, nscs, games, seed, rules, jobs)
    try:
        prepare(config)
        with progress_bar(f"simulate {scenario}", progress and not as_json) as bar:
            bar.start(games)
            stats = run_simulation(config, bar.advance)
    except RunnerError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2 if isinstance(exc, JobFileError) else 1) from None
    if as_json:
        typer.echo(json.dumps({"scenario": scenario, "seed": seed, **stats.to_json()}))
        return
    print_stats(Console(), scenario, stats, ruleset_of(scenario))


def _interval(ci: list[float]) -> str:
    return f"{ci[0] * 100:.1f}–{ci[1] * 100:.1f} %"


def print_stats(
    console: Console, scenario: str, stats: SimulationStats, ruleset: Ruleset | None = None
) -> None:
    """Rich tables: sides, totals, Mumm by kind, action frequencies (sides and counters
    named by ``ruleset``, default: the scenario's)."""
    ruleset = ruleset or ruleset_of(scenario)
    data = stats.to_json()
    sides = Table(title=f"{scenario}: {stats.games} Spiele")
    for col in ("Seite", "Agent", "Siege", "Quote", "95 %-KI", "k.o.", "tot", "LP−/Spiel"):
        sides.add_column(col, justify="left" if col in ("Seite", "Agent") else "right")
    for name, side in data["sides"].items():
        sides.add_row(
            ruleset.side_label(name),
            side["agent"],
            str(side["wins"]),
            f"{side['win_rate']:.1%}",
            _interval(side["ci95"]),
            str(side["down"]),
            str(side["dead"]),
            f"{side['mean_lp_lost']:.1f}",
        )
    sides.add_row(
        "Remis",
        "",
        str(data["draws"]),
        f"{data['draw_rate']:.1%}",
        _interval(data["draw_ci95"]),
        "",
        "",
        "",
    )
    console.print(sides)
    console.print(
        f"Runden im Mittel: {data['mean_rounds']:.2f}   "
        f"Schaden im Mittel: {data['mean_damage']:.1f}"
    )
    if "fights" in data:
        _print_fights(console, data["fights"])
    sections = [("Mumm ausgegeben", data["mumm"]), ("Aktionen", data["actions"])]
    if ruleset.name != rulesets.DEFAULT and not data["mumm"]:
        sections = sections[1:]  # Mumm is Corporate Wars': no empty table for other systems
    for title, counts in sections:
        table = Table(title=title)
        table.add_column("Art")
        table.add_column("Anzahl", justify="right")
        table.add_column("je Spiel", justify="right")
        for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(ruleset.counter_label(kind), str(n), f"{n / max(stats.games, 1):.2f}")
        if not counts:
            table.add_row("(keine)", "0", "0")
        console.print(table)


def _print_fights(console: Console, fights: dict[str, dict[str, Any]]) -> None:
    """A job's fights: reached, won by the Runners, ended the job, LP and Mumm at the start."""
    table = Table(title="Kämpfe des Auftrags")
    for col in ("Kampf", "erreicht", "Runner-Siege", "Ende hier", "LP zu Beginn", "Mumm zu Beginn"):
        table.add_column(col, justify="right")
    for k, row in fights.items():
        table.add_row(
            k,
            str(row["reached"]),
            str(row["runner_wins"]),
            str(row["ended_job"]),
            f"{row['mean_lp_start']:.1f}",
            f"{row['mean_mumm_start']:.1f}",
        )
    console.print(table)


def main() -> None:  # pragma: no cover - module entry: python -m cwenv.cli.simulate
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(simulate)
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
