"""``cwenv play``: a terminal game against agents, optionally with dice typed at the table."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from agents.policy.agent import check_fits
from agents.policy.bundle import BundleError
from cwenv.agent_registry import UnknownAgentError
from cwenv.play.session import HUMAN, DiceMode, PlaySession, SavedGame, load_game, read_saved
from cwenv.play.tui import SAVE_SUFFIXES, Prompt, QuitRequested, TerminalGame
from cwenv.yamlio import ConfigError

AUTOSAVE = Path(".cwenv-autosave.yaml")


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
    autosave: Path = typer.Option(
        AUTOSAVE,
        "--autosave",
        help="Where the game is saved after every decision (resume with --load).",
    ),
    no_autosave: bool = typer.Option(False, "--no-autosave", help="Do not autosave."),
) -> None:
    """Play a fight in the terminal: you choose the runners' actions from menus of legal
    choices with their exact odds; agents drive the NSCs; every event is narrated."""
    console = Console(highlight=False)
    prompt = Prompt(console, input)
    if not no_autosave and autosave.suffix not in SAVE_SUFFIXES:
        raise typer.BadParameter(
            f"{autosave}: a saved game's name ends in .yaml (--load reads only those)",
            param_hint="--autosave",
        )
    try:
        if load is not None:
            saved, doc = read_saved(load)
        else:
            if scenario is None:
                raise typer.BadParameter("a SCENARIO or --load FILE is needed")
            saved = SavedGame(
                scenario=scenario, rules=rules, seed=seed, runners=runners, nscs=nscs, dice=dice
            )
            doc = None
        game = load_game(saved, doc)
        # A new game with table dice asks for its first W10s (initiative) while it is set
        # up; a loaded one replays its saved dice and asks only once it is running.
        ask = prompt.ask_die if doc is None and saved.dice is DiceMode.TABLE else None
        session = PlaySession(game, saved, ask, source=doc or "command line")
        check_fits(list(session.agents.values()), game)  # a policy that cannot play it: say so
    except (ConfigError, UnknownAgentError, BundleError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    except (QuitRequested, KeyboardInterrupt):  # while setting up: nothing happened yet
        console.print("Partie abgebrochen.")
        return
    TerminalGame(session, console, input, None if no_autosave else autosave, prompt).run()
