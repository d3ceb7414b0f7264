"""The parts a Probenwert is summed from (P01, P02), each with its typed source.

A part is ``(source, value)``: the value added to the Probenwert and where it comes from.
:class:`Source` names the kind of source and its id (the check value, the condition, the
weapon's index, the cover level …) for code, and its German label for the narration
(``Fernkampf 14 − 2 (halbe Deckung)``); code reads ``kind`` and ``ref``, never the label.
Sources that do not depend on the content are built once here.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import NamedTuple

from cwenv.model.types import CheckValue, Condition, CoverLevel, Maneuver


class PartKind(IntEnum):
    """Where a part of a Probenwert comes from."""

    VALUE = 0  # the check value itself (ref: CheckValue)
    CONDITION = 1  # a condition's malus (ref: Condition; Z01, Z03, Z04, Z05, Z07)
    BEHINDERUNG = 2  # armour's Behinderung (A01, X42)
    FOCUS = 3  # a cyberware focus (H09), spent by the check
    MUMM = 4  # Probe verbessern (M02)
    ACTIONBONUS = 5  # the declared Actionbonus (P03, X14)
    WEAPON = 6  # the weapon's attack modifier (ref: weapon index)
    HACK = 7  # the hack's modifier (ref: hack index)
    MANEUVER = 8  # the manoeuvre's difficulty (ref: Maneuver; K01, K03)
    RANGE = 9  # the range modifier (A01)
    COVER = 10  # terrain cover (ref: CoverLevel; C01–C04)
    LIVING_COVER = 11  # a creature as cover (ref: CoverLevel; C05)
    PRONE_TARGET = 12  # a niedergeworfen target without cover (R06)
    AIM = 13  # Zielen (H11, X03)
    DISARMED = 14  # a disarmed NSC (K01, X22)
    HELP = 15  # an ally's help (P08)


class Source(NamedTuple):
    """What a part of a Probenwert is: its kind, the id it refers to (−1: none) and its
    German label (presentation only)."""

    kind: PartKind
    ref: int
    label: str


Part = tuple[Source, int]
Parts = tuple[Part, ...]

VALUE_SOURCES = {v: Source(PartKind.VALUE, int(v), v.label) for v in CheckValue}
CONDITION_SOURCES = {c: Source(PartKind.CONDITION, int(c), c.label) for c in Condition}
MANEUVER_SOURCES = {m: Source(PartKind.MANEUVER, int(m), m.label) for m in Maneuver}
COVER_SOURCES = {
    (level, living): Source(
        PartKind.LIVING_COVER if living else PartKind.COVER,
        int(level),
        level.label + (" (lebend)" if living else ""),
    )
    for level in CoverLevel
    for living in (False, True)
}
BEHINDERUNG = Source(PartKind.BEHINDERUNG, -1, "Behinderung")
FOCUS = Source(PartKind.FOCUS, -1, "Fokus")
MUMM = Source(PartKind.MUMM, -1, "Mumm")
ACTIONBONUS = Source(PartKind.ACTIONBONUS, -1, "Actionbonus")
RANGE = Source(PartKind.RANGE, -1, "Entfernung")
PRONE_TARGET = Source(PartKind.PRONE_TARGET, -1, "niedergeworfen")
AIM = Source(PartKind.AIM, -1, "Zielen")
DISARMED = Source(PartKind.DISARMED, -1, "entwaffnet")
HELP = Source(PartKind.HELP, -1, "Hilfe")


def weapon_source(index: int, name: str) -> Source:
    return Source(PartKind.WEAPON, index, name)


def hack_source(index: int, name: str) -> Source:
    return Source(PartKind.HACK, index, name)


def has_kind(parts: Iterable[Part], kind: PartKind) -> bool:
    """Whether any of ``parts`` comes from a source of ``kind``."""
    return any(source.kind is kind for source, _ in parts)


def labelled(parts: Iterable[Part]) -> tuple[tuple[str, int], ...]:
    """The parts as ``(German label, value)`` pairs, as the narration shows them."""
    return tuple((source.label, value) for source, value in parts)
