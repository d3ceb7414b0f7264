"""Tournament standings: openskill ratings, the win-rate matrix and per-scenario tables.

A game's winner is a side of its scenario's ruleset; which agent that was follows from the
side's seat (:func:`winner_seat`), so the standings of every ruleset are computed alike.

Everything is computed from the stored games ordered by game id, so a resumed tournament,
one run with more workers and one run on Ray give identical numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cwenv.ruleset import seat_of
from cwenv.runner.errors import RunnerError
from cwenv.runner.store import StoredGame
from cwenv.runner.task import ruleset_of
from cwenv.runner.win_rates import wilson_interval


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate ``mu − 3σ`` used for ranking."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass
class Record:
    """One agent's games against another (or as one side of a scenario)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
        }


def winner_seat(game: StoredGame) -> int | None:
    """0 when the first agent (``runners``) won, 1 when the second (``nscs``) did; None
    for a draw, a win of any other side (a neutral one) or an unplayed game. The sides
    are the scenario's ruleset's (:func:`cwenv.ruleset.seat_of`)."""
    if game.record is None or game.record.winner is None:
        return None
    return seat_of(ruleset_of(game.game.scenario), game.record.winner)


def winner_agent(game: StoredGame) -> str | None:
    """The agent that won (None for a draw, a neutral win or an unplayed game)."""
    seat = winner_seat(game)
    if seat is None:
        return None
    return game.game.runners if seat == 0 else game.game.nscs


def played(games: Sequence[StoredGame]) -> list[StoredGame]:
    return sorted((g for g in games if g.record is not None), key=lambda g: g.game.game_id)


def openskill_ratings(games: Sequence[StoredGame], agents: Sequence[str]) -> dict[str, Rating]:
    """PlackettLuce ratings, updated one game at a time in game-id order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RunnerError(
            "ratings need openskill, which is not installed: pip install 'cwenv[ratings]'"
        ) from None

    model = PlackettLuce()
    current = {a: model.rating(name=a) for a in agents}
    for g in played(games):
        r, n = g.game.runners, g.game.nscs
        if r not in current or n not in current or r == n:  # a mirror game rates nobody
            continue
        win = winner_agent(g)
        ranks = [0.0, 1.0] if win == r else [1.0, 0.0] if win == n else [0.0, 0.0]
        [[new_r], [new_n]] = model.rate([[current[r]], [current[n]]], ranks=ranks)
        current[r], current[n] = new_r, new_n
    return {a: Rating(float(current[a].mu), float(current[a].sigma)) for a in agents}


def win_matrix(games: Sequence[StoredGame], agents: Sequence[str]) -> dict[str, dict[str, Record]]:
    """``matrix[a][b]``: a's record against b over both sides and every scenario."""
    matrix = {a: {b: Record() for b in agents if b != a} for a in agents}
    for g in played(games):
        r, n = g.game.runners, g.game.nscs
        if r not in matrix or n not in matrix or r == n:  # mirror games (stress baselines)
            continue
        win = winner_agent(g)
        for me, other in ((r, n), (n, r)):
            rec = matrix[me][other]
            if win is None:
                rec.draws += 1
            elif win == me:
                rec.wins += 1
            else:
                rec.losses += 1
    return matrix


def scenario_label(scenario: str) -> str:
    """A scenario name, or the stem of a scenario file."""
    path = Path(scenario)
    return path.stem if path.suffix in (".yaml", ".yml") else scenario


@dataclass
class MatchupRow:
    """Runner agent against NSC agent on one scenario."""

    runners: str
    nscs: str
    runner_record: Record = field(default_factory=Record)
    rounds: int = 0

    @property
    def mean_rounds(self) -> float:
        games = self.runner_record.games
        return self.rounds / games if games else 0.0


def scenario_tables(games: Sequence[StoredGame]) -> dict[str, list[MatchupRow]]:
    """Per scenario (in first-seen plan order) the runner side's record of every matchup;
    where the games use several rule variants (``stress variants``), per scenario and
    variant."""
    tables: dict[str, dict[tuple[str, str], MatchupRow]] = {}
    variants = len({g.game.rules for g in games}) > 1
    for g in sorted(games, key=lambda g: g.game.ordinal):
        label = scenario_label(g.game.scenario)
        if variants:
            label += f" · {scenario_label(g.game.rules) if g.game.rules else 'default'}"
        rows = tables.setdefault(label, {})
        key = (g.game.runners, g.game.nscs)
        row = rows.setdefault(key, MatchupRow(*key))
        if g.record is None:
            continue
        row.rounds += g.record.rounds
        seat = winner_seat(g)
        if seat == 0:
            row.runner_record.wins += 1
        elif seat == 1:
            row.runner_record.losses += 1
        else:
            row.runner_record.draws += 1
    return {label: list(rows.values()) for label, rows in tables.items()}


def standings_json(games: Sequence[StoredGame], agents: Sequence[str]) -> dict[str, Any]:
    """``ratings`` and ``win_rates`` as plain JSON."""
    ratings = openskill_ratings(games, agents)
    matrix = win_matrix(games, agents)
    return {
        "ratings": {a: ratings[a].to_json() for a in agents},
        "win_rates": {a: {b: rec.to_json() for b, rec in row.items()} for a, row in matrix.items()},
    }
