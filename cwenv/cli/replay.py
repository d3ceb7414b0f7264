"""``cwenv replay``: one game again, narrated in German round by round with the map.

Either a recorded tournament game (``--db results.sqlite --game ID``; an id prefix is
enough) or a game given by scenario, agents and seed (``--index I`` picks game I of
``cwenv simulate --seed S``). A recorded game must end exactly as recorded; if it does not,
the differences are printed and the exit code is 3.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from cwenv.engine.narration import rounds_text
from cwenv.runner.errors import RunnerError
from cwenv.runner.replay import (
    Replay,
    ReplayError,
    ReplaySource,
    render_map,
    replay as run_replay,
    source_from_db,
    source_from_scenario,
)
from cwenv.runner.seeds import game_seed


def _source(
    scenario: str | None,
    db: Path | None,
    game: str | None,
    runners: str,
    nscs: str,
    seed: int,
    index: int | None,
    rules: str | None,
) -> ReplaySource:
    if db is not None or game is not None:
        if db is None or game is None:
            raise RunnerError("a recorded game needs both --db and --game")
        if scenario is not None:
            raise RunnerError("give either SCENARIO or --db/--game, not both")
        return source_from_db(db, game)
    if scenario is None:
        raise RunnerError("give a SCENARIO (with --runners/--nscs/--seed) or --db and --game")
    dice = game_seed(seed, index) if index is not None else seed
    return source_from_scenario(scenario, runners, nscs, dice, rules)


def replay(
    scenario: str | None = typer.Argument(None, help="Scenario name or YAML file."),
    db: Path | None = typer.Option(None, "--db", help="Tournament database."),
    game: str | None = typer.Option(None, "--game", help="Game id (or unique prefix) in --db."),
    runners: str = typer.Option("greedy", "--runners", help="Agent for the Runner side."),
    nscs: str = typer.Option("greedy", "--nscs", help="Agent for the Gegner and neutrals."),
    seed: int = typer.Option(0, "--seed", help="Dice seed (or run seed with --index)."),
    index: int | None = typer.Option(
        None, "--index", min=0, help="Game I of `cwenv simulate --seed S`."
    ),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    show_map: bool = typer.Option(True, "--map/--no-map", help="Draw the map every round."),
) -> None:
    """Replay one game as German narration with the map at every round start."""
    console = Console(highlight=False)
    try:
        source = _source(scenario, db, game, runners, nscs, seed, index, rules)
        result = run_replay(source)
        show(console, result, show_map)
    except RunnerError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    for warning in source.warnings:
        typer.echo(f"Warnung: {warning}", err=True)
    if result.matches is False:
        typer.echo("Warnung: die Wiederholung weicht vom aufgezeichneten Ergebnis ab:", err=True)
        for line in result.differences():
            typer.echo(f"  {line}", err=True)
        raise typer.Exit(3)


def show(console: Console, result: Replay, show_map: bool) -> None:
    """Header, then per round: the map at its start and the narrated events."""
    source = result.source
    console.rule(source.label)
    if source.game_id is not None:
        console.print(f"Spiel {source.game_id}")
    for log in result.rounds:
        if log.snapshot is not None:
            console.rule(f"Kampfrunde {log.snapshot.round}")
            if show_map:
                console.print(render_map(source.game, log.snapshot))
        for line in log.lines:
            console.print(line, markup=False)
    outcome = result.combat.outcome
    if outcome is None:  # play_combat plays to the end; a replay that did not is a bug
        raise ReplayError(f"the replay of {source.label} stopped before the game ended")
    winner = outcome.winner.label if outcome.winner is not None else "Unentschieden"
    console.print(f"Ergebnis: {winner} nach {rounds_text(outcome.rounds)} ({outcome.reason})")
    if result.matches is True:
        console.print("Die Wiederholung stimmt mit dem aufgezeichneten Ergebnis überein.")
    elif result.matches is None and source.game_id is None:
        console.print("(keine Aufzeichnung zum Vergleich)")


def main() -> None:  # pragma: no cover - module entry: python -m cwenv.cli.replay
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(replay)
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
