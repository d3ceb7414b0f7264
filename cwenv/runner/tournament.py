"""Run a tournament to completion, resuming whatever an earlier (killed) run left undone.

The plan is written first; then only games without a stored result are played. Results
come back from the workers in any order and are written by this (the only) writer in
batched transactions. Standings are computed from the database, not from this run, so a
resumed run reports exactly what an uninterrupted one would.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cwenv.extras import require
from cwenv.runner.atomic import atomic_write_text
from cwenv.runner.backends import BACKENDS, run_tasks
from cwenv.runner.errors import RunnerError
from cwenv.runner.plan import Plan, PlannedGame, TournamentConfig, build_plan
from cwenv.runner.ratings import standings_json
from cwenv.runner.store import Conflict, Store, StoredGame
from cwenv.runner.task import GameTask, TaskResult, resolve_scenario


@dataclass
class TournamentRun:
    """What a run did and where the tournament stands."""

    plan: Plan
    db: Path
    games: list[StoredGame]
    played_now: int = 0
    rechecked: int = 0
    conflicts: list[Conflict] = field(default_factory=list)  # found in this run
    all_conflicts: list[Conflict] = field(default_factory=list)  # ever, for this plan

    @property
    def games_planned(self) -> int:
        return len(self.plan.games)

    @property
    def games_done(self) -> int:
        return sum(1 for g in self.games if g.record is not None)

    def to_json(self) -> dict[str, Any]:
        agents = list(self.plan.config.agents)
        return {
            "tournament_id": self.plan.tournament_id,
            "db": str(self.db),
            "games_planned": self.games_planned,
            "games_done": self.games_done,
            "played_now": self.played_now,
            "rechecked": self.rechecked,
            **standings_json(self.games, agents),
            "nondeterministic": sorted({c.game_id for c in self.all_conflicts}),
        }


def config_path(db: Path) -> Path:
    """Where the resolved config is saved beside the database: ``results.config.json``."""
    return db.with_name(f"{db.stem}.config.json")


def run_tournament(
    config: TournamentConfig,
    db: str | Path,
    *,
    jobs: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    batch: int = 64,
    flush_seconds: float = 1.0,
    recheck: int = 0,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
) -> TournamentRun:
    """Plan, play what is missing (plus ``recheck`` recorded games) and return standings.

    ``on_start(total, already_done)`` and ``on_game()`` drive a progress display.
    """
    from cwenv.runner.hashing import canonical_json

    if backend not in BACKENDS:
        raise RunnerError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    require("ratings", *(["ray"] if backend == "ray" else []))  # before any game is played
    plan = build_plan(config)
    path = Path(db)
    with Store(path) as store:
        store.write_plan(plan)
        atomic_write_text(config_path(path), canonical_json(plan.config_json()) + "\n")
        hashes = _content_hashes(plan)
        tasks = [_task(g, hashes) for g in store.missing(plan.tournament_id)]
        missing = len(tasks)
        if recheck > 0:
            done = [g for g in store.games(plan.tournament_id) if g.record is not None]
            tasks += [_task(g.game, hashes) for g in done[:recheck]]
        if on_start is not None:
            on_start(len(plan.games) + (len(tasks) - missing), len(plan.games) - missing)
        conflicts = _play(store, tasks, jobs, backend, ray_address, batch, flush_seconds, on_game)
        games = store.games(plan.tournament_id)
        all_conflicts = store.conflicts(g.game.game_id for g in games)
    return TournamentRun(plan, path, games, missing, len(tasks) - missing, conflicts, all_conflicts)


def _content_hashes(plan: Plan) -> dict[str, str]:
    """Scenario source (as stored in the plan) → its content hash."""
    return {resolve_scenario(s): c.hash for s, c in (plan.content or {}).items()}


def _task(game: PlannedGame, hashes: dict[str, str]) -> GameTask:
    """The game's task, carrying the scenario's content hash: a worker that loads a file
    edited after planning refuses to play it instead of mixing two versions."""
    return dataclasses.replace(game.task(), content=hashes.get(game.scenario))


def _play(
    store: Store,
    tasks: list[GameTask],
    jobs: int,
    backend: str,
    ray_address: str | None,
    batch: int,
    flush_seconds: float,
    on_game: Callable[[], None] | None,
) -> list[Conflict]:
    """The single writer: collect results, commit them in batches, flush on the way out.

    When playing or saving fails, the games finished so far are still saved; if that last
    save fails too (a full disk), the first error is the one reported."""
    conflicts: list[Conflict] = []
    pending: list[TaskResult] = []
    last = time.monotonic()
    results = run_tasks(tasks, jobs=jobs, backend=backend, ray_address=ray_address)
    failed = False
    try:
        for result in results:
            pending.append(result)
            if on_game is not None:
                on_game()
            if len(pending) >= batch or time.monotonic() - last >= flush_seconds:
                batch_now, pending = pending, []
                conflicts += store.write_results(batch_now)
                last = time.monotonic()
    except BaseException:
        failed = True
        raise
    finally:
        results.close()  # stop the workers first (on an error or Ctrl-C) …
        try:
            conflicts += store.write_results(pending)  # … then keep every finished game
        except RunnerError:
            if not failed:
                raise
    return conflicts
