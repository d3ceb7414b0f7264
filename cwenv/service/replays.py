"""Stored games for the browser's Watch mode: the games of a tournament or stress database
(``cwenv serve --games DB``) and one game replayed step by step.

A game is replayed as ``cwenv replay`` does it (:func:`cwenv.runner.replay.source_from_db`:
the recorded scenario, rules and seed, with the recorded options where the rules changed)
and then stepped through again from its start, one recorded decision at a time, so every
step's frame is the engine's own state, not one reconstructed from the log.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from cwenv.engine.state import Combat
from cwenv.play.menu import label
from cwenv.rules.dice import dice_stream, seeded_dice
from cwenv.rulesets.cw_record import record_against
from cwenv.runner.errors import RunnerError
from cwenv.runner.games import GameFilter, list_games
from cwenv.runner.replay import source_from_db
from cwenv.runner.task import play_combat
from cwenv.service.board import attack_lines, board_json
from cwenv.service.errors import Issue, ServiceError
from cwenv.service.wire import action_json, combat_json, event_json

MAX_LISTED = 500
MAX_STEPS = 5_000
"""A stored game longer than this is refused rather than sent (a 20-round fight of eight
takes a few hundred decisions)."""
CACHED = 4  # replays kept (each is a few hundred kB of JSON)


def _no_db() -> ServiceError:
    return ServiceError(
        409, "no_games_db", "no games database: start the service with cwenv serve --games DB"
    )


def _runner_error(exc: RunnerError, field: str) -> ServiceError:
    message = str(exc)
    return ServiceError(404, "unknown_game", message, (Issue(field, message),))


def games_json(db: Path | None, limit: int) -> dict[str, Any]:
    """The stored games (by id, scenario, agents and result), in plan order."""
    if db is None:
        raise _no_db()
    try:
        found = list_games(db, GameFilter(limit=min(limit, MAX_LISTED)))
    except RunnerError as exc:
        raise ServiceError(422, "bad_games_db", str(exc)) from None
    return {
        "db": db.name,
        "total": found.total,
        "games": [row.to_json() for row in found.rows],
    }


def _frame(c: Combat, step: int, first_event: int, taken: dict[str, Any] | None) -> dict[str, Any]:
    names = list(c.game.names)
    events = c.events[first_event:]
    return {
        "step": step,
        "taken": taken,
        "events": [event_json(e, names) for e in events],
        "lines": attack_lines(events),
        "state": combat_json(c, with_legal=False) | board_json(c),
    }


def replay_json(db: Path, game_id: str) -> dict[str, Any]:
    """Every step of the stored game ``game_id`` (or a unique id prefix): the state before
    the first decision, then after each one with the decision taken and its events."""
    try:
        source = source_from_db(db, game_id)
        with dice_stream(source.stream):
            played = play_combat(source.game, source.runners, source.nscs, source.seed)
    except RunnerError as exc:
        raise _runner_error(exc, "game_id") from None
    if len(played.history) > MAX_STEPS:
        raise ServiceError(422, "too_long", f"the game has more than {MAX_STEPS} decisions")
    combat = source.game.new_combat(source.seed, seeded_dice(source.seed, source.stream))
    frames = [_frame(combat, 0, 0, None)]
    for n, action in enumerate(played.history, start=1):
        taken = {"action": action_json(action), "label": label(combat, action)}
        first = len(combat.events)
        combat.apply(action)
        frames.append(_frame(combat, n, first, taken))
    record = played.outcome
    return {
        "game_id": source.game_id,
        "label": source.label,
        "warnings": list(source.warnings),
        "matches": None
        if source.expected is None
        else record_against(played, source.expected).digest == source.expected.digest,
        "outcome": None
        if record is None
        else {
            "winner": None if record.winner is None else record.winner.name,
            "reason": record.reason,
            "rounds": record.rounds,
        },
        "frames": frames,
    }


class Replays:
    """A few recent replays kept, so stepping through a game does not replay it again."""

    def __init__(self, db: Path | None) -> None:
        self.db = db
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def get(self, game_id: str) -> dict[str, Any]:
        if self.db is None:
            raise _no_db()
        with self._lock:
            hit = self._kept.get(game_id)
            if hit is not None:
                self._kept.move_to_end(game_id)
                return hit
        found = replay_json(self.db, game_id)
        with self._lock:
            self._kept[game_id] = found
            while len(self._kept) > CACHED:
                self._kept.popitem(last=False)
        return found
