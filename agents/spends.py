"""Mumm around a check: Probe verbessern (M02), den grossen Wurf (M09), the Actionbonus
(P03) before the roll; Probe wiederholen (M03) and Patzer abwenden (M01) after it; which of
two results stands (M03). Each spend is made when its exact expected gain on this very
check is worth its Mumm (``mumm_value`` per point).

What the check is for comes with the prompt (``Decision.payload``: the check's purpose, the
attack it rolls or defends against, the result that stands, both results of M03)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from agents.board import Board
from agents.config import PromptConfig
from agents.estimates import (
    crit_extra_dice,
    damage_profile,
    defence_value,
    hack_estimate,
    maneuver_chance,
    offense,
    weapon_attack_value,
    weapon_estimate,
    weapon_profile,
)
from agents.exact import defended_loss, roll_classes, success_chance
from agents.losses import MAX_QS, first, loss_table
from agents.worth import maneuver_worth, patzer_cost
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.attack_plan import defence_values, plan_attack
from cwenv.engine.payloads import (
    AfterRoll,
    AttackRef,
    BeforeRoll,
    CheckInfo,
    CheckPurpose,
    KeepPrompt,
)
from cwenv.model.types import AttackMode, Condition, Maneuver
from cwenv.rules.probe import ProbeResult, forced_volltreffer, hit_qs


class Sort(IntEnum):
    """What a check is to the doctrine."""

    ATTACK = 0  # my own attack roll
    DEFENCE = 1  # my defence against a rolled attack
    DYING = 2  # any other check while I lie dying (D08)
    BENOMMEN = 3  # any other check while I am benommen (Z02)
    OTHER = 4


def check_sort(board: Board, check: CheckInfo) -> tuple[Sort, AttackRef | None]:
    """The check's sort and the attack it concerns: an attack roll or a defence (from the
    prompt's payload), else by the deciding fighter's state."""
    attack = check.attack
    if attack is not None:
        if check.purpose is CheckPurpose.ATTACK:
            return Sort.ATTACK, attack
        if check.purpose is CheckPurpose.DEFENCE and attack.roll is not None:
            return Sort.DEFENCE, attack
    me = board.me
    if me.down and me.has(Condition.STERBEND):
        return Sort.DYING, None
    if me.has(Condition.BENOMMEN):
        return Sort.BENOMMEN, None
    return Sort.OTHER, None


# -- checks -------------------------------------------------------------------------------
def _attack_value(board: Board, info: AttackRef, cfg: PromptConfig, delta: int) -> float:
    """Expected worth of my declared attack with ``delta`` on its Probenwert."""
    me = board.me
    t = board.fighters[info.target]
    if info.mode is AttackMode.MANEUVER:
        m = Maneuver(info.index)
        worth = maneuver_worth(board, me, t, m, cfg.condition_horizon, cfg.mumm_value)
        return maneuver_chance(board, me, t, m, delta) * worth
    if info.mode is AttackMode.HACK:
        est = hack_estimate(board, me, t, info.index, delta)
    else:
        est = weapon_estimate(board, me, t, info.index, pw_delta=delta)
    return 0.0 if est is None else est.value(cfg.ko_bonus)


def _forced_value(board: Board, info: AttackRef, cfg: PromptConfig, pw: int) -> float:
    """M09: worth of my attack as an automatic Volltreffer (the target may still defend)."""
    me = board.me
    t = board.fighters[info.target]
    result = forced_volltreffer(pw, board.options)
    if info.mode is AttackMode.MANEUVER:
        m = Maneuver(info.index)
        worth = maneuver_worth(board, me, t, m, cfg.condition_horizon, cfg.mumm_value)
        table = [0.0] + [worth] * MAX_QS
    else:
        if info.mode is AttackMode.HACK:
            h = me.spec.hacks[info.index]
            prof = damage_profile(board, t, h.bonus, h.armour_mode, h.forms)
        else:
            prof = weapon_profile(board, me, t, me.weapons[info.index])
        crit = crit_extra_dice(result.qs) * prof.per_qs(1)
        table = [0.0] + [
            prof.stats(k)[0] + cfg.ko_bonus * prof.stats(k)[1] + crit for k in range(1, MAX_QS + 1)
        ]
    mode = AttackMode.WEAPON if info.mode is AttackMode.BLOCKADE else info.mode
    dpw = defence_value(board, t, mode, me, info.index)
    if dpw is None:
        return table[min(result.qs, MAX_QS)]
    return defended_loss(board.options, result, dpw, table)


def _attack_pw(board: Board, info: AttackRef) -> int:
    """The Probenwert of my declared attack (the engine's ``plan_attack``; an aim already
    spent on this shot is not in it any more)."""
    me = board.me
    t = board.fighters[info.target]
    if info.mode in (AttackMode.WEAPON, AttackMode.BLOCKADE):
        av = weapon_attack_value(board, me, t, info.index)
        if av is not None:
            return av[0]
    mode = AttackMode.WEAPON if info.mode is AttackMode.BLOCKADE else info.mode
    return plan_attack(board, me, t, mode, info.index).probenwert


def pre_check(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    bonus = first(legal, ActionKind.PRE_ACTIONBONUS)
    if bonus is not None:
        return bonus  # P03: a free +2
    improve = first(legal, ActionKind.PRE_IMPROVE)
    grand = first(legal, ActionKind.PRE_GROSSER_WURF)
    about = board.decision.payload
    if not isinstance(about, BeforeRoll):
        return first(legal, ActionKind.PRE_NONE)
    sort, attack = check_sort(board, about.check)
    gain_improve = 0.0
    gain_grand = 0.0
    if sort is Sort.ATTACK and attack is not None:
        base = _attack_value(board, attack, cfg, 0)
        if improve is not None:
            gain_improve = _attack_value(board, attack, cfg, 2) - base
        if grand is not None:
            gain_grand = _forced_value(board, attack, cfg, _attack_pw(board, attack)) - base
    elif sort is Sort.DEFENCE and attack is not None and attack.roll is not None:
        losses = loss_table(board, attack, cfg)
        dpw = _my_defence_pw(board, attack)
        base = defended_loss(board.options, attack.roll, dpw, losses)
        if improve is not None:
            gain_improve = base - defended_loss(board.options, attack.roll, dpw + 2, losses)
        if grand is not None:
            forced = forced_volltreffer(dpw, board.options)
            gain_grand = base - _loss_of(board, attack.roll, forced, losses)
    elif sort is Sort.BENOMMEN and improve is not None:
        pw = board.check_value(board.me, board.options.benommen_check)
        gain = success_chance(board.options, pw + 2) - success_chance(board.options, pw)
        gain_improve = gain * offense(board, board.me) * max(1, board.me.actions)
    net_improve = gain_improve - cfg.mumm_value
    net_grand = gain_grand - 3 * cfg.mumm_value
    if grand is not None and net_grand > 0 and net_grand >= net_improve:
        return grand
    if improve is not None and net_improve > 0:
        return improve
    return first(legal, ActionKind.PRE_NONE)


def _my_defence_pw(board: Board, info: AttackRef) -> int:
    """The Probenwert of the defence I declared (the best value for this attack, A03)."""
    a = board.fighters[info.attacker]
    mode = AttackMode.WEAPON if info.mode is AttackMode.BLOCKADE else info.mode
    values = defence_values(board, mode, a, info.index)
    return max(board.check_value(board.me, v, reaction=True, defence=True) for v in values)


def post_check(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    about = board.decision.payload
    if not isinstance(about, AfterRoll):
        return None
    r = about.roll
    sort, attack = check_sort(board, about.check)
    avert = first(legal, ActionKind.POST_AVERT)
    reroll = first(legal, ActionKind.POST_REROLL)
    if avert is not None:
        if sort is Sort.ATTACK:
            cost = patzer_cost(board, board.me, cfg.condition_horizon, cfg.mumm_value)
            return avert if cost >= cfg.mumm_value else None
        if sort is Sort.DYING:
            return avert  # D08: a Patzer on the dying check kills
        return None
    if reroll is None:
        return None
    gain = _reroll_gain(board, r, sort, attack, cfg)
    return reroll if gain >= cfg.mumm_value and gain > 0 else None


def _reroll_gain(
    board: Board, r: ProbeResult, sort: Sort, info: AttackRef | None, cfg: PromptConfig
) -> float:
    """M03: expected gain of rolling again and keeping the better result."""
    if sort is Sort.ATTACK and info is not None:
        # A success stands (rerolling it rarely pays); a miss is worth a fresh attack.
        return 0.0 if r.success else _attack_value(board, info, cfg, 0)
    if sort is Sort.DEFENCE and info is not None and info.roll is not None:
        losses = loss_table(board, info, cfg)
        attack = info.roll
        now = _loss_of(board, attack, r, losses)
        total = 0.0
        for new, n in roll_classes(board.options, r.probenwert):
            total += n * min(now, _loss_of(board, attack, new, losses))
        return now - total / 100
    if sort is Sort.BENOMMEN and not r.success:
        p = success_chance(board.options, r.probenwert)
        return p * offense(board, board.me) * max(1, board.me.actions)
    if sort is Sort.DYING and not r.success:
        return success_chance(board.options, r.probenwert) * (5.5 + cfg.ko_bonus / 2)
    return 0.0


def _loss_of(board: Board, attack: ProbeResult, d: ProbeResult, losses: list[float]) -> float:
    qs = hit_qs(attack, d, board.options)  # A04, A05, P07, X27
    return 0.0 if qs is None else losses[min(qs, MAX_QS)]


def keep(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """M03: keep the better of the two results (success, Volltreffer, higher roll; among
    failures, not the Patzer)."""
    about = board.decision.payload
    if not isinstance(about, KeepPrompt):
        return None

    def key(r: ProbeResult) -> tuple[int, int, int]:
        if r.success:
            return (2, int(r.volltreffer), r.total)
        return (0, int(not r.patzer), 0)

    older, newer = about.first, about.second
    want = ActionKind.KEEP_SECOND if key(newer) >= key(older) else ActionKind.KEEP_FIRST
    return first(legal, want)
