"""Policy bundles: safetensors weights + a validated manifest, run with numpy only.

A bundle is a folder::

    manifest.json        what the network is, what it was trained on, the weights' sha256
    policy.safetensors   the weights (no pickled code can hide in this format)

Loading checks the manifest against a pydantic model (layer kinds and activations from an
allow-list), the sha256 of the weights file, the safetensors header, every tensor's shape
against the manifest, and that all values are finite. Nothing is unpickled, and torch is
not needed: inference is a few numpy matrix products.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, ValidationError

MANIFEST = "manifest.json"
WEIGHTS = "policy.safetensors"

Activation = Literal["tanh", "relu", "identity"]
F32 = NDArray[np.float32]


class BundleError(ValueError):
    """A policy bundle is missing, malformed, tampered with or does not fit the env."""


class ObservationKey(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    shape: list[int] = Field(min_length=1)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Layer(BaseModel):
    """A dense layer ``y = act(x @ W.T + b)``; tensors ``<name>.weight`` and ``<name>.bias``."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z_][a-z0-9_.]*$")
    kind: Literal["linear"] = "linear"
    in_features: int = Field(gt=0)
    out_features: int = Field(gt=0)
    activation: Activation


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: Literal["cwenv-policy"] = "cwenv-policy"
    format_version: Literal[1] = 1
    algorithm: Literal["MaskablePPO"]
    observation_encoding: int = Field(ge=1)
    action_encoding: int = Field(ge=1)
    action_size: int = Field(gt=0)
    observation: list[ObservationKey] = Field(min_length=1)
    policy: list[Layer] = Field(min_length=1)
    scenario: str
    side: str
    rules: dict[str, object] = Field(default_factory=dict)
    training: dict[str, object] = Field(default_factory=dict)
    weights_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _activate(x: F32, kind: str) -> F32:
    if kind == "tanh":
        return np.tanh(x).astype(np.float32)
    if kind == "relu":
        return np.maximum(x, np.float32(0.0))
    return x


class PolicyBundle:
    """A loaded policy: observation dict → action logits → masked choice."""

    def __init__(self, manifest: Manifest, tensors: dict[str, F32], path: Path) -> None:
        self.manifest = manifest
        self.path = path
        self._layers = [
            (tensors[f"{layer.name}.weight"], tensors[f"{layer.name}.bias"], layer.activation)
            for layer in manifest.policy
        ]

    @property
    def name(self) -> str:
        return self.path.name

    def layers(self) -> list[tuple[F32, F32, str]]:
        """(weight, bias, activation) of each dense layer, input to logits (read-only)."""
        return list(self._layers)

    def flatten(self, obs: dict[str, NDArray[np.float32]]) -> F32:
        """Concatenate the observation's keys in the manifest's order (SB3's extractor)."""
        parts = []
        for key in self.manifest.observation:
            value = np.asarray(obs[key.name], dtype=np.float32)
            if value.size != key.size:
                raise BundleError(
                    f"observation {key.name!r} has {value.size} values; "
                    f"the policy expects {key.size}"
                )
            parts.append(value.reshape(-1))
        return np.concatenate(parts)

    def logits(self, obs: dict[str, NDArray[np.float32]]) -> F32:
        x = self.flatten(obs)
        for weight, bias, activation in self._layers:
            x = _activate(weight @ x + bias, activation)
        return x

    def probabilities(self, obs: dict[str, NDArray[np.float32]], mask: NDArray[np.bool_]) -> F32:
        """The masked softmax over actions (illegal actions get probability 0)."""
        z = self.logits(obs).astype(np.float64)
        z = np.where(mask, z, -np.inf)
        z -= z.max()
        p = np.exp(z)
        probs: F32 = (p / p.sum()).astype(np.float32)
        return probs

    def choose(
        self,
        obs: dict[str, NDArray[np.float32]],
        mask: NDArray[np.bool_],
        rng: np.random.Generator | None = None,
    ) -> int:
        """Greedy (argmax) over legal actions, or a sample when ``rng`` is given."""
        if not mask.any():
            raise BundleError("no legal action in the mask")
        if rng is None:
            z = np.where(mask, self.logits(obs), -np.inf)
            return int(np.argmax(z))  # ties go to the lowest index, as in torch
        return int(rng.choice(mask.size, p=self.probabilities(obs, mask)))


def load_bundle(folder: str | Path) -> PolicyBundle:
    """Load and verify a bundle folder; raise :class:`BundleError` saying what is wrong."""
    path = Path(folder)
    manifest_path = path / MANIFEST
    weights_path = path / WEIGHTS
    if not manifest_path.is_file():
        raise BundleError(f"{path}: no {MANIFEST}")
    if not weights_path.is_file():
        raise BundleError(f"{path}: no {WEIGHTS}")
    try:
        manifest = Manifest.model_validate_json(manifest_path.read_bytes())
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise BundleError(f"{manifest_path}: {problems}") from None
    actual = sha256_of(weights_path)
    if actual != manifest.weights_sha256:
        raise BundleError(
            f"{weights_path}: sha256 {actual} does not match the manifest "
            f"({manifest.weights_sha256}); the weights were changed"
        )
    tensors = _read_safetensors(weights_path)
    expected: dict[str, tuple[int, ...]] = {}
    width = sum(k.size for k in manifest.observation)
    for layer in manifest.policy:
        if layer.in_features != width:
            raise BundleError(
                f"{manifest_path}: layer {layer.name} takes {layer.in_features} "
                f"inputs but receives {width}"
            )
        expected[f"{layer.name}.weight"] = (layer.out_features, layer.in_features)
        expected[f"{layer.name}.bias"] = (layer.out_features,)
        width = layer.out_features
    if width != manifest.action_size:
        raise BundleError(
            f"{manifest_path}: the last layer gives {width} logits; "
            f"the action space has {manifest.action_size}"
        )
    if set(tensors) != set(expected):
        raise BundleError(
            f"{weights_path}: tensors {sorted(tensors)} do not match the "
            f"manifest's layers {sorted(expected)}"
        )
    for name, shape in expected.items():
        if tensors[name].shape != shape:
            raise BundleError(
                f"{weights_path}: {name} has shape {tensors[name].shape}, the manifest says {shape}"
            )
        if not np.isfinite(tensors[name]).all():
            raise BundleError(f"{weights_path}: {name} holds non-finite values")
    return PolicyBundle(manifest, tensors, path)


def _read_safetensors(path: Path) -> dict[str, F32]:
    """Parse a safetensors file with the safetensors library's numpy reader (no pickle)."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    try:
        raw = load_file(str(path))
    except (SafetensorError, OSError, ValueError) as exc:
        raise BundleError(f"{path}: not a valid safetensors file ({exc})") from None
    out: dict[str, F32] = {}
    for name, array in raw.items():
        if array.dtype != np.float32:
            raise BundleError(f"{path}: {name} is {array.dtype}, expected float32")
        out[name] = array
    return out


def write_bundle(folder: str | Path, manifest: Manifest, tensors: dict[str, F32]) -> Path:
    """Write weights and manifest (the manifest's sha256 is filled in here)."""
    from safetensors.numpy import save_file

    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    weights_path = path / WEIGHTS
    save_file(
        {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in tensors.items()},
        str(weights_path),
    )
    final = manifest.model_copy(update={"weights_sha256": sha256_of(weights_path)})
    (path / MANIFEST).write_text(
        json.dumps(final.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    return path
