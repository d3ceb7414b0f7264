"""A table-dice prompt in words: whose roll, which die of how many, what it is for.

The engine says what a die is for as a :class:`~cwenv.engine.roll_purposes.RollPurpose`
(fighter ids, an enum); this module makes the German line the table reads
("Schaden Akame → Kenji (Katana, QS 3): W10 1 von 3") and the JSON the service sends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cwenv.engine.payloads import CheckPurpose
from cwenv.engine.roll_purposes import RollKind, RollPurpose

_CHECK_WORDS = {
    CheckPurpose.ATTACK: "Angriff",
    CheckPurpose.DEFENCE: "Verteidigung",
    CheckPurpose.DYING: "Sterbeprobe",
    CheckPurpose.BENOMMEN: "Mumm-Probe (benommen)",
    CheckPurpose.SHAKE: "Zustand abschütteln",
    CheckPurpose.ZEHREND: "Zehrend beenden",
    CheckPurpose.CATCH_FALL: "Sturz abfangen",
    CheckPurpose.MOVE: "Bewegungsprobe",
    CheckPurpose.AMBUSH: "Hinterhalt",
    CheckPurpose.STABILISE: "Stabilisieren",
    CheckPurpose.HELP: "Helfen",
    CheckPurpose.FREE_WEAPON: "Waffe freibekommen",
    CheckPurpose.RUCKSACK: "Rucksack durchsuchen",
}
"""The name of each kind of Probe at the table."""


def _check(p: RollPurpose, n: Callable[[int], str]) -> str:
    value = p.value.label if p.value is not None else ""
    word = _CHECK_WORDS[p.check] if p.check is not None else "Probe"
    if p.check is CheckPurpose.ATTACK and p.target >= 0:
        means = p.label.removesuffix(f" gegen {n(p.target)}")
        return f"Angriff {n(p.fighter)} → {n(p.target)} ({value}, {means})"
    if p.check is CheckPurpose.DEFENCE and p.other >= 0:
        return f"Verteidigung {n(p.fighter)} gegen {n(p.other)} ({value})"
    detail = ", ".join(part for part in (value, p.label) if part and part != word)
    return f"{word} {n(p.fighter)}" + (f" ({detail})" if detail else "")


def _damage(p: RollPurpose, n: Callable[[int], str]) -> str:
    qs = f", QS {p.qs}" if p.qs is not None else ""
    if p.fighter >= 0 and p.fighter != p.target:
        return f"Schaden {n(p.fighter)} → {n(p.target)} ({p.label}{qs})"
    return f"Schaden an {n(p.target)} ({p.label}{qs})"


_TEXTS: dict[RollKind, Callable[[RollPurpose, Callable[[int], str]], str]] = {
    RollKind.INITIATIVE: lambda p, n: f"Initiative {n(p.fighter)}",
    RollKind.TIEBREAK: lambda p, n: f"Gleichstand-Wurf {n(p.fighter)} (Initiative)",
    RollKind.CHECK: _check,
    RollKind.COVER: lambda p, n: (
        f"Deckung durch {n(p.other)} bei {n(p.fighter)} → {n(p.target)}: "
        f"1–5 trifft {n(p.other)} (50 %)"
    ),
    RollKind.VOLLTREFFER: lambda p, n: f"Volltreffer-Tabelle {n(p.fighter)} → {n(p.target)}",
    RollKind.PATZER: lambda p, n: f"Patzer-Tabelle {n(p.fighter)} (Angriff auf {n(p.target)})",
    RollKind.DAMAGE: _damage,
    RollKind.FALL: lambda p, n: f"Sturz {n(p.target)} (brechender Schaden)",
    RollKind.STERBEND_AGAIN: lambda p, n: (
        f"Schaden an {n(p.target)} (sterbend erneut getroffen, direkt)"
    ),
    RollKind.DYING_LOSS: lambda p, n: f"Sterben {n(p.target)} (LP-Verlust)",
    RollKind.HEALING: lambda p, n: f"Heilung {n(p.fighter)}",
}
"""One sentence per kind of roll; a new RollKind without one fails at import."""

_untold = [kind.name for kind in RollKind if kind not in _TEXTS]
if _untold:
    raise ImportError(f"roll kinds without a prompt text: {', '.join(_untold)}")


def roll_text(purpose: RollPurpose, names: Sequence[str]) -> str:
    """The prompt's words: ``Initiative Akame: W10 1 von 2``."""

    def name(i: int) -> str:
        return names[i] if 0 <= i < len(names) else "?"

    what = _TEXTS[purpose.kind](purpose, name)
    return f"{what}: W10 {purpose.index + 1} von {purpose.count}"


def roll_json(purpose: RollPurpose, names: Sequence[str]) -> dict[str, Any]:
    """The purpose for a client: ids and names, the enums by name, and the German line."""

    def name(i: int) -> str | None:
        return names[i] if 0 <= i < len(names) else None

    return {
        "kind": purpose.kind.value,
        "fighter": purpose.fighter,
        "fighter_name": name(purpose.fighter),
        "target": purpose.target,
        "target_name": name(purpose.target),
        "other": purpose.other,
        "other_name": name(purpose.other),
        "die": purpose.index + 1,
        "count": purpose.count,
        "check": None if purpose.check is None else purpose.check.name,
        "value": None if purpose.value is None else purpose.value.name,
        "qs": purpose.qs,
        "label": purpose.label,
        "text": roll_text(purpose, names),
    }
