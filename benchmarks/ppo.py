"""MaskablePPO's training frames/s and the envs' share of it, shared by the training
sections (``training`` in :mod:`benchmarks.sections`, ``training2`` in
:mod:`benchmarks.scorer_training`)."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import gymnasium as gym

from benchmarks.core import Figure, Settings, clock


class _TimedVec:
    """Wraps a VecEnv's ``step_wait`` to add up the CPU time spent in the envs."""

    def __init__(self, vec: Any) -> None:
        self.spent = 0.0
        inner = vec.step_wait

        def timed() -> Any:
            start = clock()
            try:
                return inner()
            finally:
                self.spent += clock() - start

        vec.step_wait = timed


class _ReplayEnv(gym.Env[Any, Any]):
    """Replays the observations and masks a real Kampfrunde env produced (its actions are
    ignored): MaskablePPO over it measures the policy's and the update's share of training
    alone, the ceiling of frames/s with an engine that cost nothing."""

    def __init__(self, source: Any, frames: int, seed: int) -> None:
        import numpy as np

        self.observation_space = source.observation_space
        self.action_space = source.action_space
        rng = np.random.default_rng(seed)
        obs, _ = source.reset(seed=seed)
        self.frames: list[tuple[Any, Any, bool]] = []
        for _ in range(frames):
            mask = source.action_masks()
            obs2, _, term, trunc, _ = source.step(rng.choice(np.flatnonzero(mask)))
            self.frames.append((obs, mask, term or trunc))
            obs = source.reset()[0] if term or trunc else obs2
        self.i = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        return self.frames[self.i][0], {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        done = self.frames[self.i][2]
        self.i = (self.i + 1) % len(self.frames)
        return self.frames[self.i][0], 0.0, done, False, {}

    def action_masks(self) -> Any:
        return self.frames[self.i][1]


def ppo_figures(
    s: Settings,
    prefix: str,
    label: str,
    learner: str,
    make: Callable[[str, str], gym.Env[Any, Any]],
    build: Callable[[Any, int, int], Any] | None,
) -> Iterator[Figure]:
    """``PREFIX:frames``, ``PREFIX:env_share`` and ``PREFIX:frames_policy_only`` of
    MaskablePPO over the envs ``make(scenario, opponent)`` builds, the model from
    ``build(vec, n_steps, n_envs)`` (None: the MLP); the training sections share it."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    n_envs, n_steps = (2, 8) if s.quick else (8, 64)
    scenario = "duell" if s.quick else "feuergefecht"
    opponent = "greedy"  # the training league's default member
    note = f"({label}{n_envs} envs, n_steps {n_steps}, {scenario}, opponent {opponent})"
    model = None if build is None else (lambda vec: build(vec, n_steps, n_envs))
    try:
        real = [lambda: make(scenario, opponent)] * n_envs
        frames, shares = _ppo_rates(s, real, n_envs, n_steps, build=model)
        yield Figure(f"{prefix}:frames", "frames/s", frames, note=note)
        yield Figure(f"{prefix}:env_share", "share", shares, note="(env step time / rollout time)")
        replay = [
            lambda i=i: _ReplayEnv(make(scenario, opponent), 4 * n_steps, seed=i)
            for i in range(n_envs)
        ]
        frames, shares = _ppo_rates(s, replay, n_envs, n_steps, build=model)
        yield Figure(
            f"{prefix}:frames_policy_only",
            "frames/s",
            frames,
            note=f"(the same, observations replayed: {learner} and the update alone)",
            extra={"env_share": statistics.median(shares)},
        )
    finally:
        torch.set_num_threads(threads)


def _ppo_rates(
    s: Settings,
    makers: Sequence[Callable[[], gym.Env[Any, Any]]],
    n_envs: int,
    n_steps: int,
    build: Callable[[Any], Any] | None = None,
) -> tuple[list[float], list[float]]:
    """Frames per CPU second of MaskablePPO over the envs ``makers`` build, and the share of
    each sample's rollout time spent in the envs; ``build`` makes the model from the vec
    env (default: the MLP ``cwenv train`` uses for encoding 1)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.training.masking import FiniteMaskPolicy

    vec = DummyVecEnv(list(makers))
    env_time = _TimedVec(vec)
    if build is None:
        model = MaskablePPO(
            FiniteMaskPolicy,  # what ``cwenv train`` uses
            vec,
            n_steps=n_steps,
            batch_size=min(256, n_envs * n_steps),
            n_epochs=4,
            seed=0,
            verbose=0,
            policy_kwargs={"net_arch": [128, 128]},
            device="cpu",
        )
    else:
        model = build(vec)
    rollout_time = [0.0]
    collect = model.collect_rollouts

    def timed_collect(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return collect(*args, **kwargs)
        finally:
            rollout_time[0] += clock() - start

    model.collect_rollouts = timed_collect  # type: ignore[method-assign]
    frames, shares = [], []
    per_sample = n_envs * n_steps * (1 if s.quick else 2)
    model.learn(total_timesteps=n_envs * n_steps)  # warm-up: first rollout, imports
    for _ in range(s.repeats):
        env_time.spent = rollout_time[0] = 0.0
        start = clock()
        model.learn(total_timesteps=per_sample, reset_num_timesteps=False)
        elapsed = clock() - start
        frames.append(per_sample / elapsed)
        shares.append(env_time.spent / max(rollout_time[0], 1e-9))
    vec.close()
    return frames, shares
