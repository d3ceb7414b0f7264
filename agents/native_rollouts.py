"""Native twins of the agents, for whole games and search on the native combat (issue #16).

``agents._rollouts`` (agents/native/) implements the core's rollout-policy interface for
the agents that have a native twin: the greedy baseline (``rollouts.cpp``), choice for
choice the Python :class:`~agents.greedy.GreedyAgent` on the same state, and the Taktiker
(``taktiker.cpp``), choice for choice :class:`~agents.taktiker.Taktiker` where it values
what is on offer, handing the rest back to the agent. A whole game (``play_out``) or a
search's rollout (:func:`agents.search.rollout`) then plays on inside the core without a
Python call per decision but for the choices handed back. Where the combat is the
reference's, the module is not built, or a side's agent has no twin, play stays in Python.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from agents.greedy import GreedyAgent
from agents.taktiker import Taktiker


def _load() -> ModuleType | None:
    try:
        from agents import _rollouts
    except ImportError:  # no C++ compiler at install: rollouts stay in Python
        return None
    return _rollouts


_built = _load()
_TWINS: dict[object, Any] = {}


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


def native_twin(agent: object) -> Any | None:
    """The native twin of ``agent`` for an exact play-on (:func:`cwenv.agent.play_out`):
    :func:`native_policy`'s, or one that makes the agent's choices where it values what is
    on offer and hands the rest back to it — the Taktiker's (agents/native/taktiker.cpp).
    An exact play-on asks the agent for those (``play_out``, :func:`agents.search.rollout`);
    a rollout that cannot ask it takes only :func:`native_policy`'s twins."""
    whole = native_policy(agent)
    if whole is not None or _built is None or not isinstance(agent, Taktiker):
        return whole
    if type(agent) is not Taktiker:  # a subclass chooses otherwise
        return None
    # the weights the doctrine reads off the agent itself (Doctrine, Taktiker.__init__)
    weights = {
        "shake_weight": agent.shake_weight,
        "stand_weight": agent.stand_weight,
        "aim_weight": agent.aim_weight,
        "stabilise_worth": agent.stabilise_worth,
    }
    key = (Taktiker, agent.config.model_dump_json(), tuple(weights.values()))
    twin = _TWINS.get(key)
    if twin is None:
        twin = _TWINS[key] = _built.taktiker(agent.config.model_dump() | weights)
    return twin
