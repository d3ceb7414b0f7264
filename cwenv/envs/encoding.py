"""The encoding record: what a trained policy's inputs and outputs mean, and its fingerprint.

A record lists, in order, every action section (kind, field layout, size) and every
observation key (shape, feature names), the capacities, and the encoding version. Its
**fingerprint** is the sha256 of exactly that (canonical JSON): two encodings with the
same fingerprint feed a network the same features at the same positions and read the
same actions from the same logits. The record also names the **members** in the padded
slots (which condition is ``condition_3``); they are not in the fingerprint, because a
member added to a free slot changes no shape or position, but a member that moved or
vanished is a conflict (:func:`member_changes`).

Bump :data:`ENCODING_VERSION` when the meaning of a feature or index changes while its
name stays (a new scale, another order of cells); everything else shows in the names.
Policy bundles store the record (``encoding`` in the manifest) and are refused where the
fingerprint differs, with :func:`encoding_changes` saying what changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from cwenv.envs.capacity import (
    CAPACITIES,
    ENUMS,
    MAX_BACKPACK,
    MAX_CYBERWARE,
    MAX_FIGHTERS,
    MAX_HACKS,
    MAX_ITEMS,
    MAX_MAP_SIDE,
    MAX_OTHERS,
    MAX_WEAPONS,
    TARGET_SLOTS,
    members,
)
from cwenv.envs.features import SPECS, feature_names
from cwenv.envs.layout import RESERVED, ActionLayout
from cwenv.envs.observe import SHAPES
from cwenv.envs.tables import GRID_CHANNELS, PATCH

ENCODING_VERSION = 2
"""1: the unpadded encoding of the bundles before issue #14; 2: padded capacities."""
ADDED_ACTIONS = "added_actions"  # the members of the reserve: action kinds added later

Record = dict[str, Any]


def _canonical(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _body(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: record[k] for k in ("version", "actions", "observation", "capacities")}


def fingerprint(record: Mapping[str, Any]) -> str:
    """sha256 of the record's version, action sections, observation keys and capacities."""
    return hashlib.sha256(_canonical(_body(record))).hexdigest()


def encoding_record(move_radius: int, drag_radius: int) -> Record:
    """The record of this cwenv's encoding for one action window (a JSON-able dict)."""
    layout = ActionLayout(move_radius, drag_radius)
    base = [s for s in layout.sections if s not in layout.added]
    actions = [{"name": s.kind.name, "field": s.field.name.lower(), "size": s.size} for s in base]
    actions.append({"name": RESERVED, "field": "reserve", "size": CAPACITIES.reserved_actions})
    names = {key: list(feature_names(spec)) for key, spec in SPECS.items()}
    names["grid"] = list(GRID_CHANNELS)
    observation = [
        {"key": key, "shape": list(shape), "features": names[key]} for key, shape in SHAPES.items()
    ]
    capacities = {
        **CAPACITIES.as_dict(),
        "fighters": MAX_FIGHTERS,
        "rows": MAX_OTHERS,
        "target_slots": TARGET_SLOTS,
        "weapons": MAX_WEAPONS,
        "hacks": MAX_HACKS,
        "items": MAX_ITEMS,
        "backpack": MAX_BACKPACK,
        "cyberware": MAX_CYBERWARE,
        "map_side": MAX_MAP_SIDE,
        "grid_patch": PATCH,
        "move_radius": move_radius,
        "drag_radius": drag_radius,
    }
    record: Record = {
        "version": ENCODING_VERSION,
        "actions": actions,
        "observation": observation,
        "capacities": capacities,
    }
    record["fingerprint"] = fingerprint(record)
    found = {section: members(section) for section in ENUMS}
    found[ADDED_ACTIONS] = [f"{s.kind.name}:{s.field.name.lower()}:{s.size}" for s in layout.added]
    record["members"] = found
    return record


def _names(items: Sequence[Mapping[str, Any]], key: str) -> list[str]:
    return [str(item[key]) for item in items]


def _listed(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _sequence_changes(what: str, theirs: Sequence[str], ours: Sequence[str]) -> list[str]:
    added = [n for n in ours if n not in theirs]
    removed = [n for n in theirs if n not in ours]
    out = []
    if added:
        out.append(f"{what} added: {_listed(added)}")
    if removed:
        out.append(f"{what} removed: {_listed(removed)}")
    if not added and not removed and list(theirs) != list(ours):
        out.append(f"{what} reordered")
    return out


def encoding_changes(theirs: Mapping[str, Any], ours: Mapping[str, Any]) -> list[str]:
    """What differs between a stored record (``theirs``) and this cwenv's (``ours``), one
    line each: the version, action sections added, removed, resized or reordered,
    observation keys and features, capacities. Empty when the fingerprints agree."""
    out: list[str] = []
    if theirs["version"] != ours["version"]:
        out.append(f"encoding version {theirs['version']} → {ours['version']}")
    t_act = {a["name"]: a for a in theirs["actions"]}
    o_act = {a["name"]: a for a in ours["actions"]}
    out += _sequence_changes(
        "action sections", _names(theirs["actions"], "name"), _names(ours["actions"], "name")
    )
    for name in (n for n in o_act if n in t_act):
        a, b = t_act[name], o_act[name]
        if a["field"] != b["field"]:
            out.append(f"action section {name}: field {a['field']} → {b['field']}")
        if a["size"] != b["size"]:
            out.append(f"action section {name} resized {a['size']} → {b['size']}")
    t_obs = {k["key"]: k for k in theirs["observation"]}
    o_obs = {k["key"]: k for k in ours["observation"]}
    out += _sequence_changes(
        "observation keys", _names(theirs["observation"], "key"), _names(ours["observation"], "key")
    )
    for key in (k for k in o_obs if k in t_obs):
        a, b = t_obs[key], o_obs[key]
        if a["shape"] != b["shape"]:
            out.append(f"observation {key!r} reshaped {tuple(a['shape'])} → {tuple(b['shape'])}")
        out += _sequence_changes(f"observation {key!r} features", a["features"], b["features"])
    t_cap, o_cap = theirs["capacities"], ours["capacities"]
    for name in sorted(set(t_cap) | set(o_cap)):
        if t_cap.get(name) != o_cap.get(name):
            out.append(f"capacity {name}: {t_cap.get(name, '-')} → {o_cap.get(name, '-')}")
    if not out and fingerprint(theirs) != fingerprint(ours):  # pragma: no cover - defensive
        out.append("the records differ")
    return out


def member_changes(
    theirs: Mapping[str, Sequence[str]], ours: Mapping[str, Sequence[str]]
) -> tuple[list[str], list[str]]:
    """(conflicts, additions) between the members a bundle was trained with and ours.

    A conflict is a slot whose member changed or vanished (renamed, reordered, removed):
    the policy would read one rule as another. An addition is a member in a slot that was
    free in training: the policy never saw it (its inputs were 0, its actions masked)."""
    conflicts: list[str] = []
    additions: list[str] = []
    for section in sorted(set(theirs) | set(ours)):
        old, new = list(theirs.get(section, ())), list(ours.get(section, ()))
        for slot, name in enumerate(old):
            now = new[slot] if slot < len(new) else None
            if now != name:
                conflicts.append(f"{section} slot {slot} was {name}, is {now or 'empty'}")
        additions += [f"{section}: {name}" for name in new[len(old) :]]
    return conflicts, additions
