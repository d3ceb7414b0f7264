"""Expected worth, in LP, of every Handlung a fighter may take where it stands (H01–H12).

Attacks are worth their exact expected damage plus a knock-out bonus (A01–A07), weighted by
the doctrine's target preference; manoeuvres their success chance times the condition they
inflict (K01–K05); Zielen the extra expected damage of the aimed shot (H11, X03); shaking a
condition off its chance times the condition's cost (H12); healing the expected LP it
restores. The doctrines add their own weights on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents.estimates import (
    hack_estimate,
    maneuver_chance,
    offense,
    weapon_estimate,
)
from agents.exact import success_chance
from agents.worth import condition_cost, condition_gain, maneuver_worth
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.attack_plan import area_targets
from cwenv.engine.turn import planned_climb
from cwenv.model.specs import AbilityKind, ItemKind
from cwenv.model.types import CheckValue, Condition, WeaponKind

if TYPE_CHECKING:
    from agents.board import Board
    from agents.doctrine import Doctrine
    from cwenv.engine.fighter import FighterState

HEAL_PER_DIE = 5.5


def attack_value(doc: Doctrine, board: Board, a: Action) -> float:
    """H01: exact expected damage (plus knock-out bonus) on a standing enemy; an area
    weapon counts every fighter it reaches, allies against (C03)."""
    me = board.me
    t = board.fighters[a.target]
    w = me.weapons[a.weapon]
    ko = doc.config.ko_bonus
    if w.area_radius > 0:
        total = 0.0
        hits = area_targets(board, t.pos, w.area_radius, w.durchdringung)
        for idx in hits:
            g = board.fighters[idx]
            est = weapon_estimate(board, me, g, a.weapon)
            if est is None or not g.standing:
                continue
            if g.side is me.side:
                total -= 1.5 * est.value(ko)
            elif g in board.enemies:
                total += est.value(ko) * doc.target_weight(board, g)
        return total
    if t not in board.enemies:
        return 0.0
    est = weapon_estimate(board, me, t, a.weapon)
    if est is None:
        return 0.0
    return est.value(ko) * doc.target_weight(board, t) * doc.weapon_weight(board, w)


def maneuver_value(doc: Doctrine, board: Board, a: Action) -> float:
    """K01–K05: P(success against a Kampfkunst defence) × the effect's worth."""
    t = board.fighters[a.target]
    if t not in board.enemies:
        return 0.0
    m = a.maneuver
    cfg = doc.config
    worth = maneuver_worth(board, board.me, t, m, cfg.condition_horizon, cfg.mumm_value)
    return maneuver_chance(board, board.me, t, m) * worth * doc.target_weight(board, t)


def aim_value(doc: Doctrine, board: Board, a: Action) -> float:
    """H11, X03: Zielen now and shoot next turn, against shooting now and next turn: worth
    the aimed shot's expected damage minus one plain shot's (so it wins over shooting now
    exactly when the aimed shot is worth more than two plain ones); the doctrine's
    ``aim_weight`` (0–1) discounts what comes a turn later."""
    me = board.me
    t = board.fighters[a.target]
    if t not in board.enemies or me.drawn < 0:
        return 0.0
    ko = doc.config.ko_bonus
    now = weapon_estimate(board, me, t, me.drawn)
    aimed = weapon_estimate(board, me, t, me.drawn, aim=True)
    if now is None or aimed is None:
        return 0.0
    weight = doc.target_weight(board, t) * doc.weapon_weight(board, me.weapons[me.drawn])
    return (aimed.value(ko) - now.value(ko)) * weight


def hack_value(doc: Doctrine, board: Board, a: Action) -> float:
    """H10: a hack's expected damage plus the chance of its condition."""
    me = board.me
    t = board.fighters[a.target]
    if t not in board.enemies:
        return 0.0
    est = hack_estimate(board, me, t, a.hack)
    if est is None:
        return 0.0
    h = me.spec.hacks[a.hack]
    value = est.value(doc.config.ko_bonus)
    if h.condition is not None:
        cfg = doc.config
        value += est.hit * condition_gain(
            board, t, h.condition, cfg.condition_horizon, cfg.mumm_value
        )
    return value * doc.target_weight(board, t)


