"""Native twins of the agents, for whole games and search on the native combat (issue #16).

``agents._rollouts`` (agents/native/) implements the core's rollout-policy interface for
the agents that have a native twin: the greedy baseline (``rollouts.cpp``), choice for
choice the Python :class:`~agents.greedy.GreedyAgent` on the same state, and the Taktiker,
the Schütze and the Stürmer (``taktiker.cpp``, ``hooks.cpp``), choice for choice
:class:`~agents.taktiker.Taktiker`, :class:`~agents.schuetze.Schuetze` and
:class:`~agents.stuermer.Stuermer` where they value what is on offer, handing the rest
back to the agent. A whole game (``play_out``) or a
search's rollout (:func:`agents.search.rollout`) then plays on inside the core without a
Python call per decision but for the choices handed back. Where the combat is the
reference's, the module is not built, or a side's agent has no twin, play stays in Python.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, cast

from agents.doctrine import Doctrine
from agents.greedy import GreedyAgent
from agents.schuetze import Schuetze
from agents.stuermer import Stuermer
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
    on offer and hands the rest back to it — the Taktiker's, the Schütze's and the Stürmer's
    (agents/native/taktiker.cpp). An exact play-on asks the agent for those (``play_out``,
    :func:`agents.search.rollout`); a rollout that cannot ask it takes only
    :func:`native_policy`'s twins."""
    whole = native_policy(agent)
    if whole is not None or _built is None:
        return whole
    if type(agent) not in _DOCTRINES or not hasattr(_built, "doctrine"):
        return None  # the exact classes (a subclass chooses otherwise), in a current build
    doctrine = cast(Doctrine, agent)
    # the weights the doctrine reads off the agent itself (Doctrine, Taktiker.__init__)
    weights = {
        "shake_weight": doctrine.shake_weight,
        "stand_weight": doctrine.stand_weight,
        "aim_weight": doctrine.aim_weight,
        "stabilise_worth": doctrine.stabilise_worth,
    }
    if isinstance(doctrine, Stuermer):  # its manoeuvres as a bit set over Maneuver
        weights["maneuver_mask"] = sum(1 << int(m) for m in doctrine.allowed)
    values = tuple(weights.values())
    # asked at every decision of a search: the agent keeps its last answer while its
    # (frozen) config object and its weights stay the same
    kept = doctrine.__dict__.get("_native_twin")
    if kept is not None and kept[0] is doctrine.config and kept[1] == values:
        return kept[2]
    key = (type(doctrine), doctrine.config.model_dump_json(), values)
    twin = _TWINS.get(key)
    if twin is None:  # the config names the doctrine (its ``kind``)
        twin = _TWINS[key] = _built.doctrine(doctrine.config.model_dump() | weights)
    doctrine.__dict__["_native_twin"] = (doctrine.config, values, twin)
    return twin


_DOCTRINES = frozenset({Taktiker, Schuetze, Stuermer})
"""The doctrines with a twin (agents/native/rollouts.cpp ``doctrine``)."""


def native_query(name: str) -> Any | None:
    """The native query ``name`` of search (``state_value``, ``move_candidates``;
    agents/native/queries.cpp) as a capsule for :meth:`NativeCombat.ask`, None where the
    module is not built."""
    if _built is None:
        return None
    query = _QUERIES.get(name)
    if query is None:
        make = getattr(_built, name, None)  # None in a build from before the query
        if make is None:
            return None
        query = _QUERIES[name] = make()
    return query


_QUERIES: dict[str, Any] = {}
