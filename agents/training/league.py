"""The league: an opponent drawn anew for every training episode.

Members are scripted and search agents (by spec) and frozen snapshots of the learner
(self-play). The env builds one :class:`LeagueOpponent` and asks it for every opponent
decision; a new combat (a new :class:`~cwenv.agent.DecisionView`) starts a new draw, made
with the episode's own generator so runs stay reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from agents.training.config import League
from cwenv.agent import Agent, DecisionView
from cwenv.agent_registry import make_agent
from cwenv.engine.actions import Action


class LeagueError(ValueError):
    """A league that cannot draw an opponent."""


class LeagueOpponent:
    name = "league"
    description = "zieht je Episode einen Gegner aus der Liga (Doktrinen, Suche, Schnappschüsse)"

    def __init__(self, league: League) -> None:
        if not league.members:
            raise LeagueError("a league needs at least one member")
        self.league = league
        self.members: list[tuple[str, float, Callable[[], Agent]]] = [
            (m.agent, m.weight, partial(make_agent, m.agent)) for m in league.members
        ]
        self.snapshots: list[Agent] = []
        self.current: Agent | None = None
        self.current_name = ""
        self._view: DecisionView | None = None
        self.draws: dict[str, int] = {}

    def add_snapshot(self, agent: Agent) -> None:
        self.snapshots.append(agent)
        del self.snapshots[: -self.league.max_snapshots]

    def _draw(self, rng: random.Random) -> Agent:
        if self.snapshots and rng.random() < self.league.self_play:
            i = rng.randrange(len(self.snapshots))
            agent, name = self.snapshots[i], f"snapshot{i}"
        else:
            name, _, factory = rng.choices(self.members, weights=[w for _, w, _ in self.members])[0]
            agent = factory()
        self.current, self.current_name = agent, name
        self.draws[name] = self.draws.get(name, 0) + 1
        return agent

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        current = self.current
        if view is not self._view or current is None:
            self._view = view  # the env makes one view per combat: a new episode
            current = self._draw(rng)
        return current.act(view, legal, rng)
