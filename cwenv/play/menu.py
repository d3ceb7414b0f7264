"""Labels for actions from one table, German and English; the German ones with the exact
odds of every check a player would make."""

from __future__ import annotations

from collections.abc import Sequence

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.play.prompt_odds import choice_odds

MOVE_KINDS = frozenset({ActionKind.MOVE, ActionKind.SCHWIERIG, ActionKind.DRAG_TO})
"""Actions chosen by typing a cell rather than a menu number (there can be hundreds)."""

LABELS: dict[ActionKind, tuple[str, str]] = {
    ActionKind.END_TURN: ("Zug beenden", "End turn"),
    ActionKind.SPRINT: ("Sprinten", "Sprint"),
    ActionKind.AUFSTEHEN: ("Aufstehen", "Stand up"),
    ActionKind.MUMM_PROBE: ("Mumm-Probe (benommen)", "Mumm check (benommen)"),
    ActionKind.MUMM_EXTRA_ACTION: ("Zusätzliche Aktion (2 Mumm)", "Extra action (2 Mumm)"),
    ActionKind.PRE_NONE: ("Kein Mumm", "No Mumm"),
    ActionKind.PRE_IMPROVE: ("Probe verbessern: +2 (1 Mumm)", "Improve the check: +2 (1 Mumm)"),
    ActionKind.PRE_GROSSER_WURF: (
        "Den grossen Wurf landen (3 Mumm)",
        "Den grossen Wurf landen: the big roll (3 Mumm)",
    ),
    ActionKind.PRE_ACTIONBONUS: ("Actionbonus beanspruchen (+2)", "Claim the Actionbonus (+2)"),
    ActionKind.POST_ACCEPT: ("Ergebnis annehmen", "Accept the result"),
    ActionKind.POST_REROLL: ("Probe wiederholen (1 Mumm)", "Reroll the check (1 Mumm)"),
    ActionKind.POST_AVERT: ("Patzer abwenden (1 Mumm)", "Avert the Patzer (1 Mumm)"),
    ActionKind.KEEP_FIRST: ("Ersten Wurf behalten", "Keep the first roll"),
    ActionKind.KEEP_SECOND: ("Zweiten Wurf behalten", "Keep the second roll"),
    ActionKind.NO_DEFENCE: ("Nicht verteidigen", "Do not defend"),
    ActionKind.STAY_UP: ("Stehen bleiben", "Stay standing"),
    ActionKind.LET_PASS: ("Vorbeilassen", "Let pass"),
    ActionKind.NO_CATCH: ("Sturz nicht abfangen", "Do not catch the fall"),
    ActionKind.HALVE_DAMAGE: (
        "Treffer wegstecken: Schaden halbieren (2 Mumm)",
        "Treffer wegstecken: halve the damage (2 Mumm)",
    ),
    ActionKind.TAKE_DAMAGE: ("Schaden nehmen", "Take the damage"),
    ActionKind.AVERT_DEATH: (
        "Dem Tod von der Schippe springen (1 Mumm)",
        "Dem Tod von der Schippe springen: cheat death (1 Mumm)",
    ),
    ActionKind.ACCEPT_DEATH: ("Sterben", "Die"),
    ActionKind.DRAG_STOP: ("Nicht zerren", "Do not drag"),
    ActionKind.ATTACK: (
        "Angriff: {weapon} → {target} ({odds})",
        "Attack: {weapon} → {target} ({odds})",
    ),
    ActionKind.MANEUVER: ("{maneuver} → {target} ({odds})", "{maneuver} → {target} ({odds})"),
    ActionKind.HACK: ("Hack: {hack} → {target} ({odds})", "Hack: {hack} → {target} ({odds})"),
    ActionKind.BLOCKADE_ATTACK: (
        "Blockadeangriff: {weapon} → {target} ({odds}){mumm}",
        "Blockade attack: {weapon} → {target} ({odds}){mumm}",
    ),
    ActionKind.MOVE: ("Bewegen nach {cell}", "Move to {cell}"),
    ActionKind.SCHWIERIG: ("Schwierige Bewegung nach {cell}", "Schwierige Bewegung to {cell}"),
    ActionKind.DRAG_TO: ("Mitzerren nach {cell}", "Drag along to {cell}"),
    ActionKind.ZIELEN: ("Zielen auf {target}", "Zielen: aim at {target}"),
    ActionKind.UPLOAD: ("Uploaden: {hack} ({upload})", "Upload: {hack} ({upload})"),
    ActionKind.DOOR: ("Tür bei {cell} öffnen/schliessen", "Open/close the door at {cell}"),
    ActionKind.DRAW: ("Waffe ziehen: {weapon}", "Draw a weapon: {weapon}"),
    ActionKind.PICK_UP: ("Waffe aufheben: {weapon}", "Pick up a weapon: {weapon}"),
    ActionKind.USE_ITEM: ("Benutzen: {item}", "Use: {item}"),
    ActionKind.RELOAD: ("Nachladen: {weapon}", "Reload: {weapon}"),
    ActionKind.RUCKSACK: ("Rucksack durchsuchen: {backpack}", "Search the backpack: {backpack}"),
    ActionKind.CYBERWARE: ("Cyberware einsetzen: {cyberware}", "Use cyberware: {cyberware}"),
    ActionKind.SHAKE: ("{condition} abschütteln (Probe)", "Shake off {condition} (check)"),
    ActionKind.MUMM_SHAKE: ("{condition} abschütteln (2 Mumm)", "Shake off {condition} (2 Mumm)"),
    ActionKind.STABILISE: ("{target} stabilisieren (Technik)", "Stabilise {target} (Technik)"),
    ActionKind.HELFEN: ("{target} helfen", "Help {target}"),
    ActionKind.FREE_WEAPON: ("Waffe befreien: {weapon}", "Free the weapon: {weapon}"),
    ActionKind.CHOOSE_ACTOR: ("{target} handelt zuerst", "{target} acts first"),
    ActionKind.DEFEND: ("Verteidigen mit {skill}{mumm}", "Defend with {skill}{mumm}"),
    ActionKind.DROP_PRONE: ("Niederwerfen{mumm}", "Niederwerfen: drop prone{mumm}"),
    ActionKind.CATCH_FALL: (
        "Sturz abfangen (Infiltration){mumm}",
        "Catch the fall (Infiltration){mumm}",
    ),
}
"""Every action's label, German then English, as a template of the fields
:func:`_fields` fills. Game terms (Mumm, QS, Probenwert, skills, conditions, manoeuvres,
the Mumm spends' names) stay German in the English text, as in the advisor's reasons."""
ODDS = ("Treffer {hit}, Probenwert {pw}", "hit {hit}, Probenwert {pw}")
EXTRA_REACTION = (" (Mumm: zusätzliche Reaktion)", " (Mumm: extra reaction)")


