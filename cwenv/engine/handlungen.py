"""Carrying out a Handlung once it is chosen (H01–H12, K, P08, D09, Z02).

One function per Handlung: ``start`` functions change the state at once or return the
frame that resolves it; Handlungen decided by a check have a ``check`` function (the
Probe) and an ``outcome`` function (what the result does), run by
:class:`CheckedHandlung`. Which function belongs to which Handlung is its entry in
:data:`cwenv.engine.tables.handlungen.HANDLUNGEN`.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import Action, Decision
from cwenv.engine.checks import CheckFrame, check
from cwenv.engine.climbing import ClimbFrame, climb_step
from cwenv.engine.conditions import lose_condition
from cwenv.engine.damage import DamageFrame, heal
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.engine.payloads import CheckPurpose
from cwenv.engine.tables.checks import check_text
from cwenv.engine.tables.conditions import CONDITIONS
from cwenv.invariants import present
from cwenv.model.specs import AbilityKind, ItemKind
from cwenv.model.types import ArmourMode, AttackMode, CheckValue, Condition, WeaponKind
from cwenv.rules.options import RucksackFailure, StabilisePatzerVictim
from cwenv.rules.probe import ProbeResult

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat
    from cwenv.engine.turn import TurnFrame

CheckOf = Callable[["Combat", "FighterState", Action], CheckFrame]
Outcome = Callable[["Combat", "FighterState", Action, ProbeResult], "Frame | None"]


# -- Handlungen that start a procedure or change the state at once -----------------------
def attack(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H01: a weapon attack."""
    from cwenv.engine.attack import AttackFrame

    return AttackFrame(f.idx, action.target, action.weapon, AttackMode.WEAPON)


