"""Which agent plays the other side: an agent spec, an agent object, or the default.

The default is the ``taktiker`` doctrine when the agent registry knows it, otherwise the
``greedy`` baseline. The environments know agents only through the
:class:`~cwenv.agent.Agent` interface and build them with
:func:`cwenv.agent_registry.make_agent`.
"""

from __future__ import annotations

from collections.abc import Callable

from cwenv.agent import Agent
from cwenv.agent_registry import UnknownAgentError, make_agent

DEFAULT_OPPONENT = "taktiker"
FALLBACK_OPPONENT = "greedy"

OpponentSpec = str | Agent | None


def default_opponent_name() -> str:
    """``taktiker`` if the registry builds it, else ``greedy``."""
    try:
        make_agent(DEFAULT_OPPONENT)
    except UnknownAgentError:
        return FALLBACK_OPPONENT
    return DEFAULT_OPPONENT


def opponent_factory(spec: OpponentSpec) -> tuple[Callable[[], Agent], str]:
    """A factory that builds a fresh opponent for every episode, and its name.

    A name (or None) is rebuilt at each reset, so no agent state leaks between episodes;
    an agent object is used as given (it must keep its own state seed-free).
    """
    if spec is None:
        spec = default_opponent_name()
    if isinstance(spec, str):
        name = spec
        make_agent(name)  # fail at construction, not at the first reset
        return (lambda: make_agent(name)), name
    if not isinstance(spec, Agent):
        raise TypeError(f"opponent must be an agent name or an Agent, got {type(spec).__name__}")
    agent = spec
    return (lambda: agent), getattr(agent, "name", type(agent).__name__)
