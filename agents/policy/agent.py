"""A saved policy playing through the common agent interface (``policy:PATH``).

The bundle's numpy network sees exactly what the Gymnasium env showed it in training:
the env's own encoders turn the decision into the observation dict and the action mask,
and decode the chosen index back into the engine's action. Torch is not imported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import DecisionView
from agents.policy.bundle import BundleError, PolicyBundle, load_bundle
from cwenv.engine.actions import Action

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.envs.session import Session

_BUNDLES: dict[Path, PolicyBundle] = {}


def cached_bundle(path: str | Path) -> PolicyBundle:
    """Load a bundle once per process (tournament games build fresh agents every game)."""
    key = Path(path).resolve()
    bundle = _BUNDLES.get(key)
    if bundle is None:
        bundle = load_bundle(key)
        _BUNDLES[key] = bundle
    return bundle


class PolicyAgent:
    """Chooses the highest-scoring legal action of a trained policy (or samples it)."""

    description = "ein trainiertes Netz (Policy-Bündel), gerechnet mit numpy"

    def __init__(self, bundle: PolicyBundle, *, sample: bool = False) -> None:
        self.bundle = bundle
        self.sample = sample
        self.name = f"policy:{bundle.path}"
        self.config = {
            "bundle": str(bundle.path),
            "sha256": bundle.manifest.weights_sha256,
            "sample": sample,
        }
        self._sessions: dict[int, Session] = {}
        self._steps: dict[int, int] = {}

    def _session(self, game: Game) -> Session:
        from cwenv.envs.session import Session

        session = self._sessions.get(id(game))
        if session is None:
            training = self.bundle.manifest.training
            session = Session(
                game,
                move_radius=_int(training.get("move_radius"), 24),
                drag_radius=_int(training.get("drag_radius"), 8),
            )
            if session.layout.size != self.bundle.manifest.action_size:
                raise BundleError(
                    f"{self.bundle.path}: the policy has "
                    f"{self.bundle.manifest.action_size} actions, the env layout "
                    f"{session.layout.size}; the action encoding changed"
                )
            self._sessions = {id(game): session}
        return session

    def observation(self, view: DecisionView) -> tuple[dict[str, Any], np.ndarray, Any]:
        """The observation dict, the action mask and the encoded decision for ``view``."""
        combat = view.combat
        session = self._session(view.game)
        enc = session.encode(combat)
        key = id(combat)
        step = self._steps.get(key, 0)
        self._steps = {key: step + 1}
        obs = session.observe(combat, enc.fighter, enc, step)
        return obs, enc.mask, enc

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        obs, mask, enc = self.observation(view)
        np_rng = np.random.default_rng(rng.getrandbits(64)) if self.sample else None
        index = self.bundle.choose(obs, mask, np_rng)
        return self._session(view.game).decode(enc, index)

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> dict[Action, float]:
        """The policy's probability of each legal action (for the GM advisor)."""
        obs, mask, enc = self.observation(view)
        probs = self.bundle.probabilities(obs, mask)
        return {
            action: float(probs[i])
            for action, i in zip(enc.legal, enc.indices.tolist(), strict=True)
        }

    score_kind = "Wahrscheinlichkeit"


def _int(value: object, default: int) -> int:
    return value if isinstance(value, int) else default


def policy_agent(spec: str) -> PolicyAgent:
    """Build the agent for ``policy:PATH`` (a bundle folder)."""
    path = spec.split(":", 1)[1] if spec.startswith("policy:") else spec
    return PolicyAgent(cached_bundle(path))
