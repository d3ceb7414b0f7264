"""What conditions, manoeuvres and Patzer are worth, in expected LP, from the exact odds.

A condition's cost is what it takes from its holder's expected damage output and adds to
the expected damage it receives, over ``horizon`` turns (the doctrine's guess of how long it
lasts): Angeschlagen −2 on physical checks (Z01, X04, X39), Entmutigt −2 on attacks and no
Mumm (Z04, M11), Niedergeworfen −2 on defences and an Aufstehen (Z05, H02), Benommen a lost
turn and no reactions (Z02, R01, X24), Eingeschränkt half movement and −2 on reactions
(Z03), Verwirrt −2 on mental and hacking checks (Z07).
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.board import Board
from agents.config import PromptConfig
from agents.estimates import (
    damage_profile,
    defence_value,
    estimate,
    offense,
    weapon_profile,
)
from agents.exact import success_chance
from cwenv.engine.actions import Action
from cwenv.engine.conditions import SUBSTITUTE
from cwenv.engine.damage import zehrend_mode
from cwenv.engine.fighter import FighterState
from cwenv.model.types import AttackMode, CheckValue, Condition, Maneuver, WeaponKind
from cwenv.rules.tables import FumbleRow, patzer_row

FACES = range(1, 11)


def _best_attack(board: Board, g: FighterState, t: FighterState, delta: int, tdelta: int) -> float:
    """Expected damage of ``g``'s best usable weapon on ``t``, range and cover aside, with
    ``delta`` on the attack and ``tdelta`` on the defence."""
    best = 0.0
    dpw_base: int | None = None
    for wi, w in enumerate(g.weapons):
        if not g.weapon_usable(wi) or w.area_radius > 0:
            continue
        pw = board.check_value(g, CheckValue(w.skill.value), attack=True) + w.attack_modifier
        if w.kind is WeaponKind.RANGED and w.ranges:
            pw += w.ranges[0].modifier
        dpw_base = defence_value(board, t, AttackMode.WEAPON, g, wi)
        dpw = None if dpw_base is None else dpw_base + tdelta
        est = estimate(board.options, pw + delta, dpw, weapon_profile(board, g, t, w))
        best = max(best, est.damage)
    return best


def attack_loss(board: Board, f: FighterState, delta: int = -2) -> float:
    """Expected damage per attack ``f`` loses with ``delta`` on its attack value."""
    key = ("aloss", f.idx, delta)
    hit = board.cache.get(key)
    if hit is None:
        hit = 0.0
        foes = board.foes_of(f)
        if foes:
            t = min(foes, key=lambda g: (board.dist(f.pos, g.pos), g.idx))
            hit = max(0.0, _best_attack(board, f, t, 0, 0) - _best_attack(board, f, t, delta, 0))
        board.cache[key] = hit
    return hit


def defence_loss(board: Board, f: FighterState, delta: int = -2) -> float:
    """Extra expected damage per round ``f`` takes with ``delta`` on its defences."""
    key = ("dloss", f.idx, delta)
    hit = board.cache.get(key)
    if hit is None:
        hit = 0.0
        if board.can_react(f):
            for g in board.foes_of(f):
                worse = _best_attack(board, g, f, 0, delta) - _best_attack(board, g, f, 0, 0)
                hit += max(0.0, worse)
        board.cache[key] = hit
    return hit


def condition_cost(
    board: Board, f: FighterState, cond: Condition, horizon: float, mumm_value: float
) -> float:
    """Expected LP a condition costs ``f`` over ``horizon`` turns (see the module text)."""
    off = offense(board, f)
    turns = max(1, f.actions)
    if cond is Condition.BENOMMEN:
        return off * turns + defence_loss(board, f, -20) * 0.5
    if cond is Condition.NIEDERGEWORFEN:
        return 0.5 * off + defence_loss(board, f) * min(horizon, 1.0)
    if cond is Condition.ANGESCHLAGEN:
        return (attack_loss(board, f) * turns + defence_loss(board, f)) * horizon
    if cond is Condition.ENTMUTIGT:
        return attack_loss(board, f) * turns * horizon + min(f.mumm, 2) * mumm_value
    if cond is Condition.EINGESCHRAENKT:
        return (defence_loss(board, f) + 0.2 * off) * horizon
    if cond is Condition.VERWIRRT:
        return (0.25 * off if f.spec.hacks else 0.05 * off) * horizon
    return 0.0


def inflicted(f: FighterState, cond: Condition, steps: int) -> Condition | None:
    """The condition ``f`` actually gains from ``cond`` under the Z substitution chain
    (Z01–Z07, X19), or None when nothing further happens."""
    n = 0
    while f.has(cond):
        if n >= steps or cond not in SUBSTITUTE:
            return None
        cond = SUBSTITUTE[cond]
        n += 1
    return cond


def condition_gain(
    board: Board, t: FighterState, cond: Condition, horizon: float, mumm_value: float
) -> float:
    """Worth of inflicting ``cond`` on ``t`` (after substitution)."""
    got = inflicted(t, cond, board.options.escalation_steps)
    if got is None:
        return 0.0
    return condition_cost(board, t, got, horizon, mumm_value)


def maneuver_worth(
    board: Board, a: FighterState, t: FighterState, m: Maneuver, horizon: float, mumm_value: float
) -> float:
    key = ("mworth", a.idx, t.idx, int(m), horizon, mumm_value)
    hit = board.cache.get(key)
    if hit is None:
        hit = _maneuver_worth(board, a, t, m, horizon, mumm_value)
        board.cache[key] = hit
    return hit


def _maneuver_worth(
    board: Board, a: FighterState, t: FighterState, m: Maneuver, horizon: float, mumm_value: float
) -> float:
    """Worth of a successful Kampfmanöver (K01–K05): Festsetzen makes the target benommen,
    Umreissen niedergeworfen; Entwaffnen costs an armed target its weapon (a Runner) or −2
    on attack and damage (an NSC); Wegstossen and Mitzerren only move it."""
    if m is Maneuver.FESTSETZEN:
        return condition_gain(board, t, Condition.BENOMMEN, horizon, mumm_value)
    if m is Maneuver.UMREISSEN:
        return condition_gain(board, t, Condition.NIEDERGEWORFEN, horizon, mumm_value)
    if m is Maneuver.ENTWAFFNEN:
        return attack_loss(board, t) * max(1, t.actions) * horizon
    return 0.0


def patzer_cost(board: Board, f: FighterState, horizon: float, mumm_value: float) -> float:
    """Expected cost to ``f`` of an attack Patzer (A08; 2W10, no defender QS, X09)."""
    total = 0.0
    off = offense(board, f)
    for a in FACES:
        for b in FACES:
            row = patzer_row(a + b)
            if row is FumbleRow.MUSKELRISS:
                cost = 5.5 + condition_cost(board, f, Condition.ANGESCHLAGEN, horizon, mumm_value)
            elif row is FumbleRow.UEBERDEHNT:
                cost = 5.5
            elif row is FumbleRow.OFFENE_DECKUNG:
                cost = condition_cost(board, f, Condition.VERWIRRT, horizon, mumm_value)
            elif row is FumbleRow.FEHLTRITT:
                cost = condition_cost(board, f, Condition.EINGESCHRAENKT, horizon, mumm_value)
            elif row is FumbleRow.WAFFE_BLOCKIERT:
                cost = off
            elif row is FumbleRow.ENTMUTIGT:
                cost = condition_cost(board, f, Condition.ENTMUTIGT, horizon, mumm_value)
            else:
                cost = 0.0
            total += cost
    return total / 100


def zehrend_cost(board: Board, f: FighterState, kind: str, horizon: float) -> float:
    """Expected LP a Zehrend of type ``kind`` costs ``f`` (Z08): 1W10 against armour and
    resistances at this round's end and each further one (up to ``horizon``) until the
    free 'passende Probe' (X20) ends it."""
    forms = frozenset({kind.lower()})
    per_round = damage_profile(board, f, 0, zehrend_mode(kind), forms).per_qs(1)
    check = CheckValue(board.options.zehrend_check(kind).value)
    p = success_chance(board.options, board.check_value(f, check))
    rounds = 0.0  # added in order, as its native twin does (sum() rounds otherwise from 3.12)
    for n in range(int(horizon) + 1):
        rounds += (1 - p) ** n
    return per_round * rounds


def shake_worth_it(board: Board, shakes: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """M08: end a condition or a Zehrend (X55) at once when it costs more than the two Mumm
    (own turn or, under X38 'sofort', at any prompt: a benommen fighter shakes it off to
    defend)."""
    me = board.me
    for a in shakes:
        slot = a.zehrend_slot
        if slot is None:
            cost = condition_cost(board, me, a.condition, cfg.condition_horizon, cfg.mumm_value)
        else:
            cost = zehrend_cost(board, me, me.zehrend[slot], cfg.condition_horizon)
        if cost >= 2 * cfg.mumm_value and cost > 0:
            return a
    return None
