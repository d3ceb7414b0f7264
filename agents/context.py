"""What a prompt is about, read from the event log: whose attack, which weapon, which roll.

Prompts (PRE_CHECK, POST_CHECK, KEEP, DEFEND, …) carry few details; the event log says the
rest. An attack leaves ``AttackDeclared`` then the attacker's ``CheckRolled``; a defence
leaves ``ReactionUsed(…, "Verteidigung")`` before its own roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.attack_plan import AttackMode
from cwenv.model.specs import HackSpec, WeaponSpec
from cwenv.model.types import Condition, Maneuver
from cwenv.rules.probe import ProbeResult, qs_band

if TYPE_CHECKING:
    from agents.board import Board

SCAN_LIMIT = 80
"""How far back the log is read; a check's context is always within a few events."""


@dataclass(frozen=True, slots=True)
class AttackInfo:
    """One declared attack: who, on whom, with what (weapon, hack or Maneuver index)."""

    attacker: int
    target: int
    mode: AttackMode
    index: int
    roll: ProbeResult | None  # the attacker's standing roll, once rolled
    aim_qs: int = 0


@dataclass(frozen=True, slots=True)
class CheckContext:
    """``kind``: 'attack' (my own attack roll), 'defence' (my defence against ``attack``),
    'dying' (D08), 'benommen' (Z02) or 'other'."""

    kind: str
    attack: AttackInfo | None = None


OTHER = CheckContext("other")


def _result(e: ev.CheckRolled) -> ProbeResult:
    return ProbeResult(e.probenwert, e.d1, e.d2, e.success, e.qs, e.volltreffer, e.patzer)


def attack_info(board: Board, events: tuple[ev.Event, ...], start: int) -> AttackInfo | None:
    """The attack whose ``AttackDeclared`` is the nearest at or before index ``start``, with
    its standing roll (M03: the kept one) if it has been rolled."""
    i = start
    stop = max(-1, start - SCAN_LIMIT)
    while i > stop:
        e = events[i]
        if isinstance(e, ev.AttackDeclared):
            return _declared(board, e, events, i)
        i -= 1
    return None


def _declared(
    board: Board, e: ev.AttackDeclared, events: tuple[ev.Event, ...], at: int
) -> AttackInfo | None:
    a = board.fighters[e.attacker]
    mode, index = _means(a.weapons, a.spec.hacks, e)
    if index < 0:
        return None
    rolls: list[ev.CheckRolled] = []
    kept_first = False
    redirected = False
    for later in events[at + 1 :]:
        if isinstance(later, ev.CheckRolled) and later.fighter == e.attacker and len(rolls) < 2:
            rolls.append(later)
        elif isinstance(later, ev.ResultKept) and later.fighter == e.attacker:
            kept_first = not later.second
        elif isinstance(later, ev.AttackRedirected):
            redirected = True
        elif isinstance(later, ev.CheckRolled) and later.fighter != e.attacker:
            break  # the defence has begun; the attack roll is settled
    roll = None
    aim_qs = 0
    if rolls:
        chosen = rolls[0] if kept_first or len(rolls) == 1 else rolls[1]
        roll = _result(chosen)
        if redirected and not roll.success:  # C05: the miss hits the covering creature
            qs = qs_band(roll.total)
            roll = ProbeResult(roll.probenwert, roll.d1, roll.d2, True, qs, False, False)
        for label, value in chosen.parts:
            if label == "Zielen" and board.options.zielen_bonus:
                aim_qs = board.options.zielen_qs_bonus * (value // board.options.zielen_bonus)
    return AttackInfo(e.attacker, e.target, mode, index, roll, aim_qs)


def _means(
    weapons: tuple[WeaponSpec, ...], hacks: tuple[HackSpec, ...], e: ev.AttackDeclared
) -> tuple[AttackMode, int]:
    if e.kind == "Hack":
        for i, h in enumerate(hacks):
            if h.name == e.means:
                return AttackMode.HACK, i
        return AttackMode.HACK, -1
    if e.kind in ("Angriff", "Blockadeangriff"):
        mode = AttackMode.WEAPON if e.kind == "Angriff" else AttackMode.BLOCKADE
        for i, w in enumerate(weapons):
            if w.name == e.means:
                return mode, i
        return mode, -1
    for m in Maneuver:
        if m.label == e.means:
            return AttackMode.MANEUVER, int(m)
    return AttackMode.MANEUVER, -1


def check_context(board: Board, after_roll: bool) -> CheckContext:
    """Classify the check the deciding fighter is about to roll (or has just rolled)."""
    me = board.me
    events = board.events
    i = len(events) - 1
    if after_roll:
        while i >= 0:
            e = events[i]
            if isinstance(e, ev.CheckRolled | ev.ResultKept | ev.MummSpent) and e.fighter == me.idx:
                i -= 1
                continue
            break
    stop = max(-1, i - SCAN_LIMIT)
    while i > stop:
        e = events[i]
        if isinstance(e, ev.MummSpent) and e.fighter == me.idx:
            i -= 1
            continue
        if isinstance(e, ev.ReactionUsed) and e.fighter == me.idx and e.what == "Verteidigung":
            info = attack_info(board, events, i)
            return CheckContext("defence", info) if info is not None else OTHER
        if isinstance(e, ev.AttackDeclared) and e.attacker == me.idx:
            info = _declared(board, e, events, i)
            return CheckContext("attack", info) if info is not None else OTHER
        if isinstance(e, ev.CheckRolled | ev.TurnStarted | ev.TurnEnded | ev.RoundEnded):
            break
        i -= 1
    if me.down and me.has(Condition.STERBEND):
        return CheckContext("dying")
    if me.has(Condition.BENOMMEN):
        return CheckContext("benommen")
    return OTHER


def last_damage(board: Board) -> int:
    """The total of the damage just rolled against the deciding fighter (M06 prompt)."""
    for e in reversed(board.events[-SCAN_LIMIT:]):
        if isinstance(e, ev.DamageRolled) and e.target == board.me.idx:
            return e.total
    return 0


def my_last_rolls(board: Board, n: int) -> list[ProbeResult]:
    """The deciding fighter's last ``n`` rolls, oldest first (M03's two results)."""
    out: list[ProbeResult] = []
    for e in reversed(board.events[-SCAN_LIMIT:]):
        if isinstance(e, ev.CheckRolled) and e.fighter == board.me.idx:
            out.append(_result(e))
            if len(out) == n:
                break
    out.reverse()
    return out
