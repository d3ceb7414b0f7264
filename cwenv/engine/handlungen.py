"""Carrying out a Handlung once it is chosen (H01–H12, K, P08, D09, Z02).

Handlungen without a check change the state at once; those with one push a
:class:`CheckedHandlung` that rolls and then applies the outcome.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision
from cwenv.engine.checks import check
from cwenv.engine.conditions import lose_condition
from cwenv.engine.damage import DamageFrame, heal
from cwenv.engine.frames import DONE, Frame, Return
from cwenv.invariants import present
from cwenv.model.specs import AbilityKind, ItemKind
from cwenv.model.types import ArmourMode, CheckValue, Condition, WeaponKind
from cwenv.rules.options import RucksackFailure, StabilisePatzerVictim
from cwenv.rules.probe import ProbeResult

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.state import Combat


def run_handlung(c: Combat, f: FighterState, action: Action) -> Frame | None:
    """Start the Handlung ``action``; return a frame when it needs more resolving."""
    from cwenv.engine.attack import AttackFrame
    from cwenv.engine.attack_plan import AttackMode
    from cwenv.engine.falls import SchwierigFrame

    kind = action.kind
    if kind is ActionKind.ATTACK:  # H01
        return AttackFrame(f.idx, action.target, action.index, AttackMode.WEAPON)
    if kind is ActionKind.MANEUVER:  # K01–K05
        return AttackFrame(f.idx, action.target, action.index, AttackMode.MANEUVER)
    if kind is ActionKind.HACK:  # H10
        return AttackFrame(f.idx, action.target, action.index, AttackMode.HACK)
    if kind is ActionKind.SCHWIERIG:  # H07
        return SchwierigFrame(f.idx, c.hard_routes.route(action.cell))
    if kind is ActionKind.ZIELEN:  # H11, X03
        if f.aim_target == action.target:
            f.aim_stacks = min(f.aim_stacks + 1, c.options.zielen_max_stacks)
        else:
            f.aim_target = action.target
            f.aim_stacks = 1
        c.emit(ev.Acted(f.idx, "zielt auf", f"Stufe {f.aim_stacks}", action.target))
        return None
    if kind is ActionKind.AUFSTEHEN:  # H02
        lose_condition(c, f, Condition.NIEDERGEWORFEN, "steht auf")
        return None
    if kind is ActionKind.UPLOAD:  # H03
        f.upload_progress[action.index] += 1
        hack = f.spec.hacks[action.index]
        c.emit(
            ev.Acted(
                f.idx, "lädt hoch", f"{hack.name} {f.upload_progress[action.index]}/{hack.upload}"
            )
        )
        return None
    if kind is ActionKind.DOOR:  # H04
        opened = not c.door_open(action.cell)
        c.set_door(action.cell, opened)
        c.emit(
            ev.Acted(
                f.idx,
                "öffnet die Tür" if opened else "schliesst die Tür",
                str(tuple(c.bm.cell(action.cell))),
            )
        )
        return None
    if kind is ActionKind.DRAW:  # H04
        f.drawn = action.index
        c.emit(ev.Acted(f.idx, "zieht", f.weapons[action.index].name))
        return None
    if kind is ActionKind.PICK_UP:  # H04
        f.dropped &= ~(1 << action.index)
        f.drawn = action.index
        c.emit(ev.Acted(f.idx, "hebt auf", f.weapons[action.index].name))
        return None
    if kind is ActionKind.USE_ITEM:  # H04 'Medikament einnehmen'
        item = f.items.pop(action.index)
        c.emit(ev.Acted(f.idx, "benutzt", item.name))
        _item_effect(c, f, item.kind, item.amount, item.condition)
        return None
    if kind is ActionKind.RELOAD:  # H05
        w = f.weapons[action.index]
        f.reload_progress[action.index] += 1
        done = f.reload_progress[action.index] >= w.nachladen
        if done:
            f.ammo[action.index] = w.magazine
            f.reload_progress[action.index] = 0
            if f.reloads[action.index] > 0:
                f.reloads[action.index] -= 1
        c.emit(ev.Acted(f.idx, "lädt nach", w.name + ("" if done else " (noch nicht fertig)")))
        return None
    if kind is ActionKind.CYBERWARE:  # H09
        ware = f.spec.cyberware[action.index]
        ability = present(ware.ability, f"the ability of {ware.name}")
        f.cyber_uses[action.index] -= 1
        c.emit(ev.Acted(f.idx, "setzt Cyberware ein", ware.name))
        if ability.kind is AbilityKind.ARMOUR:
            f.armour_bonus += ability.amount
            return None
        if ability.kind is AbilityKind.FOCUS:
            f.focus_bonus += ability.amount
            return None
        if ability.kind is AbilityKind.HEAL:
            _item_effect(c, f, ItemKind.HEAL, ability.amount, None)
        else:
            _item_effect(c, f, ItemKind.STIM, 0, ability.condition)
        return None
    return CheckedHandlung(f.idx, action)


def _item_effect(
    c: Combat, f: FighterState, kind: ItemKind, amount: int, condition: Condition | None
) -> None:
    if kind is ItemKind.HEAL:
        heal(c, f, sum(c.d10() for _ in range(max(amount, 1))), "Heilung")
    elif condition is not None:
        lose_condition(c, f, condition, "Stimulans")


class CheckedHandlung(Frame):
    """A Handlung decided by a check: shaking a condition (H12), the benommen Mumm-Probe
    (Z02), stabilising (D09), helping (P08), freeing a jammed weapon (A08), searching the
    backpack (H06)."""

    __slots__ = ("action", "fighter")

    def __init__(self, fighter: int, action: Action) -> None:
        super().__init__()
        self.fighter = fighter
        self.action = action

    def step(self, c: Combat, value: Any) -> Decision | Frame | Return:
        f = c.fighters[self.fighter]
        a = self.action
        kind = a.kind
        opts = c.options
        if self.stage == 0:
            self.stage = 1
            if kind is ActionKind.SHAKE:
                cond = Condition(a.index)
                value_ = {
                    Condition.ANGESCHLAGEN: CheckValue.UNBEUGSAMKEIT,
                    Condition.ENTMUTIGT: CheckValue.UNBEUGSAMKEIT,
                    Condition.VERWIRRT: CheckValue.WAHRNEHMUNG,
                }.get(cond, CheckValue(opts.eingeschraenkt_check.value))
                return check(c, f, value_, f"{cond.label} abschütteln")
            if kind is ActionKind.MUMM_PROBE:
                return check(c, f, opts.benommen_check, "Mumm-Probe (benommen)")
            if kind is ActionKind.STABILISE:
                return check(c, f, CheckValue.TECHNIK, f"{c.fighters[a.target].name} stabilisieren")
            if kind is ActionKind.HELFEN:
                ally = c.fighters[a.target]
                skill = _helper_skill(ally)
                return check(c, f, skill, f"{ally.name} helfen")
            if kind is ActionKind.FREE_WEAPON:
                w = f.weapons[a.index]
                skill = (
                    CheckValue.TECHNIK if w.kind is WeaponKind.RANGED else CheckValue.UNBEUGSAMKEIT
                )
                return check(c, f, skill, f"{w.name} befreien")
            if kind is ActionKind.RUCKSACK:
                return check(c, f, CheckValue.OPERATIONS, "Rucksack durchsuchen")
            raise AssertionError(f"no check for {kind!r}")  # pragma: no cover
        if self.stage == 2:
            return DONE
        result: ProbeResult = value
        self.stage = 2
        if kind is ActionKind.SHAKE or kind is ActionKind.MUMM_PROBE:
            if result.success:
                cond = Condition.BENOMMEN if kind is ActionKind.MUMM_PROBE else Condition(a.index)
                lose_condition(c, f, cond, "Probe")
            return DONE
        if kind is ActionKind.STABILISE:  # D09, X35
            patient = c.fighters[a.target]
            if result.success:
                lose_condition(c, patient, Condition.STERBEND, f"stabilisiert von {f.name}")
                patient.stabilised = True
                c.emit(ev.StatusChanged(patient.idx, "stabilisiert"))
            elif result.patzer:
                victim = (
                    patient if opts.stabilise_patzer_victim is StabilisePatzerVictim.PATIENT else f
                )
                return DamageFrame(
                    victim.idx,
                    -1,
                    1,
                    0,
                    ArmourMode.DIREKT,
                    frozenset(),
                    False,
                    "missglückte Erste Hilfe",
                )
            return DONE
        if kind is ActionKind.HELFEN:  # P08: the best helper QS is a bonus
            if result.success:
                ally = c.fighters[a.target]
                ally.help_bonus = max(ally.help_bonus, result.qs)
                c.emit(ev.Acted(f.idx, "hilft", f"+{result.qs}", ally.idx))
            return DONE
        if kind is ActionKind.FREE_WEAPON:
            if result.success:
                f.jammed &= ~(1 << a.index)
                c.emit(ev.Acted(f.idx, "befreit die Waffe", f.weapons[a.index].name))
            return DONE
        # RUCKSACK (H06, X46)
        if result.success:
            item = f.backpack.pop(a.index)
            f.items.append(item)
            c.emit(ev.Acted(f.idx, "holt aus dem Rucksack", item.name))
        elif opts.rucksack_failure is RucksackFailure.ITEM_LOST:
            item = f.backpack.pop(a.index)
            c.emit(ev.Acted(f.idx, "verliert", item.name))
        return DONE


def _helper_skill(ally: FighterState) -> CheckValue:
    """P08: the helper supports the ally's attack with the same skill."""
    if ally.drawn >= 0 and ally.weapons[ally.drawn].kind is WeaponKind.RANGED:
        return CheckValue.FERNKAMPF
    if ally.spec.hacks:
        return CheckValue.HACKING
    return CheckValue.KAMPFKUNST
