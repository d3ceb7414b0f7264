"""The fixed action layout: one ``Discrete`` index for every engine :class:`Action`.

The index space is cut into sections, one per :class:`ActionKind`, in the order of
:data:`SECTIONS`. Inside a section the fields of the action are laid out row-major:

* ``cell`` (MOVE, SCHWIERIG, DRAG_TO): the destination relative to the deciding fighter,
  in a square window of radius ``move_radius`` (``drag_radius`` for DRAG_TO):
  ``(dy + r) * (2r + 1) + (dx + r)``;
* ``target``: the target *slot* seen from the decider: 0 is the decider itself,
  1–15 its allies in roster order (row ``slot − 1`` of the ``allies`` observation),
  16–30 everyone else in roster order (row ``slot − 16`` of ``enemies``);
* ``index``: weapon, hack, item, backpack, cyberware, condition, check value or manoeuvre;
  enumerated indices (conditions, check values, manoeuvres) are padded to their capacity
  (:mod:`cwenv.envs.capacity`), so a new enum member fills a free, always-masked slot;
* ``mumm``: 0 = pay with a reaction, 1 = pay with Mumm (M05);
* DOOR ``cell``: one of the 8 neighbours, ``NEIGHBOURS`` order.

After the last section, :data:`~cwenv.envs.capacity.RESERVED_ACTIONS` indices are kept
free for action kinds added later (:data:`ADDED_SECTIONS`).

Prompt answers whose ``target`` is fixed by the prompt (the attacker of a DEFEND, the mover
of a BLOCKADE, the dragged fighter of a DRAG) do not encode it. Encoding is checked to be
injective on every legal-action list; a legal action that does not fit raises
:class:`EncodingError` (never masked out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import numpy.typing as npt

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.game import Game

# The scenario limits live in cwenv.envs.capacity; they are re-exported from here, their
# old home, for the modules that import them from the layout.
from cwenv.envs.capacity import (
    CAPACITIES,
    ENEMY_SLOT0 as ENEMY_SLOT0,
    MAX_BACKPACK as MAX_BACKPACK,
    MAX_CYBERWARE as MAX_CYBERWARE,
    MAX_FIGHTERS as MAX_FIGHTERS,
    MAX_HACKS as MAX_HACKS,
    MAX_ITEMS as MAX_ITEMS,
    MAX_MAP_SIDE as MAX_MAP_SIDE,
    MAX_OTHERS as MAX_OTHERS,
    MAX_WEAPONS as MAX_WEAPONS,
    TARGET_SLOTS as TARGET_SLOTS,
    Capacities,
    check_capacities,
    check_limits as check_limits,
    constant_of,
    max_drag_displacement as max_drag_displacement,
    max_turn_displacement as max_turn_displacement,
)
from cwenv.envs.errors import EncodingError, LimitError

DEFAULT_MOVE_RADIUS = 24
DEFAULT_DRAG_RADIUS = 8
NEIGHBOURS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_NEIGHBOUR_SLOT = {d: k for k, d in enumerate(NEIGHBOURS)}

IntArray = npt.NDArray[np.int64]


class Field(IntEnum):
    NONE = 0
    MOVE_CELL = 1  # relative cell in the movement window
    DRAG_CELL = 2  # relative cell in the drag window
    TARGET = 3
    TARGET_INDEX = 4
    INDEX = 5
    INDEX_MUMM = 6
    MUMM = 7
    NEIGHBOUR = 8


K = ActionKind
Count = int | str  # a fixed count, or the name of a padded section in ``Capacities``
SECTIONS: tuple[tuple[ActionKind, Field, Count], ...] = (
    (K.END_TURN, Field.NONE, 1),
    (K.SPRINT, Field.NONE, 1),
    (K.AUFSTEHEN, Field.NONE, 1),
    (K.MUMM_PROBE, Field.NONE, 1),
    (K.MUMM_EXTRA_ACTION, Field.NONE, 1),
    (K.MOVE, Field.MOVE_CELL, 1),
    (K.SCHWIERIG, Field.MOVE_CELL, 1),
    (K.ATTACK, Field.TARGET_INDEX, MAX_WEAPONS),
    (K.MANEUVER, Field.TARGET_INDEX, "maneuvers"),
    (K.ZIELEN, Field.TARGET, 1),
    (K.HACK, Field.TARGET_INDEX, MAX_HACKS),
    (K.STABILISE, Field.TARGET, 1),
    (K.HELFEN, Field.TARGET, 1),
    (K.CHOOSE_ACTOR, Field.TARGET, 1),
    (K.DOOR, Field.NEIGHBOUR, len(NEIGHBOURS)),
    (K.UPLOAD, Field.INDEX, MAX_HACKS),
    (K.DRAW, Field.INDEX, MAX_WEAPONS),
    (K.PICK_UP, Field.INDEX, MAX_WEAPONS),
    (K.RELOAD, Field.INDEX, MAX_WEAPONS),
    (K.FREE_WEAPON, Field.INDEX, MAX_WEAPONS),
    (K.USE_ITEM, Field.INDEX, MAX_ITEMS),
    (K.RUCKSACK, Field.INDEX, MAX_BACKPACK),
    (K.CYBERWARE, Field.INDEX, MAX_CYBERWARE),
    (K.SHAKE, Field.INDEX, "conditions"),
    (K.MUMM_SHAKE, Field.INDEX, "conditions"),
    (K.PRE_NONE, Field.NONE, 1),
    (K.PRE_IMPROVE, Field.NONE, 1),
    (K.PRE_GROSSER_WURF, Field.NONE, 1),
    (K.PRE_ACTIONBONUS, Field.NONE, 1),
    (K.POST_ACCEPT, Field.NONE, 1),
    (K.POST_REROLL, Field.NONE, 1),
    (K.POST_AVERT, Field.NONE, 1),
    (K.KEEP_FIRST, Field.NONE, 1),
    (K.KEEP_SECOND, Field.NONE, 1),
    (K.DEFEND, Field.INDEX_MUMM, "check_values"),
    (K.NO_DEFENCE, Field.NONE, 1),
    (K.DROP_PRONE, Field.MUMM, 2),
    (K.STAY_UP, Field.NONE, 1),
    (K.BLOCKADE_ATTACK, Field.INDEX_MUMM, MAX_WEAPONS),
    (K.LET_PASS, Field.NONE, 1),
    (K.CATCH_FALL, Field.MUMM, 2),
    (K.NO_CATCH, Field.NONE, 1),
    (K.HALVE_DAMAGE, Field.NONE, 1),
    (K.TAKE_DAMAGE, Field.NONE, 1),
    (K.AVERT_DEATH, Field.NONE, 1),
    (K.ACCEPT_DEATH, Field.NONE, 1),
    (K.DRAG_TO, Field.DRAG_CELL, 1),
    (K.DRAG_STOP, Field.NONE, 1),
)
"""The action kinds of encoding 2, in index order: (kind, field layout, count of its index).
Never insert or reorder: that moves indices and changes the encoding fingerprint."""
ADDED_SECTIONS: tuple[tuple[ActionKind, Field, Count], ...] = ()
"""Action kinds added after encoding 2, oldest first. Each takes its indices from the
front of the reserve, so no other index moves and the fingerprint stays: trained bundles
keep loading and warn that they never saw the new kind. A new kind goes here."""
RESERVED = "RESERVED"  # the name of the reserve's section in tables and messages


@dataclass(frozen=True)
class Section:
    kind: ActionKind
    field: Field
    start: int
    size: int
    n: int  # size of the ``index`` field (or 1)


class ActionLayout:
    """The Discrete index space for one (move radius, drag radius) pair.

    ``capacities`` and ``added`` default to the current encoding; other values describe an
    older one (``capacity.ENCODING_1``, ``added=()``), used only to map its indices."""

    def __init__(
        self,
        move_radius: int = DEFAULT_MOVE_RADIUS,
        drag_radius: int = DEFAULT_DRAG_RADIUS,
        capacities: Capacities = CAPACITIES,
        added: Sequence[tuple[ActionKind, Field, Count]] | None = None,
    ) -> None:
        if move_radius < 1 or drag_radius < 1:
            raise ValueError("move_radius and drag_radius must be at least 1")
        current = capacities == CAPACITIES and added is None
        if current:
            check_capacities(capacities)
        self.capacities = capacities
        self.move_radius = move_radius
        self.drag_radius = drag_radius
        self.move_side = 2 * move_radius + 1
        self.drag_side = 2 * drag_radius + 1
        sections: list[Section] = []
        start = 0
        for kind, fld, count in SECTIONS:
            n = count if isinstance(count, int) else getattr(capacities, count)
            sections.append(Section(kind, fld, start, self._size(fld, n), n))
            start += sections[-1].size
        self.base_size = start  # the sections of encoding 2; the reserve follows
        for kind, fld, count in ADDED_SECTIONS if added is None else added:
            n = count if isinstance(count, int) else getattr(capacities, count)
            sections.append(Section(kind, fld, start, self._size(fld, n), n))
            start += sections[-1].size
        self.added = tuple(sections[len(SECTIONS) :])
        self.reserve_start = start
        self.reserve_size = self.base_size + capacities.reserved_actions - start
        if self.reserve_size < 0:
            raise LimitError(
                f"the action kinds added after encoding 2 "
                f"({', '.join(s.kind.name for s in self.added)}) need "
                f"{start - self.base_size} indices; {constant_of('reserved_actions')} is "
                f"{capacities.reserved_actions}"
            )
        self.sections = tuple(sections)
        self.size = start + self.reserve_size
        self.by_kind = {s.kind: s for s in sections}
        missing = set(ActionKind) - set(self.by_kind)
        if missing and current:  # a new engine action kind belongs into ADDED_SECTIONS
            raise EncodingError(
                f"action kinds without a section: {sorted(k.name for k in missing)}; "
                "append them to ADDED_SECTIONS in cwenv/envs/layout.py"
            )
        self._base = [0] * len(ActionKind)
        self._field = [0] * len(ActionKind)
        self._n = [1] * len(ActionKind)
        for s in sections:
            self._base[s.kind] = s.start
            self._field[s.kind] = int(s.field)
            self._n[s.kind] = s.n

    def _size(self, fld: Field, n: int) -> int:
        if fld is Field.MOVE_CELL:
            return self.move_side * self.move_side
        if fld is Field.DRAG_CELL:
            return self.drag_side * self.drag_side
        if fld is Field.TARGET:
            return TARGET_SLOTS
        if fld is Field.TARGET_INDEX:
            return TARGET_SLOTS * n
        if fld is Field.INDEX_MUMM:
            return 2 * n
        return n

    # -- encoding -----------------------------------------------------------------------------
    def encode_all(
        self,
        legal: Sequence[Action],
        px: int,
        py: int,
        xs: Sequence[int],
        ys: Sequence[int],
        slot_of: Sequence[int],
    ) -> IntArray:
        """Indices of ``legal`` for a decider at (px, py); raises :class:`EncodingError` if
        one does not fit or two share an index."""
        out = np.empty(len(legal), dtype=np.int64)
        base, field, nmax = self._base, self._field, self._n
        mr, ms, dr, ds = self.move_radius, self.move_side, self.drag_radius, self.drag_side
        for k, a in enumerate(legal):
            kind = a.kind
            f = field[kind]
            if f == 1 or f == 2:
                r, side = (mr, ms) if f == 1 else (dr, ds)
                dx = xs[a.cell] - px
                dy = ys[a.cell] - py
                if not (-r <= dx <= r and -r <= dy <= r):
                    window = "move_radius" if f == 1 else "drag_radius"
                    raise EncodingError(
                        f"{a!r} lies {max(abs(dx), abs(dy))} cells away; {window}={r} is too small"
                    )
                out[k] = base[kind] + (dy + r) * side + dx + r
                continue
            if f == 0:
                out[k] = base[kind]
                continue
            idx = a.arg
            if f == 3 or f == 4:
                if a.target < 0:
                    raise EncodingError(f"{a!r} names no target")
                slot = slot_of[a.target]
                if f == 3:
                    out[k] = base[kind] + slot
                    continue
                if not 0 <= idx < nmax[kind]:
                    raise EncodingError(f"{a!r}: index {idx} exceeds {nmax[kind]} slots")
                out[k] = base[kind] + slot * nmax[kind] + idx
                continue
            if f == 8:
                d = (xs[a.cell] - px, ys[a.cell] - py)
                if d not in _NEIGHBOUR_SLOT:
                    raise EncodingError(f"{a!r}: the door is not a neighbour of the decider")
                out[k] = base[kind] + _NEIGHBOUR_SLOT[d]
                continue
            if f == 7:
                idx = 0
            elif not 0 <= idx < nmax[kind]:
                raise EncodingError(f"{a!r}: index {idx} exceeds {nmax[kind]} slots")
            if f == 6 or f == 7:
                if a.mumm not in (0, 1):
                    raise EncodingError(f"{a!r}: mumm must be 0 or 1")
                idx = idx * 2 + a.mumm
            out[k] = base[kind] + idx
        return out

    def describe(self, index: int) -> str:
        """A readable name for an index, e.g. ``MOVE dx=+2 dy=-1`` or ``ATTACK slot=16 w=0``."""
        if not 0 <= index < self.size:
            raise ValueError(f"index {index} outside 0..{self.size - 1}")
        for s in self.sections:
            if s.start <= index < s.start + s.size:
                off = index - s.start
                name = s.kind.name
                if s.field in (Field.MOVE_CELL, Field.DRAG_CELL):
                    r = self.move_radius if s.field is Field.MOVE_CELL else self.drag_radius
                    side = 2 * r + 1
                    return f"{name} dx={off % side - r:+d} dy={off // side - r:+d}"
                if s.field is Field.TARGET:
                    return f"{name} slot={off}"
                if s.field is Field.TARGET_INDEX:
                    return f"{name} slot={off // s.n} index={off % s.n}"
                if s.field is Field.INDEX:
                    return f"{name} index={off}"
                if s.field is Field.INDEX_MUMM:
                    return f"{name} index={off // 2} mumm={off % 2}"
                if s.field is Field.MUMM:
                    return f"{name} mumm={off}"
                if s.field is Field.NEIGHBOUR:
                    dx, dy = NEIGHBOURS[off]
                    return f"{name} dx={dx:+d} dy={dy:+d}"
                return name
        return f"{RESERVED} +{index - self.reserve_start} (no action kind yet)"

    def table(self) -> list[tuple[int, int, str, str]]:
        """(first index, last index, kind, fields) for every section: the docs table."""
        names = {
            Field.NONE: "—",
            Field.MOVE_CELL: f"(dy+{self.move_radius})·{self.move_side} + (dx+{self.move_radius})",
            Field.DRAG_CELL: f"(dy+{self.drag_radius})·{self.drag_side} + (dx+{self.drag_radius})",
            Field.TARGET: f"target slot (0–{TARGET_SLOTS - 1})",
            Field.TARGET_INDEX: "slot·{n} + index",
            Field.INDEX: "index (0–{m})",
            Field.INDEX_MUMM: "index·2 + mumm",
            Field.MUMM: "mumm (0/1)",
            Field.NEIGHBOUR: "neighbour (8 directions)",
        }
        rows = []
        for s in self.sections:
            text = names[s.field].format(n=s.n, m=s.n - 1)
            rows.append((s.start, s.start + s.size - 1, s.kind.name, text))
        if self.reserve_size:
            end = self.reserve_start + self.reserve_size - 1
            rows.append((self.reserve_start, end, RESERVED, "for action kinds added later"))
        return rows


class Slots:
    """Target slots and observation rows of every fighter, seen from every decider.

    For decider ``d``: ``allies[d]`` are the other fighters of ``d``'s side and
    ``enemies[d]`` all fighters of other sides (neutrals included), both in roster order;
    ``slot_of[d][i]`` is fighter ``i``'s target slot.
    """

    def __init__(self, game: Game) -> None:
        sides = [spec.side for spec in game.roster]
        n = len(sides)
        self.allies: list[tuple[int, ...]] = []
        self.enemies: list[tuple[int, ...]] = []
        self.slot_of: list[tuple[int, ...]] = []
        for d in range(n):
            allies = tuple(i for i in range(n) if i != d and sides[i] is sides[d])
            enemies = tuple(i for i in range(n) if sides[i] is not sides[d])
            slot = [0] * n
            for k, i in enumerate(allies):
                slot[i] = 1 + k
            for k, i in enumerate(enemies):
                slot[i] = ENEMY_SLOT0 + k
            self.allies.append(allies)
            self.enemies.append(enemies)
            self.slot_of.append(tuple(slot))

    def fighter_at(self, decider: int, slot: int) -> int:
        """The fighter in ``slot`` for ``decider``, or −1 for an empty slot."""
        if slot == 0:
            return decider
        if slot < ENEMY_SLOT0:
            allies = self.allies[decider]
            return allies[slot - 1] if slot - 1 < len(allies) else -1
        enemies = self.enemies[decider]
        k = slot - ENEMY_SLOT0
        return enemies[k] if k < len(enemies) else -1
