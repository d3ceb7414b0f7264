"""Answers to every non-TURN decision, by exact expected value.

A spend or a reaction is made when the expected LP it saves or deals is at least its worth
(``mumm_value`` per Mumm point, ``reaction_value`` per reaction, from the doctrine's
:class:`~agents.config.PromptConfig`). Knocking a fighter out counts ``ko_bonus`` extra.

* DEFEND (A02–A04, M05): compare the expected loss of the rolled attack undefended with the
  loss after each possible defence roll (all 100 compared with the attack's roll).
* PRE_CHECK (M02, M09, P03), POST_CHECK (M03, M01), KEEP (M03): the gain of +2, an
  automatic Volltreffer, a reroll or an averted Patzer on the exact odds of this check.
* NIEDERWERFEN (R06), BLOCKADE (R04), STURZ (R05, B06), DAMAGE (M06), DEATH (M04, always),
  ORDER (I04, X16), DRAG (K03).
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.board import Board
from agents.config import PromptConfig
from agents.estimates import damage_profile, offense, weapon_estimate
from agents.exact import defended_loss
from agents.losses import MAX_QS, attack_on_me, cost, first, loss_table
from agents.spends import keep, post_check, pre_check
from agents.worth import shake_worth_it
from cwenv.engine.actions import Action, ActionKind, DecisionKind, mumm_price
from cwenv.engine.payloads import DamagePrompt
from cwenv.model.types import AttackMode, CheckValue, CoverLevel, Skill
from cwenv.rules.odds import probe_odds


def answer_prompt(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action:
    """The doctrine's answer to a prompt (every kind but TURN)."""
    kind = board.decision.kind
    shakes = [a for a in legal if a.kind is ActionKind.MUMM_SHAKE]
    left = board.me.mumm - (mumm_price(shakes[0]) if shakes else 0)
    if shakes and all(mumm_price(a) <= left for a in legal if a.kind is not ActionKind.MUMM_SHAKE):
        # M08 at a prompt (X38): as in the turn, when the condition costs more than the
        # Mumm — and never at the price of this prompt's own spends (M04, M05, M06, …).
        shake = shake_worth_it(board, shakes, cfg)
        if shake is not None:
            return shake
    handler = _HANDLERS.get(kind)
    if handler is not None:
        choice = handler(board, legal, cfg)
        if choice is not None:
            return choice
    return legal[-1]  # prompts list their declining choice last


