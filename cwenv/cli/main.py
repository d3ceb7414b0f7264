"""The ``cwenv`` command line: thin typer commands over the library.

Each command group lives in its own module and registers itself here; a command parses,
calls the library and prints — no rules in here.
"""

from __future__ import annotations

import typer

from cwenv import __version__
from cwenv.cli import (
    advise as advise_cmd,
    agents as agents_cmd,
    difficulty as difficulty_cmd,
    fight as fight_cmd,
    games as games_cmd,
    odds as odds_cmd,
    play as play_cmd,
    replay as replay_cmd,
    report as report_cmd,
    rules as rules_cmd,
    scenarios as scenarios_cmd,
    serve as serve_cmd,
    simulate as simulate_cmd,
    stress as stress_cmd,
    tournament as tournament_cmd,
    train as train_cmd,
)

app = typer.Typer(
    name="cwenv",
    help="Corporate Wars combat simulator and AI-opponent training ground.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"cwenv {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False,
        "--version",
        "-V",
        callback=_print_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """Corporate Wars combat simulator and AI-opponent training ground."""


app.command("odds")(odds_cmd.odds)
app.command("fight")(fight_cmd.fight)
app.command("play")(play_cmd.play)
app.command("advise")(advise_cmd.advise_cmd)
app.command("simulate")(simulate_cmd.simulate)
app.command("tournament")(tournament_cmd.tournament)
app.command("report")(report_cmd.report)
app.command("replay")(replay_cmd.replay)
app.command("train")(train_cmd.train)
app.command("export")(train_cmd.export)
app.command("serve")(serve_cmd.serve)
app.command("difficulty")(difficulty_cmd.difficulty)
app.add_typer(agents_cmd.app, name="agents")
app.add_typer(games_cmd.app, name="games")
app.add_typer(rules_cmd.app, name="rules")
app.add_typer(scenarios_cmd.app, name="scenarios")
app.add_typer(stress_cmd.app, name="stress")


@app.command("version")
def version() -> None:
    """Print the cwenv version."""
    typer.echo(__version__)


if __name__ == "__main__":  # pragma: no cover
    app()
