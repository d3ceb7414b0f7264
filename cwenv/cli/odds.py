"""``cwenv odds PROBENWERT``: exact odds of a Probe, enumerated over 2W10."""

from __future__ import annotations

import json
from enum import StrEnum

import typer
from rich.console import Console
from rich.table import Table

from cwenv.rules.odds import probe_odds
from cwenv.rules.options import DEFAULT_OPTIONS
from cwenv.rules.variants import load_rule_variant
from cwenv.yamlio import ConfigError


class MummChoice(StrEnum):
    verbessern = "verbessern"
    wiederholen = "wiederholen"
    grosser_wurf = "grosser-wurf"


def odds(
    probenwert: int = typer.Argument(..., help="The Probenwert (skill + modifiers)."),
    mumm: list[MummChoice] = typer.Option(
        [],
        "--mumm",
        help="Mumm spends: verbessern (+2, M02), wiederholen (reroll a failure, "
        "M03), grosser-wurf (automatic Volltreffer, M09). Repeat to combine.",
    ),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Enumerate the 100 outcomes of 2W10 against PROBENWERT (P01–P06)."""
    options = DEFAULT_OPTIONS
    if rules is not None:
        try:
            options = load_rule_variant(rules)
        except ConfigError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(1) from None
    improve = sum(1 for m in mumm if m is MummChoice.verbessern)
    if improve > options.mumm_improve_per_check:
        typer.echo(
            f"--mumm verbessern given {improve} times; these rules allow "
            f"{options.mumm_improve_per_check} per check (X38 mumm_improve_per_check)",
            err=True,
        )
        raise typer.Exit(1)
    result = probe_odds(
        probenwert,
        options,
        improve=improve,
        reroll=MummChoice.wiederholen in mumm,
        grosser_wurf=MummChoice.grosser_wurf in mumm,
    )
    if as_json:
        typer.echo(json.dumps(result.as_json()))
        return
    table = Table(
        title=f"Probenwert {probenwert}"
        + (f" mit Mumm: {', '.join(m.value for m in mumm)}" if mumm else "")
    )
    table.add_column("Ergebnis")
    table.add_column("Wahrscheinlichkeit", justify="right")
    table.add_row("Erfolg", f"{float(result.success):.1%}")
    for qs, p in sorted(result.qs.items()):
        table.add_row(f"  QS {qs}", f"{float(p):.1%}")
    table.add_row("Volltreffer", f"{float(result.volltreffer):.1%}")
    table.add_row("Patzer", f"{float(result.patzer):.1%}")
    Console().print(table)