def _defend(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    info = attack_on_me(board)
    if info is None or info.roll is None:
        plain = first(legal, ActionKind.DEFEND)
        return plain if plain is not None and not plain.mumm else None
    gains = defend_gains(board, legal, cfg) or {}
    best: Action | None = None
    best_gain = 0.0
    for a, gain in gains.items():
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def defend_gains(
    board: Board, legal: Sequence[Action], cfg: PromptConfig
) -> dict[Action, float] | None:
    """Each choice's expected LP saved against the rolled attack less what it costs (the
    reaction, M05's Mumm); declining gains 0. None before the attack's roll is known."""
    info = attack_on_me(board)
    if info is None or info.roll is None:
        return None
    losses = loss_table(board, info, cfg)
    undefended = losses[min(info.roll.qs, MAX_QS)]
    gains: dict[Action, float] = {}
    for a in legal:
        if a.kind is ActionKind.NO_DEFENCE:
            gains[a] = 0.0
        if a.kind is not ActionKind.DEFEND:
            continue
        dpw = board.check_value(board.me, a.skill, reaction=True, defence=True)
        gains[a] = undefended - defended_loss(board.options, info.roll, dpw, losses) - cost(a, cfg)
    return gains


# -- reactions and damage ---------------------------------------------------------------------
def _niederwerfen(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """R06: drop prone when the exact odds say the attack's lost value outweighs a
    reaction and lying prone (−2 on defences, an Aufstehen; X23)."""
    drop = first(legal, ActionKind.DROP_PRONE)
    info = attack_on_me(board)
    if drop is None or info is None or info.mode is not AttackMode.WEAPON:
        return None
    a = board.fighters[info.attacker]
    me = board.me
    now = weapon_estimate(board, a, me, info.index)
    if now is None:
        return None
    cover = board.cover_now(a, me, False)
    if cover is CoverLevel.THREE_QUARTER and not board.options.prone_three_quarter_to_full:
        return None
    if cover is CoverLevel.THREE_QUARTER:
        after = 0.0
    else:
        prone = weapon_estimate(board, a, me, info.index, pw_delta=-2)
        after = 0.0 if prone is None else prone.value(cfg.ko_bonus)
    near = sum(1 for e in board.enemies if board.dist(e.pos, me.pos) <= 2)
    price = cost(drop, cfg) + cfg.prone_cost * (1 + near)
    return drop if now.value(cfg.ko_bonus) - after > price else None


def _blockade(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """R04: strike the passing enemy with the best weapon when it pays."""
    best: Action | None = None
    best_gain = 0.0
    me = board.me
    for a in legal:
        if a.kind is not ActionKind.BLOCKADE_ATTACK:
            continue
        t = board.fighters[a.target]
        if t not in board.enemies:
            continue  # neutrals and allies are let past
        est = weapon_estimate(board, me, t, a.arg)
        worth = est.value(cfg.ko_bonus) if est is not None else 0.5 * offense(board, me)
        if cfg.always_blockade and not a.mumm:
            worth += 1000.0
        gain = worth - cost(a, cfg)
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _sturz(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """R05, B06: catch a fall when the expected dice it removes (QS of Infiltration,
    brechend damage, X18) are worth the reaction."""
    catch = first(legal, ActionKind.CATCH_FALL)
    if catch is None:
        return None
    me = board.me
    pw = board.check_value(me, CheckValue.INFILTRATION, reaction=True)
    qs = float(probe_odds(pw, board.options).expected_qs)
    prof = damage_profile(board, me, 0, board.options.fall_armour_mode, frozenset())
    return catch if qs * prof.per_qs(1) >= cost(catch, cfg) else None


def _damage(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """M06: halve the damage when the LP saved (and a knock-out or death avoided) are
    worth two Mumm."""
    halve = first(legal, ActionKind.HALVE_DAMAGE)
    if halve is None:
        return None
    me = board.me
    about = board.decision.payload
    total = about.total if isinstance(about, DamagePrompt) else 0
    half = total // 2
    saved = float(total - half)
    if me.lp - total <= 0 < me.lp - half:
        saved += cfg.ko_bonus
    limit = -me.spec.skill(Skill.UNBEUGSAMKEIT)
    if me.lp - total <= limit < me.lp - half:
        saved += 2 * cfg.ko_bonus
    return halve if saved >= 2 * cfg.mumm_value else None


def _death(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    return first(legal, ActionKind.AVERT_DEATH)  # M04: always worth it


def _order(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """I04, X16: the tied fighter with the most to do goes first (the one nearest a foe)."""

    def key(a: Action) -> tuple[int, float, int]:
        f = board.fighters[a.target]
        near = board.nearest_enemy_distance(f.pos)
        return (near, -offense(board, f), a.target)

    return min(legal, key=key)


def _drag(board: Board, legal: Sequence[Action], cfg: PromptConfig) -> Action | None:
    """K03: drag the target toward my allies, or stop."""
    me = board.me
    others = [f for f in board.allies if f.idx != me.idx]
    if not others:
        return None

    def gap(cell: int) -> int:
        return min(board.dist(cell, f.pos) for f in others)

    moves = [a for a in legal if a.kind is ActionKind.DRAG_TO]
    if not moves:
        return None
    best = min(moves, key=lambda a: (gap(a.cell), a.cell))
    return best if gap(best.cell) < gap(me.pos) else None


_HANDLERS = {
    DecisionKind.ORDER: _order,
    DecisionKind.PRE_CHECK: pre_check,
    DecisionKind.POST_CHECK: post_check,
    DecisionKind.KEEP: keep,
    DecisionKind.DEFEND: _defend,
    DecisionKind.NIEDERWERFEN: _niederwerfen,
    DecisionKind.BLOCKADE: _blockade,
    DecisionKind.STURZ: _sturz,
    DecisionKind.DAMAGE: _damage,
    DecisionKind.DEATH: _death,
    DecisionKind.DRAG: _drag,
}
