"""Gymnasium spaces of the environments (shared by the single-agent and the AEC env)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from gymnasium import spaces

from cwenv.envs.layout import ActionLayout
from cwenv.envs.observe import SHAPES, bounds
from cwenv.envs.tables import F32


def box_dict(keys: Iterable[str], bounds_of: Callable[[str], tuple[F32, F32]]) -> spaces.Dict:
    """A Dict of float32 Boxes, one per key, each from its (low, high) arrays."""
    parts: dict[str, spaces.Space[Any]] = {}
    for key in keys:
        low, high = bounds_of(key)
        parts[key] = spaces.Box(low=low, high=high, dtype=np.float32)
    return spaces.Dict(parts)


def observation_space() -> spaces.Dict:
    """The Dict of fixed-shape float32 Boxes (keys and shapes: ``observe.SHAPES``)."""
    return box_dict(SHAPES, bounds)


def action_space(layout: ActionLayout) -> spaces.Discrete:
    return spaces.Discrete(layout.size)


def mask_space(layout: ActionLayout) -> spaces.Box:
    """The int8 0/1 action mask (PettingZoo's ``action_mask``)."""
    return spaces.Box(low=0, high=1, shape=(layout.size,), dtype=np.int8)
