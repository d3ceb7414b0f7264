"""``cwenv play``: a terminal game against agents, optionally with dice typed at the table."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from agents.registry import UnknownAgentError
from cwenv.play.session import HUMAN, DiceMode, PlaySession, SavedGame, load_saved
from cwenv.play.tui import TerminalGame
from cwenv.yamlio import ConfigError


def play(
    scenario: str | None = typer.Argument(None, help="Scenario name or YAML file."),
    nscs: str = typer.Option("greedy", "--nscs", help="Agent for the Gegner (or 'human')."),
    runners: str = typer.Option(HUMAN, "--runners", help="'human' or an agent for the Runner."),
    seed: int = typer.Option(0, "--seed", help="Seed of the dice and the agents."),
    dice: DiceMode = typer.Option(
        DiceMode.SEEDED, "--dice", help="seeded: the engine rolls; table: type every W10."
    ),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    load: Path | None = typer.Option(None, "--load", help="Continue a saved game."),
) -> None:
    """Play a fight in the terminal: you choose the runners' actions from menus of legal
    choices with their exact odds; agents drive the NSCs; every event is narrated."""
    console = Console(highlight=False)

    def read(prompt: str) -> str:
        try:
            return input(prompt)
        except EOFError:
            return "q"

    holder: list[PlaySession] = []

    def ask_die() -> int:
        while True:
            what = holder[0].combat.resolving() if holder else ""
            line = read(f"W10 ({what}) > ").strip()
            if line.lower() == "q":
                raise typer.Exit(1)
            if line.isdigit() and 1 <= int(line) <= 10:
                return int(line)
            console.print("Bitte einen W10 eingeben (1–10).")

    try:
        if load is not None:
            saved = load_saved(load)
        else:
            if scenario is None:
                raise typer.BadParameter("a SCENARIO or --load FILE is needed")
            saved = SavedGame(
                scenario=scenario, rules=rules, seed=seed, runners=runners, nscs=nscs, dice=dice
            )
        from cwenv.content import load_scenario

        game = load_scenario(saved.scenario, rules=saved.rules)
        session = PlaySession(game, saved, ask_die)
    except (ConfigError, UnknownAgentError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    holder.append(session)
    TerminalGame(session, console, read).run()
