"""Encoding 2's parts of ``cwenv train``: the candidate scorer over a pool (issue #18).

:mod:`agents.training.train` runs both encodings through the same loop (league,
evaluation, checkpoints, resume, export); what differs for ``encoding: 2`` is here: the
env (:class:`~agents.training.pool.PoolEnv`), the model (MaskablePPO with
:class:`~agents.training.scorer_policy.ScorerPolicy`), the learner as a numpy agent for
snapshots and evaluation, and the bundle made of a checkpoint's tensors (numpy only).
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from agents.policy.manifest import EncodingRecord
from agents.policy.scorer import param_shapes
from agents.policy.scorer_agent import ScorerAgent
from agents.policy.scorer_bundle import (
    Network,
    ScorerBundle,
    ScorerManifest,
    TrainedPool,
    write_scorer_bundle,
)
from agents.training.checkpoint import Checkpoint, CheckpointError
from agents.training.config import TrainingConfig
from agents.training.pool import pool_entry, pool_of, trained_on
from cwenv.envs.encoding2 import ENCODING2_VERSION, encoding2_record

PARAMS = "scorer.params."
"""Prefix of the scorer's tensors in the policy's state_dict (dots stored as ``__``)."""


def network_of(cfg: TrainingConfig) -> Network:
    s = cfg.scorer
    return Network(hidden=s.hidden, vs_hidden=s.vs_hidden, cand_hidden=s.cand_hidden)


def scorer_policy(cfg: TrainingConfig) -> tuple[type, dict[str, Any]]:
    """The policy class and ``policy_kwargs`` of the candidate scorer for ``cfg`` (the
    MaskablePPO around it is :func:`agents.training.train.build_model`'s, as for the MLP)."""
    from agents.training.scorer_policy import ScorerPolicy

    net = network_of(cfg)
    sizes = {"hidden": net.hidden, "vs_hidden": net.vs_hidden, "cand_hidden": net.cand_hidden}
    return ScorerPolicy, {"scorer_kwargs": sizes}


def make_pool_env(cfg: TrainingConfig, opponent: Any) -> Any:
    from agents.training.pool import PoolEnv

    return PoolEnv(
        pool_of(cfg), opponent=opponent, rules=cfg.rules, reward=cfg.reward,
        max_steps=cfg.max_steps, k=cfg.scorer.k,
    )  # fmt: skip


def history_of(ckpt: Checkpoint, cfg: TrainingConfig) -> list[TrainedPool]:
    """The pools ``ckpt``'s model was trained on, in order: its recorded history, else
    (a checkpoint written before) the pool of the config it records (else ``cfg``'s) for
    all its frames."""
    if ckpt.state.history:
        return list(ckpt.state.history)
    saved = cfg
    if ckpt.state.config is not None:
        with suppress(ValidationError):
            saved = TrainingConfig.model_validate(ckpt.state.config)
    return [TrainedPool.model_validate(pool_entry(saved, ckpt.timesteps))]


def extended(before: list[TrainedPool], cfg: TrainingConfig, frames: int) -> list[TrainedPool]:
    """``before`` and ``frames`` more on ``cfg``'s pool (added to the last entry when it is
    the same pool: a resume that keeps the pool is one entry)."""
    if frames <= 0:
        return list(before)
    now = TrainedPool.model_validate(pool_entry(cfg, frames))
    if before and before[-1].same_pool(now):
        return [*before[:-1], before[-1].model_copy(update={"frames": before[-1].frames + frames})]
    return [*before, now]


@dataclass(frozen=True)
class History:
    """The pools a run's model has trained on: those before this start (a resumed
    checkpoint's, or a warm start's bundle's), then this start's pool since ``start``."""

    cfg: TrainingConfig
    before: list[TrainedPool]
    start: int

    def at(self, timesteps: int) -> list[TrainedPool]:
        return extended(self.before, self.cfg, timesteps - self.start)


def run_history(cfg: TrainingConfig, ckpt: Checkpoint | None) -> History:
    """The history a start of ``cfg`` continues (from ``ckpt`` when it resumes)."""
    from agents.policy.scorer_bundle import load_scorer_bundle, training_history

    if ckpt is not None:
        return History(cfg, history_of(ckpt, cfg), ckpt.timesteps)
    if cfg.init_policy is not None:
        return History(cfg, training_history(load_scorer_bundle(cfg.init_policy).manifest), 0)
    return History(cfg, [], 0)


def _dumped(history: list[TrainedPool]) -> list[dict[str, Any]]:
    return [p.model_dump(mode="json") for p in history]


def _manifest(
    cfg: TrainingConfig, training: dict[str, Any], history: list[TrainedPool]
) -> ScorerManifest:
    pool = pool_of(cfg)
    return ScorerManifest(
        observation_encoding=ENCODING2_VERSION,
        action_encoding=ENCODING2_VERSION,
        encoding=EncodingRecord.model_validate(encoding2_record(cfg.scorer.k)),
        network=network_of(cfg),
        scenario=pool.scenarios[0] if len(pool.scenarios) == 1 else "pool",
        side=pool.sides[0],
        training=training,
        trained_on=trained_on(cfg, _dumped(history)),  # validated by the model
        weights_sha256="0" * 64,
    )


def live_tensors(model: Any) -> dict[str, np.ndarray]:
    from agents.training.scorer_policy import export_tensors

    return export_tensors(model.policy.scorer)


def in_memory_scorer(
    model: Any, cfg: TrainingConfig, history: list[TrainedPool], *, warn: bool = True
) -> ScorerAgent:
    """The learner now, as the numpy agent a bundle of it would be (no file)."""
    m = ScorerManifest.model_validate(_manifest(cfg, {}, history).model_dump())
    return ScorerAgent(ScorerBundle(m, live_tensors(model), Path("<memory>")), warn=warn)


def checkpoint_tensors(ckpt: Checkpoint, cfg: TrainingConfig) -> dict[str, np.ndarray]:
    """The scorer's tensors of ``ckpt`` by their bundle names, every one checked."""
    shapes = param_shapes(_dims(cfg))
    out: dict[str, np.ndarray] = {}
    for name, shape in shapes.items():
        source = PARAMS + name.replace(".", "__")
        array = ckpt.policy.get(source)
        if array is None or tuple(array.shape) != tuple(shape):
            have = None if array is None else tuple(array.shape)
            raise CheckpointError(f"{ckpt.path}: tensor {source} is {have}, the scorer {shape}")
        out[name] = array
    return out


def _dims(cfg: TrainingConfig) -> Any:
    from agents.policy.scorer_bundle import scorer_dims

    return scorer_dims(_manifest(cfg, {}, []))


def scorer_bundle_from_checkpoint(
    ckpt: Checkpoint, cfg: TrainingConfig, out: Path, training: dict[str, Any]
) -> Path:
    """Write the scorer bundle of ``ckpt`` to ``out`` (numpy only), recording every pool
    it was trained on and the fights held out."""
    if ckpt.state.network != "scorer":
        raise CheckpointError(f"{ckpt.path}: not a candidate-scorer checkpoint")
    history = history_of(ckpt, cfg)
    m = _manifest(cfg, training, history)
    k = ckpt.state.encoding.capacities.get("candidates") if ckpt.state.encoding else None
    return write_scorer_bundle(
        out, checkpoint_tensors(ckpt, cfg), scenario=m.scenario, side=m.side,
        network=m.network, training=training, k=k if isinstance(k, int) else cfg.scorer.k,
        trained_on=trained_on(cfg, _dumped(history)),
    )  # fmt: skip


def init_issue(cfg: TrainingConfig) -> str | None:
    """Why ``init_policy`` cannot start this run's scorer (None: it can)."""
    from agents.policy.scorer_bundle import load_scorer_bundle

    if cfg.init_policy is None:
        return None
    try:
        bundle = load_scorer_bundle(cfg.init_policy)
    except ValueError as exc:  # BundleError, EncodingMismatchError
        return f"cannot load the scorer bundle: {exc}"
    if bundle.manifest.network != network_of(cfg):
        return (
            f"the bundle's network {bundle.manifest.network.model_dump()} does not fit this "
            f"run's scorer {network_of(cfg).model_dump()} (scorer.hidden, vs_hidden, cand_hidden)"
        )
    return _held_out_before(bundle.manifest, cfg)


def _held_out_before(m: ScorerManifest, cfg: TrainingConfig) -> str | None:
    """Why a warm start from a bundle of manifest ``m`` would hide a fight its weights
    saw behind this run's ``held_out`` (None: none of its pools touches one)."""
    from agents.policy.scorer_bundle import training_history
    from agents.training.config import Generated, Pool
    from agents.training.pool import held_out_issues

    for n, entry in enumerate(training_history(m), 1):
        gen = entry.generated
        pool = Pool(
            scenarios=list(entry.scenarios), generated_share=entry.generated_share,
            generated=None if gen is None else Generated(first=gen.first, count=gen.count),
            sides=list(entry.sides),
        )  # fmt: skip
        for path, message in held_out_issues(pool, cfg.held_out, entry.rules):
            where = ".".join(str(p) for p in path[1:])
            return (
                f"the bundle was trained on a fight this run holds out (pool {n} of its "
                f"history, {entry.frames} frames, {where}: {message}); "
                "this run's bundle would call a fight its weights saw unseen"
            )
    return None


def load_scorer_init(model: Any, cfg: TrainingConfig) -> None:
    """Copy ``init_policy``'s scorer tensors into a fresh model (a warm start); the value
    head comes along, as the numpy bundle holds the whole scorer."""
    import torch

    from agents.policy.scorer_bundle import load_scorer_bundle

    if cfg.init_policy is None:
        return
    bundle = load_scorer_bundle(cfg.init_policy)
    scorer = model.policy.scorer
    with torch.no_grad():
        for name, array in bundle.tensors.items():
            scorer.p(name).copy_(torch.from_numpy(np.array(array)))
