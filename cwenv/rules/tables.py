"""The attack tables for Volltreffer (A07) and Patzer (A08).

Each table is indexed by 2W10 − QS (for the Patzer table: minus the defender's QS, which is
0 when the failed attack drew no defence, X09).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cwenv.model.types import Condition


class CritRow(Enum):
    ZERSCHMETTERTER_LEIB = "Zerschmetterter Leib"
    VERHEERENDER_TREFFER = "Verheerender Treffer"
    TIEFE_WUNDE = "Tiefe Wunde"
    KOPFTREFFER = "Kopftreffer"
    BEINTREFFER = "Beintreffer"
    GEFAEHRLICHER_TREFFER = "Gefährlicher Treffer"
    GEWOEHNLICHER_TREFFER = "Gewöhnlicher Treffer"


@dataclass(frozen=True, slots=True)
class CritEffect:
    row: CritRow
    extra_dice: int
    direct: bool = False
    condition: Condition | None = None
    zehrend: str | None = None


_CRITS = {
    CritRow.ZERSCHMETTERTER_LEIB: CritEffect(CritRow.ZERSCHMETTERTER_LEIB, 2, direct=True),
    CritRow.VERHEERENDER_TREFFER: CritEffect(CritRow.VERHEERENDER_TREFFER, 2),
    CritRow.TIEFE_WUNDE: CritEffect(CritRow.TIEFE_WUNDE, 1, zehrend="Blutung"),
    CritRow.KOPFTREFFER: CritEffect(CritRow.KOPFTREFFER, 1, condition=Condition.VERWIRRT),
    CritRow.BEINTREFFER: CritEffect(CritRow.BEINTREFFER, 1, condition=Condition.EINGESCHRAENKT),
    CritRow.GEFAEHRLICHER_TREFFER: CritEffect(CritRow.GEFAEHRLICHER_TREFFER, 1),
    CritRow.GEWOEHNLICHER_TREFFER: CritEffect(CritRow.GEWOEHNLICHER_TREFFER, 0),
}


def volltreffer_effect(table_roll: int) -> CritEffect:
    """A07: ≤0 Zerschmetterter Leib, 1–2 Verheerend, 3–4 Tiefe Wunde, 5–6 Kopftreffer,
    7–9 Beintreffer, 10–14 Gefährlich, 15+ Gewöhnlich. ``table_roll`` is 2W10 − QS."""
    if table_roll <= 0:
        row = CritRow.ZERSCHMETTERTER_LEIB
    elif table_roll <= 2:
        row = CritRow.VERHEERENDER_TREFFER
    elif table_roll <= 4:
        row = CritRow.TIEFE_WUNDE
    elif table_roll <= 6:
        row = CritRow.KOPFTREFFER
    elif table_roll <= 9:
        row = CritRow.BEINTREFFER
    elif table_roll <= 14:
        row = CritRow.GEFAEHRLICHER_TREFFER
    else:
        row = CritRow.GEWOEHNLICHER_TREFFER
    return _CRITS[row]


class FumbleRow(Enum):
    MUSKELRISS = "Muskelriss"
    UEBERDEHNT = "Überdehnt"
    OFFENE_DECKUNG = "Offene Deckung"
    FEHLTRITT = "Fehltritt"
    WAFFE_BLOCKIERT = "Waffe blockiert"
    ENTMUTIGT = "Entmutigt"
    UNSAUBERER_ANGRIFF = "Unsauberer Angriff"


def patzer_row(table_roll: int) -> FumbleRow:
    """A08: ≤0 Muskelriss, 1–2 Überdehnt, 3–4 Offene Deckung, 5–6 Fehltritt,
    7–9 Waffe blockiert, 10–14 Entmutigt, 15+ Unsauberer Angriff."""
    if table_roll <= 0:
        return FumbleRow.MUSKELRISS
    if table_roll <= 2:
        return FumbleRow.UEBERDEHNT
    if table_roll <= 4:
        return FumbleRow.OFFENE_DECKUNG
    if table_roll <= 6:
        return FumbleRow.FEHLTRITT
    if table_roll <= 9:
        return FumbleRow.WAFFE_BLOCKIERT
    if table_roll <= 14:
        return FumbleRow.ENTMUTIGT
    return FumbleRow.UNSAUBERER_ANGRIFF
