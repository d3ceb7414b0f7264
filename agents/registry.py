"""Agent names usable wherever the CLI takes an agent."""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent, RandomAgent
from agents.greedy import GreedyAgent

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
}


class UnknownAgentError(ValueError):
    """No agent of that name."""


def make_agent(spec: str) -> Agent:
    """Build an agent from its name."""
    factory = AGENTS.get(spec)
    if factory is None:
        raise UnknownAgentError(f"unknown agent {spec!r}; known: {', '.join(sorted(AGENTS))}")
    return factory()
