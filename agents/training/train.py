"""``cwenv train CONFIG [--resume]``: MaskablePPO on the Kampfrunde env with a league.

A run lives in ``runs/<name>/``: the resolved config and metadata (git revision, seed,
versions), TensorBoard logs, checkpoints (SB3 zips — private to the run, never shared),
the evaluation curve (CSV and PNG) and, at the end, the exported policy bundle. ``--resume``
continues from the newest checkpoint with the same config.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
import yaml
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor
from torch import nn

from agents.policy.agent import PolicyAgent
from agents.policy.bundle import load_bundle
from agents.training.config import TrainingConfig, load_training_config
from agents.training.evaluate import append_curve, evaluate, in_memory_bundle, plot_curve
from agents.training.export import export_policy, load_actor
from agents.training.league import LeagueOpponent
from agents.training.masking import FiniteMaskPolicy
from cwenv.model.types import Side

RUNS = Path("runs")
CHECKPOINTS = "checkpoints"


def git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=10
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _make_env(cfg: TrainingConfig, league: LeagueOpponent, rank: int) -> Any:
    def thunk() -> gym.Env[Any, Any]:
        import cwenv  # noqa: F401  (registers the env in the worker)

        env = gym.make(
            "cwenv/Kampfrunde-v0",
            scenario=cfg.scenario,
            side=cfg.side,
            opponent=league,
            rules=cfg.rules,
            reward=cfg.reward,
            max_steps=cfg.max_steps,
            move_radius=cfg.move_radius,
            drag_radius=cfg.drag_radius,
        )
        env.reset(seed=cfg.seed * 1000 + rank)
        return env

    return thunk


class LeagueAndEval(BaseCallback):
    """Snapshots for self-play, periodic evaluation (CSV + PNG), checkpoints."""

    def __init__(self, cfg: TrainingConfig, run: Path, leagues: list[LeagueOpponent]):
        super().__init__()
        self.cfg = cfg
        self.run = run
        self.leagues = leagues
        self.next_eval = self.next_snapshot = self.next_checkpoint = 0
        self.last_eval = -1

    def _on_training_start(self) -> None:
        t = self.num_timesteps
        self.next_eval = t + self.cfg.evaluation.every
        self.next_snapshot = t + self.cfg.league.snapshot_every
        self.next_checkpoint = t + self.cfg.checkpoint_every

    def _bundle_agent(self) -> PolicyAgent:
        bundle = in_memory_bundle(
            self.model,
            scenario=self.cfg.scenario,
            side=self.cfg.side,
            move_radius=self.cfg.move_radius,
            drag_radius=self.cfg.drag_radius,
        )
        return PolicyAgent(bundle)

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if self.cfg.league.self_play > 0 and t >= self.next_snapshot:
            snapshot = self._bundle_agent()
            for league in self.leagues:
                league.add_snapshot(snapshot)
            self.next_snapshot += self.cfg.league.snapshot_every
        if t >= self.next_eval:
            self.evaluate()
            self.next_eval += self.cfg.evaluation.every
        if t >= self.next_checkpoint:
            save_checkpoint(self.model, self.run, t)
            self.next_checkpoint += self.cfg.checkpoint_every
        return True

    def evaluate(self) -> None:
        from cwenv.content import load_scenario

        if self.last_eval == self.num_timesteps:
            return
        self.last_eval = self.num_timesteps
        game = load_scenario(self.cfg.scenario, rules=self.cfg.rules)
        agent = self._bundle_agent()
        side = Side.GEGNER if self.cfg.side == "gegner" else Side.RUNNER
        results = [
            evaluate(agent, game, side, opp, self.cfg.evaluation.games)
            for opp in self.cfg.evaluation.opponents
        ]
        csv_path = self.run / "eval.csv"
        append_curve(csv_path, self.num_timesteps, results)
        plot_curve(csv_path, self.run / "eval.png", f"{self.cfg.name}: {self.cfg.scenario}")
        for r in results:
            self.logger.record(f"eval/win_rate_{r.opponent}", r.win_rate)


def save_checkpoint(model: Any, run: Path, timesteps: int) -> Path:
    folder = run / CHECKPOINTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"model_{timesteps:010d}.zip"
    tmp = folder / f".tmp_{timesteps}.zip"
    model.save(str(tmp))
    tmp.replace(path)
    return path


def latest_checkpoint(run: Path) -> Path | None:
    found = sorted((run / CHECKPOINTS).glob("model_*.zip"))
    return found[-1] if found else None


def _policy_kwargs(hyper: dict[str, Any]) -> dict[str, Any]:
    act = {"tanh": nn.Tanh, "relu": nn.ReLU}[hyper["activation"]]
    arch = list(hyper["net_arch"])
    return {"net_arch": {"pi": arch, "vf": arch}, "activation_fn": act}


def train(config_path: str | Path, *, resume: bool = False, runs: Path = RUNS) -> Path:
    """Run (or resume) a training; return the run folder."""
    cfg = load_training_config(config_path)
    run = runs / cfg.name
    if run.exists() and any(run.iterdir()) and not resume:
        raise FileExistsError(f"{run} exists; pass --resume to continue it")
    run.mkdir(parents=True, exist_ok=True)
    resolved = cfg.model_dump(mode="json")
    resolved["hyperparams"] = cfg.resolved_hyperparams()
    (run / "config.yaml").write_text(
        yaml.safe_dump(resolved, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    meta = {
        "git_revision": git_revision(),
        "seed": cfg.seed,
        "started": time.time(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "resume": resume,
    }
    (run / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    torch.set_num_threads(cfg.torch_threads)
    leagues = [LeagueOpponent(cfg.league) for _ in range(cfg.n_envs)]
    thunks = [_make_env(cfg, leagues[i], i) for i in range(cfg.n_envs)]
    vec = VecMonitor(SubprocVecEnv(thunks) if cfg.vec_env == "subproc" else DummyVecEnv(thunks))
    hyper = cfg.resolved_hyperparams()
    checkpoint = latest_checkpoint(run) if resume else None
    if checkpoint is not None:
        # Our own checkpoint from this very run: the only place an SB3 zip is ever loaded.
        model = MaskablePPO.load(
            str(checkpoint),
            env=vec,
            tensorboard_log=str(run / "tb"),
            custom_objects={"policy_class": FiniteMaskPolicy},  # same layers, faster masking
        )
    else:
        model = MaskablePPO(
            FiniteMaskPolicy,
            vec,
            seed=cfg.seed,
            verbose=0,
            tensorboard_log=str(run / "tb"),
            policy_kwargs=_policy_kwargs(hyper),
            **{k: v for k, v in hyper.items() if k not in ("net_arch", "activation")},
        )
        if cfg.init_policy is not None:
            load_actor(model.policy, load_bundle(cfg.init_policy))
    callback = LeagueAndEval(cfg, run, leagues if cfg.vec_env == "dummy" else [])
    remaining = cfg.total_timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(
            total_timesteps=remaining,
            callback=callback,
            reset_num_timesteps=checkpoint is None,
            tb_log_name="ppo",
        )
    else:
        callback.init_callback(model)
    save_checkpoint(model, run, model.num_timesteps)
    callback.num_timesteps = model.num_timesteps
    callback.evaluate()
    summary = {
        "timesteps": int(model.num_timesteps),
        "config": resolved,
        "git_revision": meta["git_revision"],
        "league_draws": {k: v for lg in leagues for k, v in lg.draws.items()},
    }
    export_policy(
        model,
        run / "bundle",
        observation_encoding=1,
        action_encoding=1,
        scenario=cfg.scenario,
        side=cfg.side,
        rules={"variant": cfg.rules},
        training={**summary, "move_radius": cfg.move_radius, "drag_radius": cfg.drag_radius},
    )
    vec.close()
    return run


def export_run(run: Path, out: Path, timesteps: int | None = None) -> Path:
    """Export the newest checkpoint of ``run`` (or the one at ``timesteps``, e.g. the best
    point of the evaluation curve) to a bundle folder ``out``."""
    if timesteps is None:
        checkpoint = latest_checkpoint(run)
        if checkpoint is None:
            raise FileNotFoundError(f"{run}: no checkpoint to export")
    else:
        checkpoint = run / CHECKPOINTS / f"model_{timesteps:010d}.zip"
        if not checkpoint.is_file():
            have = sorted(
                p.stem.removeprefix("model_").lstrip("0") or "0"
                for p in (run / CHECKPOINTS).glob("model_*.zip")
            )
            raise FileNotFoundError(
                f"{run}: no checkpoint at {timesteps} timesteps; have: {', '.join(have) or 'none'}"
            )
    cfg = load_training_config_from_run(run)
    model = MaskablePPO.load(str(checkpoint))  # the run's own private checkpoint
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    summary = {
        "timesteps": int(model.num_timesteps),
        "git_revision": meta.get("git_revision"),
        "config": cfg.model_dump(mode="json"),
        "checkpoint": checkpoint.name,
    }
    return export_policy(
        model,
        out,
        observation_encoding=1,
        action_encoding=1,
        scenario=cfg.scenario,
        side=cfg.side,
        rules={"variant": cfg.rules},
        training={**summary, "move_radius": cfg.move_radius, "drag_radius": cfg.drag_radius},
    )


def load_training_config_from_run(run: Path) -> TrainingConfig:
    data = yaml.safe_load((run / "config.yaml").read_text(encoding="utf-8"))
    data["hyperparams"] = {k: v for k, v in data.get("hyperparams", {}).items()}
    return TrainingConfig.model_validate(data)
