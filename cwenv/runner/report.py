"""``cwenv report``: a Markdown report of a tournament database, with PNG charts.

Writes ``report.md``, ``winrates.png``, ``ratings.png``, one ``scenario_<name>.png`` per
scenario, ``standings.json`` and ``config.json`` into the output folder; every file is
written atomically, so an interrupted report never leaves a half-written file behind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cwenv.runner import charts
from cwenv.runner.atomic import atomic_write_text
from cwenv.runner.hashing import canonical_json
from cwenv.runner.ratings import (
    MatchupRow,
    Rating,
    Record,
    openskill_ratings,
    scenario_tables,
    standings_json,
    win_matrix,
)
from cwenv.runner.store import Conflict, Store


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


def _head(config: dict[str, Any], done: int, planned: int, conflicts: list[Conflict]) -> list[str]:
    rules = config.get("rules") or "scenario default"
    hashes = sorted({v["hash"] for v in config.get("rules_resolved", {}).values()})
    lines = [
        f"# Tournament report `{config.get('tournament_id', '?')}`",
        "",
        f"- agents: {', '.join(f'`{a}`' for a in config.get('agents', []))}",
        f"- scenarios: {', '.join(f'`{s}`' for s in config.get('scenarios', []))}",
        f"- games per pairing, side and scenario: {config.get('games')}; seed {config.get('seed')}",
        f"- rules: {rules} (hash {', '.join(hashes)}); full options in `config.json`",
        f"- progress: {done} of {planned} games played",
        "",
    ]
    if done < planned:
        lines += [
            f"> **Incomplete:** {planned - done} games are missing; run the same "
            "`cwenv tournament` command again to finish the plan.",
            "",
        ]
    if conflicts:
        ids = ", ".join(f"`{c.game_id}`" for c in conflicts)
        lines += [f"> **Nondeterminism:** games replayed with a different result: {ids}", ""]
    else:
        lines += ["No nondeterminism recorded.", ""]
    return lines


def write_report(db: str | Path, out: str | Path, tournament_id: str | None = None) -> ReportFiles:
    """Write the report of ``tournament_id`` (default: the last one run) into ``out``."""
    folder = Path(out)
    with Store(db, create=False) as store:
        tid = tournament_id or store.latest_tournament()
        config = store.tournament_config(tid)
        games = store.games(tid)
        conflicts = store.conflicts(g.game.game_id for g in games)
    agents = list(config["agents"])
    ratings = openskill_ratings(games, agents)
    matrix = win_matrix(games, agents)
    tables = scenario_tables(games)
    done = sum(1 for g in games if g.record is not None)
    files = ReportFiles(folder)
    files.files.append(charts.winrate_heatmap(matrix, agents, folder / "winrates.png"))
    files.files.append(charts.rating_chart(ratings, folder / "ratings.png"))
    lines = _head(config, done, len(games), conflicts)
    lines += _ratings_section(ratings) + _matrix_section(matrix, agents)
    lines += ["## Scenarios", ""]
    for label, rows in tables.items():
        image = f"scenario_{_safe(label)}.png"
        files.files.append(charts.scenario_heatmap(label, rows, folder / image))
        lines += _scenario_section(label, rows, image)
    standings = {
        "tournament_id": tid,
        "games_planned": len(games),
        "games_done": done,
        **standings_json(games, agents),
        "nondeterministic": sorted({c.game_id for c in conflicts}),
    }
    files.files.append(atomic_write_text(folder / "standings.json", canonical_json(standings)))
    files.files.append(atomic_write_text(folder / "config.json", canonical_json(config)))
    files.files.append(atomic_write_text(files.markdown, "\n".join(lines)))
    return files
