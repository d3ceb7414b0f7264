"""The league: an opponent drawn anew for every training episode.

Members are scripted and search agents (by spec) and frozen snapshots of the learner
(self-play). The env builds one :class:`LeagueOpponent` and asks it for every opponent
decision; a new combat (a new :class:`~agents.base.DecisionView`) starts a new draw, made
with the episode's own generator so runs stay reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from agents.base import Agent, DecisionView
from agents.registry import make_agent
from agents.training.config import League
from cwenv.engine.actions import Action


class LeagueOpponent:
    name = "league"
    description = "zieht je Episode einen Gegner aus der Liga (Doktrinen, Suche, Schnappschüsse)"

    def __init__(self, league: League) -> None:
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

    def _draw(self, rng: random.Random) -> None:
        if self.snapshots and rng.random() < self.league.self_play:
            i = rng.randrange(len(self.snapshots))
            self.current, self.current_name = self.snapshots[i], f"snapshot{i}"
        else:
            name, _, factory = rng.choices(self.members, weights=[w for _, w, _ in self.members])[0]
            self.current, self.current_name = factory(), name
        self.draws[self.current_name] = self.draws.get(self.current_name, 0) + 1

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view is not self._view or self.current is None:
            self._view = view  # the env makes one view per combat: a new episode
            self._draw(rng)
        assert self.current is not None
        return self.current.act(view, legal, rng)
