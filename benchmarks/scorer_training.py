"""Training frames/s of encoding 2's candidate scorer (issue #18), section ``training2``.

What ``cwenv train`` with ``encoding: 2`` runs: MaskablePPO with
:class:`~agents.training.scorer_policy.ScorerPolicy` on ``cwenv/Kampfrunde2-v0``
(K = 512), 8 envs in one process, one torch thread, batch 256, 4 epochs, n_steps 64,
the opponent ``greedy`` (the league's default member). Three figures, as the MLP's
``training`` section: frames per CPU second with the real env, the share of rollout time
spent stepping the envs, and frames/s over replayed observations (the network and the
update alone: the ceiling with an engine and encoder that cost nothing). The issue's
target is ≥ 1,500 frames/s with the env ≤ 25 % of rollout time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from benchmarks.core import Figure, Settings
from benchmarks.ppo import ppo_figures

K = 512


def _scorer_model(vec: Any, n_steps: int, n_envs: int) -> Any:
    from sb3_contrib import MaskablePPO

    from agents.training.scorer_batch import CandidateRolloutBuffer
    from agents.training.scorer_policy import ScorerPolicy

    return MaskablePPO(
        ScorerPolicy,  # what ``cwenv train`` builds for encoding 2 (default sizes)
        vec,
        rollout_buffer_class=CandidateRolloutBuffer,
        n_steps=n_steps,
        batch_size=min(256, n_envs * n_steps),
        n_epochs=4,
        seed=0,
        verbose=0,
        device="cpu",
    )


def _env2(scenario: str, opponent: str) -> Any:
    from cwenv.envs.env2 import KampfrundeEnv2

    return KampfrundeEnv2(scenario, opponent=opponent, k=K)


def training2(s: Settings) -> Iterator[Figure]:
    yield from ppo_figures(s, "ppo2", f"scorer K={K}, ", "the scorer", _env2, _scorer_model)
