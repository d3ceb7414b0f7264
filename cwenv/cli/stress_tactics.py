"""``cwenv stress tactics`` (restricted play) and ``cwenv stress exploit`` (a best response
trained against a fixed agent).

Exit codes: 0 done, 1 bad input or a failed game, 3 nondeterminism found, 130 interrupted
(finished games are kept: run the same command again to resume).
"""

from __future__ import annotations

import shlex
import sys
from enum import StrEnum
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cwenv.cli.common import resumable_run, split_names
from cwenv.extras import MissingExtraError, require
from cwenv.runner.backends import MAX_JOBS
from cwenv.runner.errors import RunnerError
from cwenv.runner.progress import progress_bar

_VERDICTS = {"dominant": "dominant", "dead": "tot", "harmful": "schädlich", "": ""}
"""The report's verdicts (English, as the study reports) for the German terminal table."""


def tactics(
    scenarios: str = typer.Option(
        ..., "--scenarios", help="Comma-separated scenarios (of one ruleset: dice:duel)."
    ),
    agent: str = typer.Option(..., "--agent", help="The agent whose options are ablated."),
    tactic: list[str] = typer.Option(
        [], "--tactic", help="A tactic tag to forbid (repeatable or comma-separated); default all."
    ),
    games: int = typer.Option(200, "--games", min=1, help="Games per tactic, scenario and side."),
    seed: int = typer.Option(0, "--seed", help="Seed; game i uses game_seed(seed, i)."),
    db: Path = typer.Option(..., "--db", help="SQLite results file (created or resumed)."),
    out: Path = typer.Option(..., "--out", help="Folder for report.md, tactics.png, JSON."),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    threshold: float = typer.Option(
        0.10, "--threshold", help="Win-rate swing that counts (dominant / dead)."
    ),
    jobs: int = typer.Option(1, "--jobs", min=1, max=MAX_JOBS, help="Worker processes."),
    name: str = typer.Option("tactics", "--name", help="Run name (part of every game id)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Restricted play: each tactic forbidden to the agent against its unrestricted self."""
    from cwenv.stress.tactics import TacticsConfig, TacticsConfigError, run_tactics
    from cwenv.stress.tactics_report import REPORT, write_report

    tags = tuple(t for item in tactic for t in split_names(item))  # none: the ruleset's all
    config = TacticsConfig(
        agent, split_names(scenarios), tags, games, seed, rules, threshold, name=name
    )
    try:
        require("plots")  # the report's chart: before any game is played
        with resumable_run(), progress_bar("tactics", progress) as bar:
            run = run_tactics(config, db, jobs=jobs, on_start=bar.start, on_game=bar.advance)
        written = write_report(run, out)
    except (RunnerError, TacticsConfigError, MissingExtraError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    (out / "command.txt").write_text(shlex.join(["cwenv", *sys.argv[1:]]) + "\n", "utf-8")
    console = Console()
    table = Table(
        title=f"Eingeschränktes Spiel: {agent} ({run.games_done} Spiele, {run.played_now} neu)"
    )
    for col in ("Taktik", "Einsätze/Spiel", "Spiele mit", "Δ Siegquote [95 %]", "Urteil"):
        table.add_column(col)
    for row in run.rows():
        table.add_row(
            row.tag,
            f"{row.uses_per_game:.2f}",
            f"{row.share_using:.0%}",
            f"{row.diff.diff:+.1%} [{row.diff.low:+.1%}, {row.diff.high:+.1%}]",
            _VERDICTS[row.verdict],
        )
    console.print(table)
    console.print(f"Bericht: {out / REPORT} ({len(written)} Dateien)")
    for conflict in run.conflicts:
        typer.echo(f"Nichtdeterminismus: Spiel {conflict.game_id}", err=True)
    if run.conflicts:
        raise typer.Exit(3)


class SideChoice(StrEnum):
    gegner = "gegner"
    runner = "runner"


def exploit(
    scenario: str = typer.Option(..., "--scenario", help="Scenario name or YAML file."),
    against: str = typer.Option(..., "--against", help="The fixed agent to exploit."),
    side: SideChoice = typer.Option(SideChoice.gegner, "--side", help="The learner's side."),
    budget: int = typer.Option(50_000, "--budget", min=64, help="Training timesteps."),
    seed: int = typer.Option(0, "--seed", help="Training and evaluation seed."),
    out: Path = typer.Option(..., "--out", help="Folder for the run, report.md and PNG."),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    eval_games: int = typer.Option(
        100, "--eval-games", min=1, help="Evaluation games per player (learner, doctrines)."
    ),
    n_envs: int = typer.Option(4, "--envs", min=1, max=64, help="Training environments."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar."),
) -> None:
    """Train a best response against a fixed agent and list the actions it over-uses."""
    from cwenv.stress.exploit import ExploitConfig, ExploitConfigError, run_exploit
    from cwenv.stress.exploit_report import REPORT, write_report
    from cwenv.yamlio import ConfigError

    config = ExploitConfig(
        scenario, against, budget, side.value, seed, rules, eval_games, n_envs=n_envs
    )
    try:
        require("rl", "plots")
        from agents.training.train import train  # torch: only on this path

        with progress_bar("evaluation", progress) as bar:
            started = False

            def phase(text: str) -> None:
                nonlocal started
                typer.echo(text, err=True)
                if text.startswith("evaluating") and not started:
                    bar.start(eval_games * (1 + len(config.doctrines)))
                    started = True

            result = run_exploit(config, out, train=train, on_phase=phase, on_game=bar.advance)
        write_report(result, out)
    except ImportError as exc:
        typer.echo(f"exploit search needs the rl extra (pip install -e '.[rl]'): {exc}", err=True)
        raise typer.Exit(1) from None
    except (
        RunnerError,
        ExploitConfigError,
        ConfigError,
        FileExistsError,
        MissingExtraError,
    ) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    (out / "command.txt").write_text(shlex.join(["cwenv", *sys.argv[1:]]) + "\n", "utf-8")
    low, high = result.learner.ci95
    typer.echo(
        f"learner win rate {result.learner.win_rate:.1%} [{low:.1%}–{high:.1%}] over "
        f"{result.learner.games} games against {against}"
    )
    for d in result.doctrines:
        typer.echo(f"  {d.player}: {d.win_rate:.1%}")
    kinds = ", ".join(c.kind for c in result.candidates) or "none"
    typer.echo(f"candidate exploits: {kinds}")
    typer.echo(f"report: {out / REPORT}")
