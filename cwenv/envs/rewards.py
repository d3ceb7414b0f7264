"""Rewards: a validated YAML config (``configs/rewards/``) and a per-side tracker.

Shaping terms are differences of a potential, so healing undoes damage reward and a
fighter who gets back up undoes his "downed" reward. Damage is measured in LP bars: a
fighter's lost LP (down to 0) divided by his maximum LP, summed over fighters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from cwenv.content.errors import Origin, validate
from cwenv.engine.state import Combat
from cwenv.model.types import Side
from cwenv.rules.variants import CONFIG_ROOT
from cwenv.yamlio import ConfigError, ConfigIssue, read_yaml_file

REWARDS_DIR = CONFIG_ROOT / "rewards"


class RewardConfig(BaseModel):
    """Reward weights, all credited to one side (unknown fields are errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    name: str = "default"
    description: str = ""
    win: float = 1.0
    loss: float = -1.0
    draw: float = 0.0
    damage_dealt: float = 0.5
    damage_taken: float = -0.5
    enemy_downed: float = 0.25
    ally_downed: float = -0.25
    step_cost: float = -0.001


RewardSpec = RewardConfig | dict[str, Any] | str | Path | None


def load_reward_config(spec: RewardSpec = None) -> RewardConfig:
    """A config from a name in ``configs/rewards`` (``"default"``), a YAML path, a dict, or
    an instance; None is ``default``. Errors are :class:`ConfigError` with file and line."""
    if isinstance(spec, RewardConfig):
        return spec
    if isinstance(spec, dict):
        try:
            return RewardConfig.model_validate(spec)
        except ValueError as exc:
            raise ConfigError([ConfigIssue("<reward dict>", None, (), str(exc))]) from None
    name = "default" if spec is None else spec
    path = Path(name)
    if path.suffix not in (".yaml", ".yml") and "/" not in str(name):
        path = REWARDS_DIR / f"{name}.yaml"
        if not path.is_file():
            known = sorted(p.stem for p in REWARDS_DIR.glob("*.yaml"))
            raise ConfigError(
                [ConfigIssue(str(name), None, (), f"unknown reward config; known: {known}")]
            )
    doc = read_yaml_file(path)
    return validate(RewardConfig, Origin(doc), doc.data)


def opponents_of(side: Side) -> Side | None:
    """The side whose losses count as damage dealt (neutrals count for nobody)."""
    if side is Side.RUNNER:
        return Side.GEGNER
    if side is Side.GEGNER:
        return Side.RUNNER
    return None


class SideReward:
    """Reward of one side between two calls of :meth:`update`."""

    def __init__(self, cfg: RewardConfig, sides: list[Side], side: Side) -> None:
        self.cfg = cfg
        self.side = side
        foe = opponents_of(side)
        self.own = np.array([s is side for s in sides], dtype=bool)
        self.foe = np.array([s is foe for s in sides], dtype=bool)
        self.last = 0.0
        self.ended = False

    def potential(self, lost: np.ndarray, downed: np.ndarray) -> float:
        cfg = self.cfg
        return float(
            cfg.damage_dealt * lost[self.foe].sum()
            + cfg.damage_taken * lost[self.own].sum()
            + cfg.enemy_downed * downed[self.foe].sum()
            + cfg.ally_downed * downed[self.own].sum()
        )

    def reset(self, lost: np.ndarray, downed: np.ndarray) -> None:
        self.last = self.potential(lost, downed)
        self.ended = False

    def update(self, c: Combat, lost: np.ndarray, downed: np.ndarray) -> float:
        """Potential change since the last update, plus the outcome once at the end."""
        now = self.potential(lost, downed)
        reward = now - self.last
        self.last = now
        if c.outcome is not None and not self.ended:
            self.ended = True
            winner = c.outcome.winner
            if self.side is not Side.NEUTRAL:
                if winner is None:
                    reward += self.cfg.draw
                elif winner is self.side:
                    reward += self.cfg.win
                else:
                    reward += self.cfg.loss
        return reward


def fighter_state(c: Combat, lp_max: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(lost LP bars, downed) per fighter: lost = (max − max(lp, 0)) / max; downed = down or
    dead (fleeing is not being downed)."""
    fighters = c.fighters
    lp = np.fromiter((f.lp for f in fighters), dtype=np.float64, count=len(fighters))
    downed = np.fromiter(
        (f.down or f.dead for f in fighters), dtype=np.float64, count=len(fighters)
    )
    lost = (lp_max - np.maximum(lp, 0.0)) / lp_max
    return lost, downed
