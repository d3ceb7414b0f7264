"""The games a results database holds: filtered listings and CSV rows.

``cwenv games list DB`` shows what ``cwenv replay --db DB --game ID`` can replay; ``cwenv
report DB --csv FILE`` writes every game of a tournament as one CSV row. Both read the
database read-only and work on every cwenv database (tournaments and stress runs).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cwenv.runner.errors import RunnerError
from cwenv.runner.ratings import scenario_label, winner_agent
from cwenv.runner.store import Store, StoredGame
from cwenv.runner.task import ruleset_of

RESULTS = ("runner", "gegner", "draw", "played", "unplayed")
"""Values of the result filter: who won, a draw, or whether the game was played at all."""


@dataclass(frozen=True)
class GameFilter:
    """Which games to list; ``None`` fields do not filter. ``agent`` matches either side."""

    tournament: str | None = None
    scenario: str | None = None
    agent: str | None = None
    runners: str | None = None
    nscs: str | None = None
    result: str | None = None
    limit: int | None = 50

    def validate(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise RunnerError(f"--result must be one of {', '.join(RESULTS)}, got {self.result!r}")
        if self.limit is not None and self.limit < 1:
            raise RunnerError(f"--limit must be at least 1, got {self.limit}")


@dataclass(frozen=True)
class GameRow:
    """One listed game: where it is in the plan and how it ended (None: not played yet)."""

    game_id: str
    scenario: str
    rules: str | None
    runners: str
    nscs: str
    index: int
    seed: int
    winner: str | None  # a side (RUNNER, GEGNER, NEUTRAL …) or None (a draw or not played)
    reason: str | None
    rounds: int | None

    @property
    def played(self) -> bool:
        return self.reason is not None

    @property
    def result(self) -> str:
        """``runner``, ``gegner``, ``neutral``, ``draw`` or ``unplayed``."""
        if not self.played:
            return "unplayed"
        return self.winner.lower() if self.winner is not None else "draw"

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "scenario": scenario_label(self.scenario),
            "scenario_source": self.scenario,
            "rules": self.rules,
            "runners": self.runners,
            "nscs": self.nscs,
            "index": self.index,
            "seed": self.seed,
            "result": self.result,
            "reason": self.reason,
            "rounds": self.rounds,
        }


_COLUMNS = (
    "p.game_id, p.scenario, p.rules, p.runners, p.nscs, p.idx, p.seed, r.winner, r.reason, r.rounds"
)


def _matches(row: GameRow, f: GameFilter) -> bool:
    if f.scenario is not None and f.scenario not in (row.scenario, scenario_label(row.scenario)):
        return False
    if f.agent is not None and f.agent not in (row.runners, row.nscs):
        return False
    if f.runners is not None and row.runners != f.runners:
        return False
    if f.nscs is not None and row.nscs != f.nscs:
        return False
    if f.result == "played":
        return row.played
    return f.result is None or row.result == f.result


def _rows(store: Store, tournament: str | None) -> Iterator[GameRow]:
    if tournament is not None:
        store.tournament_config(tournament)  # an unknown id names the known ones
        query = (
            f"SELECT {_COLUMNS} FROM entries e JOIN plan p USING (game_id) "
            "LEFT JOIN results r USING (game_id) WHERE e.tournament_id = ? ORDER BY e.ordinal"
        )
        params: tuple[str, ...] = (tournament,)
    else:  # every game of every tournament, in the order they were planned
        query = (
            f"SELECT {_COLUMNS} FROM plan p LEFT JOIN results r USING (game_id) ORDER BY p.rowid"
        )
        params = ()
    for raw in store.stream(query, params):
        gid, scenario, rules, runners, nscs, idx, seed, winner, reason, rounds = raw
        try:
            yield GameRow(
                str(gid), str(scenario), None if rules is None else str(rules), str(runners),
                str(nscs), int(idx), int(seed), None if winner is None else str(winner),
                None if reason is None else str(reason), None if rounds is None else int(rounds),
            )  # fmt: skip
        except (TypeError, ValueError) as exc:
            raise RunnerError(
                f"{store.path} is damaged: the row of game {gid!r} is unreadable ({exc})"
            ) from None


@dataclass(frozen=True)
class Listing:
    rows: list[GameRow]
    matched: int  # games matching the filter (all of them, not only the listed ones)
    total: int  # games looked at


def list_games(db: str | Path, game_filter: GameFilter) -> Listing:
    """The games of ``db`` that match ``game_filter``, at most ``limit`` of them."""
    game_filter.validate()
    rows: list[GameRow] = []
    matched = total = 0
    with Store(db, create=False) as store:
        for row in _rows(store, game_filter.tournament):
            total += 1
            if not _matches(row, game_filter):
                continue
            matched += 1
            if game_filter.limit is None or len(rows) < game_filter.limit:
                rows.append(row)
    return Listing(rows, matched, total)


CSV_COLUMNS = (
    "tournament_id",
    "game_id",
    "scenario",
    "scenario_source",
    "rules",
    "runners",
    "nscs",
    "index",
    "seed",
    "result",
    "winner_agent",
    "reason",
    "rounds",
    "lp_lost_runner",
    "lp_lost_gegner",
    "lp_lost_neutral",
    "events",
    "digest",
)


def _lp_sides(scenario: str) -> list[str]:
    """The sides of the three ``lp_lost_*`` columns: Corporate Wars' Runner, Gegner and
    neutrals; for another ruleset its first three sides in seat order ("" for none)."""
    sides = list(ruleset_of(scenario).sides[:3])
    return sides + [""] * (3 - len(sides))


def games_csv(tournament_id: str, games: Sequence[StoredGame]) -> str:
    """Every game as one CSV row (``CSV_COLUMNS``), in plan order; unplayed games have
    empty result fields."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in sorted(games, key=lambda g: g.game.ordinal):
        p, r = g.game, g.record
        plan = [tournament_id, p.game_id, scenario_label(p.scenario), p.scenario, p.rules or ""]
        result: list[Any] = [""] * 9
        if r is not None:
            lost = [r.lp_lost.get(side, 0) for side in _lp_sides(p.scenario)]
            result = [r.winner.lower() if r.winner is not None else "draw", winner_agent(g) or ""]
            result += [r.reason, r.rounds, *lost, r.events, g.digest or ""]
        writer.writerow([*plan, p.runners, p.nscs, p.index, p.seed, *result])
    return buffer.getvalue()
