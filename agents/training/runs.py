"""A run folder's files (config, metadata, checkpoints) and the export of its bundle.

Everything here reads YAML with the project's safe loader, JSON and safetensors: exporting
a run needs neither torch nor SB3, and nothing in a run folder is unpickled.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agents.policy.bundle import Manifest, write_bundle
from agents.policy.compat import encoding_fields
from agents.training.checkpoint import (
    Checkpoint,
    CheckpointError,
    checkpoint_at,
    latest_checkpoint,
    read_checkpoint,
)
from agents.training.config import TrainingConfig, parse_training_config
from cwenv.content.errors import Origin
from cwenv.yamlio import read_yaml_file

CONFIG = "config.yaml"
META = "meta.json"


def load_run_config(run: Path) -> TrainingConfig:
    """The resolved config a run was started with (``runs/NAME/config.yaml``)."""
    doc = read_yaml_file(run / CONFIG)
    return parse_training_config(Origin(doc), doc.data)


def read_meta(run: Path) -> dict[str, Any]:
    """``meta.json`` (git revision, seed, versions); empty if absent or unreadable."""
    try:
        data = json.loads((run / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def checkpoint_config(ckpt: Checkpoint, run: Path) -> TrainingConfig:
    """The config recorded in the checkpoint (the one it was trained with), else the run's."""
    if ckpt.state.config is None:
        return load_run_config(run)
    try:
        return TrainingConfig.model_validate(ckpt.state.config)
    except ValidationError as exc:
        raise CheckpointError(f"{ckpt.path}: the recorded config is invalid ({exc})") from None


def bundle_from_checkpoint(
    ckpt: Checkpoint, cfg: TrainingConfig, out: Path, training: dict[str, Any]
) -> Path:
    """Write the policy bundle of ``ckpt``'s actor to ``out`` (numpy only): a scorer bundle
    for encoding 2's candidate scorer, a policy bundle for the MLP."""
    if ckpt.state.network == "scorer":
        from agents.training.scorer_run import scorer_bundle_from_checkpoint

        return scorer_bundle_from_checkpoint(ckpt, cfg, out, training)
    layers, tensors = [], {}
    for layer in ckpt.state.actor:
        layers.append(layer.model_dump(exclude={"source"}))
        for part in ("weight", "bias"):
            source = f"{layer.source}.{part}"
            if source not in ckpt.policy:
                raise CheckpointError(f"{ckpt.path}: no tensor {source} for layer {layer.name}")
            tensors[f"{layer.name}.{part}"] = ckpt.policy[source]
    recorded = ckpt.state.encoding
    try:
        manifest = Manifest.model_validate(
            {
                "algorithm": "MaskablePPO",
                # what the policy was trained on, not what this cwenv encodes now: another
                # encoding is refused at load, naming what changed
                **encoding_fields(None if recorded is None else recorded.model_dump()),
                "action_size": ckpt.state.actor[-1].out_features,
                "observation": [k.model_dump() for k in ckpt.state.observation],
                "policy": layers,
                "scenario": cfg.scenario,
                "side": cfg.side,
                "rules": {"variant": cfg.rules},
                "training": {
                    **training,
                    "move_radius": cfg.move_radius,
                    "drag_radius": cfg.drag_radius,
                },
                "weights_sha256": "0" * 64,
                "manifest_sha256": "0" * 64,
            }
        )
    except ValidationError as exc:
        raise CheckpointError(f"{ckpt.path}: cannot make a bundle of it ({exc})") from None
    return write_bundle(out, manifest, tensors)


def export_run(run: Path, out: Path, timesteps: int | None = None) -> Path:
    """Export the newest checkpoint of ``run`` (or the one at ``timesteps``, e.g. the best
    point of the evaluation curve) to a bundle folder ``out``."""
    if timesteps is None:
        path = latest_checkpoint(run)
        if path is None:
            raise FileNotFoundError(f"{run}: no checkpoint to export")
    else:
        path = checkpoint_at(run, timesteps)
    ckpt = read_checkpoint(path)
    cfg = checkpoint_config(ckpt, run)
    summary = {
        "timesteps": ckpt.timesteps,
        "git_revision": _text(read_meta(run).get("git_revision")),
        "config": cfg.resolved(),
        "checkpoint": path.name,
    }
    return bundle_from_checkpoint(ckpt, cfg, out, summary)
