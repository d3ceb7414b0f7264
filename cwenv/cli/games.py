"""``cwenv games list DB``: the games a results database holds — what ``cwenv replay`` can
replay — with filters and a limit. The database is only read."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from cwenv.engine.narration import rounds_text
from cwenv.runner.errors import RunnerError
from cwenv.runner.games import RESULTS, GameFilter, Listing, list_games
from cwenv.runner.ratings import scenario_label

app = typer.Typer(
    help="Games of a results database: what cwenv replay can replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_RESULT_TEXT = {
    "runner": "Runner siegen",
    "gegner": "Gegner siegen",
    "neutral": "Neutrale siegen",
    "draw": "Remis",
    "unplayed": "nicht gespielt",
}


@app.callback()
def games() -> None:
    """Games of a results database: what cwenv replay can replay."""


@app.command("list")
def list_cmd(
    db: Path = typer.Argument(..., help="Results database (--db of a tournament or stress run)."),
    tournament: str | None = typer.Option(
        None, "--tournament", help="Only this tournament's games (default: every game)."
    ),
    scenario: str | None = typer.Option(None, "--scenario", help="Scenario name or file."),
    agent: str | None = typer.Option(None, "--agent", help="Agent on either side."),
    runners: str | None = typer.Option(None, "--runners", help="Agent of the Runner side."),
    nscs: str | None = typer.Option(None, "--nscs", help="Agent of the Gegner side."),
    result: str | None = typer.Option(None, "--result", help=f"One of: {', '.join(RESULTS)}."),
    limit: int = typer.Option(50, "--limit", help="Show at most this many (0: all)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object instead of a table."),
) -> None:
    """List game ids with scenario, agents and result, in plan order."""
    game_filter = GameFilter(
        tournament, scenario, agent, runners, nscs, result, None if limit == 0 else limit
    )
    try:
        if limit < 0:
            raise RunnerError(f"--limit must be 0 (all) or more, got {limit}")
        listing = list_games(db, game_filter)
    except RunnerError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    if as_json:
        data = {"matched": listing.matched, "total": listing.total}
        typer.echo(json.dumps({**data, "games": [r.to_json() for r in listing.rows]}))
        return
    print_listing(db, listing)


def print_listing(db: Path, listing: Listing) -> None:
    """One line per game in aligned columns, never shortened (the ids are what replay
    takes; plain lines also suit grep)."""
    variants = any(row.rules for row in listing.rows)
    header = ["Spiel", "Szenario", *(["Regeln"] if variants else []), "Runner", "NSC", "Nr."]
    lines = [[*header, "Ergebnis"]]
    for row in listing.rows:
        outcome = _RESULT_TEXT.get(row.result, row.result)
        if row.played and row.rounds is not None:
            outcome += f" ({rounds_text(row.rounds)})"
        rules = [scenario_label(row.rules) if row.rules else "Standard"] if variants else []
        name = scenario_label(row.scenario)
        lines.append([row.game_id, name, *rules, row.runners, row.nscs, str(row.index), outcome])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        typer.echo(
            "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=False))
            + "  "
            + line[-1]
        )
    typer.echo(
        f"{len(listing.rows)} von {listing.matched} passenden Spielen gezeigt "
        f"({listing.total} in der Datenbank). Wiederholen: cwenv replay --db {db} --game ID"
    )
