"""The record of one play of a job: its fights' records added up, and which fight decided.

``winner`` is the winner of the last fight played (the Runners win a job only by winning
every fight), ``reason`` names that fight (``Kampf 2/3 (Korridor): …``); the ``job:``
counters say per fight ``k`` (1-based) whether it was reached (``job:reached:k``), won by
the Runners (``job:won:k``) or ended the job (``job:ended:k``), and the Runners' LP and
Mumm at its start (``job:lp_start:k``, ``job:mumm_start:k``); ``job:daring`` is the Mumm
regained under X61.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.hashing import content_hash
from cwenv.model.types import Side
from cwenv.ruleset import GameRecord
from cwenv.rulesets.corporate_wars import RULESET as CW

if TYPE_CHECKING:
    from cwenv.runner.jobs import JobPlay


def _add(into: dict[str, int], values: dict[str, int]) -> None:
    for key, value in values.items():
        into[key] = into.get(key, 0) + value


def job_record(play: JobPlay) -> GameRecord:
    """The record of a finished play of a job (:func:`cwenv.runner.jobs.play_job`)."""
    total = len(play.job.games)
    counters: dict[str, int] = {}
    lp_lost: dict[str, int] = {}
    tactics: dict[str, dict[str, int]] = {}
    hashes: list[str] = []
    rounds = events = 0
    winner: str | None = None
    reason = ""
    for k, (combat, start) in enumerate(zip(play.combats, play.starts, strict=True), 1):
        record = CW.record(combat)
        _add(counters, record.counters)
        _add(lp_lost, record.lp_lost)
        for side, tags in record.tactics.items():
            _add(tactics.setdefault(side, {}), tags)
        hashes.append(record.events_hash)
        rounds += record.rounds
        events += record.events
        winner = record.winner
        reason = f"Kampf {k}/{total} ({combat.game.name}): {record.reason}"
        counters[f"job:reached:{k}"] = 1
        counters[f"job:lp_start:{k}"] = sum(c.lp for c in start.values())
        counters[f"job:mumm_start:{k}"] = sum(c.mumm for c in start.values())
        if record.winner == Side.RUNNER.name:
            counters[f"job:won:{k}"] = 1
    if play.stopped:  # nobody left to send into the next fight: the job is lost
        winner = Side.GEGNER.name
        reason = f"{play.stopped} ({reason})" if reason else play.stopped
    counters[f"job:ended:{len(play.combats) + (1 if play.stopped else 0)}"] = 1
    if play.daring:
        counters["job:daring"] = play.daring
    return GameRecord(
        winner=winner,
        reason=reason,
        rounds=rounds,
        counters=counters,
        lp_lost=lp_lost,
        events=events,
        events_hash=content_hash(hashes, 32),
        tactics=tactics,
    )
