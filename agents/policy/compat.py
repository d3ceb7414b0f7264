"""Is a bundle's encoding the env's? And the upgrade of an encoding-1 bundle (issue #14).

A bundle of encoding 2 stores the record of :mod:`cwenv.envs.encoding`. It is used only
where its fingerprint is the env's for the bundle's action window and every padded slot
it learned holds the same rule today; otherwise :class:`EncodingMismatchError` names what
changed. A rule in a slot that was free in training is played with one warning
(:func:`unseen_members`).

Encoding 1 (the bundles before issue #14) had every enumerated section exactly as long as
its enum; encoding 2 inserts padding after each of them and a reserve at the end of the
action space, and moves nothing else. :func:`pad_bundle` maps the old weights onto it:
the first layer gets zero columns for the padded features, the head zero rows (and zero
biases) for the padded actions. The policy computes exactly what it did
(:class:`~agents.policy.bundle.PolicyBundle` skips zero inputs and outputs), so every
choice stays the same.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy.bundle import (
    F32,
    EncodingMismatchError,
    Manifest,
    PolicyBundle,
    load_bundle,
    write_bundle,
)
from cwenv.envs.capacity import ENCODING_1
from cwenv.envs.encoding import (
    ENCODING_VERSION,
    encoding_changes,
    encoding_record,
    fingerprint,
    member_changes,
)
from cwenv.envs.features import SPECS, feature_map
from cwenv.envs.layout import ActionLayout, Field
from cwenv.envs.observe import SHAPES

UPGRADE = "python -m agents.policy.bundle upgrade"


def _ours(manifest: Manifest) -> dict[str, Any]:
    return encoding_record(manifest.training.move_radius, manifest.training.drag_radius)


def encoding_fields(record: dict[str, Any] | None) -> dict[str, Any]:
    """The manifest fields that say which encoding a policy was trained on: ``record`` from
    :func:`cwenv.envs.encoding.encoding_record` (None: encoding 1, before records)."""
    if record is None:
        return {"observation_encoding": 1, "action_encoding": 1, "encoding": None}
    version = record["version"]
    return {"observation_encoding": version, "action_encoding": version, "encoding": record}


def current_encoding_fields(move_radius: int, drag_radius: int) -> dict[str, Any]:
    """:func:`encoding_fields` of this cwenv's encoding for one action window."""
    return encoding_fields(encoding_record(move_radius, drag_radius))


def check_encoding(manifest: Manifest, path: Path) -> None:
    """Raise :class:`EncodingMismatchError` unless ``manifest`` fits this cwenv's encoding."""
    if manifest.observation_encoding == 1 or manifest.encoding is None:
        raise EncodingMismatchError(
            f"{path}: the policy uses encoding 1 (unpadded, before issue #14); this cwenv "
            f"reads encoding {ENCODING_VERSION}. Pad it onto encoding {ENCODING_VERSION} "
            f"(its choices stay the same): {UPGRADE} {path}"
        )
    check_record(manifest.encoding.model_dump(), _ours(manifest), path, "policy")


def check_record(theirs: dict[str, Any], ours: dict[str, Any], path: Path, what: str) -> None:
    """A bundle's encoding record (``theirs``) against this cwenv's (``ours``): its own
    fingerprint, then ours, then the rules in the padded slots; the error names the
    differences. Shared by the MLP policies and the candidate scorer (``what``)."""
    if fingerprint(theirs) != theirs["fingerprint"]:
        raise EncodingMismatchError(
            f"{path}: encoding.fingerprint does not match the record it stands for "
            "(the record was edited)"
        )
    if theirs["fingerprint"] != ours["fingerprint"]:
        changes = "; ".join(encoding_changes(theirs, ours))
        raise EncodingMismatchError(
            f"{path}: the {what} was trained on another encoding (fingerprint "
            f"{theirs['fingerprint'][:12]}, this cwenv's is {ours['fingerprint'][:12]}): "
            f"{changes}. Train it again (or export it from its checkpoint) with this cwenv"
        )
    conflicts, _ = member_changes(theirs["members"], ours["members"])
    if conflicts:
        raise EncodingMismatchError(
            f"{path}: the padded slots hold other rules than in training: "
            f"{'; '.join(conflicts)}. Train the {what} again with this cwenv"
        )


def unseen_members(manifest: Manifest) -> list[str]:
    """Rules in slots that were free when the bundle was trained (it never saw them)."""
    if manifest.encoding is None:
        return []
    _, additions = member_changes(manifest.encoding.members, _ours(manifest)["members"])
    return additions


# -- encoding 1 → the current encoding -------------------------------------------------------


