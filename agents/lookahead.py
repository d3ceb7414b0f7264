"""One-step lookahead: every candidate of the TURN decision judged by sampled rollouts.

For each candidate action (the base doctrine's choice, every Handlung, a handful of MOVE
cells) the agent clones the combat, reseeds the dice, applies the candidate and lets the
rollout policy play both sides to the horizon; the state value there (LP share and
standing-fighter lead, ±1 for a decided fight) is averaged over ``rollouts`` samples. The
k-th sample of every candidate uses the same dice seed (common random numbers), so
candidates are compared on the same futures. Prompts are answered by the base doctrine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from agents.search import (
    Horizon,
    SearchConfig,
    base_scores,
    new_seed,
    prepare_agents,
    rollout,
    side_policies,
    state_value,
    turn_candidates,
    twin,
    worth_searching,
)
from cwenv.agent import ActionScores, Agent, DecisionView
from cwenv.engine.actions import Action
from cwenv.engine.game import Game


class LookaheadConfig(SearchConfig):
    kind: Literal["lookahead"] = "lookahead"
    rollouts: int = Field(default=4, ge=1, le=1000, description="Samples per candidate.")
    confidence_z: float = Field(
        default=1.0,
        ge=0,
        description="Leave the base doctrine's choice only when a candidate beats it by this "
        "many standard errors of the paired differences (0: always the best mean).",
    )


class LookaheadAgent:
    """``lookahead``: see the module text."""

    def __init__(self, config: LookaheadConfig | None = None) -> None:
        from cwenv.agent_registry import make_agent

        self.config = config or LookaheadConfig()
        self.name = self.config.name or "lookahead"
        self.description = self.config.description or (
            f"Suche: ein Zug voraus, {self.config.rollouts} Rollouts je Kandidat "
            f"({self.config.rollout})"
        )
        self.base: Agent = make_agent(self.config.base)
        self.policy: Agent = make_agent(self.config.rollout)
        opponent = self.config.opponent
        self.opponent: Agent = self.policy if opponent is None else make_agent(opponent)

    def prepare(self, game: Game) -> None:
        """Its prior, its rollout policy and its opponent model must all be able to play
        ``game``."""
        prepare_agents((self.base, self.policy, self.opponent), game)

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        return self._search(view, legal, rng)[0]

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> ActionScores | None:
        """Each candidate's mean state value over its rollouts (what :func:`paired_best`
        ranks by, the prior kept on weak evidence); an unsearched decision is the base
        doctrine's, and so are its scores."""
        same = twin(rng)
        choice, found = self._search(view, legal, rng)
        if found is None:
            return base_scores(self.base, view, legal, same)
        cands, values = found
        means = {a: sum(v) / len(v) for a, v in zip(cands, values, strict=True)}
        return ActionScores(choice, means, "Rolloutwert", "rollout value")

    def _search(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> tuple[Action, tuple[list[Action], list[list[float]]] | None]:
        """The action to play, and the candidates with their rollout values (None: the
        prior, unsearched)."""
        prior = self.base.act(view, legal, rng)
        if not worth_searching(view, legal, self.config):
            return prior, None
        cfg = self.config
        cands = turn_candidates(view, legal, prior, rng, cfg.max_moves, cfg.max_candidates)
        if len(cands) == 1:
            return prior, None
        side = view.fighter.side
        policies = side_policies(self.policy, self.opponent, side)
        values = [[0.0] * cfg.rollouts for _ in cands]
        for k in range(cfg.rollouts):
            seed = new_seed(rng)
            for i, a in enumerate(cands):
                sim = view.clone()
                sim.reseed_dice(seed)
                horizon = Horizon(sim, cfg)
                sim.apply(a)
                rollout(sim, policies, random.Random(seed), horizon)
                values[i][k] = state_value(
                    sim, side, cfg.lp_weight, cfg.standing_weight, cfg.condition_weight
                )
        return cands[paired_best(values, cfg.confidence_z)], (cands, values)


def paired_best(values: list[list[float]], z: float) -> int:
    """Index of the best candidate by mean value; candidate 0 (the prior) unless the best
    beats it by ``z`` standard errors of their paired differences (common random numbers)."""
    n = len(values[0])
    means = [sum(v) / n for v in values]
    best = max(range(len(values)), key=lambda i: (means[i], -i))
    if best == 0 or n < 2:
        return best
    diffs = [b - p for b, p in zip(values[best], values[0], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > z * math.sqrt(var / n) else 0
