"""How a fight is won: every victory kind as one table entry, and the one place that decides.

A scenario lists its victory conditions (:class:`~cwenv.engine.game.Victory`); each kind's
rule is its entry in :data:`VICTORIES`, built by :func:`~cwenv.engine.tables.rule_table`
(a kind without an entry fails at import, naming it). An entry says what it checks

* ``after_change``: whenever something that can decide the fight happened (LP, a status,
  a position: :meth:`Combat.mark_dirty`), e.g. the VIP is down or enough fighters escaped;
* ``at_round_end``: when a round ends, e.g. the side survived its rounds;
* ``escapes``: whether a fighter of the side who steps on an exit cell leaves the map.

``always``: the entry is in force in every fight, listed or not, and is checked after the
listed ones (a side with nobody standing loses: ELIMINATE). The round limit is no victory:
when it is reached the fight ends undecided. :func:`decide_after_change`,
:func:`decide_at_round_end` and :func:`escapes` are what the engine calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from cwenv.engine.game import Victory, VictoryKind
from cwenv.engine.tables import rule_table
from cwenv.model.types import Side

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

ROUND_LIMIT_REASON = "Rundenlimit erreicht"
"""The reason of a fight that reached its scenario's round limit undecided."""
BOTH_OUT = "beide Seiten ausgeschaltet"
RUNNERS_OUT = "alle Runner ausgeschaltet"
GEGNER_OUT = "alle Gegner ausgeschaltet"
EXIT_REACHED = "Ausgang erreicht"
"""The verdicts' reasons (the native combat's verdicts are worded by them too)."""


def survived_reason(rounds: int) -> str:
    return f"{rounds} Runden überstanden"


def fallen_reason(vip: str) -> str:
    return f"{vip} ist gefallen"


class Verdict(NamedTuple):
    """How the fight ends: the winning side (None: a draw) and why, in German."""

    winner: Side | None
    reason: str


Check = Callable[["Combat", Victory], "Verdict | None"]
Escape = Callable[["Combat", Victory, "FighterState"], bool]


def _never(c: Combat, v: Victory) -> Verdict | None:
    return None


def _stays(c: Combat, v: Victory, f: FighterState) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class VictoryRule:
    """One victory kind: what it checks and when (see the module docstring)."""

    kind: VictoryKind
    after_change: Check = _never
    at_round_end: Check = _never
    escapes: Escape = _stays
    always: bool = False


def _eliminated(c: Combat, v: Victory) -> Verdict | None:
    """A side with nobody standing has lost; both at once is a draw."""
    runners_up = any(f.standing for f in c.fighters if f.side is Side.RUNNER)
    gegner_up = any(f.standing for f in c.fighters if f.side is Side.GEGNER)
    if not runners_up and not gegner_up:
        return Verdict(None, BOTH_OUT)
    if not runners_up:
        return Verdict(Side.GEGNER, RUNNERS_OUT)
    if not gegner_up:
        return Verdict(Side.RUNNER, GEGNER_OUT)
    return None


def _survived(c: Combat, v: Victory) -> Verdict | None:
    """``side`` wins once it has stood ``rounds`` rounds."""
    if c.round >= v.rounds:
        return Verdict(v.side, survived_reason(v.rounds))
    return None


def _exit_reached(c: Combat, v: Victory) -> Verdict | None:
    """``side`` wins when its fighter ``vip`` escaped, or (no vip) ``count`` of its own."""
    if v.vip >= 0:
        done = c.fighters[v.vip].fled
    else:
        done = sum(1 for f in c.fighters if f.side is v.side and f.fled) >= v.count
    return Verdict(v.side, EXIT_REACHED) if done else None


def _escapes_by_exit(c: Combat, v: Victory, f: FighterState) -> bool:
    """A fighter of the side that must reach the exit leaves the map there."""
    return f.side is v.side


def _vip_fallen(c: Combat, v: Victory) -> Verdict | None:
    """``side`` loses when fighter ``vip`` is down or dead."""
    vip = c.fighters[v.vip]
    if vip.dead or vip.down:
        other = Side.GEGNER if v.side is Side.RUNNER else Side.RUNNER
        return Verdict(other, fallen_reason(vip.name))
    return None


VICTORIES: Mapping[VictoryKind, VictoryRule] = rule_table(
    VictoryKind,
    (
        VictoryRule(VictoryKind.ELIMINATE, after_change=_eliminated, always=True),
        VictoryRule(VictoryKind.SURVIVE, at_round_end=_survived),
        VictoryRule(VictoryKind.REACH_EXIT, after_change=_exit_reached, escapes=_escapes_by_exit),
        VictoryRule(VictoryKind.PROTECT_VIP, after_change=_vip_fallen),
    ),
    key=lambda rule: rule.kind,
    where="VICTORIES (cwenv/engine/victory.py)",
)
"""Every victory kind's rule."""

_ALWAYS = tuple(Victory(rule.kind) for rule in VICTORIES.values() if rule.always)


def decide_after_change(c: Combat) -> Verdict | None:
    """The verdict once something that can decide the fight happened: the scenario's
    conditions in their order, then the ones in force in every fight."""
    listed = tuple(v for v in c.game.victory if not VICTORIES[v.kind].always)
    for v in (*listed, *_ALWAYS):
        verdict = VICTORIES[v.kind].after_change(c, v)
        if verdict is not None:
            return verdict
    return None


def decide_at_round_end(c: Combat) -> Verdict | None:
    """The verdict when a round has ended: the scenario's conditions, then its round limit
    (undecided)."""
    for v in c.game.victory:
        verdict = VICTORIES[v.kind].at_round_end(c, v)
        if verdict is not None:
            return verdict
    limit = c.game.round_limit
    if limit is not None and c.round >= limit:
        return Verdict(None, ROUND_LIMIT_REASON)
    return None


def escapes(c: Combat, f: FighterState) -> bool:
    """Whether ``f``, standing on an exit cell, leaves the map (reach_exit)."""
    return any(VICTORIES[v.kind].escapes(c, v, f) for v in c.game.victory)
