"""Pickle-free checkpoints of a training run: safetensors for tensors, JSON for the rest.

SB3's own ``model.save`` writes a zip that ``MaskablePPO.load`` unpickles with cloudpickle,
so a crafted checkpoint in a run folder ran code on ``cwenv train --resume`` and
``cwenv export``. A checkpoint is now a folder ``runs/NAME/checkpoints/step_<10 digits>/``:

``policy.safetensors``
    every tensor of the policy's ``state_dict`` (actor, critic, heads), float32;
``optimizer.safetensors``
    Adam's moments of parameter *i*: ``<i>.exp_avg``, ``<i>.exp_avg_sq`` (and
    ``<i>.max_exp_avg_sq`` with amsgrad);
``state.json``
    the counters (timesteps, updates, the learning-rate progress, episodes and recent
    episode statistics), Adam's step counts and its groups' numeric settings, the network
    (``mlp`` with the actor's layout, or encoding 2's ``scorer``, whose tensors name
    themselves), so a bundle is exported from the tensors alone, the resolved config, the
    record of the observation/action encoding the policy is trained on (its fingerprint
    goes into the exported bundle; a resume on another encoding is refused), and the
    sha256 of both tensor files; for encoding 2, every pool the model was trained on
    with its frames (the bundle's ``trained_on.history``).

Reading one parses JSON with a strict model and tensors with the safetensors library:
nothing is unpickled, torch is not needed to read or export, and loading executes no
code. A checkpoint is written into a temporary folder and renamed into place. An old
``model_*.zip`` is refused by name, never opened. League snapshots live in memory only
(a resumed run collects new ones), so there is nothing else to persist.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, model_validator

from agents.policy.bundle import (
    F32,
    Activation,
    ObservationKey,
    read_float32_tensors,
    sha256_of,
)
from agents.policy.manifest import EncodingRecord
from agents.policy.scorer_bundle import TrainedPool

CHECKPOINTS = "checkpoints"
POLICY = "policy.safetensors"
OPTIMIZER = "optimizer.safetensors"
STATE = "state.json"
MAX_STATE_BYTES = 10_000_000
MAX_TENSOR_BYTES = 1 << 30
_NEW = re.compile(r"^step_(\d{10})$")
_OLD = re.compile(r"^model_(\d+)\.zip$")
MOMENTS = ("exp_avg", "exp_avg_sq")

Finite = Annotated[float, Field(allow_inf_nan=False)]
Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
_STRICT = ConfigDict(extra="forbid", strict=True)


class CheckpointError(ValueError):
    """A checkpoint is missing, of the old (pickled) format, damaged or does not fit."""


class ParamGroup(BaseModel):
    """An Adam parameter group: its numeric settings, flags and parameter indices."""

    model_config = _STRICT

    lr: Finite = Field(ge=0)
    betas: tuple[Finite, Finite]
    eps: Finite = Field(gt=0)
    weight_decay: Finite = Field(ge=0)
    flags: dict[str, bool | None] = Field(default_factory=dict)  # amsgrad, maximize, …
    params: list[Annotated[int, Field(ge=0)]]


class OptimizerState(BaseModel):
    model_config = _STRICT

    groups: list[ParamGroup] = Field(min_length=1, max_length=16)
    steps: list[Finite | None]  # Adam's step count per parameter; None: no state yet


class ActorLayer(BaseModel):
    model_config = _STRICT

    name: str = Field(pattern=r"^[a-z_][a-z0-9_.]*$")
    source: str = Field(pattern=r"^[a-z_][a-z0-9_.]*$")  # tensor prefix in policy.safetensors
    in_features: int = Field(ge=1)
    out_features: int = Field(ge=1)
    activation: Activation


class Episode(BaseModel):
    """One entry of SB3's recent-episodes buffer (return, length, wall time)."""

    model_config = _STRICT

    r: Finite
    l: int = Field(ge=0)  # noqa: E741  (SB3's key)
    t: Finite


class Digests(BaseModel):
    """sha256 of the two tensor files."""

    model_config = _STRICT

    policy: Sha256
    optimizer: Sha256


