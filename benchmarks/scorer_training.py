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

import statistics
from collections.abc import Iterator
from typing import Any

from benchmarks.core import Figure, Settings
from benchmarks.sections import _ppo_rates, _ReplayEnv

K = 512


def _scorer_model(vec: Any, n_steps: int, n_envs: int) -> Any:
    from sb3_contrib import MaskablePPO

    from agents.training.scorer_policy import ScorerPolicy

    return MaskablePPO(
        ScorerPolicy,  # what ``cwenv train`` builds for encoding 2 (default sizes)
        vec,
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
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    n_envs, n_steps = (2, 8) if s.quick else (8, 64)
    scenario = "duell" if s.quick else "feuergefecht"
    opponent = "greedy"
    note = f"(scorer K={K}, {n_envs} envs, n_steps {n_steps}, {scenario}, opponent {opponent})"

    def build(vec: Any) -> Any:
        return _scorer_model(vec, n_steps, n_envs)

    try:
        real = [lambda: _env2(scenario, opponent)] * n_envs
        frames, shares = _ppo_rates(s, real, n_envs, n_steps, build=build)
        yield Figure("ppo2:frames", "frames/s", frames, note=note)
        yield Figure("ppo2:env_share", "share", shares, note="(env step time / rollout time)")
        replay = [
            lambda i=i: _ReplayEnv(
                scenario, opponent, 4 * n_steps, seed=i, source=_env2(scenario, opponent)
            )
            for i in range(n_envs)
        ]
        frames, shares = _ppo_rates(s, replay, n_envs, n_steps, build=build)
        yield Figure(
            "ppo2:frames_policy_only",
            "frames/s",
            frames,
            note="(the same, observations replayed: the scorer and the update alone)",
            extra={"env_share": statistics.median(shares)},
        )
    finally:
        torch.set_num_threads(threads)
