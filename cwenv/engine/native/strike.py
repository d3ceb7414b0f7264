"""What the native combat's attacks, damage and dying read of a game (issue #16,
src/combat.hpp ``StrikeRules``), evaluated here so the rules' tables stay in Python.

:func:`strike_args` hands the core, once per combat it builds: the rule options as named
numbers (P05-P07, A02-A08, D01-D08, M04-M09, X03-X44), the Mumm costs of
:class:`~cwenv.model.types.MummSpend`, the Volltreffer and Patzer tables of
:mod:`cwenv.rules.tables` row by row for every 2W10 - QS from :data:`TABLE_LOW` to
:data:`TABLE_HIGH` (a roll beyond reads the end row, as the tables' "≤ 0" and "15+"
say), the conditions' substitutes and what gaining one does (Z01-Z07, from
:data:`~cwenv.engine.tables.conditions.CONDITIONS`), every stat block's armour,
Unbeugsamkeit, resistances and weapons' damage (A06, D04; ``damage_bonus`` of hits.py),
and the victory conditions checked after a change (:mod:`cwenv.engine.victory`). A rule
the core does not tell apart raises :class:`UnportedStrike` naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cwenv.battlemap.grid import Terrain
from cwenv.engine.damage import zehrend_mode
from cwenv.engine.hits import damage_bonus
from cwenv.engine.movement import FALL_METRES_PER_DIE, FIRE_ZEHREND, PUSH_METRES, profile_for
from cwenv.engine.tables.conditions import CONDITIONS, _benommen_gained, _let_go
from cwenv.engine.tables.maneuvers import (
    MANEUVERS,
    Effect,
    Inflict,
    _entwaffnen,
    _mitzerren,
    _wegstossen,
)
from cwenv.engine.tables.mumm import SPEND_OF_KIND
from cwenv.engine.victory import (
    VICTORIES,
    Check,
    _eliminated,
    _escapes_by_exit,
    _exit_reached,
    _never,
    _stays,
    _vip_fallen,
)
from cwenv.model.specs import UNARMED, AbilityKind, CyberwareSpec, ItemKind, ItemSpec
from cwenv.model.types import (
    ArmourMode,
    CheckValue,
    Condition,
    Maneuver,
    MummSpend,
    Skill,
)
from cwenv.rules.options import (
    AngeschlagenTrigger,
    BenommenReactions,
    CritExtraDie,
    DeathThreshold,
    DifferenceQS,
    DisarmedDamage,
    ForcedMovementBlockade,
    GrosserWurfRoll,
    HelpModifier,
    HelpScope,
    LoneWinnerQS,
    ManeuverCrit,
    NscAtZero,
    PatzerDefence,
    RoundEndOrder,
    Rounding,
    RucksackFailure,
    StabilisePatzerVictim,
    Surprise,
    TieQS,
    VolltrefferQS,
)
from cwenv.rules.tables import CritRow, FumbleRow, patzer_row, volltreffer_effect

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.model.specs import FighterSpec

TABLE_LOW = -2
"""The lowest 2W10 - QS the tables are handed over from: both tables' first rows read
'≤ 0', so every lower roll reads the same row."""
TABLE_HIGH = 20
"""The highest: 2W10 - 0; both last rows read '15+'."""

VOLLTREFFER_QS = {
    VolltrefferQS.PROBENWERT_BAND: 0,
    VolltrefferQS.ROLL_BAND: 1,
    VolltrefferQS.MAX_ORDINARY: 2,
}
"""X06's readings as src/probe.hpp numbers them."""
ARMOUR_MODES = list(ArmourMode)
"""ArmourMode by position (src/combat.hpp kArmourNormal, kArmourBrechend, kArmourDirekt)."""
CRIT_ROWS = list(CritRow)
FUMBLE_ROWS = list(FumbleRow)
"""Both tables' rows by position (the events' ``row``; src/combat.hpp Fumble)."""

_AFTER_CHANGE: dict[Check, int] = {_eliminated: 0, _exit_reached: 2, _vip_fallen: 3}
"""The after-change checks of victory.py by src/combat.hpp's kVictory numbers."""


class UnportedStrike(ValueError):
    """A rule of the game the native combat does not tell apart."""


