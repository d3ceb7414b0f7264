"""The ``cwenv`` command line: thin typer commands over the library.

Each command group lives in its own module and registers itself here; a command parses,
calls the library and prints — no rules in here.
"""

from __future__ import annotations

import typer

from cwenv import __version__
from cwenv.cli import advise as advise_cmd
from cwenv.cli import agents as agents_cmd
from cwenv.cli import fight as fight_cmd
from cwenv.cli import odds as odds_cmd
from cwenv.cli import play as play_cmd
from cwenv.cli import replay as replay_cmd
from cwenv.cli import report as report_cmd
from cwenv.cli import rules as rules_cmd
from cwenv.cli import scenarios as scenarios_cmd
from cwenv.cli import simulate as simulate_cmd
from cwenv.cli import stress as stress_cmd
from cwenv.cli import tournament as tournament_cmd
from cwenv.cli import train as train_cmd

app = typer.Typer(
    name="cwenv",
    help="Corporate Wars combat simulator and AI-opponent training ground.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

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
app.add_typer(agents_cmd.app, name="agents")
app.add_typer(rules_cmd.app, name="rules")
app.add_typer(scenarios_cmd.app, name="scenarios")
app.add_typer(stress_cmd.app, name="stress")


@app.command("version")
def version() -> None:
    """Print the cwenv version."""
    typer.echo(__version__)


if __name__ == "__main__":  # pragma: no cover
    app()
