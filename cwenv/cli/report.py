"""``cwenv report DB --out DIR [--csv FILE]``: Markdown report with PNG charts of any cwenv
results database (a tournament or a stress run), and every game as CSV."""

from __future__ import annotations

from pathlib import Path

import typer

from cwenv.extras import MissingExtraError
from cwenv.runner.errors import RunnerError
from cwenv.runner.report import write_report


def report(
    db: Path = typer.Argument(..., help="Tournament database (cwenv tournament --db)."),
    out: Path = typer.Option(Path("report"), "--out", help="Folder for report.md and charts."),
    tournament_id: str | None = typer.Option(
        None, "--tournament", help="Tournament id (default: the one run last)."
    ),
    csv: Path | None = typer.Option(
        None, "--csv", help="Also write every game of the tournament to this CSV file."
    ),
) -> None:
    """Write DIR/report.md with a win-rate heatmap, a rating chart, per-scenario tables and
    the game ids; with --csv every game as one CSV row. Reads the database only."""
    try:
        files = write_report(db, out, tournament_id, csv)
    except (RunnerError, MissingExtraError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    for path in files.files:
        typer.echo(str(path))


def main() -> None:  # pragma: no cover - module entry: python -m cwenv.cli.report
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(report)
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
