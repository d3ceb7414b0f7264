"""Agent specs → agents, through resolvers that packages register as entry points.

``cwenv`` knows no concrete agent. Wherever a command, an environment or a tournament takes
an agent spec (``"taktiker"``, ``"configs/agents/x.yaml"``, ``"policy:PATH"``), it asks
:func:`make_agent`, which asks every resolver registered under the entry-point group
``cwenv.agents``, in the order of the entry points' names; the first one that returns an
agent wins. The project's own ``agents`` package registers one (``pyproject.toml``), and a
user's package can add its own agents the same way (``docs/agents.md``)::

    [project.entry-points."cwenv.agents"]
    mine = "my_agents:resolver"

A resolver is any object with

* ``known() -> Sequence[str]``: the names it offers (listed in "unknown agent" messages,
  used for "did you mean");
* ``resolve(spec) -> Agent | None``: the agent, or None when the spec is not one of its
  own (a spec it owns but cannot build raises :class:`UnknownAgentError` or a
  ``ConfigError`` naming the file and field);

and optionally ``describe() -> Sequence[tuple[str, str]]`` (spec, one-line description;
``cwenv agents list``) and ``source(spec) -> str | None`` (the file that defines the
agent, named in messages). Restricted play (``"taktiker!M02"``) is not a spec of its own:
:mod:`cwenv.runner.task` splits the tactics off before it asks here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

from cwenv.agent import Agent
from cwenv.suggest import did_you_mean

GROUP = "cwenv.agents"
"""The entry-point group agent resolvers are registered under."""


class UnknownAgentError(ValueError):
    """No agent of that name (or a spec that cannot be used yet)."""


class AgentPluginError(UnknownAgentError):
    """A registered resolver cannot be loaded or is not a resolver; the message names its
    entry point, so the broken package is found without a traceback."""


class AgentResolver(Protocol):
    """What an entry point of :data:`GROUP` must load to (see the module text)."""

    def known(self) -> Sequence[str]: ...

    def resolve(self, spec: str) -> Agent | None: ...


def _load(point: EntryPoint) -> AgentResolver:
    where = f"entry point {point.name!r} = {point.value!r} of group {GROUP!r}"
    try:
        resolver = point.load()
    except Exception as exc:  # a broken third-party package: name it, keep the reason
        raise AgentPluginError(
            f"agent plugin {where} cannot be loaded: {type(exc).__name__}: {exc}"
        ) from None
    missing = [m for m in ("known", "resolve") if not callable(getattr(resolver, m, None))]
    if missing:
        raise AgentPluginError(
            f"agent plugin {where} is not a resolver: it has no {' or '.join(missing)}() "
            "(see docs/agents.md)"
        )
    return resolver  # type: ignore[no-any-return]


@functools.cache
def resolvers() -> tuple[AgentResolver, ...]:
    """Every registered resolver, in the order of their entry-point names (read once per
    process: environments and tournaments build a fresh agent per episode or game)."""
    points = sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value))
    return tuple(_load(point) for point in points)


def known_specs() -> list[str]:
    """Every name the resolvers offer, sorted."""
    names: set[str] = set()
    for resolver in resolvers():
        names.update(resolver.known())
    return sorted(names)


def make_agent(spec: str) -> Agent:
    """Build a fresh agent from its spec; :class:`UnknownAgentError` (with a "did you mean"
    and every known name) when no resolver owns it."""
    found = resolvers()
    for resolver in found:
        agent = resolver.resolve(spec)
        if agent is not None:
            return agent
    if not found:
        raise UnknownAgentError(
            f"unknown agent {spec!r}: no agent package is registered under the entry-point "
            f"group {GROUP!r}; install cwenv (pip install -e .) so its agents register (a "
            "stale cwenv.egg-info folder in the working directory can hide the installed one)"
        )
    known = known_specs()
    hint = did_you_mean(spec, known)
    raise UnknownAgentError(f"unknown agent {spec!r}{hint}; known: {', '.join(known)}")


def describe_agents() -> list[tuple[str, str]]:
    """Every usable spec with a one-line description, resolver by resolver (a resolver
    without ``describe`` lists its known names without text)."""
    rows: list[tuple[str, str]] = []
    for resolver in resolvers():
        describe = getattr(resolver, "describe", None)
        if callable(describe):
            rows.extend((str(name), str(text)) for name, text in describe())
        else:
            rows.extend((name, "") for name in resolver.known())
    return rows


def agent_source(spec: str) -> str | None:
    """The file that defines the agent of ``spec``, if a resolver can tell (for messages)."""
    for resolver in resolvers():
        source = getattr(resolver, "source", None)
        if callable(source):
            found = source(spec)
            if found:
                return str(found)
    return None
