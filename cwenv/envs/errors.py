"""Errors of the RL environments: every one is a ``ValueError`` with a message that says
what to change."""

from __future__ import annotations


class EnvError(ValueError):
    """Base class of the environment errors."""


class InvalidActionError(EnvError):
    """The action index is outside the current action mask (or the episode is over)."""


class EncodingError(EnvError):
    """A legal engine action does not fit the fixed action layout (a slot, a window or a
    limit is too small). Never silently masked out: widen the layout instead."""


class LimitError(EnvError):
    """The scenario exceeds a documented maximum of the observation or action layout."""
