"""Domain terms of Corporate Wars as enums and tiny immutable values.

German names are kept for the game's proper terms (Probe, QS, Mumm, condition names);
everything else is English. Nothing here knows about dice, maps or agents.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Any, NamedTuple


class Skill(IntEnum):
    """The twelve Fertigkeiten (P09). The integer value indexes a fighter's skill tuple."""

    COOLNESS = 0
    CONNECTIONS = 1
    DATAMINING = 2
    FERNKAMPF = 3
    HACKING = 4
    KAMPFKUNST = 5
    INFILTRATION = 6
    OPERATIONS = 7
    REFLEXE = 8
    TECHNIK = 9
    UNBEUGSAMKEIT = 10
    WAHRNEHMUNG = 11

    @property
    def label(self) -> str:
        return _SKILL_LABELS[self]

    @classmethod
    def from_label(cls, text: str) -> Skill:
        """Parse a German skill name, case-insensitive (``"Fernkampf"`` → FERNKAMPF)."""
        key = text.strip().lower()
        for skill, label in _SKILL_LABELS.items():
            if label.lower() == key or skill.name.lower() == key:
                return skill
        allowed = ", ".join(_SKILL_LABELS.values())
        raise ValueError(f"unknown skill {text!r}; allowed: {allowed}")


_SKILL_LABELS = {
    Skill.COOLNESS: "Coolness",
    Skill.CONNECTIONS: "Connections",
    Skill.DATAMINING: "Datamining",
    Skill.FERNKAMPF: "Fernkampf",
    Skill.HACKING: "Hacking",
    Skill.KAMPFKUNST: "Kampfkunst",
    Skill.INFILTRATION: "Infiltration",
    Skill.OPERATIONS: "Operations",
    Skill.REFLEXE: "Reflexe",
    Skill.TECHNIK: "Technik",
    Skill.UNBEUGSAMKEIT: "Unbeugsamkeit",
    Skill.WAHRNEHMUNG: "Wahrnehmung",
}

SKILL_COUNT = len(Skill)


class CheckValue(IntEnum):
    """What a Probe is rolled against: a skill, or one of the derived defence values.

    Ausweichen (ASW) and Firewall are stat-block values (R02, R03, X13, X21); every other
    check uses a skill (values 0–11 mirror :class:`Skill`).
    """

    COOLNESS = 0
    CONNECTIONS = 1
    DATAMINING = 2
    FERNKAMPF = 3
    HACKING = 4
    KAMPFKUNST = 5
    INFILTRATION = 6
    OPERATIONS = 7
    REFLEXE = 8
    TECHNIK = 9
    UNBEUGSAMKEIT = 10
    WAHRNEHMUNG = 11
    AUSWEICHEN = 12
    FIREWALL = 13

    @property
    def label(self) -> str:
        if self is CheckValue.AUSWEICHEN:
            return "Ausweichen"
        if self is CheckValue.FIREWALL:
            return "Firewall"
        return Skill(self.value).label


class Side(IntEnum):
    """Factions, in tie-break order (I04, I13): Runner before Gegner before Neutral."""

    RUNNER = 0
    GEGNER = 1
    NEUTRAL = 2

    @property
    def label(self) -> str:
        return ("Runner", "Gegner", "Neutral")[self.value]


class Size(IntEnum):
    """Size categories (X13). Only their order matters (C04 living cover, K01–K05)."""

    WINZIG = 0
    KLEIN = 1
    MITTEL = 2
    GROSS = 3
    RIESIG = 4


class CoverLevel(IntEnum):
    """Deckung (C01): none, half (−2), three-quarter (−4), full (no direct attack)."""

    NONE = 0
    HALF = 1
    THREE_QUARTER = 2
    FULL = 3

    @property
    def penalty(self) -> int:
        """The attack-value modifier of this cover level (C01); FULL forbids the attack."""
        return (0, -2, -4, 0)[self.value]

    @property
    def label(self) -> str:
        return ("keine Deckung", "halbe Deckung", "Dreiviertel-Deckung", "volle Deckung")[
            self.value
        ]

    def stronger(self) -> CoverLevel:
        """One category stronger, capped at FULL (C04: a larger creature as cover)."""
        return CoverLevel(min(self.value + 1, CoverLevel.FULL))


class ArmourMode(Enum):
    """How a damage source meets armour (A06, D01, D02)."""

    NORMAL = "normal"
    BRECHEND = "brechend"  # halves armour (D01)
    DIREKT = "direkt"  # ignores armour (D02)


class WeaponKind(Enum):
    MELEE = "nahkampf"
    RANGED = "fernkampf"


class Condition(IntEnum):
    """Zustände (Z01–Z07); each one's rule is its entry in
    ``cwenv.engine.tables.conditions.CONDITIONS``. Zehrend (Z08) is kept apart: a fighter
    holds any number of kinds of it (``FighterState.zehrend``)."""

    ANGESCHLAGEN = 0
    BENOMMEN = 1
    EINGESCHRAENKT = 2
    ENTMUTIGT = 3
    NIEDERGEWORFEN = 4
    STERBEND = 5
    VERWIRRT = 6

    @property
    def label(self) -> str:
        return _CONDITION_LABELS[self]

    @classmethod
    def from_label(cls, text: str) -> Condition:
        key = text.strip().lower().replace("ä", "ae")
        for cond, label in _CONDITION_LABELS.items():
            if label.lower().replace("ä", "ae") == key or cond.name.lower() == key:
                return cond
        allowed = ", ".join(_CONDITION_LABELS.values())
        raise ValueError(f"unknown condition {text!r}; allowed: {allowed}")


