"""``cwenv rules``: the rule options (X-questions) and rule variants."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cwenv.rules.options import option_table
from cwenv.rules.variants import RULES_DIR, load_rule_variant, options_to_mapping
from cwenv.yamlio import ConfigError

app = typer.Typer(help="Rule options and variants.", no_args_is_help=True)


@app.command("options")
def options(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List every rule option with its X-question, default and alternatives."""
    rows = option_table()
    if as_json:
        typer.echo(
            json.dumps(
                [
                    r.__dict__
                    if hasattr(r, "__dict__")
                    else {
                        "name": r.name,
                        "x": r.x,
                        "default": r.default,
                        "why": r.why,
                        "alternatives": r.alternatives,
                    }
                    for r in rows
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    table = Table(title="Regeloptionen")
    for col in ("Option", "X", "Standard", "Alternativen"):
        table.add_column(col)
    for r in rows:
        table.add_row(r.name, r.x, r.default, r.alternatives)
    Console().print(table)


@app.command("variants")
def variants() -> None:
    """List the rule variants shipped in configs/rules/."""
    for path in sorted(Path(RULES_DIR).glob("*.yaml")):
        typer.echo(path.stem)


@app.command("show")
def show(variant: str = typer.Argument(..., help="Variant name or YAML path.")) -> None:
    """Print a variant's fully resolved options as JSON (exit 1 on an invalid file)."""
    try:
        opts = load_rule_variant(variant)
    except ConfigError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    typer.echo(json.dumps(options_to_mapping(opts), ensure_ascii=False, indent=2))


@app.command("doc")
def doc(
    out: Path = typer.Option(Path("docs/rules.md"), "--out", help="Where to write the document."),
    check: bool = typer.Option(False, "--check", help="Only check that OUT is up to date."),
) -> None:
    """Write docs/rules.md: every checklist ID with its implementation and its tests."""
    from cwenv.rules.coverage import render, scan

    cov = scan()
    text = render(cov)
    if check:
        current = out.read_text(encoding="utf-8") if out.exists() else ""
        if current != text:
            typer.echo(f"{out} is stale; run `cwenv rules doc`", err=True)
            raise typer.Exit(1)
        typer.echo(f"{out} is up to date")
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    missing = cov.missing()
    typer.echo(f"wrote {out}; combat rules without implementation or test: {missing or 'none'}")
