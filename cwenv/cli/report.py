"""``cwenv report DB --out DIR``: Markdown report with PNG charts of a tournament."""

from __future__ import annotations

from pathlib import Path

import typer

from cwenv.runner.errors import RunnerError
from cwenv.runner.report import write_report


def report(
    db: Path = typer.Argument(..., help="Tournament database (cwenv tournament --db)."),
    out: Path = typer.Option(Path("report"), "--out", help="Folder for report.md and charts."),
    tournament_id: str | None = typer.Option(
        None, "--tournament", help="Tournament id (default: the one run last)."
    ),
) -> None:
    """Write DIR/report.md with a win-rate heatmap, a rating chart and per-scenario tables."""
    try:
        files = write_report(db, out, tournament_id)
    except RunnerError as exc:
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
