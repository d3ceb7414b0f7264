"""Rollout policies in C++ for search on the native combat (issue #16).

``agents._rollouts`` (agents/native/rollouts.cpp) implements the core's rollout-policy
interface for the agents that have a native twin — today the greedy baseline, choice for
choice the Python :class:`~agents.greedy.GreedyAgent` on the same state. A search's
rollout then plays on inside the core (``NativeCombat.rollout``) without a Python call per
decision. Where the combat is the reference's, the module is not built, or a side's
rollout agent has no twin, the rollout stays in Python (:func:`agents.search.rollout`).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from agents.greedy import GreedyAgent


def _load() -> ModuleType | None:
    try:
        from agents import _rollouts
    except ImportError:  # no C++ compiler at install: rollouts stay in Python
        return None
    return _rollouts


_built = _load()
_TWINS: dict[type, Any] = {}


def native_policy(agent: object) -> Any | None:
    """The native twin of ``agent`` (a capsule for ``NativeCombat.rollout``), None where it
    has none. Only the exact classes whose every choice the twin makes count."""
    if _built is None:
        return None
    kind = type(agent)
    twin = _TWINS.get(kind)
    if twin is None and kind is GreedyAgent:
        twin = _TWINS[kind] = _built.greedy()
    return twin
