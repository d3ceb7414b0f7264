"""The kinds an event's fields name (:mod:`cwenv.engine.events`): what a reaction is spent
on, a fighter's change of standing, the table rolled and what an ``Acted`` records. Each
member has a German label for the narration, which no code compares; a member without
one is refused at import.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any


class ReactionKind(IntEnum):
    """What a reaction is spent on (R02–R06)."""

    DEFENCE = 0  # A02, R02
    DROP_PRONE = 1  # R06 Niederwerfen
    BLOCKADE = 2  # R04 Blockadeangriff
    CATCH_FALL = 3  # R05 Sturz abfangen

    @property
    def label(self) -> str:
        return _REACTION_LABELS[self]


_REACTION_LABELS = {
    ReactionKind.DEFENCE: "Verteidigung",
    ReactionKind.DROP_PRONE: "Niederwerfen",
    ReactionKind.BLOCKADE: "Blockadeangriff",
    ReactionKind.CATCH_FALL: "Sturz abfangen",
}


class Status(IntEnum):
    """A change of a fighter's standing in the fight (D05–D09, X44, X45, escaping)."""

    DEAD = 0  # D07 (the event's ``cause`` says of what)
    KAMPFUNFAEHIG = 1  # D05: at 0 LP or below, sterbend
    UNCONSCIOUS = 2  # M04: saved from death at 0 LP
    UNCONSCIOUS_NON_LETHAL = 3  # non-lethal damage to exactly 0 LP
    AWAKE = 4  # healed back to 1 LP or more
    STABILISED = 5  # D08 Volltreffer, D09
    ESCAPED = 6  # left the map by an exit (reach_exit)
    SURPRISED = 7  # X45: lost round 1 to an ambush

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]

    @property
    def knocks_out(self) -> bool:
        """Out of the fight (dead, kampfunfähig or unconscious)."""
        return self in KNOCKED_OUT


_STATUS_LABELS = {
    Status.DEAD: "tot",
    Status.KAMPFUNFAEHIG: "kampfunfähig",
    Status.UNCONSCIOUS: "bewusstlos",
    Status.UNCONSCIOUS_NON_LETHAL: "bewusstlos (nicht-tödlich)",
    Status.AWAKE: "wieder bei Bewusstsein",
    Status.STABILISED: "stabilisiert",
    Status.ESCAPED: "entkommen",
    Status.SURPRISED: "überrascht",
}
KNOCKED_OUT = frozenset(
    {Status.DEAD, Status.KAMPFUNFAEHIG, Status.UNCONSCIOUS, Status.UNCONSCIOUS_NON_LETHAL}
)


class TableKind(IntEnum):
    """The two tables an attack may roll on (A07, A08)."""

    VOLLTREFFER = 0
    PATZER = 1

    @property
    def label(self) -> str:
        return ("Volltreffer", "Patzer")[self]


def _named(members: type[IntEnum], table: Mapping[Any, str]) -> None:
    """Refuse at import a member without its German label."""
    missing = [m.name for m in members if m not in table]
    if missing:
        raise ImportError(f"{members.__name__} without a label in event_kinds.py: {missing}")


class Act(IntEnum):
    """What an :class:`Acted` event records (H03–H11, K01, A08, P08, B02–B04, H06)."""

    SPRINT = 0  # H08
    AIM = 1  # H11
    UPLOAD = 2  # H03
    OPEN_DOOR = 3  # H04
    CLOSE_DOOR = 4  # H04
    DRAW = 5  # H04
    PICK_UP = 6  # H04, K01
    USE_ITEM = 7  # H04 Medikament einnehmen
    RELOAD = 8  # H05
    CYBERWARE = 9  # H09
    ANNOUNCE_HELP = 10  # P08
    HELP = 11  # P08: a helper's successful roll
    FREE_WEAPON = 12  # A08 Waffe blockiert, freed
    FROM_BACKPACK = 13  # H06
    LOSE_ITEM = 14  # H06, X46
    JAMMED = 15  # A08 Waffe blockiert
    LOSE_WEAPON = 16  # K01: a Runner drops the drawn weapon
    DISARMED = 17  # K01, X22: an NSC fights on disarmed
    FAILED = 18  # B02–B04, H07: a difficult step's check failed

    @property
    def label(self) -> str:
        return _ACT_LABELS[self]


_ACT_LABELS = {
    Act.SPRINT: "sprintet",
    Act.AIM: "zielt auf",
    Act.UPLOAD: "lädt hoch",
    Act.OPEN_DOOR: "öffnet die Tür",
    Act.CLOSE_DOOR: "schliesst die Tür",
    Act.DRAW: "zieht",
    Act.PICK_UP: "hebt auf",
    Act.USE_ITEM: "benutzt",
    Act.RELOAD: "lädt nach",
    Act.CYBERWARE: "setzt Cyberware ein",
    Act.ANNOUNCE_HELP: "sagt Hilfe an",
    Act.HELP: "hilft",
    Act.FREE_WEAPON: "befreit die Waffe",
    Act.FROM_BACKPACK: "holt aus dem Rucksack",
    Act.LOSE_ITEM: "verliert",
    Act.JAMMED: "Waffe blockiert",
    Act.LOSE_WEAPON: "verliert die Waffe",
    Act.DISARMED: "ist entwaffnet",
    Act.FAILED: "scheitert",
}

_named(ReactionKind, _REACTION_LABELS)
_named(Status, _STATUS_LABELS)
_named(Act, _ACT_LABELS)
