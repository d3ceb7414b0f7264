"""The observation's feature names, with the padded sections they contain.

Every list is built from a spec: a plain name is one feature, a :class:`Padded` entry is
one feature per slot of a capacity (``condition_0`` … ``condition_15``: slot ``k`` holds
the member of value ``k``, see :mod:`cwenv.envs.capacity`). The names are what the
encoding fingerprint hashes; built with the capacities of an older encoding they give
its layout, which is how an old bundle's weights are mapped onto this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cwenv.envs.capacity import CAPACITIES, Capacities


@dataclass(frozen=True)
class Padded:
    """One feature per slot of the padded section ``section`` (a ``Capacities`` field)."""

    prefix: str
    section: str


Spec = tuple[str | Padded, ...]

SELF_SPEC: Spec = (
    "lp_fraction", "lp_max/60", Padded("condition", "conditions"),
    "zehrend/3", "down", "dead", "fled", "reactions/3", "mumm/5", "mumm_fraction",
    "aim_stacks/3", "armour/10", "movement/10", "size/4", "x", "y", "elevation/10",
    Padded("side", "sides"), "cover_min/3", "cover_max/3",
    "enemies_in_sight/15", "exit_distance/63", "has_exits", "handlung_left", "move_left",
    "extra_action_used", "items/6", "backpack/6", "cyberware_uses/6", "hacks_ready/6",
    "hacks_uploading/6",
)  # fmt: skip
OTHER_SPEC: Spec = (
    "present", "standing", "down", "dead", "fled", "prone", "neutral", "dx", "dy",
    "distance", "elevation_diff/10", "line_of_sight", "their_cover/3", "my_cover/3",
    "lp_fraction", "lp_max/60", Padded("condition", "conditions"),
    "zehrend/3", "reactions/3", "mumm_fraction", "threat", "attackable", "aimed_at",
    "turn_fighter", "context_fighter", "best_range/30", "best_damage/20", "armour/10",
    "movement/10", "size/4", "in_their_melee_reach",
)  # fmt: skip
WEAPON_SPEC: Spec = (
    "present", "drawn", "usable", "melee", "ranged", "area", "ammo_fraction", "range/30",
    "damage/20", "jammed_or_dropped",
)  # fmt: skip
CONTEXT_SPEC: Spec = (
    Padded("decision", "decision_kinds"), "decision_none", "attack_total/30",
    "deciding", "round/limit", "round/50", "has_round_limit", "steps/max_steps",
    "legal_actions/64", "my_turn",
)  # fmt: skip
SPECS: dict[str, Spec] = {
    "self": SELF_SPEC,
    "weapons": WEAPON_SPEC,
    "allies": OTHER_SPEC,
    "enemies": OTHER_SPEC,
    "context": CONTEXT_SPEC,
}
"""The feature spec of every observation key but ``grid`` (whose channels are named in
:data:`cwenv.envs.tables.GRID_CHANNELS`)."""


def feature_names(spec: Sequence[str | Padded], caps: Capacities = CAPACITIES) -> tuple[str, ...]:
    """The feature names of ``spec`` with the sections padded to ``caps``."""
    out: list[str] = []
    for item in spec:
        if isinstance(item, Padded):
            out.extend(f"{item.prefix}_{k}" for k in range(getattr(caps, item.section)))
        else:
            out.append(item)
    return tuple(out)


def feature_map(
    spec: Sequence[str | Padded], old: Capacities, new: Capacities = CAPACITIES
) -> list[int]:
    """Where each feature of ``spec`` under ``old`` capacities sits under ``new`` ones (a
    padded section keeps its first slots; every other feature keeps its order)."""
    out: list[int] = []
    pos = 0
    for item in spec:
        if isinstance(item, Padded):
            n_old, n_new = getattr(old, item.section), getattr(new, item.section)
            if n_old > n_new:
                raise ValueError(f"{item.section}: {n_old} slots do not fit in {n_new}")
            out.extend(range(pos, pos + n_old))
            pos += n_new
        else:
            out.append(pos)
            pos += 1
    return out


SELF_FEATURES = feature_names(SELF_SPEC)
OTHER_FEATURES = feature_names(OTHER_SPEC)
WEAPON_FEATURES = feature_names(WEAPON_SPEC)
CONTEXT_FEATURES = feature_names(CONTEXT_SPEC)
