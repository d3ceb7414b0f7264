"""``cwenv report``: a Markdown report of a results database, with PNG charts.

Writes ``report.md``, ``winrates.png``, ``ratings.png``, one ``scenario_<name>.png`` per
scenario, ``standings.json`` and ``config.json`` into the output folder (and, with ``csv``,
every game as one CSV row); every file is written atomically, so an interrupted report never
leaves a half-written file behind. Any cwenv database works: a tournament's, or a ``stress
tactics`` / ``stress variants`` run's (their mirror games rate nobody, and the games of
several rule variants are tabled per variant). The database is only read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cwenv.extras import require
from cwenv.runner import charts
from cwenv.runner.atomic import atomic_write_text
from cwenv.runner.errors import RunnerError
from cwenv.runner.games import games_csv
from cwenv.runner.hashing import canonical_json
from cwenv.runner.ratings import (
    MatchupRow,
    Rating,
    Record,
    openskill_ratings,
    scenario_label,
    scenario_tables,
    standings_json,
    win_matrix,
)
from cwenv.runner.store import Conflict, Store, StoredGame

GAMES_SHOWN = 20  # game ids listed in report.md; `cwenv games list` and --csv have them all


@dataclass
class ReportFiles:
    folder: Path
    files: list[Path] = field(default_factory=list)

    @property
    def markdown(self) -> Path:
        return self.folder / "report.md"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_") or "scenario"


def _pct(rec: Record) -> str:
    if rec.games == 0:
        return "–"
    low, high = rec.ci95
    return f"{rec.win_rate:.1%} [{low:.1%}, {high:.1%}] (n={rec.games})"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return [*out, ""]


def _ratings_section(ratings: dict[str, Rating]) -> list[str]:
    order = sorted(ratings, key=lambda a: (-ratings[a].ordinal, a))
    rows = []
    for rank, a in enumerate(order, 1):
        r = ratings[a]
        low, high = r.mu - 2 * r.sigma, r.mu + 2 * r.sigma
        rows.append(
            [
                str(rank),
                f"`{a}`",
                f"{r.mu:.2f}",
                f"{r.sigma:.2f}",
                f"{r.ordinal:.2f}",
                f"[{low:.2f}, {high:.2f}]",
            ]
        )
    return [
        "## Ratings",
        "",
        "openskill PlackettLuce, updated game by game in game-id order; ranked by the "
        "ordinal μ − 3σ.",
        "",
        *_table(["#", "agent", "μ", "σ", "ordinal", "μ ± 2σ"], rows),
        "![ratings](ratings.png)",
        "",
    ]


def _matrix_section(matrix: dict[str, dict[str, Record]], agents: list[str]) -> list[str]:
    rows = [[f"`{a}`", *("—" if a == b else _pct(matrix[a][b]) for b in agents)] for a in agents]
    return [
        "## Win rates",
        "",
        "Row agent against column agent over both sides of every scenario; draws count as "
        "not won. Brackets: 95 % Wilson interval.",
        "",
        *_table(["agent \\ opponent", *(f"`{b}`" for b in agents)], rows),
        "![win rates](winrates.png)",
        "",
    ]


def _scenario_section(label: str, rows: list[MatchupRow], image: str) -> list[str]:
    body = [
        [
            f"`{r.runners}`",
            f"`{r.nscs}`",
            str(r.runner_record.games),
            str(r.runner_record.wins),
            str(r.runner_record.losses),
            str(r.runner_record.draws),
            _pct(r.runner_record),
            f"{r.mean_rounds:.2f}",
        ]
        for r in rows
    ]
    header = [
        "Runners",
        "NSCs",
        "games",
        "Runner wins",
        "NSC wins",
        "draws",
        "Runner win rate",
        "mean rounds",
    ]
    return [f"### {label}", "", *_table(header, body), f"![{label}]({image})", ""]


def _listed(config: dict[str, Any], key: str) -> str:
    values = config.get(key)
    if not isinstance(values, list):
        return "–"
    return ", ".join(f"`{v}`" for v in values)


def _head(
    config: dict[str, Any], agents: list[str], done: int, planned: int, conflicts: list[Conflict]
) -> list[str]:
    rules = config.get("rules") or config.get("base") or "scenario default"
    resolved = config.get("rules_resolved")
    hashes = sorted(
        {str(v.get("hash")) for v in resolved.values() if isinstance(v, dict)}
        if isinstance(resolved, dict)
        else set()
    )
    run = f"`{config.get('name', '?')}`" + (f" ({config['kind']})" if config.get("kind") else "")
    lines = [
        f"# Tournament report `{config.get('tournament_id', '?')}`",
        "",
        f"- run: {run}",
        f"- agents: {', '.join(f'`{a}`' for a in agents)}",
        f"- scenarios: {_listed(config, 'scenarios')}",
        f"- games per cell: {config.get('games')}; seed {config.get('seed')}",
        f"- rules: {rules} (hash {', '.join(hashes) or '–'}); full options in `config.json`",
        f"- progress: {done} of {planned} games played",
        "",
    ]
    if done < planned:
        lines += [
            f"> **Incomplete:** {planned - done} games are missing; run the same "
            "command again to finish the plan.",
            "",
        ]
    if conflicts:
        ids = ", ".join(f"`{c.game_id}`" for c in conflicts)
        lines += [f"> **Nondeterminism:** games replayed with a different result: {ids}", ""]
    else:
        lines += ["No nondeterminism recorded.", ""]
    return lines


def _agents(config: dict[str, Any], games: list[StoredGame]) -> list[str]:
    """The config's agent list; else (a stress-variants run) the agents of the plan."""
    listed = config.get("agents")
    if isinstance(listed, list) and all(isinstance(a, str) for a in listed):
        return list(listed)
    seen: dict[str, None] = {}
    for g in sorted(games, key=lambda g: g.game.ordinal):
        seen.setdefault(g.game.runners)
        seen.setdefault(g.game.nscs)
    return list(seen)


