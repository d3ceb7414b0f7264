"""``cwenv train CONFIG [--resume]``: MaskablePPO on the Kampfrunde env with a league.

A run lives in ``runs/<name>/``: the resolved config and metadata (git revision, seed,
versions), TensorBoard logs, checkpoints (``checkpoints/step_*/``: safetensors and JSON,
never pickles, :mod:`agents.training.checkpoint`), the evaluation curve (CSV and PNG)
and, at the end, the exported policy bundle. ``--resume`` continues from the newest
checkpoint: the model is rebuilt from the config and the checkpoint's tensors and
counters are loaded into it.

Everything that can be checked is checked before the run folder is made (the config, the
names it refers to, the run folder, the checkpoint to resume); a run that fails while it
starts removes the folder it made.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
import yaml
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor
from torch import nn

from agents.policy.agent import PolicyAgent
from agents.policy.bundle import load_bundle
from agents.training.checkpoint import (
    CHECKPOINTS,
    Checkpoint,
    CheckpointError,
    latest_checkpoint,
    read_checkpoint,
    save_checkpoint,
)
from agents.training.config import TrainingConfig, load_training_config
from agents.training.evaluate import append_curve, evaluate_fights, in_memory_bundle, plot_curve
from agents.training.export import load_actor
from agents.training.league import LeagueOpponent
from agents.training.masking import FiniteMaskPolicy
from agents.training.progress import Progress
from agents.training.restore import restore_model
from agents.training.runs import (
    META,
    bundle_from_checkpoint,
    export_run,
    load_run_config,
    read_meta,
)
from cwenv.model.types import Side

__all__ = [
    "CHECKPOINTS",
    "RUNS",
    "build_model",
    "export_run",
    "latest_checkpoint",
    "load_run_config",
    "save_checkpoint",
    "train",
]

RUNS = Path("runs")
Emit = Callable[[str], None]
KEPT_ON_RESUME = ("scenario", "side", "move_radius", "drag_radius")
"""Fields a resumed run must keep (with net_arch and activation): they shape the network."""


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

        if cfg.encoding == 2:
            from agents.training.scorer_run import make_pool_env

            pool_env: gym.Env[Any, Any] = make_pool_env(cfg, league)
            pool_env.reset(seed=cfg.seed * 1000 + rank)
            return pool_env
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

    def __init__(
        self, cfg: TrainingConfig, run: Path, leagues: list[LeagueOpponent], history: Any = None
    ):
        super().__init__()
        self.cfg = cfg
        self.run = run
        self.leagues = leagues
        self.history = history  # encoding 2: the pools trained on (scorer_run.History)
        self.next_eval = self.next_snapshot = self.next_checkpoint = 0
        self.last_eval = -1

    def _on_training_start(self) -> None:
        t = self.num_timesteps
        self.next_eval = t + self.cfg.evaluation.every
        self.next_snapshot = t + self.cfg.league.snapshot_every
        self.next_checkpoint = t + self.cfg.checkpoint_every

    def _bundle_agent(self, *, warn: bool = True) -> Any:
        if self.cfg.encoding == 2:
            from agents.training.scorer_run import in_memory_scorer

            return in_memory_scorer(self.model, self.cfg, self.pools(), warn=warn)
        bundle = in_memory_bundle(
            self.model,
            scenario=self.cfg.scenario,
            side=self.cfg.side,
            move_radius=self.cfg.move_radius,
            drag_radius=self.cfg.drag_radius,
        )
        return PolicyAgent(bundle, warn=warn)

    def pools(self, timesteps: int | None = None) -> Any:
        """The pools trained on up to ``timesteps`` (now), None for the MLP."""
        t = self.num_timesteps if timesteps is None else timesteps
        return None if self.history is None else self.history.at(t)

    def _on_step(self) -> bool:
        t = self.num_timesteps
        if self.cfg.league.self_play > 0 and t >= self.next_snapshot:
            snapshot = self._bundle_agent(warn=False)  # plays the other side on purpose
            for league in self.leagues:
                league.add_snapshot(snapshot)
            self.next_snapshot += self.cfg.league.snapshot_every
        if t >= self.next_eval:
            self.evaluate()
            self.next_eval += self.cfg.evaluation.every
        if t >= self.next_checkpoint:
            save_checkpoint(self.model, self.run, t, self.cfg.resolved(), self.pools())
            self.next_checkpoint += self.cfg.checkpoint_every
        return True

    def evaluate(self) -> None:
        from cwenv.content import load_scenario

        if self.last_eval == self.num_timesteps:
            return
        self.last_eval = self.num_timesteps
        if self.cfg.encoding == 2:
            from agents.training.pool import evaluation_fights

            fights, title = evaluation_fights(self.cfg)
        else:
            game = load_scenario(self.cfg.scenario, rules=self.cfg.rules)
            fights = [(game, Side.GEGNER if self.cfg.side == "gegner" else Side.RUNNER)]
            title = self.cfg.scenario
        agent = self._bundle_agent()
        results = [
            evaluate_fights(agent, fights, opp, self.cfg.evaluation.games)
            for opp in self.cfg.evaluation.opponents
        ]
        csv_path = self.run / "eval.csv"
        append_curve(csv_path, self.num_timesteps, results)
        plot_curve(csv_path, self.run / "eval.png", f"{self.cfg.name}: {title}")
        for r in results:
            self.logger.record(f"eval/win_rate_{r.opponent}", r.win_rate)


def _policy_kwargs(hyper: dict[str, Any]) -> dict[str, Any]:
    act = {"tanh": nn.Tanh, "relu": nn.ReLU}[hyper["activation"]]
    arch = list(hyper["net_arch"])
    return {"net_arch": {"pi": arch, "vf": arch}, "activation_fn": act}


def build_model(cfg: TrainingConfig, vec: Any, tensorboard: Path | None = None) -> Any:
    """A fresh MaskablePPO for ``cfg`` on ``vec`` (a run, or the one a checkpoint fills):
    the MLP of encoding 1 or encoding 2's candidate scorer, with the same settings."""
    hyper = cfg.resolved_hyperparams()
    if cfg.encoding == 2:
        from agents.training.scorer_batch import CandidateRolloutBuffer
        from agents.training.scorer_run import scorer_policy

        policy, policy_kwargs = scorer_policy(cfg)
        buffer: type | None = CandidateRolloutBuffer
    else:
        policy, policy_kwargs = FiniteMaskPolicy, _policy_kwargs(hyper)
        buffer = None
    return MaskablePPO(
        policy,
        vec,
        rollout_buffer_class=buffer,
        seed=cfg.seed,
        verbose=0,
        tensorboard_log=None if tensorboard is None else str(tensorboard),
        policy_kwargs=policy_kwargs,
        **{k: v for k, v in hyper.items() if k not in ("net_arch", "activation")},
    )


