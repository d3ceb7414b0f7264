"""Bundles of the candidate scorer (encoding 2, issue #18): safetensors + a strict manifest.

A folder with ``manifest.json`` (format ``cwenv-scorer``) and ``policy.safetensors``,
checked like the MLP bundles of :mod:`agents.policy.bundle`: a strict pydantic manifest,
its own checksum, the weights' sha256, every tensor's name, dtype and shape before it is
read, finite values. Then the encoding: ``observation_encoding``/``action_encoding`` must
be encoding 2's record version (:data:`cwenv.envs.encoding2.ENCODING2_VERSION`) and its
fingerprint this cwenv's (for the bundle's own K, which the weights do not depend on);
otherwise :class:`EncodingMismatchError` names what changed. numpy only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from agents.policy.compat import check_record
from agents.policy.files import (
    MANIFEST,
    WEIGHTS,
    BundleError,
    EncodingMismatchError,
    _atomic_write,
    check_checksums,
    read_float32_tensors,
    read_manifest,
    sealed_manifest,
    write_weights,
)
from agents.policy.manifest import EncodingRecord, Sha256
from agents.policy.scorer import (
    F32,
    ScorerDims,
    batched,
    forward,
    masked_probabilities,
    param_shapes,
)
from cwenv.envs.encoding2 import ENCODING2_VERSION, encoding2_record

FORMAT = "cwenv-scorer"
_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)
Hidden = Annotated[int, Field(ge=1, le=4096)]


class Network(BaseModel):
    model_config = _STRICT

    kind: Literal["candidate-scorer"] = "candidate-scorer"
    hidden: Hidden = 64
    vs_hidden: Hidden = 16
    cand_hidden: Hidden = 64
    kinds: Hidden = 64


class TrainedRange(BaseModel):
    model_config = _STRICT

    first: int = Field(ge=0, lt=2**31)
    count: int = Field(ge=1, le=2**31)


Ref = Annotated[str, Field(min_length=1, max_length=500)]
Sides = Annotated[list[Literal["gegner", "runner"]], Field(min_length=1, max_length=2)]


class PoolFields(BaseModel):
    """The fights, sides and rule variant of one training pool."""

    model_config = _STRICT

    scenarios: list[Ref] = Field(default_factory=list, max_length=1000)
    generated: TrainedRange | None = None
    generated_share: float = Field(1.0, ge=0, le=1, allow_inf_nan=False)
    sides: Sides
    rules: str | None = Field(None, max_length=500)

    def same_pool(self, other: PoolFields) -> bool:
        """Whether both are the same fights, sides and rules (whatever else they record)."""
        return all(getattr(self, k) == getattr(other, k) for k in PoolFields.model_fields)


class TrainedPool(PoolFields):
    """One pool of a scorer's training and the frames it trained on it (``history``)."""

    frames: int = Field(ge=0, le=10**12)


class TrainedOn(PoolFields):
    """The fights a pool-trained scorer saw (``cwenv train`` with encoding 2) and those
    held out of its training; the agent warns once for a fight outside them. The top
    level is the last pool; ``history`` every pool in order, from the first run of a
    warm-start chain to the last resume (empty in bundles written before it: the top
    level was the only pool)."""

    held_out: dict[str, JsonValue] = Field(default_factory=dict)
    history: list[TrainedPool] = Field(default_factory=list, max_length=1000)

    def pools(self) -> list[TrainedPool]:
        """Every pool the bundle was trained on (the top level alone for an old bundle,
        its frames unknown: 0)."""
        if self.history:
            return list(self.history)
        fields = {k: getattr(self, k) for k in PoolFields.model_fields}
        return [TrainedPool(**fields, frames=0)]


class ScorerManifest(BaseModel):
    model_config = _STRICT

    format: Literal["cwenv-scorer"] = "cwenv-scorer"
    # 2: trained_on may carry its history of pools; 1 (before) is read alike
    format_version: Literal[1, 2] = 2
    algorithm: Literal["MaskablePPO"] = "MaskablePPO"
    observation_encoding: int = Field(ge=1, le=1000)
    action_encoding: int = Field(ge=1, le=1000)
    encoding: EncodingRecord
    network: Network = Field(default_factory=Network)
    scenario: str = Field(min_length=1, max_length=500)
    side: Literal["gegner", "runner"]
    training: dict[str, JsonValue] = Field(default_factory=dict)
    trained_on: TrainedOn | None = None  # None: one scenario and side (written before)
    weights_sha256: Sha256
    manifest_sha256: Sha256 | None = None


