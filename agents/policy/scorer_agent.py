"""A candidate scorer playing through the common agent interface (``scorer:PATH``).

Encoding 2 (issue #18) is the same for every scenario, so one scorer bundle plays any
fight, either side: the decision is encoded by :class:`cwenv.envs.encoding2.Session2`
(entity rows, the coarse map and one feature row per legal action, in the engine's order)
and the bundle's numpy network scores every legal action; the best one is played (or one
is sampled). Neither torch nor gymnasium is imported.

K only pads: the weights do not depend on it. The agent encodes with the bundle's K (its
manifest's ``candidates`` capacity; :data:`~cwenv.envs.encoding2.DEFAULT_K` if none) and
doubles K for a decision with more legal actions, so no legal action is ever out of reach;
the one feature that reads K (the global legal_count/K) keeps the bundle's trained K as its
scale (``Session2(legal_scale=…)``), so a wider padding shows the network the same numbers.
A scenario or side other than the bundle's manifest names plays with one
:class:`PolicyMismatchWarning` per bundle and difference in a process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agents.policy.agent import BundleAgent, PolicyMismatchWarning, cached, trained_game, warn_once
from agents.policy.scorer import masked_probabilities
from agents.policy.scorer_bundle import ScorerBundle, TrainedOn, load_scorer_bundle
from cwenv.agent import ActionScores, DecisionView
from cwenv.engine.actions import Action
from cwenv.envs.encoding2 import DEFAULT_K, Session2

if TYPE_CHECKING:
    from cwenv.engine.game import Game

__all__ = ["PolicyMismatchWarning", "ScorerAgent", "cached_scorer", "scorer_agent"]

PREFIX = "scorer:"


def cached_scorer(path: str | Path) -> ScorerBundle:
    """Load a scorer bundle once per process (tournaments build fresh agents every game)."""
    return cached(path, load_scorer_bundle)


class ScorerAgent(BundleAgent[ScorerBundle]):
    """Plays the legal action the candidate scorer rates highest (or samples one)."""

    description = "ein Kandidaten-Bewerter (Kodierung 2): ein Netz für jeden Kampf, mit numpy"
    prefix = PREFIX

    def __init__(self, bundle: ScorerBundle, *, sample: bool = False, warn: bool = True) -> None:
        super().__init__(bundle, sample=sample, warn=warn)
        # The game itself is held, not its id(): a freed game's id is reused.
        self._game: Game | None = None
        self._session: Session2 | None = None

    def prepare(self, game: Game) -> None:
        """Build the encoder for ``game`` now (a game encoding 2 cannot hold raises)."""
        self._session_for(game, 0)

    def _session_for(self, game: Game, legal: int) -> Session2:
        s = self._session
        if s is None or game is not self._game:
            self._check_scenario(game)
            k = max(self.trained_k, legal)
            s = self._session = Session2(game, k=k, legal_scale=self.trained_k)
            self._game = game
        elif legal > s.k:  # never drop a legal action: K only pads, the weights stay
            k = s.k
            while k < legal:
                k *= 2
            s = self._session = Session2(game, k=k, legal_scale=self.trained_k)
        return s

    @property
    def trained_k(self) -> int:
        """The K the bundle was trained with (its manifest's ``candidates`` capacity)."""
        found = self.bundle.manifest.encoding.capacities.get("candidates")
        return int(found) if found else DEFAULT_K

    def _check_scenario(self, game: Game) -> None:
        if not self.warn:
            return
        pool = self.bundle.manifest.trained_on
        if pool is not None:
            if not _in_pool(pool, game):
                warn_once(
                    self.bundle.path,
                    f"scenario {game.name}",
                    f"trained on {_pool_label(pool)}; plays {game.name!r}, not among them",
                )
            return
        scenario = self.bundle.manifest.scenario
        known = trained_game(scenario, None)
        if (known.name if known is not None else scenario) != game.name:
            warn_once(
                self.bundle.path,
                f"scenario {game.name}",
                f"trained on {scenario!r}, plays {game.name!r}",
            )

    def check_side(self, view: DecisionView) -> None:
        pool = self.bundle.manifest.trained_on
        if pool is None:
            super().check_side(view)
            return
        side = view.fighter.side.label.lower()
        sides = [s for s in ("gegner", "runner") if any(s in p.sides for p in pool.pools())]
        if self.warn and side not in sides:
            warn_once(
                self.bundle.path,
                f"side {side}",
                f"trained for the {' and '.join(sides)} side, plays the {side} side",
            )

    def _logits(self, view: DecisionView, legal: Sequence[Action]) -> tuple[np.ndarray, int]:
        self.check_side(view)
        session = self._session_for(view.game, len(legal))
        obs = session.observe_decider(view.combat, view.fighter.idx, list(legal))
        logits, _ = self.bundle.evaluate(obs)
        return logits, len(legal)

    def _pick(self, logits: np.ndarray, n: int, rng: random.Random) -> int:
        if not self.sample:
            return int(np.argmax(logits[:n]))
        p = masked_probabilities(logits[:n], np.ones(n, dtype=np.bool_)).astype(np.float64)
        return int(np.random.default_rng(rng.getrandbits(64)).choice(n, p=p / p.sum()))

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        logits, n = self._logits(view, legal)
        return legal[self._pick(logits, n, rng)]

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> ActionScores:
        """The scorer's probability of each legal action and the one it plays (as
        :meth:`act` chooses it with the same ``rng``)."""
        logits, n = self._logits(view, legal)
        probs = masked_probabilities(logits[:n], np.ones(n, dtype=np.bool_))
        chosen = legal[self._pick(logits, n, rng)]
        values = {a: float(p) for a, p in zip(legal, probs.tolist(), strict=True)}
        return ActionScores(chosen, values, "Wahrscheinlichkeit", "probability")


def _in_pool(trained: TrainedOn, game: Game) -> bool:
    """Whether ``game`` is one of the fights of a pool-trained bundle, in any pool of its
    history: a named scenario (compared by the loaded game's name) or a generated seed of
    a range or a ``generated:SEED``."""
    from cwenv.content.generate import seed_in_name

    seed = seed_in_name(game.name)
    for pool in trained.pools():
        gen = pool.generated
        if seed is not None and gen is not None and gen.first <= seed < gen.first + gen.count:
            return True
        for ref in pool.scenarios:
            if ref.startswith("generated:"):
                if seed is not None and ref == f"generated:{seed}":
                    return True
                continue
            known = trained_game(ref, pool.rules)
            if (known.name if known is not None else ref) == game.name:
                return True
    return False


def _pool_label(trained: TrainedOn) -> str:
    """The fights of every pool, each named once, in the order they were trained on."""
    refs: list[str] = []
    ranges: list[str] = []
    for pool in trained.pools():
        refs += [repr(ref) for ref in pool.scenarios]
        if (g := pool.generated) is not None:
            ranges.append(f"generated seeds {g.first}…{g.first + g.count - 1}")
    names = list(dict.fromkeys(refs))
    parts = names[:6] + ([f"{len(names) - 6} more"] if len(names) > 6 else [])
    return ", ".join(parts + list(dict.fromkeys(ranges)))


def scorer_agent(spec: str) -> ScorerAgent:
    """Build the agent for ``scorer:PATH`` (a scorer bundle folder)."""
    path = spec.removeprefix(PREFIX)
    return ScorerAgent(cached_scorer(path))