def prepare_run(cfg: TrainingConfig, run: Path, resume: bool) -> Checkpoint | None:
    """Check the run folder and read the checkpoint to resume, writing nothing."""
    if run.exists() and not run.is_dir():
        raise FileExistsError(f"{run} exists and is not a folder")
    if not resume:
        if run.exists() and any(run.iterdir()):
            raise FileExistsError(f"{run} exists; pass --resume to continue it")
        return None
    path = latest_checkpoint(run)  # CheckpointError for an old pickled zip
    if path is None:
        return None
    ckpt = read_checkpoint(path)
    saved = ckpt.state.config
    if saved is not None:
        now = cfg.resolved()
        pairs = [("encoding", saved.get("encoding", 1), cfg.encoding)]
        if cfg.encoding == 2:  # the pool may change (a curriculum); the network may not
            # held_out too: each start checks its pool against it, so no pool of the run
            # ever held a fight the bundle's manifest calls held out
            pairs += [(k, saved.get(k), now[k]) for k in ("scorer", "held_out")]
        else:
            pairs += [(k, saved.get(k), now[k]) for k in KEPT_ON_RESUME]
            old_hyper = saved.get("hyperparams")
            old_hyper = old_hyper if isinstance(old_hyper, dict) else {}
            pairs += [
                (f"hyperparams.{k}", old_hyper.get(k), now["hyperparams"][k])
                for k in ("net_arch", "activation")
            ]
        changed = [f"{k}: {old!r} in the run, {new!r} now" for k, old, new in pairs if old != new]
        if changed:
            raise CheckpointError(
                f"{path}: a resumed run keeps its env and network; changed: {'; '.join(changed)}"
            )
    return ckpt


_PROVENANCE = ("git_revision", "started")
"""Fields of ``meta.json`` that stay as the first start wrote them."""