def _games_section(db: Path, tid: str, games: list[StoredGame]) -> list[str]:
    rows = []
    for g in sorted(games, key=lambda g: g.game.ordinal)[:GAMES_SHOWN]:
        p, r = g.game, g.record
        rounds = "" if r is None else f" after {r.rounds} round{'s' if r.rounds != 1 else ''}"
        result = "not played" if r is None else (r.winner or "draw") + rounds
        rows.append(
            [f"`{p.game_id}`", scenario_label(p.scenario), f"`{p.runners}`", f"`{p.nscs}`", result]
        )
    more = len(games) - len(rows)
    note = f"{more} more: " if more > 0 else "All of them, with filters: "
    return [
        "## Games",
        "",
        *_table(["game id", "scenario", "Runners", "NSCs", "result"], rows),
        f"{note}`cwenv games list {db} --tournament {tid}`; every game as CSV: "
        f"`cwenv report {db} --csv games.csv`. Replay one: `cwenv replay --db {db} --game ID`.",
        "",
    ]


def _write(path: Path, text: str) -> Path:
    try:
        return atomic_write_text(path, text)
    except OSError as exc:
        raise RunnerError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_report(
    db: str | Path,
    out: str | Path,
    tournament_id: str | None = None,
    csv: str | Path | None = None,
) -> ReportFiles:
    """Write the report of ``tournament_id`` (default: the last one run) into ``out``, and
    with ``csv`` every game of it as CSV."""
    require("ratings", "plots")  # before anything is read or written
    folder = Path(out)
    with Store(db, create=False) as store:
        tid = tournament_id or store.latest_tournament()
        config = store.tournament_config(tid)
        games = store.games(tid)
        conflicts = store.conflicts(g.game.game_id for g in games)
    agents = _agents(config, games)
    ratings = openskill_ratings(games, agents)
    matrix = win_matrix(games, agents)
    tables = scenario_tables(games)
    done = sum(1 for g in games if g.record is not None)
    files = ReportFiles(folder)
    if csv is not None:
        files.files.append(_write(Path(csv), games_csv(tid, games)))
    try:
        files.files.append(charts.winrate_heatmap(matrix, agents, folder / "winrates.png"))
        files.files.append(charts.rating_chart(ratings, folder / "ratings.png"))
        lines = _head(config, agents, done, len(games), conflicts)
        lines += _ratings_section(ratings) + _matrix_section(matrix, agents)
        lines += ["## Scenarios", ""]
        for label, rows in tables.items():
            image = f"scenario_{_safe(label)}.png"
            files.files.append(charts.scenario_heatmap(label, rows, folder / image))
            lines += _scenario_section(label, rows, image)
    except OSError as exc:
        raise RunnerError(f"cannot write the charts into {folder}: {exc.strerror or exc}") from None
    lines += _games_section(Path(db), tid, games)
    standings = {
        "tournament_id": tid,
        "games_planned": len(games),
        "games_done": done,
        **standings_json(games, agents),
        "nondeterministic": sorted({c.game_id for c in conflicts}),
    }
    files.files.append(_write(folder / "standings.json", canonical_json(standings)))
    files.files.append(_write(folder / "config.json", canonical_json(config)))
    files.files.append(_write(files.markdown, "\n".join(lines)))
    return files
