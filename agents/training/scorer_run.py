"""Encoding 2's parts of ``cwenv train``: the candidate scorer over a pool (issue #18).

:mod:`agents.training.train` runs both encodings through the same loop (league,
evaluation, checkpoints, resume, export); what differs for ``encoding: 2`` is here: the
env (:class:`~agents.training.pool.PoolEnv`), the model (MaskablePPO with
:class:`~agents.training.scorer_policy.ScorerPolicy`), the learner as a numpy agent for
snapshots and evaluation, and the bundle made of a checkpoint's tensors (numpy only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.policy.manifest import EncodingRecord
from agents.policy.scorer import param_shapes
from agents.policy.scorer_agent import ScorerAgent
from agents.policy.scorer_bundle import (
    Network,
    ScorerBundle,
    ScorerManifest,
    write_scorer_bundle,
)
from agents.training.checkpoint import Checkpoint, CheckpointError
from agents.training.config import TrainingConfig
from agents.training.pool import pool_of, trained_on
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


def _manifest(cfg: TrainingConfig, training: dict[str, Any]) -> ScorerManifest:
    pool = pool_of(cfg)
    return ScorerManifest(
        observation_encoding=ENCODING2_VERSION,
        action_encoding=ENCODING2_VERSION,
        encoding=EncodingRecord.model_validate(encoding2_record(cfg.scorer.k)),
        network=network_of(cfg),
        scenario=pool.scenarios[0] if len(pool.scenarios) == 1 else "pool",
        side=pool.sides[0],
        training=training,
        trained_on=trained_on(cfg),  # validated by the model
        weights_sha256="0" * 64,
    )


def live_tensors(model: Any) -> dict[str, np.ndarray]:
    from agents.training.scorer_policy import export_tensors

    return export_tensors(model.policy.scorer)


def in_memory_scorer(model: Any, cfg: TrainingConfig, *, warn: bool = True) -> ScorerAgent:
    """The learner now, as the numpy agent a bundle of it would be (no file)."""
    m = ScorerManifest.model_validate(_manifest(cfg, {}).model_dump())
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

    return scorer_dims(_manifest(cfg, {}))


def scorer_bundle_from_checkpoint(
    ckpt: Checkpoint, cfg: TrainingConfig, out: Path, training: dict[str, Any]
) -> Path:
    """Write the scorer bundle of ``ckpt`` to ``out`` (numpy only), recording the pool it
    was trained on and the fights held out."""
    if ckpt.state.network != "scorer":
        raise CheckpointError(f"{ckpt.path}: not a candidate-scorer checkpoint")
    m = _manifest(cfg, training)
    k = ckpt.state.encoding.capacities.get("candidates") if ckpt.state.encoding else None
    return write_scorer_bundle(
        out, checkpoint_tensors(ckpt, cfg), scenario=m.scenario, side=m.side,
        network=m.network, training=training, k=k if isinstance(k, int) else cfg.scorer.k,
        trained_on=trained_on(cfg),
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
