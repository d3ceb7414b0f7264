"""Gymnasium and PettingZoo environments on top of the engine (issue #4).

``gymnasium.make("cwenv/Kampfrunde-v0")`` (and ``-v2``, encoding 2; both registered when
``cwenv`` and gymnasium are both imported, in either order, by the import hook in
:mod:`cwenv`) plays the 4v4
``feuergefecht`` for the Gegner side against the default doctrine; :class:`KampfrundeAEC`
makes every fighter a PettingZoo agent. See ``docs/env.md``.

Nothing here is imported eagerly: the encoders (``session``, ``layout``, ``observe``) need
numpy only, so a ``policy:`` bundle plays without gymnasium installed; the Gymnasium env
and its error types load on first use of their names.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "ENV_ID": "cwenv",
    "ENV2_ID": "cwenv",
    "register_envs": "cwenv",
    "EncodingError": "cwenv.envs.errors",
    "EnvError": "cwenv.envs.errors",
    "InvalidActionError": "cwenv.envs.errors",
    "LimitError": "cwenv.envs.errors",
    "KampfrundeEnv": "cwenv.envs.kampfrunde",  # imports gymnasium
    "KampfrundeEnv2": "cwenv.envs.env2",  # imports gymnasium
    "ActionLayout": "cwenv.envs.layout",
    "RewardConfig": "cwenv.envs.rewards",
    "load_reward_config": "cwenv.envs.rewards",
    "KampfrundeAEC": "cwenv.envs.aec",  # imports pettingzoo
    "KampfrundeParallel": "cwenv.envs.aec",
    "env": "cwenv.envs.aec",
    "parallel_env": "cwenv.envs.aec",
    "raw_env": "cwenv.envs.aec",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'cwenv.envs' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = sorted(_WHERE)
