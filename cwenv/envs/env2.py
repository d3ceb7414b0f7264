"""``cwenv/Kampfrunde2-v0``: the Kampfrunde in encoding 2 (issue #18) for MaskablePPO.

The same game loop as ``cwenv/Kampfrunde-v0`` (:class:`~cwenv.envs.kampfrunde.KampfrundeEnv`:
one decision of the controlled side per step, the opponent inside ``step``, the same
rewards, seeds and errors), with the observation and actions of
:mod:`cwenv.envs.encoding2`: a ``Dict`` of float32 Boxes (:data:`SHAPES2`) and
``Discrete(K)``, index ``i`` = the ``i``-th legal action, ``action_masks()`` the first
``len(legal)`` indices. ``gymnasium.make("cwenv/Kampfrunde2-v0", …)`` makes it (registered
with ``cwenv/Kampfrunde-v0`` by :func:`cwenv.register_envs`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from gymnasium import spaces

from cwenv import ENV2_ID
from cwenv.envs.encoding2 import DEFAULT_K, Session2, bounds2, shapes2
from cwenv.envs.game_encoder import DEFAULT_MAX_STEPS, DEFAULT_SCENARIO, ScenarioSpec
from cwenv.envs.kampfrunde import KampfrundeEnv
from cwenv.envs.opponents import OpponentSpec
from cwenv.envs.rewards import RewardSpec
from cwenv.envs.spaces import box_dict
from cwenv.model.types import Side


def observation_space2(k: int = DEFAULT_K) -> spaces.Dict:
    return box_dict(shapes2(k), lambda key: bounds2(key, k))


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
        self.k = k
        # Session2 plays Session's part (new_combat, encode, decode, observe); no subclass.
        self._setup(
            lambda: Session2(scenario, rules, reward, max_steps, k),  # type: ignore[arg-type, return-value]
            side, opponent, render_mode, illegal_action,
        )  # fmt: skip

    def _spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        return observation_space2(self.k), spaces.Discrete(self.k)


__all__ = ["DEFAULT_MAX_STEPS", "ENV2_ID", "KampfrundeEnv2", "observation_space2"]