def _input_map(manifest: Manifest) -> tuple[list[int], int]:
    """The new flat position of every encoding-1 input (the bundle's key order), and the
    new input width. Rows (allies, enemies, weapons) keep their count; within a row the
    padded sections grow at their end."""
    flat: list[int] = []
    offset = 0
    for key in manifest.observation:
        if key.name not in SHAPES:
            raise EncodingMismatchError(f"observation key {key.name!r} is not one of the env's")
        shape = SHAPES[key.name]
        spec = SPECS.get(key.name)  # None: grid, no padded section
        cols = list(range(shape[-1])) if spec is None else feature_map(spec, ENCODING_1)
        old_shape = (*shape[:-1], len(cols))
        if tuple(key.shape) != old_shape:
            raise EncodingMismatchError(
                f"observation {key.name!r} has shape {tuple(key.shape)}; encoding 1 had "
                f"{old_shape} (not a bundle of the encoding 1 this cwenv can pad)"
            )
        rows = int(np.prod(shape[:-1]))
        flat += [offset + r * shape[-1] + c for r in range(rows) for c in cols]
        offset += int(np.prod(shape))
    return flat, offset


def _action_map(move_radius: int, drag_radius: int, action_size: int) -> tuple[list[int], int]:
    """The new index of every encoding-1 action index, and the new action count."""
    old = ActionLayout(move_radius, drag_radius, capacities=ENCODING_1, added=())
    new = ActionLayout(move_radius, drag_radius)
    if old.size != action_size:
        raise EncodingMismatchError(
            f"{action_size} actions; encoding 1 has {old.size} for move_radius "
            f"{move_radius}, drag_radius {drag_radius} (not a bundle this cwenv can pad)"
        )
    out: list[int] = []
    for section in old.sections:
        target = new.by_kind[section.kind]
        for off in range(section.size):
            if section.field is Field.TARGET_INDEX:  # slot·n + index: n grew
                off = off // section.n * target.n + off % section.n
            out.append(target.start + off)  # every other field pads at its end
    return out, new.size


def pad_bundle(bundle: PolicyBundle) -> tuple[Manifest, dict[str, F32]]:
    """The manifest and tensors of an encoding-1 ``bundle`` padded onto this encoding."""
    m = bundle.manifest
    where = bundle.path
    try:
        inputs, width = _input_map(m)
        actions, size = _action_map(m.training.move_radius, m.training.drag_radius, m.action_size)
    except EncodingMismatchError as exc:
        raise EncodingMismatchError(f"{where}: {exc}") from None
    columns = np.array(inputs, dtype=np.intp)
    rows = np.array(actions, dtype=np.intp)
    layers = bundle.layers()
    tensors: dict[str, F32] = {}
    policy = []
    for k, (layer, (weight, bias, _)) in enumerate(zip(m.policy, layers, strict=True)):
        w, b = np.array(weight), np.array(bias)
        if k == 0:
            w = np.zeros((w.shape[0], width), dtype=np.float32)
            w[:, columns] = weight
        if k == len(layers) - 1:
            w_full = np.zeros((size, w.shape[1]), dtype=np.float32)
            w_full[rows] = w
            b = np.zeros(size, dtype=np.float32)
            b[rows] = bias
            w = w_full
        tensors[f"{layer.name}.weight"], tensors[f"{layer.name}.bias"] = w, b
        policy.append(
            layer.model_copy(update={"in_features": w.shape[1], "out_features": w.shape[0]})
        )
    keys = [key.model_copy(update={"shape": list(SHAPES[key.name])}) for key in m.observation]
    manifest = Manifest.model_validate(
        {
            **m.model_dump(mode="json"),
            **current_encoding_fields(m.training.move_radius, m.training.drag_radius),
            "action_size": size,
            "observation": [k.model_dump() for k in keys],
            "policy": [layer.model_dump() for layer in policy],
            "padded_from": {"encoding": 1, "weights_sha256": m.weights_sha256},
        }
    )
    return manifest, tensors


def replace_folder(path: Path, manifest: Manifest, tensors: dict[str, F32]) -> None:
    """Rewrite both files of the bundle at ``path`` as one step: a copy of the folder is
    written and verified, then swapped in (a crash leaves the old bundle or the new one,
    and at worst both, under a hidden sibling name)."""
    tmp, old = path.with_name(f".{path.name}.upgrade"), path.with_name(f".{path.name}.old")
    for stale in (tmp, old):
        shutil.rmtree(stale, ignore_errors=True)
    shutil.copytree(path, tmp, symlinks=True)
    write_bundle(tmp, manifest, tensors)
    load_bundle(tmp)
    path.rename(old)
    tmp.rename(path)
    shutil.rmtree(old, ignore_errors=True)