def best_hack(doc: Doctrine, board: Board, hi: int) -> float:
    me = board.me
    best = 0.0
    for t in board.enemies:
        est = hack_estimate(board, me, t, hi)
        if est is not None:
            best = max(best, est.value(doc.config.ko_bonus))
    return best


def best_weapon_value(doc: Doctrine, board: Board, wi: int) -> float:
    """The best expected worth of weapon ``wi`` against any enemy from here."""
    me = board.me
    best = 0.0
    for t in board.enemies:
        est = weapon_estimate(board, me, t, wi)
        if est is not None:
            best = max(best, est.value(doc.config.ko_bonus) * doc.target_weight(board, t))
    return best


def current_best(doc: Doctrine, board: Board) -> float:
    me = board.me
    usable = [wi for wi in range(len(me.weapons)) if me.weapon_usable(wi)]
    return max((best_weapon_value(doc, board, wi) for wi in usable), default=0.0)


def shake_chance(board: Board, f: FighterState, cond: Condition) -> float:
    """H12: the check that ends a condition (X20 for Eingeschränkt)."""
    if cond is Condition.VERWIRRT:
        check = CheckValue.WAHRNEHMUNG
    elif cond is Condition.EINGESCHRAENKT:
        check = CheckValue(board.options.eingeschraenkt_check.value)
    else:
        check = CheckValue.UNBEUGSAMKEIT
    return success_chance(board.options, board.check_value(f, check))


def heal_value(board: Board, f: FighterState, dice: int) -> float:
    missing = f.spec.lp - f.lp
    healed = min(HEAL_PER_DIE * max(dice, 1), float(missing))
    weight = 1.5 if f.lp <= f.spec.lp / 2 else 0.5
    return healed * weight


def handlung_value(doc: Doctrine, board: Board, a: Action) -> float:
    """The worth of any Handlung where the fighter stands (SPRINT: see the turn planner)."""
    k = a.kind
    me = board.me
    cfg = doc.config
    if k is ActionKind.ATTACK:
        return attack_value(doc, board, a)
    if k is ActionKind.MANEUVER:
        return maneuver_value(doc, board, a)
    if k is ActionKind.ZIELEN:
        return aim_value(doc, board, a) * doc.aim_weight
    if k is ActionKind.HACK:
        return hack_value(doc, board, a)
    if k is ActionKind.UPLOAD:
        h = me.spec.hacks[a.hack]
        left = max(1, h.upload - me.upload_progress[a.hack])
        return 0.9 * best_hack(doc, board, a.hack) / left
    if k is ActionKind.RELOAD:
        if me.ammo[a.weapon] <= 0:
            return 0.9 * best_weapon_value(doc, board, a.weapon) + 0.5
        return 0.3 if not any(me.weapon_usable(i) for i in range(len(me.spec.weapons))) else 0.05
    if k in (ActionKind.DRAW, ActionKind.PICK_UP):
        return draw_value(doc, board, a.weapon)
    if k is ActionKind.USE_ITEM:
        item = me.items[a.item]
        if item.kind is ItemKind.HEAL:
            return heal_value(board, me, item.amount)
        if item.condition is not None and me.has(item.condition):
            return condition_cost(board, me, item.condition, cfg.condition_horizon, cfg.mumm_value)
        return 0.0
    if k is ActionKind.CYBERWARE:
        return cyberware_value(doc, board, a.cyberware)
    if k is ActionKind.SHAKE:
        cond = a.condition
        cost = condition_cost(board, me, cond, cfg.condition_horizon, cfg.mumm_value)
        return shake_chance(board, me, cond) * cost * doc.shake_weight
    if k is ActionKind.STABILISE:
        p = success_chance(board.options, board.check_value(me, CheckValue.TECHNIK))
        return p * doc.stabilise_worth
    if k is ActionKind.AUFSTEHEN:
        cost = condition_cost(board, me, Condition.NIEDERGEWORFEN, 1.0, cfg.mumm_value)
        usable = [w for i, w in enumerate(me.weapons) if me.weapon_usable(i)]
        melee = all(w.kind is WeaponKind.MELEE for w in usable)
        if melee and board.nearest_enemy_distance(me.pos) > me.melee_reach:
            cost += offense(board, me)
        return cost * doc.stand_weight
    if k is ActionKind.FREE_WEAPON:
        p = success_chance(board.options, board.check_value(me, CheckValue.TECHNIK))
        return 0.8 * p * best_weapon_value(doc, board, a.weapon)
    if k is ActionKind.HELFEN:
        return 0.1
    if k is ActionKind.RUCKSACK:
        item = me.backpack[a.backpack_slot]
        if item.condition is not None and me.has(item.condition):
            return 0.3 * condition_cost(board, me, item.condition, 1.0, cfg.mumm_value)
        return 0.0
    if k is ActionKind.DOOR:
        return door_value(doc, board, a.cell)
    if k is ActionKind.SCHWIERIG:  # H07: swim, climb or jump toward the enemy
        gain = board.walk_distance(me.pos) - board.walk_distance(a.cell)
        worth = 0.5 * doc.config.approach_weight * gain if gain > 2 else 0.0
        return worth * climb_share(board, a)
    return 0.0


