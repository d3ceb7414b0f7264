"""Gymnasium and PettingZoo environments on top of the engine (issue #4).

``gymnasium.make("cwenv/Kampfrunde-v0")`` (registered when ``cwenv`` and gymnasium are
both imported, in either order) plays the 4v4 ``feuergefecht`` for the Gegner side against
the default doctrine; :class:`KampfrundeAEC` makes every fighter a PettingZoo agent (loaded
on first use, so the Gymnasium env works without PettingZoo). See ``docs/env.md``.
"""

from __future__ import annotations

from typing import Any

from cwenv import ENV_ID, register_envs
from cwenv.envs.errors import EncodingError, EnvError, InvalidActionError, LimitError
from cwenv.envs.kampfrunde import KampfrundeEnv
from cwenv.envs.layout import ActionLayout
from cwenv.envs.rewards import RewardConfig, load_reward_config

register_envs()

_PETTINGZOO = ("KampfrundeAEC", "KampfrundeParallel", "env", "parallel_env", "raw_env")


def __getattr__(name: str) -> Any:
    if name in _PETTINGZOO:
        from cwenv.envs import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'cwenv.envs' has no attribute {name!r}")


__all__ = [
    "ENV_ID",
    "ActionLayout",
    "EncodingError",
    "EnvError",
    "InvalidActionError",
    "KampfrundeAEC",
    "KampfrundeEnv",
    "KampfrundeParallel",
    "LimitError",
    "RewardConfig",
    "env",
    "load_reward_config",
    "parallel_env",
    "raw_env",
]
