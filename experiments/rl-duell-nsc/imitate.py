"""Behaviour-cloning warm start for a training run (study rl-duell-nsc).

Plays ``--games`` games of the config's scenario with a teacher doctrine on the trained
side against the given opponents, records what the teacher chose at each of its decisions
(the env's own observation and action encoding, as ``PolicyAgent`` sees them), fits the
MaskablePPO policy to those choices (masked cross-entropy) and its value head to the
discounted outcome, and saves the result as the run's first checkpoint, so that
``cwenv train CONFIG --resume`` continues it with PPO:

    python experiments/rl-duell-nsc/imitate.py configs/training/duell-nsc.yaml \
        --teacher stuermer --opponents stuermer,stuermer,taktiker,schuetze --games 700
    cwenv train configs/training/duell-nsc.yaml --resume
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
import yaml
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import cwenv  # noqa: F401  (registers the env)
from agents.training.config import load_training_config
from agents.training.masking import FiniteMaskPolicy
from agents.training.train import RUNS, _policy_kwargs, git_revision, save_checkpoint
from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.envs.game_encoder import Session
from cwenv.model.types import Side
from cwenv.runner.seeds import game_seed, side_rngs


def collect(
    cfg: Any, teacher: str, opponents: list[str], games: int, seed: int, gamma: float
) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    game = load_scenario(cfg.scenario, rules=cfg.rules)
    session = Session(game, move_radius=cfg.move_radius, drag_radius=cfg.drag_radius)
    side = Side.GEGNER if cfg.side == "gegner" else Side.RUNNER
    obs_rows: list[dict[str, np.ndarray]] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    wins = 0
    for i in range(games):
        seed_i = game_seed(seed, i)
        combat = game.new_combat(seed_i)
        rngs = side_rngs(seed_i)
        mine, theirs = make_agent(teacher), make_agent(opponents[i % len(opponents)])
        view = DecisionView(combat)
        start, step = len(actions), 0
        while not combat.is_terminal():
            legal = combat.legal_actions()
            who = combat.fighters[combat.current_fighter()].side
            if who == side:
                enc = session.encode(combat)
                obs_rows.append(session.observe(combat, enc.fighter, enc, step))
                step += 1
                action = mine.act(view, legal, rngs[int(who)])
                actions.append(int(enc.indices[enc.legal.index(action)]))
                masks.append(enc.mask.copy())
            else:
                action = theirs.act(view, legal, rngs[int(who)])
            combat.apply(action)
        assert combat.outcome is not None
        winner = combat.outcome.winner
        result = 0.0 if winner is None else (1.0 if winner == side else -1.0)
        wins += int(result > 0)
        n = len(actions) - start
        returns.extend(result * gamma ** (n - 1 - k) for k in range(n))
    obs = {key: np.stack([row[key] for row in obs_rows]) for key in obs_rows[0]}
    stats = {"games": games, "teacher_wins": wins, "decisions": len(actions)}
    return obs, np.stack(masks), np.array(actions), np.array(returns, np.float32), stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config")
    parser.add_argument("--teacher", default="stuermer")
    parser.add_argument("--opponents", default="stuermer")
    parser.add_argument("--games", type=int, default=700)
    parser.add_argument("--seed", type=int, default=600_000)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    cfg = load_training_config(args.config)
    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    hyper = cfg.resolved_hyperparams()
    t0 = time.time()
    obs, masks, actions, returns, stats = collect(
        cfg, args.teacher, args.opponents.split(","), args.games, args.seed, hyper["gamma"]
    )
    print(f"collected {stats} in {time.time() - t0:.0f} s", flush=True)

    env = DummyVecEnv(
        [
            lambda: gym.make(
                "cwenv/Kampfrunde-v0",
                scenario=cfg.scenario,
                side=cfg.side,
                rules=cfg.rules,
                reward=cfg.reward,
                max_steps=cfg.max_steps,
                move_radius=cfg.move_radius,
                drag_radius=cfg.drag_radius,
            )
        ]
    )
    model = MaskablePPO(
        FiniteMaskPolicy,
        env,
        seed=cfg.seed,
        verbose=0,
        policy_kwargs=_policy_kwargs(hyper),
        **{k: v for k, v in hyper.items() if k not in ("net_arch", "activation")},
    )
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    rng = np.random.default_rng(cfg.seed)
    n = len(actions)
    for epoch in range(args.epochs):
        order = rng.permutation(n)
        total, agree = 0.0, 0
        for lo in range(0, n, args.batch):
            idx = order[lo : lo + args.batch]
            batch = {k: torch.as_tensor(v[idx]) for k, v in obs.items()}
            act = torch.as_tensor(actions[idx])
            values, log_prob, _ = policy.evaluate_actions(batch, act, action_masks=masks[idx])
            loss = -log_prob.mean() + 0.5 * torch.mean(
                (values.flatten() - torch.as_tensor(returns[idx])) ** 2
            )
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            total += float(loss.detach()) * len(idx)
            with torch.no_grad():
                dist = policy.get_distribution(batch, action_masks=masks[idx])
                agree += int((dist.distribution.probs.argmax(1) == act).sum())
        print(f"epoch {epoch}: loss {total / n:.3f}, teacher agreement {agree / n:.3f}", flush=True)

    run = RUNS / cfg.name
    if run.exists() and any(run.iterdir()):
        raise FileExistsError(f"{run} exists")
    run.mkdir(parents=True, exist_ok=True)
    resolved = cfg.model_dump(mode="json")
    resolved["hyperparams"] = hyper
    (run / "config.yaml").write_text(yaml.safe_dump(resolved, sort_keys=False), encoding="utf-8")
    meta = {"git_revision": git_revision(), "seed": cfg.seed, "started": time.time()}
    (run / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    imitation = {**stats, **vars(args), "final_agreement": agree / n}
    (run / "imitation.json").write_text(json.dumps(imitation, indent=2) + "\n", encoding="utf-8")
    print("saved", save_checkpoint(model, run, 0))


if __name__ == "__main__":
    main()