def door_value(doc: Doctrine, board: Board, cell: int) -> float:
    """H04: open a closed door that lies on the way to the enemy (worth one attack, since
    it is what stands between the fighter and its next ones); never close one."""
    if not board.opaque[cell] or not board.enemies:
        return 0.0
    if board.walk_distance(cell) < board.walk_distance(board.me.pos):
        return max(1.0, offense(board, board.me))
    return 0.0


def draw_value(doc: Doctrine, board: Board, wi: int) -> float:
    """H04: drawing (or picking up) a weapon pays by its advantage on the next turn."""
    me = board.me
    w = me.weapons[wi]
    ko = doc.config.ko_bonus
    best = 0.0
    walk = board.walk_distance(me.pos)
    for t in board.enemies:
        dist = board.dist(me.pos, t.pos)
        if w.kind is WeaponKind.MELEE and min(walk, dist) > w.reach + me.spec.movement:
            continue
        if w.kind is WeaponKind.RANGED and w.range_modifier(dist) is None:
            continue
        est = weapon_estimate(board, me, t, wi, src=t.pos if w.kind is WeaponKind.MELEE else None)
        if est is not None:
            best = max(best, est.value(ko) * doc.target_weight(board, t))
    return max(0.0, 0.8 * (best - current_best(doc, board)))


def cyberware_value(doc: Doctrine, board: Board, k: int) -> float:
    """H09: an active implant — healing, shaking a condition, armour for the round, Fokus."""
    me = board.me
    ability = me.spec.cyberware[k].ability
    if ability is None:
        return 0.0
    cfg = doc.config
    if ability.kind is AbilityKind.HEAL:
        return heal_value(board, me, ability.amount)
    if ability.kind is AbilityKind.SHAKE:
        cond = ability.condition
        if cond is not None and me.has(cond):
            return condition_cost(board, me, cond, cfg.condition_horizon, cfg.mumm_value)
        return 0.0
    if ability.kind is AbilityKind.ARMOUR:
        near = sum(1 for e in board.enemies if board.dist(e.pos, me.pos) <= 12)
        return 0.5 * ability.amount * near
    return 0.0


def climb_share(board: Board, a: Action) -> float:
    """B03, X40: a partial climb of a high ledge is worth its share of the whole height."""
    step = planned_climb(board.view.combat, a.actor, a.cell)
    if step is None:
        return 1.0
    return (step.done + step.gained) / step.height
