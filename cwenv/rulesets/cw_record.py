"""The record of a finished Corporate Wars combat: what the results store keeps of it."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cwenv.model.types import Side
from cwenv.ruleset import GameRecord

if TYPE_CHECKING:
    from cwenv.engine.events import Event
    from cwenv.engine.state import Combat


def derived_counters(combat: Combat) -> dict[str, int]:
    """Counters read off the event log: ``turns:SIDE`` (turns begun per side, I03/I12) and
    ``decided:volltreffer`` = 1 when the knock-out that ended the fight came from the damage
    of a Volltreffer hit (P06, A07): the last loser to go down fell to the hit whose
    Volltreffer table was rolled, before the next attack, turn end or round end."""
    from cwenv.engine import events as ev

    out: dict[str, int] = {}
    outcome = combat.outcome
    winner = outcome.winner if outcome is not None else None
    hit_target = vt_target = -1
    down: set[int] = set()
    last_ko_vt = False
    for event in combat.events:
        if isinstance(event, ev.TurnStarted):
            key = f"turns:{combat.fighters[event.fighter].side.name}"
            out[key] = out.get(key, 0) + 1
            hit_target = vt_target = -1
        elif isinstance(event, ev.Hit):
            hit_target, vt_target = event.target, -1
        elif isinstance(event, ev.TableRolled) and event.table is ev.TableKind.VOLLTREFFER:
            vt_target = hit_target
        elif isinstance(event, ev.AttackDeclared | ev.TurnEnded | ev.RoundEnded):
            hit_target = vt_target = -1
        elif isinstance(event, ev.StatusChanged):
            if event.status is ev.Status.AWAKE:
                down.discard(event.fighter)
            elif event.status.knocks_out and event.fighter not in down:
                down.add(event.fighter)
                side = combat.fighters[event.fighter].side
                if winner is not None and side is not winner and side is not Side.NEUTRAL:
                    last_ko_vt = event.fighter == vt_target
    if last_ko_vt:
        out["decided:volltreffer"] = 1
    return out


def record_of(combat: Combat) -> GameRecord:
    """Summarise a finished combat."""
    from cwenv.engine.events import LPChanged
    from cwenv.engine.tactics import tactic_tags

    outcome = combat.outcome
    if outcome is None:
        raise ValueError("the combat has not ended")
    lost: dict[str, int] = {}
    for event in combat.events:
        if isinstance(event, LPChanged) and event.after < event.before:
            side = combat.fighters[event.fighter].side.name
            lost[side] = lost.get(side, 0) + event.before - event.after
    tactics: dict[str, dict[str, int]] = {}
    for action in combat.history:
        for tag in tactic_tags(combat.bm, action):
            used = tactics.setdefault(combat.fighters[action.actor].side.name, {})
            used[tag] = used.get(tag, 0) + 1
    counters = dict(combat.counters)
    counters.update(derived_counters(combat))
    return GameRecord(
        winner=outcome.winner.name if outcome.winner is not None else None,
        reason=outcome.reason,
        rounds=outcome.rounds,
        counters=dict(sorted(counters.items())),
        lp_lost=dict(sorted(lost.items())),
        events=len(combat.events),
        events_hash=events_hash(combat.events),
        tactics={side: dict(sorted(t.items())) for side, t in sorted(tactics.items())},
    )


def events_hash(events: Sequence[Event], *, acted_untyped: bool = False) -> str:
    """The hash of an event log: every event's ``repr``, one per line.

    ``acted_untyped`` writes each ``Acted`` as records made before its fields were typed
    (issue #16, December 2026) wrote it, ``Acted(fighter=…, what='zieht', detail=…,
    target=…)``: the game is the same, only the event's fields changed."""
    from cwenv.engine.events import Acted

    log = hashlib.sha256()
    for event in events:
        if acted_untyped and isinstance(event, Acted):
            line = (
                f"Acted(fighter={event.fighter!r}, what={event.act.label!r}, "
                f"detail={event.detail!r}, target={event.target!r})"
            )
        else:
            line = repr(event)
        log.update(line.encode("utf-8"))
        log.update(b"\n")
    return log.hexdigest()[:32]


def record_against(combat: Combat, expected: GameRecord | None) -> GameRecord:
    """``combat``'s record hashed the way ``expected`` was: a record made before ``Acted``
    was typed hashed its events with ``acted_untyped``; any other record as now."""
    record = record_of(combat)
    if expected is None or expected.events_hash == record.events_hash:
        return record
    then = events_hash(combat.events, acted_untyped=True)
    return dataclasses.replace(record, events_hash=then) if then == expected.events_hash else record
