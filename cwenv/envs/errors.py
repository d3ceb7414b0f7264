"""Errors of the RL environments: every one is a ``ValueError`` with a message that says
what to change."""

from __future__ import annotations

from typing import Any

import numpy as np


class EnvError(ValueError):
    """Base class of the environment errors."""


class InvalidActionError(EnvError):
    """The action index is outside the current action mask (or the episode is over)."""


class EncodingError(EnvError):
    """A legal engine action does not fit the fixed action layout (a slot, a window or a
    limit is too small). Never silently masked out: widen the layout instead."""


class LimitError(EnvError):
    """The scenario exceeds a documented maximum of the observation or action layout."""


def action_index(action: Any) -> int:
    """The integer an env action stands for: a Python or numpy integer, or a one-element
    integer array (what vectorised agents pass). Anything else — ``1.7``, ``"0"``, ``True``
    — is an :class:`InvalidActionError`, never rounded or parsed into some other action."""
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item() if action.dtype.kind in "iu" else action
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise InvalidActionError(
            f"action must be an integer index, got {action!r} ({type(action).__name__})"
        )
    return int(action)
