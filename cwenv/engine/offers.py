"""Which Handlungen are open to a fighter now (H01–H12, K01–K05, P08, D09, A08).

:func:`handlung_actions` lists them for the turn's legality function. It is built from
small *problem* functions, one per condition a Handlung must meet, each returning why the
Handlung is not open (a short English phrase) or None when it is; ``Combat.why_illegal``
asks the same functions, so a rejection's reason is the check that excluded the action.

This module is also the reference of the native core's legality (src/legality.cpp,
docs/native.md): where the core is built, :func:`handlung_actions` is answered by it, the
same list in the same order (tests/test_native_legality.py); ``CWENV_ENGINE=python`` keeps
:func:`reference_handlung_actions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.battlemap import los
from cwenv.battlemap.grid import Terrain
from cwenv.battlemap.los import has_line_of_sight
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.cover import cover_against
from cwenv.engine.movement import movement_allowance
from cwenv.engine.offers_core import native_handlung_actions
from cwenv.engine.tables.conditions import CONDITIONS, SHAKEABLE
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.model.specs import ItemKind
from cwenv.model.types import Condition, CoverLevel, Maneuver, Side, WeaponKind

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat

HELP_RANGE_M = 2

Memo = dict[tuple[int, int], bool]
"""Line of sight and cover per target within one legality pass (shared by every weapon,
Zielen and hack of the pass)."""

OUT_OF_RANGE = "out of range"
NO_SIGHT = "no line of sight"
FULL_COVER = "the target is in full cover (C01)"
TARGET_DOWN = "the target is down"


# -- targets and reach ----------------------------------------------------------------------
def target_problem(c: Combat, f: FighterState, t: FighterState) -> str | None:
    """Whether ``f`` may direct a Handlung at ``t`` at all."""
    if t.idx == f.idx:
        return "a fighter cannot target itself"
    if t.dead:
        return "the target is dead"
    if not t.on_map:
        return "the target has left the map"
    if t.side is f.side and not c.options.friendly_fire:
        return "the target is on the own side (friendly_fire is off)"
    return None


def can_target(c: Combat, f: FighterState, t: FighterState) -> bool:
    return target_problem(c, f, t) is None


def _sight(c: Combat, f: FighterState, t: FighterState, memo: Memo) -> bool:
    key = (t.idx, -1)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = has_line_of_sight(c.bm, c.opaque, f.pos, t.pos)
    return hit


def open_to(c: Combat, f: FighterState, t: FighterState, area: bool, memo: Memo) -> bool:
    """A direct ranged attack on ``t`` is possible: not full cover (C01)."""
    key = (t.idx, int(area))
    hit = memo.get(key)
    if hit is None:
        level = cover_against(c, f, t, ranged=True, area=area).level
        hit = memo[key] = level is not CoverLevel.FULL
    return hit


def weapon_problem(f: FighterState, wi: int) -> str | None:
    """Whether weapon ``wi`` can strike at all (drawn, not lost, jammed or empty)."""
    if not 0 <= wi < len(f.weapons):
        return "no such weapon"
    if f.weapon_usable(wi):
        return None
    if f.jammed >> wi & 1:
        return "the weapon is jammed (A08)"
    if wi < len(f.spec.weapons):
        if f.dropped >> wi & 1:
            return "the weapon was dropped"
        if wi != f.drawn:
            return "the weapon is not drawn (H04)"
    return "the weapon is out of ammunition"


def attack_problem(c: Combat, f: FighterState, t: FighterState, wi: int, memo: Memo) -> str | None:
    """A01, C01: weapon ``wi`` reaches ``t``: in range, in sight (melee), not full cover."""
    w = f.weapons[wi]
    if w.range_modifier(c.bm.distance(f.pos, t.pos)) is None:
        return OUT_OF_RANGE
    if w.kind is WeaponKind.MELEE:
        return None if _sight(c, f, t, memo) else NO_SIGHT
    return None if open_to(c, f, t, w.area_radius > 0, memo) else FULL_COVER


def grapple_problem(c: Combat, f: FighterState, t: FighterState) -> str | None:
    """K: a Kampfmanöver needs a standing target within unarmed reach."""
    if t.down:
        return TARGET_DOWN
    if c.bm.distance(f.pos, t.pos) > 1:
        return "a Kampfmanöver needs an adjacent target"
    return None


def maneuver_allowed(f: FighterState, t: FighterState, m: Maneuver) -> bool:
    """The size limits of K01–K05 (the manoeuvre's ``limit`` in its table entry)."""
    return MANEUVERS[m].limit(f, t) is None


def zielen_weapon_problem(f: FighterState) -> str | None:
    """H11: aiming needs a drawn, usable ranged weapon."""
    drawn = f.weapons[f.drawn] if f.drawn >= 0 else None
    if drawn is None or drawn.kind is not WeaponKind.RANGED or not f.weapon_usable(f.drawn):
        return "Zielen needs a drawn, usable ranged weapon (H11)"
    return None


def zielen_problem(c: Combat, f: FighterState, t: FighterState, memo: Memo) -> str | None:
    """H11, X03: a standing target, below the aim's maximum, in range and not in full cover."""
    if t.down:
        return TARGET_DOWN
    if t.idx == f.aim_target and f.aim_stacks >= c.options.zielen_max_stacks:
        return "aimed at the target as often as the rules allow (X03 zielen_max_stacks)"
    if f.weapons[f.drawn].range_modifier(c.bm.distance(f.pos, t.pos)) is None:
        return OUT_OF_RANGE
    return None if open_to(c, f, t, False, memo) else FULL_COVER


def hack_problem(c: Combat, f: FighterState, t: FighterState, hi: int, memo: Memo) -> str | None:
    """H10: an uploaded hack within its range, not against full cover."""
    hack = f.spec.hacks[hi]
    if c.bm.distance(f.pos, t.pos) > hack.range_m:
        return OUT_OF_RANGE
    return None if open_to(c, f, t, hack.area_radius > 0, memo) else FULL_COVER


# -- the fighter's own state ------------------------------------------------------------------
def door_problem(c: Combat, f: FighterState, cell: int) -> str | None:
    """H04: a door next to the fighter, its doorway empty."""
    bm = c.bm
    if cell not in bm.neighbours[f.pos]:
        return "not next to the fighter"
    if bm.terrain[cell] not in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
        return "no door there"
    if cell in c.occupant:
        return "someone stands in the doorway"
    return None


def reload_problem(f: FighterState, wi: int) -> str | None:
    """H05: the drawn weapon, if it takes a magazine that is not full and reloads are left."""
    if wi != f.drawn or f.drawn < 0:
        return "only the drawn weapon can be reloaded"
    w = f.weapons[wi]
    if not w.uses_ammo or w.nachladen < 1:
        return "the weapon is not reloaded"
    if f.ammo[wi] >= w.magazine:
        return "the magazine is full"
    if f.reloads[wi] == 0:
        return "no reloads left"
    return None


def item_problem(f: FighterState, kind: ItemKind, condition: Condition | None) -> str | None:
    """H04: an item that would do something (LP to heal, a condition to end)."""
    if kind is ItemKind.HEAL:
        return None if f.lp < f.spec.lp else "LP are full"
    if condition is not None and f.conditions >> condition & 1:
        return None
    return "the fighter does not suffer the condition the item ends"


def cyberware_problem(f: FighterState, k: int) -> str | None:
    """H09: cyberware with an ability and uses left."""
    if f.spec.cyberware[k].ability is None:
        return "the cyberware has no ability to use"
    return None if f.cyber_uses[k] > 0 else "no uses left this combat"


def shake_problem(c: Combat, f: FighterState, cond: Condition) -> str | None:
    """H12: a condition held, one a check ends, under its entry's limit."""
    if not f.conditions >> cond & 1:
        return f"the fighter is not {cond.label}"
    rule = CONDITIONS[cond]
    if rule.shake_check is None:
        return f"{cond.label} is not shaken off by a check; it ends by {rule.ends_by}"
    return rule.shake_limit(c.options, f) if rule.shake_limit is not None else None


def stabilise_problem(c: Combat, f: FighterState, t: FighterState) -> str | None:
    """D09, X35: another fighter who is sterbend (next to it under the option)."""
    if t.idx == f.idx:
        return "a fighter cannot stabilise itself"
    if t.dead or not t.on_map:
        return "the patient is dead or gone"
    if not t.conditions >> Condition.STERBEND & 1:
        return "the patient is not sterbend"
    if c.options.stabilise_needs_adjacent and c.bm.distance(f.pos, t.pos) > 1:
        return "the patient is not adjacent (stabilise_needs_adjacent)"
    return None


def helfen_problem(c: Combat, f: FighterState, t: FighterState) -> str | None:
    """P08, X41: a standing ally within 2 m, if the options allow helping in combat."""
    opts = c.options
    if not opts.helfen_in_combat:
        return "helping is off in combat (helfen_in_combat)"
    if f.side is not Side.RUNNER and not opts.nsc_may_help:
        return "NSCs do not help (nsc_may_help)"
    if t.idx == f.idx or t.side is not f.side:
        return "only an ally can be helped"
    if not t.standing:
        return "the ally is not standing"
    if c.bm.distance(f.pos, t.pos) > HELP_RANGE_M:
        return f"the ally is more than {HELP_RANGE_M} m away"
    if f.idx in t.helpers:
        return "this help is announced already (P08)"
    return None


# -- the list -------------------------------------------------------------------------------
def handlung_actions(c: Combat, f: FighterState) -> list[Action]:
    """Handlungen open to ``f`` now (H01–H12, K01–K05, P08): the native core's answer
    where it is built and takes the game, else the reference's."""
    core = los._core
    if core is not None:
        acts = native_handlung_actions(core, c, f)
        if acts is not None:
            return acts
    return reference_handlung_actions(c, f)


def reference_handlung_actions(c: Combat, f: FighterState) -> list[Action]:
    """Handlungen open to ``f`` now (H01–H12, K01–K05, P08), in the order offered."""
    acts: list[Action] = []
    i = f.idx
    bm = c.bm
    prone = f.prone
    targets = [t for t in c.fighters if target_problem(c, f, t) is None]
    usable = [wi for wi in range(len(f.weapons)) if f.weapon_usable(wi)]
    memo: Memo = {}
    for t in targets:  # H01
        for wi in usable:
            if attack_problem(c, f, t, wi, memo) is None:
                acts.append(Action(ActionKind.ATTACK, i, t.idx, arg=wi))
    for t in targets:  # K01–K05: unarmed reach, against standing foes
        if grapple_problem(c, f, t) is not None:
            continue
        for m in Maneuver:
            if MANEUVERS[m].limit(f, t) is None:
                acts.append(Action(ActionKind.MANEUVER, i, t.idx, arg=int(m)))
    if zielen_weapon_problem(f) is None:
        for t in targets:  # H11 Zielen
            if zielen_problem(c, f, t, memo) is None:
                acts.append(Action(ActionKind.ZIELEN, i, t.idx))
    for hi, hack in enumerate(f.spec.hacks):  # H03, H10
        if f.upload_progress[hi] < hack.upload:
            acts.append(Action(ActionKind.UPLOAD, i, arg=hi))
            continue
        for t in targets:
            if hack_problem(c, f, t, hi, memo) is None:
                acts.append(Action(ActionKind.HACK, i, t.idx, arg=hi))
    if movement_allowance(c, f) > 0 and not prone:
        acts.append(Action(ActionKind.SPRINT, i))
    if prone:
        acts.append(Action(ActionKind.AUFSTEHEN, i))
    for n in bm.neighbours[f.pos]:  # H04 doors
        if door_problem(c, f, n) is None:
            acts.append(Action(ActionKind.DOOR, i, cell=n))
    for wi in range(len(f.spec.weapons)):  # H04 draw, pick up
        if f.dropped >> wi & 1:
            acts.append(Action(ActionKind.PICK_UP, i, arg=wi))
        elif wi != f.drawn:
            acts.append(Action(ActionKind.DRAW, i, arg=wi))
    for slot, item in enumerate(f.items):
        if item_problem(f, item.kind, item.condition) is None:
            acts.append(Action(ActionKind.USE_ITEM, i, arg=slot))
    if f.drawn >= 0 and reload_problem(f, f.drawn) is None:
        acts.append(Action(ActionKind.RELOAD, i, arg=f.drawn))
    for slot in range(len(f.backpack)):
        acts.append(Action(ActionKind.RUCKSACK, i, arg=slot))
    for k in range(len(f.spec.cyberware)):
        if cyberware_problem(f, k) is None:
            acts.append(Action(ActionKind.CYBERWARE, i, arg=k))
    for cond in SHAKEABLE:
        if f.conditions >> cond & 1 and shake_problem(c, f, cond) is None:
            acts.append(Action(ActionKind.SHAKE, i, arg=int(cond)))
    for t in c.fighters:  # D09 stabilise another
        if stabilise_problem(c, f, t) is None:
            acts.append(Action(ActionKind.STABILISE, i, t.idx))
    if c.options.helfen_in_combat and (f.side is Side.RUNNER or c.options.nsc_may_help):
        for t in c.fighters:  # P08, X41
            if helfen_problem(c, f, t) is None:
                acts.append(Action(ActionKind.HELFEN, i, t.idx))
    jammed = f.jammed
    wi = 0
    while jammed:
        if jammed & 1:
            acts.append(Action(ActionKind.FREE_WEAPON, i, arg=wi))
        jammed >>= 1
        wi += 1
    return acts