def _pct(p: float) -> str:
    return f"{round(p * 100)} %"


def label(c: Combat, action: Action, english: bool = False) -> str:
    """A one-line description of ``action`` (German, or English with ``english``). The
    German one carries its exact odds: attacks their hit chance, a prompt's choices theirs
    (:func:`cwenv.play.prompt_odds.choice_odds`); the English one the attack odds only (the
    advisor's English reason gives a prompt's)."""
    lang = 1 if english else 0
    text = LABELS[action.kind][lang].format_map(_Fields(_fields(c, action, lang)))
    odds = "" if english else choice_odds(c, action)
    return f"{text} — {odds}" if odds else text


class _Fields(dict[str, str]):
    """A template's values; one the action lacks (an attack the preview cannot size up)
    is left empty rather than failing the menu."""

    def __missing__(self, key: str) -> str:
        return ""


def _fields(c: Combat, action: Action, lang: int) -> dict[str, str]:
    """The values a label template may name, for ``action`` (unknown ones stay empty)."""
    f = c.fighters[action.actor]
    out = {"mumm": EXTRA_REACTION[lang] if action.mumm else ""}
    if action.target >= 0:
        out["target"] = c.game.names[action.target]
    if action.cell >= 0:
        cell = c.bm.cell(action.cell)
        out["cell"] = f"({cell.x}, {cell.y})"
    preview = preview_attack(c, action)
    if preview is not None:
        out["odds"] = ODDS[lang].format(hit=_pct(preview.hit), pw=preview.probenwert)
    kind = action.kind
    if kind in _WEAPON_KINDS:
        out["weapon"] = f.weapons[action.weapon].name
    if kind is ActionKind.MANEUVER:
        out["maneuver"] = action.maneuver.label
    if kind in (ActionKind.HACK, ActionKind.UPLOAD):
        hack = f.spec.hacks[action.hack]
        out["hack"] = hack.name
        out["upload"] = f"{f.upload_progress[action.hack] + 1}/{hack.upload}"
    if kind is ActionKind.USE_ITEM:
        out["item"] = f.items[action.item].name
    if kind is ActionKind.RUCKSACK:
        out["backpack"] = f.backpack[action.backpack_slot].name
    if kind is ActionKind.CYBERWARE:
        out["cyberware"] = f.spec.cyberware[action.cyberware].name
    if kind is ActionKind.SHAKE:
        out["condition"] = action.condition.label
    if kind is ActionKind.MUMM_SHAKE:
        slot = action.zehrend_slot
        out["condition"] = (
            action.condition.label if slot is None else f"Zehrend ({f.zehrend[slot]})"
        )
    if kind is ActionKind.DEFEND:
        out["skill"] = action.skill.label
    return out


_WEAPON_KINDS = frozenset(
    {
        ActionKind.ATTACK,
        ActionKind.BLOCKADE_ATTACK,
        ActionKind.DRAW,
        ActionKind.PICK_UP,
        ActionKind.RELOAD,
        ActionKind.FREE_WEAPON,
    }
)


def split_menu(actions: Sequence[Action]) -> tuple[list[Action], list[Action]]:
    """Menu entries (numbered) and cell choices (typed as coordinates)."""
    numbered = [a for a in actions if a.kind not in MOVE_KINDS]
    cells = [a for a in actions if a.kind in MOVE_KINDS]
    return numbered, cells