def _on_gain(game: Game, cond: Condition) -> int:
    """What gaining ``cond`` does, as src/combat.hpp numbers it (Z02, Z05, B03, X24)."""
    rule = CONDITIONS[cond].on_gain
    if rule is None:
        return 0
    if rule is _let_go:
        return 1
    if rule is _benommen_gained:
        return 2 if game.options.benommen_reactions is BenommenReactions.LOST else 1
    raise UnportedStrike(f"the on_gain of {cond.name}")


STURZ_FORM = "sturz"
"""A fall's damage form (falls.py FallFrame)."""


def zehrend_kinds(game: Game) -> list[str]:
    """Every kind of Zehrend a fight of ``game`` can start, by its id (Z08, A07, D03)."""
    kinds = {FIRE_ZEHREND}
    for spec in game.roster:
        kinds |= {w.zehrend for w in spec.all_weapons if w.zehrend is not None}
        kinds |= {h.zehrend for h in spec.hacks if h.zehrend is not None}
    for roll in range(TABLE_LOW, TABLE_HIGH + 1):
        crit = volltreffer_effect(roll).zehrend
        if crit is not None:
            kinds.add(crit)
    if len(kinds) > 64:
        raise UnportedStrike("more than 64 kinds of Zehrend")
    return sorted(kinds)


def _forms(game: Game, kinds: list[str]) -> dict[str, int]:
    """Every damage form the game names, by its bit (D04): a Zehrend's is its kind's."""
    names: set[str] = {STURZ_FORM, *(kind.lower() for kind in kinds)}
    for spec in game.roster:
        names |= spec.resistances | spec.vulnerabilities | spec.immunities
        for w in spec.all_weapons:
            names |= w.forms
        for h in spec.hacks:
            names |= h.forms
    if len(names) > 64:
        raise UnportedStrike("more than 64 damage forms")
    return {name: i for i, name in enumerate(sorted(names))}


def _bits(forms: dict[str, int], names: frozenset[str]) -> int:
    return sum(1 << forms[name] for name in names)


def _spec(
    game: Game, spec: FighterSpec, forms: dict[str, int], kinds: list[str]
) -> tuple[Any, ...]:
    weapons = [
        (
            damage_bonus(w, game.options),
            ARMOUR_MODES.index(w.armour_mode),
            _bits(forms, w.forms),
            w.non_lethal,
            -1 if w.zehrend is None else kinds.index(w.zehrend),
            w is UNARMED,
        )
        for w in spec.all_weapons
    ]
    o = game.options
    return (
        spec.armour,
        spec.skill(Skill.UNBEUGSAMKEIT),
        _bits(forms, spec.immunities),
        _bits(forms, spec.resistances),
        _bits(forms, spec.vulnerabilities),
        weapons,
        profile_for(o, spec.movement, False).free_drop,
        profile_for(o, spec.movement, True).free_drop,
        [_item(item) for item in (*spec.items, *spec.backpack)],
        len(spec.items),
        [_cyber(ware) for ware in spec.cyberware],
        [
            (
                h.bonus,
                ARMOUR_MODES.index(h.armour_mode),
                _bits(forms, h.forms),
                h.deals_damage,
                -1 if h.condition is None else int(h.condition),
                -1 if h.zehrend is None else kinds.index(h.zehrend),
            )
            for h in spec.hacks
        ],
    )


ABILITIES = {AbilityKind.ARMOUR: 1, AbilityKind.FOCUS: 2, AbilityKind.HEAL: 3, AbilityKind.SHAKE: 4}
"""What a cyberware ability does, as src/combat.hpp numbers it (kAbility...; 0: none)."""


def _shake_check(game: Game, cond: Condition) -> int:
    """H12: the check a Handlung shakes ``cond`` off with (its table entry), -1: none."""
    shake = CONDITIONS[cond].shake_check
    return -1 if shake is None else int(shake(game.options))


def _item(item: ItemSpec) -> tuple[bool, int, int]:
    """An item as the Handlungen read it (H04, H06): heal amount W10, or end a condition."""
    condition = -1 if item.condition is None else int(item.condition)
    return (item.kind is ItemKind.HEAL, item.amount, condition)


def _cyber(ware: CyberwareSpec) -> tuple[int, int, int]:
    """A cyberware's ability as H09 reads it (kind, amount, condition)."""
    ability = ware.ability
    if ability is None:
        return (0, 0, -1)
    condition = -1 if ability.condition is None else int(ability.condition)
    return (ABILITIES[ability.kind], ability.amount, condition)


