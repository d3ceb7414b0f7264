"""``cwenv play``: a terminal game against agents, optionally with dice typed at the table."""

from __future__ import annotations

import datetime
from pathlib import Path

import typer
from rich.console import Console

from agents.policy.bundle import BundleError
from agents.search import prepare_agents
from cwenv.agent import Agent
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.play.assist import DEFAULT_ADVISOR, NO_ADVISOR, Assistant
from cwenv.play.table_game import HUMAN, DiceMode, PlaySession, SavedGame, load_game, read_saved
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
    advisor: str = typer.Option(
        DEFAULT_ADVISOR,
        "--advisor",
        help="Agent whose choice Enter takes ('none': Enter repeats the last kind of choice).",
    ),
    hint: bool = typer.Option(
        False, "--hint", help="Show the advisor's proposal and reason before each of your choices."
    ),
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
        session = PlaySession(game, saved, ask, doc or "command line", prompt.tell)
        helper = None if advisor == NO_ADVISOR else _advisor(advisor)
        agents = [*session.agents.values(), *([helper] if helper is not None else [])]
        prepare_agents(agents, game)  # an agent that cannot play it: say so now
    except (ConfigError, UnknownAgentError, BundleError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    except (QuitRequested, KeyboardInterrupt):  # while setting up: nothing happened yet
        console.print("Partie abgebrochen.")
        return
    if not no_autosave:
        _keep_previous_autosave(console, autosave, load)
    assistant = Assistant(helper, saved.seed)
    where = None if no_autosave else autosave
    TerminalGame(session, console, input, where, prompt, assistant, hint).run()


def _advisor(spec: str) -> Agent:
    try:
        return make_agent(spec)
    except UnknownAgentError as exc:
        raise UnknownAgentError(f"--advisor: {exc} (or '{NO_ADVISOR}')") from None


def _keep_previous_autosave(console: Console, autosave: Path, load: Path | None) -> None:
    """A new game must not overwrite the autosave of the last one (nothing lost): unless it
    is the game being continued, the old autosave moves aside under a time-stamped name."""
    try:
        if not autosave.is_file() or (load is not None and load.resolve() == autosave.resolve()):
            return
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S")
        kept = autosave.with_name(f"{autosave.stem}-{stamp}{autosave.suffix}")
        n = 1
        while kept.exists():
            n += 1
            kept = autosave.with_name(f"{autosave.stem}-{stamp}-{n}{autosave.suffix}")
        autosave.replace(kept)
    except OSError as exc:
        console.print(f"Der vorige Autosave {autosave} bleibt, wie er ist: {exc.strerror or exc}")
        return
    console.print(f"Der vorige Autosave liegt jetzt in {kept} (weiter mit: --load {kept}).")
