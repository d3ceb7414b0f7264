"""The files of a bundle (MLP policy or candidate scorer): limits, checksums, safetensors.

What every bundle format checks the same way before it looks at its own manifest fields:
only regular files under a size limit are read; the manifest is strict JSON (no duplicate
keys, no NaN) validated by the format's pydantic model; its own checksum
(``manifest_sha256``) and the weights' sha256 must match; the safetensors header is read
before any tensor (names, float32, shapes) and every value must be finite. Writing is
atomic per file. numpy only.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ValidationError

from agents.policy.manifest import (
    DIGEST_FIELD,
    MAX_MANIFEST_BYTES,
    MAX_PARAMETERS,
    manifest_digest,
    parse_manifest_json,
)

MANIFEST = "manifest.json"
WEIGHTS = "policy.safetensors"
MAX_WEIGHTS_BYTES = MAX_PARAMETERS * 4 + (1 << 20)  # float32 weights plus a header

F32 = NDArray[np.float32]
M = TypeVar("M", bound=BaseModel)


class BundleError(ValueError):
    """A policy bundle is missing, malformed, tampered with or does not fit the env."""


class EncodingMismatchError(BundleError):
    """The bundle was trained on another observation/action encoding than the env's."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _regular_file(path: Path, limit: int) -> int:
    """The size of ``path``, a regular file of at most ``limit`` bytes, or BundleError
    (missing, a symlink loop, a device or FIFO that would block or never end, too big)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise BundleError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise BundleError(f"{path}: not a regular file")
    if info.st_size > limit:
        raise BundleError(f"{path}: {info.st_size} bytes; the limit is {limit}")
    return info.st_size


def read_manifest(path: Path, model: type[M]) -> tuple[M, dict[str, Any]]:
    """The manifest at ``path`` (a regular file under the size limit, JSON without
    duplicate keys or constants) validated by ``model``; BundleError lists every problem."""
    _regular_file(path, MAX_MANIFEST_BYTES)
    try:
        raw = path.read_bytes()
        data = parse_manifest_json(raw[: MAX_MANIFEST_BYTES + 1])
    except OSError as exc:
        raise BundleError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise BundleError(f"{path}: {exc}") from None
    field = model.model_fields.get("format")
    fmt = field.default if field is not None else None
    if data.get("format", fmt) != fmt:  # the other kind of bundle: say so, not 20 fields
        raise BundleError(
            f"{path}: format {data.get('format')!r}; this loader reads {fmt!r} bundles "
            "('cwenv-policy': the MLP policies, policy:<bundle>; 'cwenv-scorer': the "
            "candidate scorers of encoding 2, scorer:<bundle>)"
        )
    try:
        manifest = model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}"
            for e in exc.errors(include_url=False)
        )
        raise BundleError(f"{path}: {problems}") from None
    return manifest, data


def check_checksums(
    manifest_path: Path, data: dict[str, Any] | None, weights_path: Path, weights_sha256: str
) -> None:
    """The manifest's own checksum (``data``: the manifest as read; None skips it, for
    format 1 only) and the weights' sha256; BundleError says which was changed."""
    if data is not None and data.get(DIGEST_FIELD) is None:
        raise BundleError(f"{manifest_path}: {DIGEST_FIELD}: format_version 2 needs it")
    if data is not None and manifest_digest(data) != data[DIGEST_FIELD]:
        raise BundleError(
            f"{manifest_path}: the manifest's checksum ({DIGEST_FIELD}) does not match its "
            "content; the manifest was edited"
        )
    _regular_file(weights_path, MAX_WEIGHTS_BYTES)
    actual = sha256_of(weights_path)
    if actual != weights_sha256:
        raise BundleError(
            f"{weights_path}: sha256 {actual} does not match the manifest "
            f"({weights_sha256}); the weights were changed"
        )


def read_float32_tensors(
    path: Path, expected: dict[str, tuple[int, ...]] | None, error: type[ValueError]
) -> dict[str, F32]:
    """The tensors of a safetensors file, read by the safetensors library (no pickle).

    The header is checked before any tensor is read: exactly the ``expected`` names (any
    names when None), each float32 (numpy has no bfloat16, and a policy computes in
    float32) with the expected shape; then every value must be finite. Problems raise
    ``error`` naming the file."""
    from safetensors import SafetensorError, safe_open

    out: dict[str, F32] = {}
    try:
        with safe_open(str(path), framework="numpy") as f:
            names = set(f.keys())
            if expected is not None and names != set(expected):
                raise error(
                    f"{path}: tensors {sorted(names)} do not match the expected {sorted(expected)}"
                )
            for name in sorted(names):
                part = f.get_slice(name)
                if part.get_dtype() != "F32":
                    raise error(f"{path}: {name} is {part.get_dtype()}; only F32 is supported")
                shape = tuple(part.get_shape()) if expected is None else expected[name]
                if tuple(part.get_shape()) != shape:
                    raise error(
                        f"{path}: {name} has shape {tuple(part.get_shape())}, expected {shape}"
                    )
                array = f.get_tensor(name)
                if not np.isfinite(array).all():
                    raise error(f"{path}: {name} holds non-finite values")
                out[name] = array
    except (SafetensorError, OSError, TypeError) as exc:
        raise error(f"{path}: not a valid safetensors file ({exc})") from None
    except ValueError as exc:
        if isinstance(exc, error):
            raise
        raise error(f"{path}: not a valid safetensors file ({exc})") from None
    return out


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


def sealed_manifest(data: dict[str, Any], model: type[BaseModel]) -> bytes:
    """The manifest ``data`` as written, with its checksum filled in; it must validate
    with ``model`` (what is written must load)."""
    data[DIGEST_FIELD] = None
    data[DIGEST_FIELD] = manifest_digest(data)
    model.model_validate(data)
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_weights(folder: Path, tensors: dict[str, F32]) -> str:
    """Write ``tensors`` as the bundle's safetensors file (atomically); its sha256."""
    from safetensors.numpy import save

    folder.mkdir(parents=True, exist_ok=True)
    weights = save({k: np.ascontiguousarray(v, dtype=np.float32) for k, v in tensors.items()})
    _atomic_write(folder / WEIGHTS, weights)
    return hashlib.sha256(weights).hexdigest()