MANEUVER_ROWS = {ManeuverCrit.NONE: 0, ManeuverCrit.CONDITIONS: 1, ManeuverCrit.ALL_ROWS: 2}
"""X33 maneuver_volltreffer_rows as src/combat_rules.hpp numbers it."""


def _maneuver(m: Maneuver) -> tuple[int, int]:
    """What the manoeuvre's hit does, by its effect function (src/combat_rules.hpp
    ManeuverEffect) and, for an Inflict, its condition."""
    effect = MANEUVERS[m].effect
    if isinstance(effect, Inflict):
        return (2, int(effect.condition))
    known: dict[Effect, int] = {_entwaffnen: 1, _wegstossen: 3, _mitzerren: 4}
    number = known.get(effect)
    if number is None:
        raise UnportedStrike(f"the effect of {m.name}")
    return (number, -1)


def _escape_sides(game: Game) -> int:
    """victory.py escapes: the sides whose fighters leave the map by an exit."""
    sides = 0
    for v in game.victory:
        rule = VICTORIES[v.kind].escapes
        if rule is _escapes_by_exit:
            sides |= 1 << int(v.side)
        elif rule is not _stays:
            raise UnportedStrike(f"the escape rule of {v.kind.name}")
    return sides


def _victory(game: Game) -> list[tuple[int, int, int, int]]:
    """decide_after_change's order: the listed conditions, then those always in force."""
    always = [rule for rule in VICTORIES.values() if rule.always]
    listed = [v for v in game.victory if not VICTORIES[v.kind].always]
    rows = []
    for kind, v in [(VICTORIES[v.kind], v) for v in listed] + [(r, None) for r in always]:
        if kind.after_change is _never:
            continue
        number = _AFTER_CHANGE.get(kind.after_change)
        if number is None:
            raise UnportedStrike(f"the victory kind {kind.kind.name}")
        if v is None:
            rows.append((number, 0, -1, 0))
        else:
            rows.append((number, int(v.side), v.vip, v.count))
    return rows


