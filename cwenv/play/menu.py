"""German labels for actions, with the exact odds of every check a player would make."""

from __future__ import annotations

from collections.abc import Sequence

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.play.prompt_odds import choice_odds

MOVE_KINDS = frozenset({ActionKind.MOVE, ActionKind.SCHWIERIG, ActionKind.DRAG_TO})
"""Actions chosen by typing a cell rather than a menu number (there can be hundreds)."""

_SIMPLE = {
    ActionKind.END_TURN: "Zug beenden",
    ActionKind.SPRINT: "Sprinten",
    ActionKind.AUFSTEHEN: "Aufstehen",
    ActionKind.MUMM_PROBE: "Mumm-Probe (benommen)",
    ActionKind.MUMM_EXTRA_ACTION: "Zusätzliche Aktion (2 Mumm)",
    ActionKind.PRE_NONE: "Kein Mumm",
    ActionKind.PRE_IMPROVE: "Probe verbessern: +2 (1 Mumm)",
    ActionKind.PRE_GROSSER_WURF: "Den grossen Wurf landen (3 Mumm)",
    ActionKind.PRE_ACTIONBONUS: "Actionbonus beanspruchen (+2)",
    ActionKind.POST_ACCEPT: "Ergebnis annehmen",
    ActionKind.POST_REROLL: "Probe wiederholen (1 Mumm)",
    ActionKind.POST_AVERT: "Patzer abwenden (1 Mumm)",
    ActionKind.KEEP_FIRST: "Ersten Wurf behalten",
    ActionKind.KEEP_SECOND: "Zweiten Wurf behalten",
    ActionKind.NO_DEFENCE: "Nicht verteidigen",
    ActionKind.STAY_UP: "Stehen bleiben",
    ActionKind.LET_PASS: "Vorbeilassen",
    ActionKind.NO_CATCH: "Sturz nicht abfangen",
    ActionKind.HALVE_DAMAGE: "Treffer wegstecken: Schaden halbieren (2 Mumm)",
    ActionKind.TAKE_DAMAGE: "Schaden nehmen",
    ActionKind.AVERT_DEATH: "Dem Tod von der Schippe springen (1 Mumm)",
    ActionKind.ACCEPT_DEATH: "Sterben",
    ActionKind.DRAG_STOP: "Nicht zerren",
}


def _mumm(action: Action) -> str:
    return " (Mumm: zusätzliche Reaktion)" if action.mumm else ""


def _pct(p: float) -> str:
    return f"{round(p * 100)} %"


def label(c: Combat, action: Action) -> str:
    """A one-line German description of ``action`` with its exact odds: attacks their hit
    chance, a prompt's choices theirs (:func:`cwenv.play.prompt_odds.choice_odds`)."""
    text = _label(c, action)
    odds = choice_odds(c, action)
    return f"{text} — {odds}" if odds else text


def _label(c: Combat, action: Action) -> str:
    kind = action.kind
    names = c.game.names
    f = c.fighters[action.actor]
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    target = names[action.target] if action.target >= 0 else ""
    preview = preview_attack(c, action)
    if preview is not None:
        odds = f"Treffer {_pct(preview.hit)}, Probenwert {preview.probenwert}"
        if kind is ActionKind.ATTACK:
            return f"Angriff: {f.weapons[action.weapon].name} → {target} ({odds})"
        if kind is ActionKind.MANEUVER:
            return f"{action.maneuver.label} → {target} ({odds})"
        if kind is ActionKind.HACK:
            return f"Hack: {f.spec.hacks[action.hack].name} → {target} ({odds})"
        name = f.weapons[action.weapon].name
        return f"Blockadeangriff: {name} → {target} ({odds}){_mumm(action)}"
    cell = c.bm.cell(action.cell) if action.cell >= 0 else None
    if kind is ActionKind.MOVE:
        return f"Bewegen nach ({cell.x}, {cell.y})" if cell else "Bewegen"
    if kind is ActionKind.SCHWIERIG:
        return f"Schwierige Bewegung nach ({cell.x}, {cell.y})" if cell else "Schwierige Bewegung"
    if kind is ActionKind.DRAG_TO:
        return f"Mitzerren nach ({cell.x}, {cell.y})" if cell else "Mitzerren"
    if kind is ActionKind.ZIELEN:
        return f"Zielen auf {target}"
    if kind is ActionKind.UPLOAD:
        hack = f.spec.hacks[action.hack]
        return f"Uploaden: {hack.name} ({f.upload_progress[action.hack] + 1}/{hack.upload})"
    if kind is ActionKind.DOOR:
        return f"Tür bei ({cell.x}, {cell.y}) öffnen/schliessen" if cell else "Tür"
    if kind is ActionKind.DRAW:
        return f"Waffe ziehen: {f.weapons[action.weapon].name}"
    if kind is ActionKind.PICK_UP:
        return f"Waffe aufheben: {f.weapons[action.weapon].name}"
    if kind is ActionKind.USE_ITEM:
        return f"Benutzen: {f.items[action.item].name}"
    if kind is ActionKind.RELOAD:
        return f"Nachladen: {f.weapons[action.weapon].name}"
    if kind is ActionKind.RUCKSACK:
        return f"Rucksack durchsuchen: {f.backpack[action.backpack_slot].name}"
    if kind is ActionKind.CYBERWARE:
        return f"Cyberware einsetzen: {f.spec.cyberware[action.cyberware].name}"
    if kind is ActionKind.SHAKE:
        return f"{action.condition.label} abschütteln (Probe)"
    if kind is ActionKind.MUMM_SHAKE:
        slot = action.zehrend_slot
        what = action.condition.label if slot is None else f"Zehrend ({f.zehrend[slot]})"
        return f"{what} abschütteln (2 Mumm)"
    if kind is ActionKind.STABILISE:
        return f"{target} stabilisieren (Technik)"
    if kind is ActionKind.HELFEN:
        return f"{target} helfen"
    if kind is ActionKind.FREE_WEAPON:
        return f"Waffe befreien: {f.weapons[action.weapon].name}"
    if kind is ActionKind.CHOOSE_ACTOR:
        return f"{target} handelt zuerst"
    if kind is ActionKind.DEFEND:
        return f"Verteidigen mit {action.skill.label}{_mumm(action)}"
    if kind is ActionKind.DROP_PRONE:
        return f"Niederwerfen{_mumm(action)}"
    if kind is ActionKind.CATCH_FALL:
        return f"Sturz abfangen (Infiltration){_mumm(action)}"
    return kind.name  # pragma: no cover - every kind is labelled above


def split_menu(actions: Sequence[Action]) -> tuple[list[Action], list[Action]]:
    """Menu entries (numbered) and cell choices (typed as coordinates)."""
    numbered = [a for a in actions if a.kind not in MOVE_KINDS]
    cells = [a for a in actions if a.kind in MOVE_KINDS]
    return numbered, cells
