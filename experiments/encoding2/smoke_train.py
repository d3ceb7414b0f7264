"""Smoke training of the candidate scorer (issue #18, encoding 2): does the plumbing learn?

MaskablePPO with :class:`agents.training.scorer_policy.ScorerPolicy` on
``cwenv/Kampfrunde-v2`` (``duell``, Gegner side, K=128, the opponent plays uniformly at
random), a few thousand frames on one CPU thread, fixed seeds. The trained weights are
exported to a scorer bundle and played **through the numpy path** on 200 evaluation games
(seeds 10_000…), against the same games played by a uniformly random policy. Run:
``python -m experiments.encoding2.smoke_train --frames 4096``; prints JSON.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO

from agents.policy.scorer_bundle import load_scorer_bundle, write_scorer_bundle
from agents.training.scorer_policy import ScorerPolicy, export_tensors
from cwenv.envs.env2 import KampfrundeEnv2

SCENARIO, SIDE, K = "duell", "gegner", 128


def play(policy: str, games: int, bundle_dir: str | None, seed0: int = 10_000) -> float:
    """Win rate of ``policy`` ("scorer" or "random") over ``games`` fixed-seed games."""
    env = KampfrundeEnv2(SCENARIO, side=SIDE, opponent="random", k=K)
    bundle = load_scorer_bundle(bundle_dir) if bundle_dir else None
    rng = np.random.default_rng(seed0)
    wins = 0
    for g in range(games):
        obs, info = env.reset(seed=seed0 + g)
        done = False
        while not done:
            mask = env.action_masks()
            if policy == "scorer" and bundle is not None:
                a = bundle.choose(obs, mask)
            else:
                a = int(rng.choice(np.flatnonzero(mask)))
            obs, _, term, trunc, info = env.step(a)
            done = term or trunc
        wins += info.get("winner") == "Gegner"
    return wins / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=4096)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    th.set_num_threads(1)
    env = KampfrundeEnv2(SCENARIO, side=SIDE, opponent="random", k=K)
    model = MaskablePPO(
        ScorerPolicy, env, n_steps=256, batch_size=64, n_epochs=4, learning_rate=3e-4,
        gamma=0.99, ent_coef=0.01, seed=args.seed, verbose=0, device="cpu",
    )  # fmt: skip
    t0 = time.process_time()
    model.learn(total_timesteps=args.frames)
    train_cpu = time.process_time() - t0
    with tempfile.TemporaryDirectory() as tmp:
        tensors = export_tensors(model.policy.scorer)  # type: ignore[attr-defined]
        write_scorer_bundle(tmp, tensors, scenario=SCENARIO, side=SIDE, k=K,
                            training={"frames": args.frames, "seed": args.seed})  # fmt: skip
        trained = play("scorer", args.games, tmp)
    baseline = play("random", args.games, None)
    n = args.games
    se = ((trained * (1 - trained) + baseline * (1 - baseline)) / n) ** 0.5
    print(json.dumps({
        "scenario": SCENARIO, "side": SIDE, "k": K, "frames": args.frames, "seed": args.seed,
        "train_cpu_s": round(train_cpu, 1), "games": n, "win_rate_scorer": trained,
        "win_rate_random": baseline, "difference": round(trained - baseline, 3),
        "difference_95ci": [round(trained - baseline - 1.96 * se, 3),
                            round(trained - baseline + 1.96 * se, 3)],
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