def training_history(m: ScorerManifest) -> list[TrainedPool]:
    """Every pool the bundle was trained on, in order, with its frames: ``trained_on``'s
    history; for a bundle written before it, its one pool (or scenario and side) with the
    frames its ``training.timesteps`` records."""
    if m.trained_on is not None and m.trained_on.history:
        return m.trained_on.pools()
    steps = m.training.get("timesteps")
    frames = steps if isinstance(steps, int) and 0 <= steps <= 10**12 else 0
    if m.trained_on is not None:
        return [p.model_copy(update={"frames": frames}) for p in m.trained_on.pools()]
    return [TrainedPool(scenarios=[m.scenario], sides=[m.side], frames=frames)]


def scorer_dims(m: ScorerManifest) -> ScorerDims:
    shapes = {k.key: tuple(k.shape) for k in m.encoding.observation}
    n = m.network
    return ScorerDims(
        entity=shapes["entities"][-1],
        global_=shapes["global"][0],
        map_=int(np.prod(shapes["map"])),
        candidate=shapes["candidates"][-1],
        kinds=n.kinds,
        vs=shapes["candidate_vs"][-1],
        hidden=n.hidden,
        vs_hidden=n.vs_hidden,
        cand_hidden=n.cand_hidden,
    )


def check_encoding2(m: ScorerManifest, path: Path) -> None:
    """Refuse a bundle of another encoding, naming what differs."""
    if m.observation_encoding != ENCODING2_VERSION or m.action_encoding != ENCODING2_VERSION:
        raise EncodingMismatchError(
            f"{path}: observation_encoding {m.observation_encoding} / action_encoding "
            f"{m.action_encoding}; the candidate scorer reads encoding 2 (record version "
            f"{ENCODING2_VERSION}). Version 2 is the padded grid encoding of the MLP bundles "
            "(load those with agents.policy.bundle)"
        )
    theirs = m.encoding.model_dump()
    ours = encoding2_record(int(theirs["capacities"].get("candidates", 1)))
    check_record(theirs, ours, path, "scorer")


class ScorerBundle:
    """A loaded, verified candidate scorer."""

    def __init__(self, manifest: ScorerManifest, tensors: dict[str, F32], path: Path) -> None:
        self.manifest = manifest
        self.tensors = tensors
        self.path = path
        self.dims = scorer_dims(manifest)

    def evaluate(self, obs: dict[str, F32]) -> tuple[F32, float]:
        """(logits over the K candidates, value) of one observation."""
        logits, value = forward(self.tensors, batched(obs), self.dims)
        return logits[0], float(value[0])

    def choose(
        self,
        obs: dict[str, F32],
        mask: NDArray[np.bool_],
        rng: np.random.Generator | None = None,
    ) -> int:
        """The best legal candidate (or one sampled from the policy when ``rng`` is given)."""
        logits, _ = self.evaluate(obs)
        if rng is None:
            return int(np.argmax(np.where(mask, logits, -np.inf)))
        p = masked_probabilities(logits, mask).astype(np.float64)
        return int(rng.choice(len(p), p=p / p.sum()))


def write_scorer_bundle(
    folder: str | Path, tensors: dict[str, F32], *, scenario: str, side: str,
    network: Network | None = None, training: dict[str, Any] | None = None, k: int = 512,
    trained_on: dict[str, Any] | None = None,
) -> Path:  # fmt: skip
    """Write a scorer bundle for the current encoding 2 (record with ``k`` candidates)."""
    path = Path(folder)
    m = ScorerManifest(
        observation_encoding=ENCODING2_VERSION,
        action_encoding=ENCODING2_VERSION,
        encoding=EncodingRecord.model_validate(encoding2_record(k)),
        network=network or Network(),
        scenario=scenario,
        side=side,
        training=training or {},
        trained_on=None if trained_on is None else TrainedOn.model_validate(trained_on),
        weights_sha256=write_weights(path, tensors),
    )
    _atomic_write(path / MANIFEST, sealed_manifest(m.model_dump(mode="json"), ScorerManifest))
    return path


def load_scorer_bundle(folder: str | Path) -> ScorerBundle:
    """Load and verify a scorer bundle; :class:`BundleError` says what is wrong (the file
    checks are the MLP bundles', :mod:`agents.policy.files`)."""
    path = Path(folder)
    mpath = path / MANIFEST
    m, data = read_manifest(mpath, ScorerManifest)
    check_checksums(mpath, data, path / WEIGHTS, m.weights_sha256)
    check_encoding2(m, path)
    tensors = read_float32_tensors(path / WEIGHTS, param_shapes(scorer_dims(m)), BundleError)
    return ScorerBundle(m, tensors, path)
