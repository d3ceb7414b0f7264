"""The converter of issue #14 item 2: events rendered the way they were before their fields
became typed.

Up to commit 8db3e56 the fields code reads were German text; they are enums and ids now:

==================  ===================================  =====================================
event               before                               now
==================  ===================================  =====================================
AttackDeclared      ``means``, ``kind`` ("Angriff" …)    ``mode`` (AttackMode), ``index``,
                                                         ``means``
ReactionUsed        ``what`` ("Verteidigung" …)          ``kind`` (ReactionKind)
StatusChanged       ``status`` ("tot (Pistole)" …)       ``status`` (Status), ``cause``
CheckRolled         ``parts`` as (label, value)          ``parts`` as (Source, value)
TableRolled         ``table`` ("Volltreffer", "Patzer")  ``table`` (TableKind)
DamageRolled        ``mode`` ("normal" …)                ``mode`` (ArmourMode)
MummSpent           ``spend`` (its German name)          ``spend`` (MummSpend)
Acted               ``what`` ("zieht", "zielt auf" …)    ``act`` (Act), ``index``, ``value``
==================  ===================================  =====================================

:func:`legacy_repr` writes an event as its ``repr`` was then (every other event type is
unchanged); the golden digests taken before the change are reproduced from today's games
through it (``tests/test_golden_legacy.py``), which shows that the same dice, choices and
outcomes happen and only the field types changed.

``Acted`` became typed later (issue #16: the native core applies a Handlung from its
fields); its old repr is written the same way, so the digests of before still hold.

``Moved.metres`` counted the cells entered until the Moved-metres fix (a jump over a
crate, X48, told as 1 m); it is the metres of Bewegung spent now. The old reprs write the
count of cells again, so the digests also show that the fix changed nothing but that field.
"""

from __future__ import annotations

from typing import Any

from cwenv.engine import events as ev
from cwenv.engine.narration import status_text
from cwenv.engine.parts import labelled


def _fields(name: str, pairs: list[tuple[str, Any]]) -> str:
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in pairs)})"


def legacy_repr(e: ev.Event) -> str:
    """``repr(e)`` as the event was written before its fields were typed."""
    if isinstance(e, ev.AttackDeclared):
        pairs = [("attacker", e.attacker), ("target", e.target), ("means", e.means)]
        return _fields("AttackDeclared", [*pairs, ("kind", e.mode.label)])
    if isinstance(e, ev.ReactionUsed):
        return _fields(
            "ReactionUsed",
            [("fighter", e.fighter), ("what", e.kind.label), ("left", e.left), ("extra", e.extra)],
        )
    if isinstance(e, ev.StatusChanged):
        return _fields("StatusChanged", [("fighter", e.fighter), ("status", status_text(e))])
    if isinstance(e, ev.CheckRolled):
        pairs = [("fighter", e.fighter), ("purpose", e.purpose), ("parts", labelled(e.parts))]
        rest = ("probenwert", "d1", "d2", "success", "qs", "volltreffer", "patzer", "forced")
        return _fields("CheckRolled", [*pairs, *((k, getattr(e, k)) for k in rest)])
    if isinstance(e, ev.TableRolled):
        pairs = [("fighter", e.fighter), ("table", e.table.label)]
        rest = ("d1", "d2", "minus", "row")
        return _fields("TableRolled", [*pairs, *((k, getattr(e, k)) for k in rest)])
    if isinstance(e, ev.DamageRolled):
        names = ("target", "rolls", "bonus", "armour", "mode", "subtotal", "factor", "total")
        pairs = [(k, e.mode.value if k == "mode" else getattr(e, k)) for k in names]
        tail = [("bare", e.bare), ("direct", e.direct), ("flat", e.flat)]
        return _fields("DamageRolled", [*pairs, *tail])
    if isinstance(e, ev.MummSpent):
        return _fields(
            "MummSpent",
            [("fighter", e.fighter), ("spend", e.spend.label), ("cost", e.cost), ("left", e.left)],
        )
    if isinstance(e, ev.Acted):
        pairs = [("fighter", e.fighter), ("what", e.act.label), ("detail", e.detail)]
        return _fields("Acted", [*pairs, ("target", e.target)])
    if isinstance(e, ev.Moved):  # the cells entered, as metres were told before
        return repr(ev.Moved(e.fighter, e.path, len(e.path), e.how))
    return repr(e)


def legacy_events_hash(events: list[ev.Event]) -> str:
    """A game record's ``events_hash`` (:func:`cwenv.rulesets.cw_record.record_of`) over
    the events as they were written before: the digest the golden games had then."""
    import hashlib

    log = hashlib.sha256()
    for event in events:
        log.update(legacy_repr(event).encode("utf-8"))
        log.update(b"\n")
    return log.hexdigest()[:32]
