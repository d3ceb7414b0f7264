"""Smoke training of the candidate scorer (issue #18, encoding 2): does the plumbing learn?

MaskablePPO with :class:`agents.training.scorer_policy.ScorerPolicy` on
``cwenv/Kampfrunde2-v0`` (``duell``, Gegner side, K=128, the opponent plays uniformly at
random), a few thousand frames on one CPU thread, fixed seeds. The trained weights are
exported to a scorer bundle and played **through the numpy path** on 200 evaluation games
(seeds 10_000…), against the same games played by a uniformly random policy; then the same
bundle plays ``feuergefecht`` (4v4) on both sides as ``scorer:<bundle>`` against
``greedy``, the one-model-for-every-fight check. The JSON has the training CPU time and
frames/s and, per rollout of 256 frames, the mean episode return and PPO's losses.
Run: ``python -m experiments.encoding2.smoke_train --frames 4096 [--out BUNDLE_DIR]``.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from agents.policy.scorer_bundle import load_scorer_bundle, write_scorer_bundle
from agents.training.scorer_policy import ScorerPolicy, export_tensors
from cwenv.envs.env2 import KampfrundeEnv2

SCENARIO, SIDE, K = "duell", "gegner", 128
TREND = ("train/loss", "train/policy_gradient_loss", "train/value_loss", "train/entropy_loss")


class Trend(BaseCallback):
    """Per rollout: the mean return of the episodes finished so far (SB3's 100-episode
    window) and the losses of the update that followed the previous rollout."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []

    def _on_step(self) -> bool:
        return True

    def _on_rollout_start(self) -> None:
        if self.rows:  # the losses of the update after the last rollout
            values = self.model.logger.name_to_value
            self.rows[-1].update(
                {k.split("/")[1]: round(float(values[k]), 4) for k in TREND if k in values}
            )

    def _on_rollout_end(self) -> None:
        eps = [e["r"] for e in self.model.ep_info_buffer]
        self.rows.append({
            "frames": self.num_timesteps, "episodes": len(eps),
            "return_mean": round(float(np.mean(eps)), 3) if eps else None,
        })  # fmt: skip


def play_both_sides(
    bundle_dir: str, scenario: str = "feuergefecht", games: int = 2
) -> dict[str, Any]:
    """``scorer:<bundle>`` against greedy on ``scenario``, each side: decisions, wins,
    whether every action was legal (numpy inference through the agent registry)."""
    import warnings

    from agents.policy.agent import PolicyMismatchWarning
    from cwenv.agent import DecisionView
    from cwenv.agent_registry import make_agent
    from cwenv.content import load_scenario
    from cwenv.model.types import Side

    game = load_scenario(scenario)
    out: dict[str, Any] = {}
    for side in (Side.GEGNER, Side.RUNNER):
        scorer, greedy = make_agent(f"scorer:{bundle_dir}"), make_agent("greedy")
        decisions = illegal = wins = 0
        for g in range(games):
            c = game.new_combat(20_000 + g)
            view, rng = DecisionView(c), random.Random(g)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PolicyMismatchWarning)
                while not c.is_terminal():
                    legal = c.legal_actions()
                    mine = c.fighters[c.current_fighter()].side is side
                    a = (scorer if mine else greedy).act(view, legal, rng)
                    decisions += mine
                    illegal += mine and a not in legal
                    c.apply(a)
            wins += c.outcome is not None and c.outcome.winner is side
        out[side.label.lower()] = {
            "games": games,
            "decisions": decisions,
            "illegal": illegal,
            "wins": wins,
        }
    return out


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
    ap.add_argument("--out", default="", help="keep the trained bundle in this folder")
    args = ap.parse_args()
    th.set_num_threads(1)
    env = KampfrundeEnv2(SCENARIO, side=SIDE, opponent="random", k=K)
    model = MaskablePPO(
        ScorerPolicy, env, n_steps=256, batch_size=64, n_epochs=4, learning_rate=3e-4,
        gamma=0.99, ent_coef=0.01, seed=args.seed, verbose=0, device="cpu",
    )  # fmt: skip
    trend = Trend()
    t0 = time.process_time()
    model.learn(total_timesteps=args.frames, callback=trend)
    train_cpu = time.process_time() - t0
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.out or tmp
        tensors = export_tensors(model.policy.scorer)  # type: ignore[attr-defined]
        write_scorer_bundle(folder, tensors, scenario=SCENARIO, side=SIDE, k=K,
                            training={"frames": args.frames, "seed": args.seed})  # fmt: skip
        trained = play("scorer", args.games, folder)
        both = play_both_sides(str(Path(folder).resolve()))
    baseline = play("random", args.games, None)
    n = args.games
    se = ((trained * (1 - trained) + baseline * (1 - baseline)) / n) ** 0.5
    print(json.dumps({
        "scenario": SCENARIO, "side": SIDE, "k": K, "frames": args.frames, "seed": args.seed,
        "train_cpu_s": round(train_cpu, 1),
        "frames_per_cpu_s": round(model.num_timesteps / max(train_cpu, 1e-9), 1),
        "trend": trend.rows, "feuergefecht_both_sides": both,
        "games": n, "win_rate_scorer": trained,
        "win_rate_random": baseline, "difference": round(trained - baseline, 3),
        "difference_95ci": [round(trained - baseline - 1.96 * se, 3),
                            round(trained - baseline + 1.96 * se, 3)],
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