def maneuver(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """K01–K05: a Kampfmanöver is an attack."""
    from cwenv.engine.attack import AttackFrame

    return AttackFrame(f.idx, action.target, int(action.maneuver), AttackMode.MANEUVER)


def hack(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H10: an uploaded hack."""
    from cwenv.engine.attack import AttackFrame

    return AttackFrame(f.idx, action.target, action.hack, AttackMode.HACK)


def schwierig(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H07: a Schwierige Bewegung, or part of a high ledge's climb (B03, X40)."""
    from cwenv.engine.falls import SchwierigFrame

    climb = climb_step(c, f, action.cell, turn.move_left(c, f), turn.hard_routes)
    if climb is not None:
        turn.moved += climb.metres
        return ClimbFrame(f.idx, climb)
    route = turn.hard_routes.route(action.cell)
    turn.moved += route.metres
    return SchwierigFrame(f.idx, route)


def sprint(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H08, X15: the movement allowance grows to ``sprint_total_multiplier`` times."""
    from cwenv.engine.movement import movement_allowance

    turn.sprint_bonus += movement_allowance(c, f) * (c.options.sprint_total_multiplier - 1)
    c.emit(ev.Acted(f.idx, ev.Act.SPRINT))
    return None


def zielen(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H11, X03: aim at a target; aiming again at it stacks up to the option's maximum."""
    if f.aim_target == action.target:
        f.aim_stacks = min(f.aim_stacks + 1, c.options.zielen_max_stacks)
    else:
        f.aim_target = action.target
        f.aim_stacks = 1
    c.emit(ev.Acted(f.idx, ev.Act.AIM, f"Stufe {f.aim_stacks}", action.target, value=f.aim_stacks))
    return None


def aufstehen(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H02: stand up."""
    lose_condition(c, f, Condition.NIEDERGEWORFEN, "steht auf")
    return None


def upload(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H03: one Handlung of a hack's upload."""
    f.upload_progress[action.hack] += 1
    h = f.spec.hacks[action.hack]
    done = f.upload_progress[action.hack]
    c.emit(
        ev.Acted(f.idx, ev.Act.UPLOAD, f"{h.name} {done}/{h.upload}", index=action.hack, value=done)
    )
    return None


def door(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H04: open or close an adjacent door."""
    opened = not c.door_open(action.cell)
    c.set_door(action.cell, opened)
    c.emit(
        ev.Acted(
            f.idx,
            ev.Act.OPEN_DOOR if opened else ev.Act.CLOSE_DOOR,
            str(tuple(c.bm.cell(action.cell))),
            index=action.cell,
        )
    )
    return None


def draw(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H04: draw a weapon."""
    f.drawn = action.weapon
    c.emit(ev.Acted(f.idx, ev.Act.DRAW, f.weapons[action.weapon].name, index=action.weapon))
    return None


def pick_up(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H04: pick up a dropped weapon (K01), drawn at once."""
    f.dropped &= ~(1 << action.weapon)
    f.drawn = action.weapon
    c.emit(ev.Acted(f.idx, ev.Act.PICK_UP, f.weapons[action.weapon].name, index=action.weapon))
    return None


def use_item(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H04 'Medikament einnehmen': an item in hand."""
    item = f.items.pop(action.item)
    c.emit(ev.Acted(f.idx, ev.Act.USE_ITEM, item.name, index=action.item, value=item.amount))
    _item_effect(c, f, item.kind, item.amount, item.condition)
    return None


def reload(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H05: one Handlung of reloading; the magazine is full after ``nachladen`` of them."""
    w = f.weapons[action.weapon]
    f.reload_progress[action.weapon] += 1
    done = f.reload_progress[action.weapon] >= w.nachladen
    if done:
        f.ammo[action.weapon] = w.magazine
        f.reload_progress[action.weapon] = 0
        if f.reloads[action.weapon] > 0:
            f.reloads[action.weapon] -= 1
    text = w.name + ("" if done else " (noch nicht fertig)")
    c.emit(ev.Acted(f.idx, ev.Act.RELOAD, text, index=action.weapon, value=int(done)))
    return None


def cyberware(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """H09: use a piece of cyberware's ability."""
    ware = f.spec.cyberware[action.cyberware]
    ability = present(ware.ability, f"the ability of {ware.name}")
    f.cyber_uses[action.cyberware] -= 1
    c.emit(ev.Acted(f.idx, ev.Act.CYBERWARE, ware.name, index=action.cyberware))
    if ability.kind is AbilityKind.ARMOUR:
        f.armour_bonus += ability.amount
    elif ability.kind is AbilityKind.FOCUS:
        f.focus_bonus += ability.amount
    elif ability.kind is AbilityKind.HEAL:
        _item_effect(c, f, ItemKind.HEAL, ability.amount, None)
    else:
        _item_effect(c, f, ItemKind.STIM, 0, ability.condition)
    return None


def mumm_probe(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """Z02: the benommen fighter's Handlung; the turn stays benommen whatever happens."""
    turn.benommen = True
    return None


def _item_effect(
    c: Combat, f: FighterState, kind: ItemKind, amount: int, condition: Condition | None
) -> None:
    if kind is ItemKind.HEAL:
        heal(c, f, sum(c.d10() for _ in range(max(amount, 1))), "Heilung")
    elif condition is not None:
        lose_condition(c, f, condition, "Stimulans")


def helfen(c: Combat, f: FighterState, action: Action, turn: TurnFrame) -> Frame | None:
    """P08, X41, X60: the helper announces its help (its Handlung); it rolls right before
    the ally's next check (:mod:`cwenv.engine.helping`)."""
    ally = c.fighters[action.target]
    ally.helpers = (*ally.helpers, f.idx)
    c.emit(ev.Acted(f.idx, ev.Act.ANNOUNCE_HELP, "", ally.idx))
    return None


# -- Handlungen decided by a check --------------------------------------------------------
def shake_check(c: Combat, f: FighterState, a: Action) -> CheckFrame:
    """H12: the condition's own check (its entry in the conditions table)."""
    cond = a.condition
    value = present(CONDITIONS[cond].shake_check, f"a shake check of {cond.name}")
    return check(
        c, f, value(c.options), check_text(CheckPurpose.SHAKE, cond.label), CheckPurpose.SHAKE
    )


def shake_outcome(c: Combat, f: FighterState, a: Action, result: ProbeResult) -> Frame | None:
    if result.success:
        lose_condition(c, f, a.condition, "Probe")
    return None


def mumm_probe_check(c: Combat, f: FighterState, a: Action) -> CheckFrame:
    """Z02, X02: the benommen check (``options.benommen_check``)."""
    return check(
        c, f, c.options.benommen_check, check_text(CheckPurpose.BENOMMEN), CheckPurpose.BENOMMEN
    )


def mumm_probe_outcome(c: Combat, f: FighterState, a: Action, result: ProbeResult) -> Frame | None:
    if result.success:
        lose_condition(c, f, Condition.BENOMMEN, "Probe")
    return None


def stabilise_check(c: Combat, f: FighterState, a: Action) -> CheckFrame:
    """D09: Technik to stabilise a dying fighter."""
    patient = c.fighters[a.target].name
    return check(
        c,
        f,
        CheckValue.TECHNIK,
        check_text(CheckPurpose.STABILISE, patient),
        CheckPurpose.STABILISE,
    )


def stabilise_outcome(c: Combat, f: FighterState, a: Action, result: ProbeResult) -> Frame | None:
    """D09, X35: success ends Sterbend; a Patzer deals 1 direct damage to the option's
    victim."""
    patient = c.fighters[a.target]
    if result.success:
        lose_condition(c, patient, Condition.STERBEND, f"stabilisiert von {f.name}")
        patient.stabilised = True
        c.emit(ev.StatusChanged(patient.idx, ev.Status.STABILISED))
    elif result.patzer:
        opts = c.options
        victim = patient if opts.stabilise_patzer_victim is StabilisePatzerVictim.PATIENT else f
        return DamageFrame(
            victim.idx, -1, 1, 0, ArmourMode.DIREKT, frozenset(), False, "missglückte Erste Hilfe"
        )
    return None


def free_weapon_check(c: Combat, f: FighterState, a: Action) -> CheckFrame:
    """A08 Waffe blockiert: Technik for a ranged weapon, Unbeugsamkeit for a melee one."""
    w = f.weapons[a.weapon]
    skill = CheckValue.TECHNIK if w.kind is WeaponKind.RANGED else CheckValue.UNBEUGSAMKEIT
    return check(
        c, f, skill, check_text(CheckPurpose.FREE_WEAPON, w.name), CheckPurpose.FREE_WEAPON
    )


def free_weapon_outcome(c: Combat, f: FighterState, a: Action, result: ProbeResult) -> Frame | None:
    if result.success:
        f.jammed &= ~(1 << a.weapon)
        c.emit(ev.Acted(f.idx, ev.Act.FREE_WEAPON, f.weapons[a.weapon].name, index=a.weapon))
    return None


def rucksack_check(c: Combat, f: FighterState, a: Action) -> CheckFrame:
    """H06: Operations to find an item in the backpack."""
    return check(
        c, f, CheckValue.OPERATIONS, check_text(CheckPurpose.RUCKSACK), CheckPurpose.RUCKSACK
    )


def rucksack_outcome(c: Combat, f: FighterState, a: Action, result: ProbeResult) -> Frame | None:
    """H06, X46: found, it is in hand; a failure may lose it."""
    if result.success:
        item = f.backpack.pop(a.backpack_slot)
        f.items.append(item)
        c.emit(ev.Acted(f.idx, ev.Act.FROM_BACKPACK, item.name, index=a.backpack_slot))
    elif c.options.rucksack_failure is RucksackFailure.ITEM_LOST:
        item = f.backpack.pop(a.backpack_slot)
        c.emit(ev.Acted(f.idx, ev.Act.LOSE_ITEM, item.name, index=a.backpack_slot))
    return None


class HandlungStage(IntEnum):
    """Where a :class:`CheckedHandlung` stands."""

    CHECK = 0  # the Handlung's check
    OUTCOME = 1  # the roll is back: its outcome
    FINISHED = 2  # the outcome's frame has run


_CHECK, _OUTCOME, _FINISHED = HandlungStage


class CheckedHandlung(Frame):
    """A Handlung decided by a check: roll ``check_of``'s Probe, then apply ``outcome``
    (shaking a condition, H12; the benommen Mumm-Probe, Z02; stabilising, D09;
    freeing a jammed weapon, A08; searching the backpack, H06)."""

    __slots__ = ("action", "check_of", "fighter", "outcome")

    def __init__(self, fighter: int, action: Action, check_of: CheckOf, outcome: Outcome) -> None:
        super().__init__()
        self.fighter = fighter
        self.action = action
        self.check_of = check_of
        self.outcome = outcome

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        if self.stage == _CHECK:
            self.stage = _OUTCOME
            return self.check_of(c, f, self.action)
        if self.stage == _FINISHED:
            return DONE
        self.stage = _FINISHED
        frame = self.outcome(c, f, self.action, value)
        return DONE if frame is None else frame
