"""``cwenv/Kampfrunde-v2``: the Kampfrunde in encoding 2 (issue #18) for MaskablePPO.

The same game loop as ``cwenv/Kampfrunde-v0`` (:class:`~cwenv.envs.kampfrunde.KampfrundeEnv`:
one decision of the controlled side per step, the opponent inside ``step``, the same
rewards, seeds and errors), with the observation and actions of
:mod:`cwenv.envs.encoding2`: a ``Dict`` of float32 Boxes (:data:`SHAPES2`) and
``Discrete(K)``, index ``i`` = the ``i``-th legal action, ``action_masks()`` the first
``len(legal)`` indices. Importing this module registers the id with gymnasium.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cwenv.envs.encoding2 import DEFAULT_K, Session2, bounds2, shapes2
from cwenv.envs.game_encoder import DEFAULT_MAX_STEPS, DEFAULT_SCENARIO, ScenarioSpec, parse_side
from cwenv.envs.kampfrunde import KampfrundeEnv
from cwenv.envs.opponents import OpponentSpec, opponent_factory
from cwenv.envs.rewards import RewardSpec
from cwenv.model.types import Side

ENV2_ID = "cwenv/Kampfrunde-v2"
ENV2_ENTRY_POINT = "cwenv.envs.env2:KampfrundeEnv2"


def observation_space2(k: int = DEFAULT_K) -> spaces.Dict:
    parts: dict[str, spaces.Space[Any]] = {}
    for key in shapes2(k):
        low, high = bounds2(key, k)
        parts[key] = spaces.Box(low=low, high=high, dtype=np.float32)
    return spaces.Dict(parts)


class KampfrundeEnv2(KampfrundeEnv):
    """A Corporate Wars fight in encoding 2; arguments as ``KampfrundeEnv`` (no action
    windows: ``k`` candidates instead, default 512)."""

    def __init__(
        self,
        scenario: ScenarioSpec = DEFAULT_SCENARIO,
        side: str | Side = "gegner",
        opponent: OpponentSpec = None,
        rules: str | Path | None = None,
        reward: RewardSpec = None,
        render_mode: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        k: int = DEFAULT_K,
        illegal_action: Literal["raise", "fallback"] = "raise",
    ) -> None:
        # KampfrundeEnv.__init__ would build encoding 1's Session (and check its move
        # window); everything it sets besides that is set here the same way.
        if illegal_action not in ("raise", "fallback"):
            raise ValueError("illegal_action must be 'raise' or 'fallback'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}; allowed: {self.metadata['render_modes']}"
            )
        self.illegal_action = illegal_action
        self.session = Session2(scenario, rules, reward, max_steps, k)  # type: ignore[assignment]
        self.side = parse_side(side)
        if self.side not in self.session.sides or self.side is Side.NEUTRAL:
            raise ValueError(
                f"side {self.side.label} has no controllable fighters in this scenario"
            )
        self._make_opponent, self.opponent_name = opponent_factory(opponent)
        self.render_mode = render_mode
        self.k = k
        self.observation_space = observation_space2(k)
        self.action_space = spaces.Discrete(k)
        self._combat = None
        self._enc = None
        self._opponent = self._fallback = self._make_opponent()
        self._rng = self._fallback_rng = random.Random(0)
        self._viewer = self.session.sides.index(self.side)
        self._steps = 0
        self._restarts = 0
        self._reward = self.session.side_rewards([self.side])[self.side]

    def action_masks(self) -> np.ndarray:
        """The legal candidates now (bool); after the episode only the placeholder 0."""
        if self._enc is None:
            mask = np.zeros(self.k, dtype=np.bool_)
            mask[0] = True
            return mask
        return self._enc.mask.copy()


def register_env2() -> None:
    if ENV2_ID not in gym.registry:
        gym.register(id=ENV2_ID, entry_point=ENV2_ENTRY_POINT)


register_env2()

__all__ = ["DEFAULT_MAX_STEPS", "ENV2_ID", "KampfrundeEnv2", "observation_space2", "register_env2"]