class CheckpointState(BaseModel):
    model_config = _STRICT

    format: Literal["cwenv-checkpoint"] = "cwenv-checkpoint"
    format_version: Literal[1] = 1
    num_timesteps: int = Field(ge=0)
    n_updates: int = Field(ge=0)
    episode_num: int = Field(ge=0)
    progress_remaining: Finite = Field(ge=-1, le=1)
    episodes: list[Episode] = Field(default_factory=list, max_length=100_000)
    optimizer: OptimizerState
    observation: list[ObservationKey] = Field(min_length=1)
    # "mlp": the actor's dense layers (encoding 1); "scorer": encoding 2's candidate
    # scorer, whose tensors are named by agents.policy.scorer (no layout needed)
    network: Literal["mlp", "scorer"] = "mlp"
    actor: list[ActorLayer] = Field(default_factory=list, max_length=64)
    config: dict[str, JsonValue] | None = None
    encoding: EncodingRecord | None = None  # None: written before encoding records (1)
    # encoding 2: every pool the model was trained on, in order, with its frames (empty:
    # written before, or the MLP; the config's pool is then the only one)
    history: list[TrainedPool] = Field(default_factory=list, max_length=1000)
    sha256: Digests

    @model_validator(mode="after")
    def _actor_fits_network(self) -> CheckpointState:
        if self.network == "mlp" and not self.actor:
            raise ValueError("actor: an mlp checkpoint lists its layers")
        if self.network == "scorer" and self.actor:
            raise ValueError("actor: a scorer checkpoint has no actor layers")
        return self


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint as read from disk (numpy arrays; no torch needed)."""

    path: Path
    state: CheckpointState
    policy: dict[str, F32]
    moments: dict[str, F32]

    @property
    def timesteps(self) -> int:
        return self.state.num_timesteps


# -- finding checkpoints ------------------------------------------------------------------------


def _old_format(path: Path) -> CheckpointError:
    return CheckpointError(
        f"{path}: a checkpoint of the old format (an SB3 zip, which is loaded by unpickling "
        "and can run code); it is not loaded, for safety. Checkpoints are now safetensors "
        "+ JSON folders (step_*); start the run anew or export it with the cwenv that made it"
    )


def checkpoints(run: Path) -> dict[int, Path]:
    """Every checkpoint folder of ``run`` by timesteps (old zips are not listed)."""
    folder = run / CHECKPOINTS
    if not folder.is_dir():
        return {}
    found = {}
    for entry in folder.iterdir():
        match = _NEW.match(entry.name)
        if match and entry.is_dir():
            found[int(match.group(1))] = entry
    return dict(sorted(found.items()))


def _old_checkpoints(run: Path) -> dict[int, Path]:
    folder = run / CHECKPOINTS
    if not folder.is_dir():
        return {}
    found = {}
    for entry in folder.iterdir():
        match = _OLD.match(entry.name)
        if match:
            found[int(match.group(1))] = entry
    return dict(sorted(found.items()))


def latest_checkpoint(run: Path) -> Path | None:
    """The newest checkpoint folder of ``run``; CheckpointError if the newest is an old zip
    (refused by name rather than skipped: resuming from an older one would lose work)."""
    new, old = checkpoints(run), _old_checkpoints(run)
    if old and (not new or max(old) >= max(new)):
        raise _old_format(old[max(old)])
    return new[max(new)] if new else None


def checkpoint_at(run: Path, timesteps: int) -> Path:
    """The checkpoint folder at ``timesteps``; FileNotFoundError lists those there are."""
    new, old = checkpoints(run), _old_checkpoints(run)
    if timesteps in new:
        return new[timesteps]
    if timesteps in old:
        raise _old_format(old[timesteps])
    have = ", ".join(str(t) for t in new) or "none"
    raise FileNotFoundError(f"{run}: no checkpoint at {timesteps} timesteps; have: {have}")


# -- writing ------------------------------------------------------------------------------------


def _fsync_write(path: Path, data: bytes) -> str:
    with path.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return hashlib.sha256(data).hexdigest()


def _optimizer_state(optimizer: Any) -> tuple[OptimizerState, dict[str, F32]]:
    state = optimizer.state_dict()
    count = sum(len(g["params"]) for g in state["param_groups"])
    steps: list[float | None] = [None] * count
    moments: dict[str, F32] = {}
    for index, entry in state["state"].items():
        steps[index] = float(entry["step"])
        for key in (*MOMENTS, "max_exp_avg_sq"):
            if key in entry:
                moments[f"{index}.{key}"] = entry[key].detach().cpu().numpy().astype(np.float32)
    groups = [
        ParamGroup(
            lr=float(g["lr"]),
            betas=(float(g["betas"][0]), float(g["betas"][1])),
            eps=float(g["eps"]),
            weight_decay=float(g["weight_decay"]),
            flags={k: v for k, v in g.items() if isinstance(v, bool) or v is None},
            params=[int(i) for i in g["params"]],
        )
        for g in state["param_groups"]
    ]
    return OptimizerState(groups=groups, steps=steps), moments


def save_checkpoint(
    model: Any, run: Path, timesteps: int, config: dict[str, Any] | None = None,
    history: list[TrainedPool] | None = None,
) -> Path:  # fmt: skip
    """Write the checkpoint of ``model`` at ``timesteps`` (atomically: a temporary folder
    renamed into place) and return its folder. The encoding recorded is this cwenv's for
    the action window of ``config`` (the env the model trains in is built from it);
    ``history`` the pools a candidate scorer was trained on."""
    from safetensors.numpy import save

    from agents.training.export import actor_layout, observation_keys

    policy = model.policy
    scorer = hasattr(policy, "scorer")  # encoding 2's ScorerPolicy
    tensors = {
        k: v.detach().cpu().numpy().astype(np.float32) for k, v in policy.state_dict().items()
    }
    optimizer, moments = _optimizer_state(policy.optimizer)
    episodes = [
        Episode(r=float(e["r"]), l=int(e["l"]), t=float(e["t"]))
        for e in (model.ep_info_buffer or ())
    ]
    folder = run / CHECKPOINTS
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"step_{timesteps:010d}"
    tmp = folder / f".tmp-{final.name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    sha = Digests(
        policy=_fsync_write(tmp / POLICY, save(tensors)),
        optimizer=_fsync_write(tmp / OPTIMIZER, save(moments)),
    )
    state = CheckpointState(
        num_timesteps=int(model.num_timesteps),
        n_updates=int(model._n_updates),
        episode_num=int(model._episode_num),
        progress_remaining=float(model._current_progress_remaining),
        episodes=episodes,
        optimizer=optimizer,
        observation=_space_keys(policy) if scorer else observation_keys(policy),
        network="scorer" if scorer else "mlp",
        actor=[]
        if scorer
        else [
            ActorLayer(source=source, **layer.model_dump(exclude={"kind"}))
            for layer, source in actor_layout(policy)
        ],
        config=config,
        encoding=_record(config, scorer),
        history=list(history or ()),
        sha256=sha,
    )
    _fsync_write(tmp / STATE, (state.model_dump_json(indent=2) + "\n").encode("utf-8"))
    if final.exists():  # the same timesteps saved again (the final save of a run)
        old = folder / f".old-{final.name}-{os.getpid()}"
        final.replace(old)
        tmp.replace(final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.replace(final)
    return final


def _space_keys(policy: Any) -> list[ObservationKey]:
    """The observation's keys and shapes (gymnasium's sorted Dict order)."""
    space = policy.observation_space
    return [ObservationKey(name=k, shape=list(space[k].shape)) for k in space.spaces]


def _record(config: dict[str, Any] | None, scorer: bool) -> EncodingRecord | None:
    """The encoding the run's env has: encoding 2 with the config's K for the scorer, the
    grid encoding of the config's action window for the MLP."""
    if scorer:
        from cwenv.envs.encoding2 import encoding2_record

        net = None if config is None else config.get("scorer")
        k = net.get("k") if isinstance(net, dict) else None
        return EncodingRecord.model_validate(encoding2_record(k)) if isinstance(k, int) else None
    from cwenv.envs.encoding import encoding_record

    move, drag = (None if config is None else config.get(k) for k in ("move_radius", "drag_radius"))
    if not isinstance(move, int) or not isinstance(drag, int):
        return None
    return EncodingRecord.model_validate(encoding_record(move, drag))


# -- reading ------------------------------------------------------------------------------------


def _checked_file(path: Path, limit: int) -> None:
    try:
        info = path.stat()
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not path.is_file():
        raise CheckpointError(f"{path}: not a regular file")
    if info.st_size > limit:
        raise CheckpointError(f"{path}: {info.st_size} bytes; the limit is {limit}")


def read_checkpoint(path: Path) -> Checkpoint:
    """Read and verify a checkpoint folder (JSON and safetensors only; CheckpointError)."""
    state_path = path / STATE
    _checked_file(state_path, MAX_STATE_BYTES)
    try:
        state = CheckpointState.model_validate_json(state_path.read_bytes())
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}"
            for e in exc.errors(include_url=False)
        )
        raise CheckpointError(f"{state_path}: {problems}") from None
    tensors = {}
    for key, name in (("policy", POLICY), ("optimizer", OPTIMIZER)):
        file = path / name
        _checked_file(file, MAX_TENSOR_BYTES)
        if sha256_of(file) != getattr(state.sha256, key):
            raise CheckpointError(f"{file}: sha256 does not match {STATE}; the file changed")
        tensors[key] = read_float32_tensors(file, None, CheckpointError)
    return Checkpoint(path, state, tensors["policy"], tensors["optimizer"])
