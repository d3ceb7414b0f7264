"""Fixed capacities of the RL encodings: every enumerated section is padded to one.

The shapes of the observation and the size of the action space depend on these constants
only, never on how many members an enum has today. Slot ``k`` of a section holds the
member whose value is ``k``; slots without a member are zero in the observation and
always masked in the action space. Adding a :class:`Condition`, a :class:`Maneuver`, a
:class:`CheckValue`, a :class:`DecisionKind` or a :class:`Side` fills a free slot: no
shape changes, the encoding fingerprint stays, and a trained policy keeps loading (it
warns that it never saw the new member). An enum that outgrows its capacity is a
:class:`LimitError` naming it; raising a capacity changes the fingerprint (a new
encoding, bundles trained on the old one are refused).

New action kinds take their indices from :data:`RESERVED_ACTIONS`, a block at the end of
the action space (see ``ADDED_SECTIONS`` in :mod:`cwenv.envs.layout`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from cwenv.engine.actions import DecisionKind
from cwenv.envs.errors import EncodingError, LimitError
from cwenv.model.types import CheckValue, Condition, Maneuver, Side

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.envs.layout import ActionLayout

# What a scenario may hold (check_limits): rows, slots and the map.
MAX_FIGHTERS = 16
MAX_OTHERS = MAX_FIGHTERS - 1  # rows of ``allies`` and of ``enemies``
TARGET_SLOTS = 1 + 2 * MAX_OTHERS
ENEMY_SLOT0 = 1 + MAX_OTHERS
MAX_WEAPONS = 8  # carried + built-in + unarmed
MAX_HACKS = 6
MAX_ITEMS = 6
MAX_BACKPACK = 6
MAX_CYBERWARE = 6
MAX_MAP_SIDE = 64

# Enumerated sections, padded (slot = the member's value).
MAX_CONDITIONS = 16  # 7 today (Z01-Z07); observation bits and SHAKE/MUMM_SHAKE indices
MAX_MANEUVERS = 8  # 5 today (K01-K05); MANEUVER indices per target slot
MAX_CHECK_VALUES = 16  # 14 today (12 skills, Ausweichen, Firewall); DEFEND indices
MAX_DECISION_KINDS = 16  # 12 today; the context's one-hot prompt kind
MAX_SIDES = 4  # 3 today (Runner, Gegner, Neutral); the self row's side one-hot
RESERVED_ACTIONS = 256  # indices at the end of the action space for new action kinds


@dataclass(frozen=True)
class Capacities:
    """The padded size of every enumerated section (the current encoding by default)."""

    conditions: int = MAX_CONDITIONS
    maneuvers: int = MAX_MANEUVERS
    check_values: int = MAX_CHECK_VALUES
    decision_kinds: int = MAX_DECISION_KINDS
    sides: int = MAX_SIDES
    reserved_actions: int = RESERVED_ACTIONS

    def as_dict(self) -> dict[str, int]:
        return dataclasses.asdict(self)


CAPACITIES = Capacities()
ENCODING_1 = Capacities(
    conditions=7, maneuvers=5, check_values=14, decision_kinds=12, sides=3, reserved_actions=0
)
"""Encoding 1 (before issue #14): every section exactly as long as its enum was then.
Encoding 2 is encoding 1 with padding inserted after each section (no feature or index
moves relative to the others), which is what lets an encoding-1 bundle be padded onto
encoding 2 with identical choices (:mod:`agents.policy.migrate`)."""

ENUMS: dict[str, type[IntEnum]] = {
    "conditions": Condition,
    "maneuvers": Maneuver,
    "check_values": CheckValue,
    "decision_kinds": DecisionKind,
    "sides": Side,
}
"""The enum behind each padded section (slot = the member's value)."""

_CONSTANT = {
    "conditions": "MAX_CONDITIONS",
    "maneuvers": "MAX_MANEUVERS",
    "check_values": "MAX_CHECK_VALUES",
    "decision_kinds": "MAX_DECISION_KINDS",
    "sides": "MAX_SIDES",
    "reserved_actions": "RESERVED_ACTIONS",
}


def constant_of(section: str) -> str:
    """The constant that sets a capacity, for messages (``MAX_CONDITIONS``)."""
    return _CONSTANT.get(section, section)


def members(section: str) -> list[str]:
    """The member names of a padded section in slot order."""
    return [m.name for m in sorted(ENUMS[section], key=int)]


def check_capacities(caps: Capacities = CAPACITIES) -> None:
    """Raise :class:`LimitError` if an enum has more members than its section holds
    (:class:`EncodingError` if its values are not 0, 1, 2, …: slots are values)."""
    problems = []
    for section, enum in ENUMS.items():
        values = sorted(int(m) for m in enum)
        if values != list(range(len(values))):
            raise EncodingError(
                f"{enum.__name__} values {values} are not 0..{len(values) - 1}; the env "
                "encodes a member at the slot of its value"
            )
        cap = getattr(caps, section)
        if len(values) > cap:
            problems.append(
                f"{enum.__name__} has {len(values)} members, the {section} section holds "
                f"{cap} ({constant_of(section)})"
            )
    if problems:
        raise LimitError(
            "the env encoding is too small: "
            + "; ".join(problems)
            + ". Raise the capacity in cwenv/envs/capacity.py: that makes a new encoding "
            "(its fingerprint changes, trained policy bundles must be retrained)"
        )


def max_turn_displacement(game: Game) -> int:
    """The farthest (Chebyshev) a MOVE or SCHWIERIG destination can lie from the mover.

    One turn grants Bewegung once per Handlung (two with M07 if it moves, X38); each SPRINT
    adds Bewegung × (multiplier − 1) (H08, X15); every metre moves at most one cell. Capped
    by the map's longest side.
    """
    o = game.options
    best = 0
    for spec in game.roster:
        m7 = spec.mumm_max >= 2 and (spec.side is Side.RUNNER or o.nsc_mumm)
        handlungen = 2 if m7 else 1
        grants = 2 if m7 and o.mumm_extra_action_moves else 1
        mv = spec.movement
        best = max(best, grants * mv + handlungen * mv * (o.sprint_total_multiplier - 1))
    bm = game.battlemap
    return min(best, max(bm.width, bm.height) - 1)


def max_drag_displacement(game: Game) -> int:
    """K03 Mitzerren: half the dragger's Bewegung (min. 1 m)."""
    return max(max(1, spec.movement // 2) for spec in game.roster)


def check_limits(game: Game, layout: ActionLayout) -> None:
    """Raise :class:`LimitError` if ``game`` does not fit the fixed layout."""
    bm = game.battlemap
    problems = []
    if len(game.roster) > MAX_FIGHTERS:
        problems.append(f"{len(game.roster)} fighters (max {MAX_FIGHTERS})")
    if bm.width > MAX_MAP_SIDE or bm.height > MAX_MAP_SIDE:
        problems.append(f"map {bm.width}×{bm.height} (max {MAX_MAP_SIDE}×{MAX_MAP_SIDE})")
    for spec in game.roster:
        for what, have, cap in (
            ("weapons", len(spec.all_weapons), MAX_WEAPONS),
            ("hacks", len(spec.hacks), MAX_HACKS),
            ("items", len(spec.items), MAX_ITEMS),
            ("backpack items", len(spec.backpack), MAX_BACKPACK),
            ("cyberware", len(spec.cyberware), MAX_CYBERWARE),
        ):
            if have > cap:
                problems.append(f"{spec.name}: {have} {what} (max {cap})")
    need = max_turn_displacement(game)
    if need > layout.move_radius:
        problems.append(f"a move can reach {need} cells; pass move_radius >= {need}")
    drag = max_drag_displacement(game)
    if drag > layout.drag_radius:
        problems.append(f"a drag can reach {drag} cells; pass drag_radius >= {drag}")
    if problems:
        raise LimitError(
            f"scenario {game.name!r} does not fit the env layout: " + "; ".join(problems)
        )
