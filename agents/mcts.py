"""Open-loop Monte Carlo tree search over the acting side's decisions.

Each iteration clones the combat, reseeds its dice from the agent's generator (a new
sampled future), and walks down a tree whose edges are the acting side's TURN actions:
at each of its decisions the node's candidates (the base doctrine's choice first, then
every Handlung, then a few MOVE cells) are opened one by one as the node's visits grow
(progressive widening, ``widening * N ** widening_power`` children) and chosen by UCT among
the open ones; the other side's decisions and all prompts are played by the rollout
policy. After ``max_depth`` tree decisions (or one new node) the rollout policy plays on to
the horizon and the state value (LP-share and standing lead, ±1 for a decided fight) is
backed up. The tree is open-loop: a node stands for the action sequence, whatever the dice
did, and only the candidates legal in the current sample are considered. The most visited
root action is played. Deterministic for a given generator when the budget is in
iterations (``time_ms`` adds a wall-clock cap and so gives up determinism).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from agents.search import (
    Horizon,
    SearchConfig,
    base_scores,
    decide,
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
from cwenv.engine.actions import Action, DecisionKind
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.model.types import Side


class MCTSConfig(SearchConfig):
    kind: Literal["mcts"] = "mcts"
    iterations: int = Field(default=200, ge=1, le=1_000_000, description="Iterations per search.")
    time_ms: float | None = Field(
        default=None, gt=0, description="Optional wall-clock cap per search (not deterministic)."
    )
    exploration: float = Field(default=0.6, ge=0, description="UCT exploration constant.")
    widening: float = Field(default=1.5, gt=0, description="Progressive widening factor.")
    widening_power: float = Field(
        default=0.5, ge=0, le=1, description="Progressive widening exponent."
    )
    max_depth: int = Field(default=4, ge=1, le=100, description="Tree decisions per iteration.")
    search_prompts: bool = Field(
        default=False, description="Search prompts too (else the base doctrine answers them)."
    )
    confidence_z: float = Field(
        default=1.0,
        ge=0,
        description="Leave the base doctrine's choice only when the best action's mean value "
        "beats it by this many standard errors (0: always play the most visited).",
    )
    seed_pool: int = Field(
        default=0,
        ge=0,
        le=100_000,
        description="Cycle the iterations through this many dice seeds (0: a fresh one each).",
    )


class Node:
    """Visit count, value sum, candidates (ordered by prior) and children by action."""

    __slots__ = ("cands", "children", "n", "w", "w2")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.w2 = 0.0
        self.cands: list[Action] | None = None
        self.children: dict[Action, Node] = {}


class MCTSAgent:
    """``mcts``: see the module text."""

    def __init__(self, config: MCTSConfig | None = None) -> None:
        from cwenv.agent_registry import make_agent

        self.config = config or MCTSConfig()
        self.name = self.config.name or "mcts"
        self.description = self.config.description or (
            f"Suche: Open-Loop-MCTS, {self.config.iterations} Iterationen "
            f"(Rollouts: {self.config.rollout})"
        )
        self.base: Agent = make_agent(self.config.base)
        self.policy: Agent = make_agent(self.config.rollout)
        opponent = self.config.opponent
        self.opponent: Agent = self.policy if opponent is None else make_agent(opponent)

    def prepare(self, game: Game) -> None:
        """Its prior, its rollout policy and its opponent model must all be able to play
        ``game``."""
        prepare_agents((self.base, self.policy, self.opponent), game)
        self.last_iterations = 0
        self.last_root: Node | None = None

    def _searched(self, kind: DecisionKind) -> bool:
        return kind is DecisionKind.TURN or self.config.search_prompts

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        return self._search(view, legal, rng)[0]

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> ActionScores | None:
        """The root's mean values and visit counts (what :meth:`_choose` ranks by); a
        decision it does not search is its base doctrine's, and so are the scores."""
        same = twin(rng)
        choice, root = self._search(view, legal, rng)
        if root is None:
            return base_scores(self.base, view, legal, same)
        children = {a: n for a, n in root.children.items() if n.n}
        return ActionScores(
            choice,
            {a: n.w / n.n for a, n in children.items()},
            "Suchwert",
            "search value",
            {a: n.n for a, n in children.items()},
        )

    def _search(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> tuple[Action, Node | None]:
        """The action to play and the searched tree (None: the prior, unsearched)."""
        prior = self.base.act(view, legal, rng)
        kind = view.decision.kind
        if len(legal) == 1 or not self._searched(kind):
            return prior, None
        if kind is DecisionKind.TURN and not worth_searching(view, legal, self.config):
            return prior, None
        cfg = self.config
        root = Node()
        root.cands = self._candidates(view, legal, prior, rng)
        if len(root.cands) == 1:
            return prior, None
        side = view.fighter.side
        deadline = time.perf_counter() + cfg.time_ms / 1000 if cfg.time_ms else math.inf
        pool = [new_seed(rng) for _ in range(cfg.seed_pool)]
        done = 0
        while done < cfg.iterations and time.perf_counter() < deadline:
            seed = pool[done % len(pool)] if pool else new_seed(rng)
            self._iterate(view, root, side, seed)
            done += 1
        self.last_iterations = done
        self.last_root = root
        return self._choose(root, prior), root

    def _choose(self, root: Node, prior: Action) -> Action:
        """The most visited root action — unless the base doctrine's choice is not worse
        by ``confidence_z`` standard errors of the difference of their mean values."""
        cands = root.cands or [prior]

        def rank(a: Action) -> tuple[int, float]:
            child = root.children.get(a)
            if child is None or child.n == 0:
                return (0, -math.inf)
            return (child.n, child.w / child.n)

        best = max(cands, key=rank)
        b = root.children.get(best)
        p = root.children.get(prior)
        if best == prior or b is None or p is None or p.n < 2 or b.n < 2:
            return best
        gap = b.w / b.n - p.w / p.n
        se = math.sqrt(_variance(b) / b.n + _variance(p) / p.n)
        return best if gap > self.config.confidence_z * se else prior

    def _candidates(
        self, view: DecisionView, legal: Sequence[Action], prior: Action, rng: random.Random
    ) -> list[Action]:
        cfg = self.config
        if view.decision.kind is DecisionKind.TURN:
            return turn_candidates(view, legal, prior, rng, cfg.max_moves, cfg.max_candidates)
        return [prior, *(a for a in legal if a != prior)][: cfg.max_candidates]

    def _iterate(self, view: DecisionView, root: Node, side: Side, seed: int) -> None:
        cfg = self.config
        sim = view.clone()
        horizon = Horizon(sim, cfg)
        sim.reseed_dice(seed)
        it_rng = random.Random(seed)
        sim_view = DecisionView(sim)
        policies = side_policies(self.policy, self.opponent, side)
        node = root
        path = [root]
        depth = 0
        while not horizon.reached(sim) and depth < cfg.max_depth:
            legal = sim.legal_actions()
            if len(legal) == 1:
                sim.apply(legal[0])
                continue
            d = sim.decision
            if d is None:
                break
            if (
                sim.fighters[d.fighter].side is not side
                or not self._searched(d.kind)
                or (d.kind is DecisionKind.TURN and not worth_searching(sim_view, legal, cfg))
            ):
                player = policies[int(sim.fighters[d.fighter].side)]
                sim.apply(self._decide(player, sim, sim_view, legal, it_rng))
                continue
            cands = self._open(node, sim, sim_view, legal, it_rng)
            action, child, fresh = self._select(node, cands)
            sim.apply(action)
            path.append(child)
            node = child
            depth += 1
            if fresh:
                break
        rollout(sim, policies, it_rng, horizon)
        value = state_value(sim, side, cfg.lp_weight, cfg.standing_weight, cfg.condition_weight)
        for n in path:
            n.n += 1
            n.w += value
            n.w2 += value * value

    def _decide(
        self,
        agent: Agent,
        sim: Combat,
        sim_view: DecisionView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        """``agent``'s choice, its native twin's where rollouts may run in the core."""
        if self.config.native_rollouts:
            return decide(agent, sim, sim_view, legal, rng)
        return agent.act(sim_view, legal, rng)

    def _open(
        self,
        node: Node,
        sim: Combat,
        sim_view: DecisionView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> list[Action]:
        """The node's candidates legal in this sample (computed on the first visit)."""
        if node.cands is not None:
            ok = set(legal)
            cands = [a for a in node.cands if a in ok]
            if cands:
                return cands
        prior = self._decide(self.base, sim, sim_view, legal, rng)
        cands = self._candidates(sim_view, legal, prior, rng)
        if node.cands is None:
            node.cands = cands
        return cands

    def _select(self, node: Node, cands: list[Action]) -> tuple[Action, Node, bool]:
        """Progressive widening over the prior order, then UCT among the open children."""
        cfg = self.config
        allowed = max(1, math.ceil(cfg.widening * (node.n + 1) ** cfg.widening_power))
        window = cands[:allowed]
        for a in window:
            if a not in node.children:
                child = Node()
                node.children[a] = child
                return a, child, True
        log_n = math.log(max(node.n, 1))
        best = window[0]
        best_score = -math.inf
        for a in window:
            child = node.children[a]
            if child.n == 0:
                return a, child, False
            score = child.w / child.n + cfg.exploration * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = a, score
        return best, node.children[best], False


def _variance(n: Node) -> float:
    mean = n.w / n.n
    return max(0.0, n.w2 / n.n - mean * mean) * n.n / max(n.n - 1, 1)
