"""What a rolled attack would cost the target, per QS: shared by the prompt answers."""

from __future__ import annotations

from collections.abc import Sequence

from agents.board import Board
from agents.config import PromptConfig
from agents.estimates import crit_extra_dice, damage_profile, weapon_profile
from agents.worth import condition_gain, maneuver_worth
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.payloads import AttackPrompt, AttackRef
from cwenv.model.types import AttackMode, Maneuver

MAX_QS = 12


def first(legal: Sequence[Action], kind: ActionKind) -> Action | None:
    for a in legal:
        if a.kind is kind:
            return a
    return None


def cost(a: Action, cfg: PromptConfig) -> float:
    return cfg.mumm_value if a.mumm else cfg.reaction_value


# -- losses of a rolled attack ---------------------------------------------------------------
def loss_table(board: Board, info: AttackRef, cfg: PromptConfig) -> list[float]:
    """Expected loss to the target for each QS 0..MAX_QS of a hit of ``info``'s attack."""
    a = board.fighters[info.attacker]
    me = board.me
    out = [0.0] * (MAX_QS + 1)
    if info.mode is AttackMode.MANEUVER:
        worth = maneuver_worth(
            board, a, me, Maneuver(info.index), cfg.condition_horizon, cfg.mumm_value
        )
        return [0.0] + [worth] * MAX_QS
    if info.mode is AttackMode.HACK:
        h = a.spec.hacks[info.index]
        prof = damage_profile(board, me, h.bonus, h.armour_mode, h.forms)
        extra = (
            condition_gain(board, me, h.condition, cfg.condition_horizon, cfg.mumm_value)
            if h.condition is not None
            else 0.0
        )
    else:
        prof = weapon_profile(board, a, me, a.weapons[info.index])
        extra = 0.0
    crit = 0.0
    if info.roll is not None and info.roll.volltreffer:
        crit = crit_extra_dice(info.roll.qs) * prof.per_qs(1)
    for k in range(1, MAX_QS + 1):
        mean, ko = prof.stats(k + info.aim_qs)
        out[k] = mean + cfg.ko_bonus * ko + crit + extra
    return out


def attack_on_me(board: Board) -> AttackRef | None:
    """The attack a DEFEND or NIEDERWERFEN prompt answers (its payload)."""
    about = board.decision.payload
    return about.attack if isinstance(about, AttackPrompt) else None