def strike_args(game: Game) -> dict[str, Any]:
    """The keyword arguments of ``_core.CoreCombat`` that carry ``game``'s StrikeRules."""
    o = game.options
    named = {
        "volltreffer_qs": VOLLTREFFER_QS[o.volltreffer_qs],
        "grosser_wurf_highest_roll": int(o.grosser_wurf_roll is GrosserWurfRoll.HIGHEST_ROLL),
        "difference_raw": int(o.defended_hit_qs is DifferenceQS.RAW),
        "volltreffer_wins_contest": int(o.volltreffer_wins_contest),
        "lone_winner_difference": int(o.contest_lone_winner_qs is LoneWinnerQS.DIFFERENCE),
        "tie_own_roll": int(o.contest_tie_qs is TieQS.OWN_ROLL),
        **{f"cost_{spend.name.lower()}": spend.cost for spend in MummSpend},
        "volltreffer_defendable": int(o.volltreffer_defendable),
        "patzer_defence_roll": int(o.patzer_defender_qs is PatzerDefence.DEFENCE_ROLL),
        "defence_patzer_niedergeworfen": int(o.defence_patzer_niedergeworfen),
        "zielen_qs_on_weakened_hit": int(o.zielen_qs_on_weakened_hit),
        "zielen_lost_on_hit": int(o.zielen_lost_on_hit),
        "table_low": TABLE_LOW,
        "zerschmettert_all_direct": int(o.zerschmettert_all_direct),
        "crit_bare_die": int(o.crit_extra_die is CritExtraDie.BARE_DIE),
        "disarmed_per_die": int(o.entwaffnen_damage is DisarmedDamage.PER_DIE),
        "entwaffnen_nsc_penalty": o.entwaffnen_nsc_penalty,
        "brechend_up": int(o.brechend_armour_rounding is Rounding.UP),
        "armour_floor_zero": int(o.armour_floor_zero),
        "resistance_up": int(o.resistance_rounding is Rounding.UP),
        "angeschlagen_every_hit": int(o.angeschlagen_trigger is AngeschlagenTrigger.EVERY_HIT),
        "kampfunfaehig_prone": int(o.kampfunfaehig_prone),
        "nsc_at_zero_dead": int(o.nsc_at_zero is NscAtZero.DEAD),
        "sterbend_damage_reinflicts": int(o.sterbend_damage_reinflicts),
        "non_lethal_floor_zero": int(o.non_lethal_floor_zero),
        "death_at_or_below": int(o.death_threshold is DeathThreshold.AT_OR_BELOW),
        "tod_abwenden_ends_sterbend": int(o.tod_abwenden_ends_sterbend),
        "round_end_phased": int(o.round_end_order is RoundEndOrder.PHASED),
        "extra_action_moves": int(o.mumm_extra_action_moves),
        "escalation_steps": o.escalation_steps,
        "unbeugsamkeit_check": int(CheckValue.UNBEUGSAMKEIT),
        "escape_sides": _escape_sides(game),
        "push_metres": PUSH_METRES,
        "forced_provoke": int(o.forced_movement_blockade is not ForcedMovementBlockade.NEVER),
        "own_turn_fall_roll": int(o.own_turn_fall_roll),
        "fall_dice_up": int(o.fall_dice_rounding is Rounding.UP),
        "fall_metres_per_die": FALL_METRES_PER_DIE,
        "fall_armour_mode": ARMOUR_MODES.index(o.fall_armour_mode),
        "infiltration_check": int(CheckValue.INFILTRATION),
        "benommen_check": int(o.benommen_check),
        "ambushed_sides": 0
        if o.surprise is Surprise.NONE
        else sum(1 << int(side) for side in game.ambushed),
        "reflexe_check": int(CheckValue.REFLEXE),
        **{f"shake_check_{int(c)}": _shake_check(game, c) for c in Condition},
        "technik_check": int(CheckValue.TECHNIK),
        "operations_check": int(CheckValue.OPERATIONS),
        "sprint_multiplier": o.sprint_total_multiplier,
        "help_attacks_only": int(o.help_scope is HelpScope.ATTACKS),
        "help_modifier_none": int(o.help_modifier is HelpModifier.NONE),
        "stabilise_victim_patient": int(o.stabilise_patzer_victim is StabilisePatzerVictim.PATIENT),
        "rucksack_item_lost": int(o.rucksack_failure is RucksackFailure.ITEM_LOST),
        "maneuver_damage": int(o.maneuver_damage),
        "maneuver_rows": MANEUVER_ROWS[o.maneuver_volltreffer_rows],
        "forced_all": int(o.forced_movement_blockade is ForcedMovementBlockade.ALL_FORCED),
        "climb_check": int(CheckValue(o.climb_skill.value)),
        "swim_check": int(CheckValue(o.swim_skill.value)),
        "climb_let_go_falls": int(o.climb_let_go_falls),
        "standable": sum(1 << i for i, t in enumerate(Terrain) if t.standable),
        **{f"price_{int(kind)}": spend.cost for kind, spend in SPEND_OF_KIND.items()},
    }
    kinds = zehrend_kinds(game)
    forms = _forms(game, kinds)
    named["fire_kind"] = kinds.index(FIRE_ZEHREND)
    named["sturz_form_bit"] = forms[STURZ_FORM]
    rolls = range(TABLE_LOW, TABLE_HIGH + 1)
    crits = []
    for roll in rolls:
        effect = volltreffer_effect(roll)
        condition = -1 if effect.condition is None else int(effect.condition)
        crits.append(
            (
                CRIT_ROWS.index(effect.row),
                effect.extra_dice,
                effect.direct,
                condition,
                -1 if effect.zehrend is None else kinds.index(effect.zehrend),
            )
        )
    return {
        "strike": named,
        "substitute": [
            -1 if CONDITIONS[c].substitute is None else int(CONDITIONS[c].substitute)  # type: ignore[arg-type]
            for c in Condition
        ],
        "on_gain": [_on_gain(game, c) for c in Condition],
        "crits": crits,
        "fumbles": [FUMBLE_ROWS.index(patzer_row(roll)) for roll in rolls],
        "specs": [_spec(game, spec, forms, kinds) for spec in game.roster],
        "victory": _victory(game),
        "zehrend": [
            (
                kind == FIRE_ZEHREND,
                int(CheckValue(o.zehrend_check(kind).value)),
                ARMOUR_MODES.index(zehrend_mode(kind)),
                forms[kind.lower()],
            )
            for kind in kinds
        ],
        "maneuvers": [_maneuver(m) for m in Maneuver],
    }
