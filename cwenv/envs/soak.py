"""Random masked episodes of ``cwenv/Kampfrunde-v0`` across every shipped scenario.

``python -m cwenv.envs.soak --episodes 10000`` plays that many episodes (both sides, every
scenario, seeded by episode number) with uniformly random *legal* actions and checks at
every step: the observation lies in the space and is finite, the mask is never empty and
has exactly one entry per legal engine action, the reward is finite, and every episode
ends (terminated or truncated). Prints a JSON summary; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from typing import Any

import numpy as np
from gymnasium import spaces

from cwenv.content import list_scenarios
from cwenv.envs.kampfrunde import KampfrundeEnv


def check_step(
    env: KampfrundeEnv, obs: dict[str, Any], reward: float, info: dict[str, Any]
) -> None:
    """Raise AssertionError if one step's output breaks the env's promises."""
    space = env.observation_space
    if not isinstance(space, spaces.Dict):
        raise AssertionError("the observation space is not a Dict")
    for key, value in obs.items():
        if not np.all(np.isfinite(value)):
            raise AssertionError(f"observation {key} is not finite")
        if not space[key].contains(value):
            raise AssertionError(f"observation {key} leaves its space")
    if not np.isfinite(reward):
        raise AssertionError(f"reward {reward} is not finite")
    mask = info["action_mask"]
    if mask.dtype != np.int8 or not mask.any():
        raise AssertionError("the action mask is empty or not int8")
    if not np.array_equal(mask.astype(bool), env.action_masks()):
        raise AssertionError("info['action_mask'] and action_masks() disagree")
    c = env.combat
    if not c.is_terminal() and int(mask.sum()) != len(c.legal_actions()):
        raise AssertionError("the mask does not have one entry per legal action")


def play_episode(job: tuple[str, str, int, str | None, int]) -> dict[str, Any]:
    scenario, side, seed, opponent, max_steps = job
    env = KampfrundeEnv(scenario=scenario, side=side, opponent=opponent, max_steps=max_steps)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    check_step(env, obs, 0.0, info)
    steps = 0
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        total += reward
        check_step(env, obs, reward, info)
        if terminated or truncated:
            break
    return {
        "scenario": scenario,
        "side": side,
        "seed": seed,
        "steps": steps,
        "terminated": terminated,
        "truncated": truncated,
        "winner": info.get("winner", "-"),
        "return": total,
    }


def _safe(job: tuple[str, str, int, str | None, int]) -> dict[str, Any]:
    try:
        return play_episode(job)
    except Exception as exc:  # report every failure with its job
        return {"error": f"{type(exc).__name__}: {exc}", "job": list(job)}


def plan(
    episodes: int, scenarios: list[str], opponent: str | None, max_steps: int, first: int = 0
) -> list[tuple[str, str, int, str | None, int]]:
    """Episode ``k`` plays scenario ``k mod S`` from alternating sides with seed ``k``, so a
    long soak can be split into ranges (``first``) run in separate processes."""
    sides = ("gegner", "runner")
    return [
        (scenarios[k % len(scenarios)], sides[(k // len(scenarios)) % 2], k, opponent, max_steps)
        for k in range(first, first + episodes)
    ]


def run(
    episodes: int,
    workers: int,
    scenarios: list[str] | None = None,
    opponent: str | None = None,
    max_steps: int = 3000,
    progress: bool = False,
    first: int = 0,
) -> dict[str, Any]:
    jobs = plan(episodes, scenarios or list_scenarios(), opponent, max_steps, first)
    start = time.perf_counter()
    results: list[dict[str, Any]] = []

    def note(result: dict[str, Any]) -> None:
        results.append(result)
        if progress and len(results) % 100 == 0:
            bad = sum("error" in r for r in results)
            took = time.perf_counter() - start
            print(
                f"{len(results)}/{len(jobs)} episodes, {bad} errors, {took:.0f} s", file=sys.stderr
            )

    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for result in pool.imap_unordered(_safe, jobs, chunksize=4):
                note(result)
    else:
        for job in jobs:
            note(_safe(job))
    results.sort(key=lambda r: r["seed"] if "seed" in r else r["job"][2])
    errors = [r for r in results if "error" in r]
    ok = [r for r in results if "error" not in r]
    steps = sum(r["steps"] for r in ok)
    seconds = time.perf_counter() - start
    return {
        "first": first,
        "episodes": len(results),
        "errors": len(errors),
        "first_errors": errors[:5],
        "terminated": sum(r["terminated"] for r in ok),
        "truncated": sum(r["truncated"] for r in ok),
        "steps": steps,
        "max_episode_steps": max((r["steps"] for r in ok), default=0),
        "winners": dict(Counter(f"{r['scenario']}/{r['side']}:{r['winner']}" for r in ok)),
        "seconds": round(seconds, 1),
        "steps_per_second": round(steps / seconds, 1) if seconds else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--scenario", action="append", help="limit to these scenarios")
    parser.add_argument("--opponent", default=None, help="agent name (default: the doctrine)")
    parser.add_argument("--max-steps", type=int, default=3000)
    parser.add_argument("--first", type=int, default=0, help="number of the first episode")
    args = parser.parse_args(argv)
    summary = run(
        args.episodes,
        args.workers,
        args.scenario,
        args.opponent,
        args.max_steps,
        progress=True,
        first=args.first,
    )
    json.dump(summary, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return (
        1
        if summary["errors"] or summary["terminated"] + summary["truncated"] != args.episodes
        else 0
    )


if __name__ == "__main__":
    raise SystemExit(main())
