"""Policy bundles: safetensors weights + a validated manifest, run with numpy only.

A bundle is a folder::

    manifest.json        what the network is, what it was trained on, the checksums
    policy.safetensors   the weights (no pickled code can hide in this format)

Loading checks the manifest against a strict pydantic model (:mod:`agents.policy.manifest`:
every field typed and bounded, layer kinds and activations from an allow-list), the
checksum of the whole manifest and the sha256 of the weights file, the safetensors header
(float32 only, every tensor's shape against the manifest, before any tensor is read), and
that all values are finite. Only regular files are read, with a size limit. Nothing is
unpickled, and torch is not needed: inference is a few numpy matrix products. Then the
bundle's encoding must be the env's (:mod:`agents.policy.compat`: same fingerprint, the
same rules in the padded slots), or :class:`EncodingMismatchError` says what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from agents.policy.files import (
    F32,
    MANIFEST,
    WEIGHTS,
    BundleError,
    EncodingMismatchError,
    _atomic_write,
    check_checksums,
    read_float32_tensors,
    read_manifest,
    sealed_manifest,
    sha256_of,
    write_weights,
)
from agents.policy.manifest import (
    FORMAT_VERSION,
    Activation,
    BundleRules,
    Layer,
    Manifest,
    ObservationKey,
    TrainingInfo,
    manifest_digest,
)

__all__ = [
    "F32",
    "MANIFEST",
    "WEIGHTS",
    "Activation",
    "BundleError",
    "BundleRules",
    "EncodingMismatchError",
    "Layer",
    "Manifest",
    "ObservationKey",
    "PolicyBundle",
    "TrainingInfo",
    "load_bundle",
    "manifest_digest",
    "read_float32_tensors",
    "sha256_of",
    "upgrade_bundle",
    "write_bundle",
]


def _activate(x: F32, kind: str) -> F32:
    if kind == "tanh":
        return np.tanh(x).astype(np.float32)
    if kind == "relu":
        return np.maximum(x, np.float32(0.0))
    return x


class PolicyBundle:
    """A loaded policy: observation dict → action logits → masked choice.

    Inputs whose weights are all zero (padded observation slots) and outputs whose weights
    and bias are all zero (padded action slots; their logit is exactly 0) are left out of
    the products. That changes no value, and it makes a bundle padded from an older
    encoding compute with exactly its old matrices, so its choices stay bit-identical.
    """

    def __init__(self, manifest: Manifest, tensors: dict[str, F32], path: Path) -> None:
        self.manifest = manifest
        self.path = path
        self._layers = [
            (tensors[f"{layer.name}.weight"], tensors[f"{layer.name}.bias"], layer.activation)
            for layer in manifest.policy
        ]
        self._inputs, self._compact, self._outputs = _compacted(self._layers)
        self._out_size = self._layers[-1][0].shape[0]

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
        if self._inputs is not None:
            x = x[self._inputs]
        for weight, bias, activation in self._compact:
            x = _activate(weight @ x + bias, activation)
        if self._outputs is None:
            return x
        full = np.zeros(self._out_size, dtype=np.float32)
        full[self._outputs] = x
        return full

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


Indices = NDArray[np.intp]


def _compacted(
    layers: Sequence[tuple[F32, F32, str]],
) -> tuple[Indices | None, list[tuple[F32, F32, str]], Indices | None]:
    """(inputs used, the layers without unused rows and columns, outputs computed); None
    where nothing is left out. A row with zero weights and bias gives 0, and every
    activation here maps 0 to 0, so the next layer may drop that input as well."""
    used = layers[0][0].any(axis=0)
    keep: Indices | None = None if used.all() else np.flatnonzero(used)
    inputs, out = keep, list[tuple[F32, F32, str]]()
    for weight, bias, activation in layers:
        live = weight.any(axis=1) | (bias != 0)
        rows: Indices | None = None if live.all() else np.flatnonzero(live)
        w, b = weight, bias
        if keep is not None:
            w = w[:, keep]
        if rows is not None:
            w, b = w[rows], b[rows]
        out.append((np.ascontiguousarray(w), np.ascontiguousarray(b), activation))
        keep = rows
    return inputs, out, keep


def load_bundle(
    folder: str | Path, *, check_encoding: bool = True, old_format: bool = False
) -> PolicyBundle:
    """Load and verify a bundle folder; raise :class:`BundleError` saying what is wrong
    (:class:`EncodingMismatchError` for another encoding; ``check_encoding=False`` and
    ``old_format=True`` only for the upgrade, which reads an old bundle to convert it)."""
    path = Path(folder)
    try:
        if not path.is_dir():
            raise BundleError(
                f"{path}: no such folder; a policy bundle is a folder with {MANIFEST} and {WEIGHTS}"
            )
    except OSError as exc:  # e.g. a symlink loop on some platforms
        raise BundleError(f"{path}: cannot read ({exc.strerror or exc})") from None
    manifest_path = path / MANIFEST
    weights_path = path / WEIGHTS
    manifest, data = read_manifest(manifest_path, Manifest)
    if manifest.format_version == 1 and not old_format:
        # Format 1's checksum covers the weights only: an edited manifest (another scenario,
        # another move_radius) would pass. Refused; the upgrade verifies it once and seals it.
        raise BundleError(
            f"{manifest_path}: format_version 1 (its checksum covers only the weights, so an "
            f"edited manifest would go unnoticed); upgrade it once with: "
            f"python -m agents.policy.bundle upgrade {path}"
        )
    sealed = data if manifest.format_version >= 2 else None
    check_checksums(manifest_path, sealed, weights_path, manifest.weights_sha256)
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
    tensors = read_float32_tensors(weights_path, expected, BundleError)
    if check_encoding:
        from agents.policy.compat import check_encoding as check

        check(manifest, path)
    return PolicyBundle(manifest, tensors, path)


def write_bundle(folder: str | Path, manifest: Manifest, tensors: dict[str, F32]) -> Path:
    """Write weights and manifest (format 2: both checksums are filled in here), each
    file atomically (a crash leaves the old file or the new one, never half of one)."""
    path = Path(folder)
    final = manifest.model_copy(update={"weights_sha256": write_weights(path, tensors)})
    _atomic_write(path / MANIFEST, _manifest_bytes(final))
    return path


def _manifest_bytes(manifest: Manifest) -> bytes:
    """The manifest as written, format 2, with its checksum filled in."""
    data = manifest.model_dump(mode="json")
    data["format_version"] = FORMAT_VERSION
    return sealed_manifest(data, Manifest)


def upgrade_bundle(folder: str | Path) -> Path:
    """Bring a bundle to this cwenv's formats: a format-1 manifest becomes format 2 (issue
    #19: the bundle is first verified by the old rule, weights sha256, then the manifest
    gets its own checksum; the weights file is not touched), and an encoding-1 bundle is
    padded onto the current encoding (issue #14, :func:`agents.policy.compat.pad_bundle`:
    zero weights for the padded inputs and actions, so every choice stays the same)."""
    from agents.policy.compat import pad_bundle, replace_folder

    bundle = load_bundle(folder, check_encoding=False, old_format=True)
    if bundle.manifest.observation_encoding == 1:
        manifest, tensors = pad_bundle(bundle)
        replace_folder(bundle.path, manifest, tensors)
    else:
        _atomic_write(bundle.path / MANIFEST, _manifest_bytes(bundle.manifest))
    load_bundle(folder)
    return bundle.path


if __name__ == "__main__":  # python -m agents.policy.bundle upgrade FOLDER...
    import sys

    if len(sys.argv) < 3 or sys.argv[1] != "upgrade":
        sys.exit("usage: python -m agents.policy.bundle upgrade FOLDER...")
    for name in sys.argv[2:]:
        try:
            print("upgraded", upgrade_bundle(name))
        except (BundleError, OSError) as exc:
            sys.exit(f"error: {exc}")