_CONDITION_LABELS = {
    Condition.ANGESCHLAGEN: "angeschlagen",
    Condition.BENOMMEN: "benommen",
    Condition.EINGESCHRAENKT: "eingeschränkt",
    Condition.ENTMUTIGT: "entmutigt",
    Condition.NIEDERGEWORFEN: "niedergeworfen",
    Condition.STERBEND: "sterbend",
    Condition.VERWIRRT: "verwirrt",
}

CONDITION_COUNT = len(Condition)


class Maneuver(IntEnum):
    """Kampfmanöver (K01–K05); each one's rule is its entry in
    ``cwenv.engine.tables.maneuvers.MANEUVERS``."""

    ENTWAFFNEN = 0
    FESTSETZEN = 1
    MITZERREN = 2
    UMREISSEN = 3
    WEGSTOSSEN = 4

    @property
    def label(self) -> str:
        return _MANEUVER_LABELS[self]


_MANEUVER_LABELS = {
    Maneuver.ENTWAFFNEN: "Entwaffnen",
    Maneuver.FESTSETZEN: "Festsetzen",
    Maneuver.MITZERREN: "Mitzerren",
    Maneuver.UMREISSEN: "Umreissen",
    Maneuver.WEGSTOSSEN: "Wegstossen",
}


class AttackMode(IntEnum):
    """How an attack is made (A01, H10, K, R04): with a weapon (``index``: the weapon), a
    hack (the hack), a Kampfmanöver (the :class:`Maneuver`) or a Blockadeangriff (the
    melee weapon)."""

    WEAPON = 0
    HACK = 1
    MANEUVER = 2
    BLOCKADE = 3

    @property
    def label(self) -> str:
        return _ATTACK_LABELS[self]

    @property
    def with_weapon(self) -> bool:
        """A weapon attack or a Blockadeangriff: ``index`` is a weapon."""
        return self is AttackMode.WEAPON or self is AttackMode.BLOCKADE


_ATTACK_LABELS = {
    AttackMode.WEAPON: "Angriff",
    AttackMode.HACK: "Hack",
    AttackMode.MANEUVER: "Kampfmanöver",
    AttackMode.BLOCKADE: "Blockadeangriff",
}


class MummSpend(IntEnum):
    """The nine Mumm spends (M01–M09) with their cost in Mumm points; each one's rule is
    its entry in ``cwenv.engine.tables.mumm.MUMM_SPENDS``."""

    PATZER_ABWENDEN = 1  # M01
    PROBE_VERBESSERN = 2  # M02
    PROBE_WIEDERHOLEN = 3  # M03
    TOD_ABWENDEN = 4  # M04
    ZUSAETZLICHE_REAKTION = 5  # M05
    TREFFER_WEGSTECKEN = 6  # M06
    ZUSAETZLICHE_AKTION = 7  # M07
    ZUSTAND_ABSCHUETTELN = 8  # M08
    GROSSER_WURF = 9  # M09

    @property
    def cost(self) -> int:
        return _MUMM_COSTS[self]

    @property
    def label(self) -> str:
        return _MUMM_LABELS[self]


_MUMM_COSTS = {
    MummSpend.PATZER_ABWENDEN: 1,
    MummSpend.PROBE_VERBESSERN: 1,
    MummSpend.PROBE_WIEDERHOLEN: 1,
    MummSpend.TOD_ABWENDEN: 1,
    MummSpend.ZUSAETZLICHE_REAKTION: 1,
    MummSpend.TREFFER_WEGSTECKEN: 2,
    MummSpend.ZUSAETZLICHE_AKTION: 2,
    MummSpend.ZUSTAND_ABSCHUETTELN: 2,
    MummSpend.GROSSER_WURF: 3,
}

_MUMM_LABELS = {
    MummSpend.PATZER_ABWENDEN: "Patzer abwenden",
    MummSpend.PROBE_VERBESSERN: "Probe verbessern",
    MummSpend.PROBE_WIEDERHOLEN: "Probe wiederholen",
    MummSpend.TOD_ABWENDEN: "Dem Tod von der Schippe springen",
    MummSpend.ZUSAETZLICHE_REAKTION: "Zusätzliche Reaktion",
    MummSpend.TREFFER_WEGSTECKEN: "Treffer wegstecken",
    MummSpend.ZUSAETZLICHE_AKTION: "Zusätzliche Aktion",
    MummSpend.ZUSTAND_ABSCHUETTELN: "Zustand abschütteln",
    MummSpend.GROSSER_WURF: "Den grossen Wurf landen",
}


def _named(members: type[Enum], table: dict[Any, Any], what: str) -> None:
    """Refuse at import an enum member without its entry (a new member's German name)."""
    missing = [m.name for m in members if m not in table]
    if missing:
        raise ImportError(
            f"{members.__name__} without {what} in cwenv/model/types.py: {', '.join(missing)}"
        )


_named(Condition, _CONDITION_LABELS, "a German name")
_named(Maneuver, _MANEUVER_LABELS, "a German name")
_named(AttackMode, _ATTACK_LABELS, "a German name")
_named(MummSpend, _MUMM_LABELS, "a German name")
_named(MummSpend, _MUMM_COSTS, "a cost")


class Cell(NamedTuple):
    """A 1 m × 1 m map cell; x grows east, y grows south."""

    x: int
    y: int
