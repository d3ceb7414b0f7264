"""German narration: one line per event, read straight off the event log.

``narrate(event, names)`` never looks at the combat state, so a saved log narrates the
same way years later. Example::

    Kira: Pistole gegen Wache 2: Fernkampf 14 − 2 (halbe Deckung) + 2 (Zielen) = 14;
    Wurf 3+4 = 7 → Erfolg, QS 2
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind
from cwenv.engine.parts import Part, labelled
from cwenv.model.types import ArmourMode, MummSpend

Names = Sequence[str]


def _parts(parts: Iterable[Part]) -> str:
    items = labelled(parts)
    if not items:
        return "0"
    first_label, first_value = items[0]
    out = f"{first_label} {first_value}"
    for label, value in items[1:]:
        sign = "+" if value >= 0 else "−"
        out += f" {sign} {abs(value)} ({label})"
    return out


def _check(e: ev.CheckRolled, n: Names) -> str:
    head = f"{n[e.fighter]}: {e.purpose}: {_parts(e.parts)} = {e.probenwert}; "
    if e.forced:
        return head + f"der grosse Wurf (zählt als {e.d1}+{e.d2}) → Volltreffer, QS {e.qs}"
    roll = f"Wurf {e.d1}+{e.d2} = {e.d1 + e.d2} → "
    if e.volltreffer:
        return head + roll + f"Volltreffer, QS {e.qs}"
    if e.success:
        return head + roll + f"Erfolg, QS {e.qs}"
    if e.patzer:
        return head + roll + "Patzer"
    return head + roll + "Misserfolg"


def _cells(path: Sequence[tuple[int, int]]) -> str:
    if not path:
        return ""
    x, y = path[-1]
    return f"nach ({x}, {y})"


def _damage(e: ev.DamageRolled, n: Names) -> str:
    count = len(e.rolls)
    terms = []
    for i, r in enumerate(e.rolls):
        bonus = e.bonus if i < count - e.bare else 0
        term = f"{r}{'+' if bonus >= 0 else '−'}{abs(bonus)}" if bonus else str(r)
        if i >= count - e.direct:
            term += " (direkt)"
        terms.append(term)
    armour = f", Rüstung {e.armour} je Wurf" if e.armour else ""
    flat = f", {'+' if e.flat >= 0 else '−'}{abs(e.flat)} (entwaffnet)" if e.flat else ""
    mode = "" if e.mode is ArmourMode.NORMAL else f" ({e.mode.value})"
    factor = f", {e.factor}" if e.factor else ""
    return (
        f"{n[e.target]} erleidet Schaden{mode}: {' + '.join(terms)}{armour}{flat} = "
        f"{e.subtotal}{factor} → {e.total}"
    )


_RENDER: dict[type[ev.Event], Callable[[Any, Names], str]] = {
    ev.RoundStarted: lambda e, n: f"— Kampfrunde {e.round} —",
    ev.InitiativeRolled: lambda e, n: (
        f"{n[e.fighter]}: Initiative {e.grundwert} + {'+'.join(map(str, e.dice))} = {e.initiative}"
        f" (Handlungen bei {', '.join(map(str, e.steps)) or '—'}; Reaktionen {e.reactions})"
    ),
    ev.TurnStarted: lambda e, n: (
        f"{n[e.fighter]} ist am Zug ({'Durchgang' if e.passes else 'Schritt'} {e.step})"
    ),
    ev.TurnEnded: lambda e, n: f"{n[e.fighter]} beendet den Zug",
    ev.Moved: lambda e, n: f"{n[e.fighter]} {e.how} {e.metres} m {_cells(e.path)}",
    ev.CheckRolled: _check,
    ev.MummSpent: lambda e, n: (
        f"{n[e.fighter]} gibt {e.cost} Mumm aus: {e.spend.label} (noch {e.left})"
    ),
    ev.ResultKept: lambda e, n: (
        f"{n[e.fighter]} behält den {'zweiten' if e.second else 'ersten'} Wurf ({e.total})"
    ),
    ev.ReactionUsed: lambda e, n: (
        f"{n[e.fighter]} reagiert: {e.kind.label}"
        + (" (Mumm: zusätzliche Reaktion)" if e.extra else f" (noch {e.left} Reaktionen)")
    ),
    ev.AttackDeclared: lambda e, n: (
        f"{n[e.attacker]} greift {n[e.target]} an: {e.mode.label} mit {e.means}"
    ),
    ev.AttackFailed: lambda e, n: f"{n[e.attacker]} trifft {n[e.target]} nicht ({e.reason})",
    ev.AttackRedirected: lambda e, n: (
        f"Fehlschuss durch lebende Deckung: W10 = {e.d10} → {n[e.new_target]} wird statt "
        f"{n[e.original]} getroffen"
    ),
    ev.DefenceDeclined: lambda e, n: f"{n[e.defender]} verteidigt sich nicht",
    ev.AttackDefended: lambda e, n: (
        f"{n[e.defender]} wehrt ab ({e.defence_roll} gegen {e.attack_roll})"
    ),
    ev.Hit: lambda e, n: (
        f"Treffer{' (abgeschwächt)' if e.weakened else ''} gegen {n[e.target]}: QS {e.qs}"
        + (f" (inkl. +{e.aim_bonus} Zielen)" if e.aim_bonus else "")
    ),
    ev.TableRolled: lambda e, n: (
        f"{e.table.label}-Tabelle für {n[e.fighter]}: {e.d1}+{e.d2} − {e.minus} = "
        f"{e.d1 + e.d2 - e.minus} → {e.row}"
    ),
    ev.DamageRolled: _damage,
    ev.DamageHalved: lambda e, n: f"{n[e.fighter]} steckt den Treffer weg: {e.before} → {e.after}",
    ev.LPChanged: lambda e, n: f"{n[e.fighter]}: LP {e.before} → {e.after} ({e.cause})",
    ev.ConditionGained: lambda e, n: (
        f"{n[e.fighter]} ist {e.condition}"
        + (f" (statt erneut {e.instead_of})" if e.instead_of else "")
    ),
    ev.ConditionLost: lambda e, n: f"{n[e.fighter]} ist nicht mehr {e.condition} ({e.cause})",
    ev.StatusChanged: lambda e, n: f"{n[e.fighter]} ist {status_text(e)}",
    ev.Acted: lambda e, n: (
        f"{n[e.fighter]} {e.act.label}"
        + (f" {n[e.target]}" if e.target >= 0 else "")
        + (f": {e.detail}" if e.detail else "")
    ),
    ev.ForcedMove: lambda e, n: f"{n[e.fighter]} wird bewegt ({e.cause}) {_cells(e.path)}",
    ev.ClimbedPart: lambda e, n: (
        f"{n[e.fighter]} klettert "
        + (f"nach ({e.ledge[0]}, {e.ledge[1]}) hinab" if e.down else "")
        + ("" if e.down else f"an der Kante ({e.ledge[0]}, {e.ledge[1]}) hoch")
        + f": {e.climbed} von {e.height} m"
    ),
    ev.Fell: lambda e, n: f"{n[e.fighter]} stürzt {e.metres} m: {e.dice}W10 brechender Schaden",
    ev.RoundEnded: lambda e, n: f"Ende der Kampfrunde {e.round}",
    ev.CombatEnded: lambda e, n: f"Kampfende nach {rounds_text(e.rounds)}: {e.winner} ({e.reason})",
}


def status_text(e: ev.StatusChanged) -> str:
    """``kampfunfähig``, ``tot (Pistole)``: a status with its cause, if it has one."""
    return e.status.label + (f" ({e.cause})" if e.cause else "")


def rounds_text(rounds: int) -> str:
    """``1 Runde``, ``3 Runden``."""
    return f"{rounds} Runde" if rounds == 1 else f"{rounds} Runden"


def counter_label(name: str) -> str:
    """The German name of a statistics counter's kind: an action kind (``MOVE`` →
    ``Bewegen``) or a Mumm spend (``GROSSER_WURF`` → ``Den grossen Wurf landen``)."""
    if name in ActionKind.__members__:
        return ActionKind[name].label
    if name in MummSpend.__members__:
        return MummSpend[name].label
    return name


def narrate(event: ev.Event, names: Names) -> str:
    """One German line for ``event``; ``names`` are the roster's names by index."""
    return _RENDER[type(event)](event, names)


def narrate_all(events: Iterable[ev.Event], names: Names) -> list[str]:
    return [narrate(e, names) for e in events]
