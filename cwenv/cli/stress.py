"""``cwenv stress …``: stress-testing the rules (issue #7). Each command lives in its own
module and is registered here."""

from __future__ import annotations

import typer

from cwenv.cli import stress_tactics, stress_variants

app = typer.Typer(
    help="Stress-test the rules: rule-variant sweeps, restricted play, exploit search.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("variants")(stress_variants.variants)
app.command("tactics")(stress_tactics.tactics)
app.command("exploit")(stress_tactics.exploit)
