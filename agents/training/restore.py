"""Continue a run: load a pickle-free checkpoint into a freshly built MaskablePPO.

The model is built from the run's resolved config (as a new run is); the checkpoint then
supplies the policy's tensors, Adam's moments, step counts and group settings, and SB3's
counters (timesteps, updates, learning-rate progress, episodes). Every name and shape is
checked against the new model first, so a checkpoint of another network is a
:class:`CheckpointError` naming what differs, never a half-loaded model.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import torch

from agents.training.checkpoint import MOMENTS, Checkpoint, CheckpointError


def _check_scorer_encoding(ckpt: Checkpoint) -> None:
    """Encoding 2: the record the scorer trained on must be this cwenv's (for its K)."""
    from agents.policy.compat import check_record
    from agents.policy.files import EncodingMismatchError
    from cwenv.envs.encoding2 import encoding2_record

    theirs = ckpt.state.encoding
    if theirs is None:
        raise CheckpointError(f"{ckpt.path}: a scorer checkpoint without its encoding record")
    record = theirs.model_dump()
    try:
        check_record(record, encoding2_record(record["capacities"].get("candidates", 1)),
                     ckpt.path, "scorer")  # fmt: skip
    except EncodingMismatchError as exc:
        raise CheckpointError(f"{exc}; start a new run") from None


def _check_encoding(ckpt: Checkpoint) -> None:
    """The checkpoint's policy must have been trained on this cwenv's encoding."""
    from cwenv.envs.encoding import encoding_changes, encoding_record, member_changes

    if ckpt.state.network == "scorer":
        _check_scorer_encoding(ckpt)
        return
    theirs = ckpt.state.encoding
    if theirs is None:
        raise CheckpointError(
            f"{ckpt.path}: trained on observation/action encoding 1 (before issue #14); "
            "it cannot be resumed on this cwenv's encoding. Export it (cwenv export), pad "
            "the bundle (python -m agents.policy.bundle upgrade) and start a new run from "
            "it (init_policy)"
        )
    record = theirs.model_dump()
    caps = record["capacities"]
    ours = encoding_record(caps.get("move_radius", 0), caps.get("drag_radius", 0))
    changes = encoding_changes(record, ours) if record["fingerprint"] != ours["fingerprint"] else []
    changes += member_changes(record["members"], ours["members"])[0]
    if changes:
        raise CheckpointError(
            f"{ckpt.path}: trained on another observation/action encoding: "
            f"{'; '.join(changes)}. Start a new run"
        )


def _check_policy(ckpt: Checkpoint, own: dict[str, torch.Tensor]) -> None:
    ours = {k: tuple(v.shape) for k, v in own.items()}
    theirs = {k: tuple(v.shape) for k, v in ckpt.policy.items()}
    if ours != theirs:
        differ = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
        shown = ", ".join(f"{k}: run {ours.get(k)}, checkpoint {theirs.get(k)}" for k in differ)
        raise CheckpointError(
            f"{ckpt.path}: the checkpoint's network does not fit the run's config "
            f"(net_arch, activation, move_radius and drag_radius, or scorer.*, must agree): "
            f"{shown}"
        )


def _optimizer_state(ckpt: Checkpoint, optimizer: Any) -> dict[str, Any]:
    """The torch state dict for ``optimizer`` built from the checkpoint, fully checked."""
    fresh = optimizer.state_dict()
    saved = ckpt.state.optimizer
    if [g.params for g in saved.groups] != [list(g["params"]) for g in fresh["param_groups"]]:
        raise CheckpointError(f"{ckpt.path}: the optimizer's parameter groups do not fit")
    params = [p for g in optimizer.param_groups for p in g["params"]]
    if len(saved.steps) != len(params):
        raise CheckpointError(
            f"{ckpt.path}: {len(saved.steps)} optimizer steps for {len(params)} parameters"
        )
    amsgrad = {i: bool(g.flags.get("amsgrad")) for g in saved.groups for i in g.params}
    state: dict[int, dict[str, torch.Tensor]] = {}
    used: set[str] = set()
    for i, step in enumerate(saved.steps):
        if step is None:
            continue
        entry = {"step": torch.tensor(step, dtype=torch.float32)}
        for key in (*MOMENTS, "max_exp_avg_sq") if amsgrad[i] else MOMENTS:
            name = f"{i}.{key}"
            array = ckpt.moments.get(name)
            if array is None or tuple(array.shape) != tuple(params[i].shape):
                have = None if array is None else tuple(array.shape)
                raise CheckpointError(
                    f"{ckpt.path}: optimizer tensor {name} is {have}, the parameter "
                    f"{tuple(params[i].shape)}"
                )
            entry[key] = torch.from_numpy(np.array(array))
            used.add(name)
        state[i] = entry
    if set(ckpt.moments) - used:
        raise CheckpointError(
            f"{ckpt.path}: optimizer tensors without a step count: "
            f"{sorted(set(ckpt.moments) - used)}"
        )
    groups = []
    for mine, theirs in zip(fresh["param_groups"], saved.groups, strict=True):
        group = dict(mine)
        group.update(
            lr=theirs.lr, betas=theirs.betas, eps=theirs.eps, weight_decay=theirs.weight_decay
        )
        group.update({k: v for k, v in theirs.flags.items() if k in mine})
        groups.append(group)
    return {"state": state, "param_groups": groups}


@torch.no_grad()
def restore_model(model: Any, ckpt: Checkpoint) -> None:
    """Load ``ckpt`` into ``model`` (a MaskablePPO built from the run's config)."""
    policy = model.policy
    own = policy.state_dict()
    _check_encoding(ckpt)
    _check_policy(ckpt, own)
    optimizer_state = _optimizer_state(ckpt, policy.optimizer)
    policy.load_state_dict(
        {k: torch.from_numpy(np.array(v)).to(own[k].device) for k, v in ckpt.policy.items()}
    )
    policy.optimizer.load_state_dict(optimizer_state)
    s = ckpt.state
    model.num_timesteps = s.num_timesteps
    model._n_updates = s.n_updates
    model._episode_num = s.episode_num
    model._current_progress_remaining = s.progress_remaining
    window = model._stats_window_size
    model.ep_info_buffer = deque(
        ({"r": e.r, "l": e.l, "t": e.t} for e in s.episodes), maxlen=window
    )
    model.ep_success_buffer = deque(maxlen=window)