def _start(
    cfg: TrainingConfig, run: Path, ckpt: Checkpoint | None, resume: bool
) -> tuple[Any, Any, list[LeagueOpponent], dict[str, Any]]:
    """Write the run's config and metadata, build the envs and the model."""
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.yaml").write_text(
        yaml.safe_dump(cfg.resolved(), sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    now = {
        "git_revision": git_revision(),
        "seed": cfg.seed,
        "started": time.time(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "resume": resume,
        "checkpoint_format": "safetensors+json (cwenv-checkpoint 1)",
    }
    # A resume keeps how the run began and appends itself: the first start's revision and
    # time are the run's provenance, each resume's its own.
    first: dict[str, Any] = read_meta(run) if resume else {}
    meta: dict[str, Any] = {**now, **{k: v for k, v in first.items() if k in _PROVENANCE}}
    earlier = first.get("resumes")
    meta["resumes"] = [*(earlier if isinstance(earlier, list) else []), now] if first else []
    (run / META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    torch.set_num_threads(cfg.torch_threads)
    leagues = [LeagueOpponent(cfg.league) for _ in range(cfg.n_envs)]
    thunks = [_make_env(cfg, leagues[i], i) for i in range(cfg.n_envs)]
    vec = VecMonitor(SubprocVecEnv(thunks) if cfg.vec_env == "subproc" else DummyVecEnv(thunks))
    try:
        model = build_model(cfg, vec, run / "tb")
        if ckpt is not None:
            restore_model(model, ckpt)
            # building the model seeded every env with `seed`, which would replay the first
            # start's fights, sides and dice after every resume: continue from the frame
            model.set_random_seed((cfg.seed * 1_000_003 + ckpt.timesteps) % 2**32)
        elif cfg.encoding == 2:
            from agents.training.scorer_run import load_scorer_init

            load_scorer_init(model, cfg)
        elif cfg.init_policy is not None:
            load_actor(model.policy, load_bundle(cfg.init_policy))
    except BaseException:
        vec.close()
        raise
    return vec, model, leagues, meta


def _draws(leagues: list[LeagueOpponent]) -> dict[str, int]:
    total: dict[str, int] = {}
    for league in leagues:
        for name, count in league.draws.items():
            total[name] = total.get(name, 0) + count
    return total


def train(
    config_path: str | Path,
    *,
    resume: bool = False,
    runs: Path = RUNS,
    progress: Emit | None = None,
) -> Path:
    """Run (or resume) a training; return the run folder. ``progress`` receives a line of
    frames, fps, recent win rate and reward, and ETA every 5 % of the run (or minute)."""
    cfg = load_training_config(config_path)
    run = runs / cfg.name
    ckpt = prepare_run(cfg, run, resume)
    # an empty folder left by an earlier failed start counts as made here: cleaned up too
    created = not run.exists() or not any(run.iterdir())
    try:
        vec, model, leagues, meta = _start(cfg, run, ckpt, resume)
    except BaseException:
        if created:  # nothing of a run that never started is worth keeping
            shutil.rmtree(run, ignore_errors=True)
        raise
    try:
        if ckpt is None and cfg.imitation is not None:  # a fresh run clones its teacher first
            from agents.training.imitation_fit import imitate

            ckpt = imitate(model, cfg, run, progress)
        history = None
        if cfg.encoding == 2:
            from agents.training.scorer_run import run_history

            history = run_history(cfg, ckpt)
        callback = LeagueAndEval(cfg, run, leagues if cfg.vec_env == "dummy" else [], history)
        callbacks: list[BaseCallback] = [callback]
        if progress is not None:
            callbacks.append(Progress(cfg, progress))
        remaining = cfg.total_timesteps - model.num_timesteps
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=CallbackList(callbacks),
                reset_num_timesteps=ckpt is None,
                tb_log_name="ppo",
            )
        else:  # nothing left to learn: no SB3 logger was made, evaluations log nowhere
            model.set_logger(Logger(folder=None, output_formats=[]))
            callback.init_callback(model)
        final = save_checkpoint(
            model, run, model.num_timesteps, cfg.resolved(), callback.pools(model.num_timesteps)
        )
        callback.num_timesteps = model.num_timesteps
        callback.evaluate()
    finally:
        vec.close()
    summary = {
        "timesteps": int(model.num_timesteps),
        "config": cfg.resolved(),
        "git_revision": meta["git_revision"],
        "league_draws": _draws(leagues),
    }
    bundle_from_checkpoint(read_checkpoint(final), cfg, run / "bundle", summary)
    return run
