"""A zoo of small hand-built fights that together touch every rule family.

Used by the soak and invariant tests; YAML scenarios are exercised by the content tests.
"""

from __future__ import annotations

from dataclasses import replace

from cwenv.engine.game import Game, Victory, VictoryKind
from cwenv.model.specs import (
    AbilityKind,
    CyberAbility,
    CyberwareSpec,
    HackSpec,
    ItemKind,
    ItemSpec,
    RangeBand,
    WeaponSpec,
)
from cwenv.model.types import ArmourMode, Condition, Side, Size, Skill, WeaponKind
from cwenv.rules import options as o
from cwenv.rules.options import (
    DEFAULT_OPTIONS,
    InitiativeSystem,
    MeleeDefence,
    RuleOptions,
    TieOrder,
)
from tests.helpers import KNIFE, PISTOL, SWORD, fighter, make_game

SHOTGUN = WeaponSpec(
    "Schrotflinte",
    WeaponKind.RANGED,
    bonus=3,
    ranges=(RangeBand(5, 1), RangeBand(15, -2)),
    magazine=2,
    nachladen=2,
)
FLAMER = WeaponSpec(
    "Flammenwerfer",
    WeaponKind.RANGED,
    bonus=0,
    armour_mode=ArmourMode.BRECHEND,
    forms=frozenset({"feuer"}),
    zehrend="Feuer",
    ranges=(RangeBand(6, 0),),
    magazine=3,
    nachladen=1,
)
GRENADE = WeaponSpec(
    "Granate",
    WeaponKind.RANGED,
    bonus=1,
    ranges=(RangeBand(12, 0),),
    magazine=2,
    nachladen=1,
    area_radius=1,
)
TASER = WeaponSpec(
    "Taser",
    WeaponKind.RANGED,
    bonus=0,
    non_lethal=True,
    ranges=(RangeBand(5, 0),),
    magazine=3,
    nachladen=1,
)
SPEAR = WeaponSpec("Speer", WeaponKind.MELEE, bonus=2, reach=2)
ZAP = HackSpec("Synapsenbrand", range_m=20)
STORM = HackSpec("Datensturm", range_m=20, upload=1, area_radius=1, condition=Condition.VERWIRRT)
RAPTOR = CyberwareSpec("Raptor-Booster", initiative_bonus=6)
ADRENALIN = CyberwareSpec(
    "Adrenalinpumpe",
    ability=CyberAbility(AbilityKind.SHAKE, condition=Condition.ANGESCHLAGEN, uses=1),
)
DERMAL = CyberwareSpec("Subdermalpanzer", armour_bonus=2)
MEDKIT = ItemSpec("Medipack", ItemKind.HEAL, amount=1)
STIM = ItemSpec("Stim", ItemKind.STIM, condition=Condition.BENOMMEN)


def duel(options: RuleOptions = DEFAULT_OPTIONS) -> Game:
    return make_game(
        [
            (
                fighter(
                    "Kira",
                    kampfkunst=14,
                    reflexe=13,
                    weapons=(SWORD,),
                    mumm=3,
                    mumm_max=3,
                    cyberware=(ADRENALIN,),
                ),
                (2, 2),
            ),
            (
                fighter(
                    "Schläger",
                    Side.GEGNER,
                    kampfkunst=13,
                    weapons=(KNIFE, SPEAR),
                    mumm=1,
                    mumm_max=1,
                    ruestung=1,
                ),
                (6, 2),
            ),
        ],
        options=options,
    )


def firefight(options: RuleOptions = DEFAULT_OPTIONS) -> Game:
    rows = [
        "..........=.....",
        "...=............",
        "......%.........",
        "..=.........=...",
        "................",
        ".........=......",
    ]
    return make_game(
        [
            (
                fighter(
                    "Kira",
                    fernkampf=14,
                    reflexe=13,
                    weapons=(PISTOL, KNIFE),
                    mumm=3,
                    mumm_max=4,
                    cyberware=(RAPTOR,),
                    items=(MEDKIT,),
                ),
                (0, 1),
            ),
            (
                fighter(
                    "Jax",
                    kampfkunst=14,
                    weapons=(SWORD, GRENADE),
                    mumm=2,
                    mumm_max=3,
                    backpack=(STIM,),
                ),
                (0, 3),
            ),
            (
                fighter(
                    "Nix", hacking=14, weapons=(TASER,), hacks=(ZAP, STORM), mumm=2, mumm_max=2
                ),
                (1, 5),
            ),
            (fighter("Wache 1", Side.GEGNER, fernkampf=12, weapons=(PISTOL,), ruestung=2), (15, 0)),
            (
                fighter(
                    "Wache 2",
                    Side.GEGNER,
                    fernkampf=12,
                    weapons=(SHOTGUN, KNIFE),
                    ruestung=2,
                    mumm=1,
                    mumm_max=1,
                ),
                (15, 2),
            ),
            (
                fighter(
                    "Pyro",
                    Side.GEGNER,
                    fernkampf=11,
                    weapons=(FLAMER,),
                    ruestung=1,
                    resistances=frozenset({"feuer"}),
                    cyberware=(DERMAL,),
                ),
                (14, 4),
            ),
            (
                fighter(
                    "Drohne",
                    Side.GEGNER,
                    fernkampf=11,
                    weapons=(PISTOL,),
                    size=Size.KLEIN,
                    humanoid=False,
                    immunities=frozenset({"sturz"}),
                    lp=15,
                ),
                (13, 5),
            ),
        ],
        rows=rows,
        options=options,
    )


def rooftop(options: RuleOptions = DEFAULT_OPTIONS) -> Game:
    rows = ["..........", "..........", "..........", "..HH......", ".........."]
    elev = ["6600066666", "6600066666", "0000000000", "0000000000", "0000000000"]
    return make_game(
        [
            (
                fighter(
                    "Kira", infiltration=14, unbeugsamkeit=12, weapons=(KNIFE,), mumm=2, mumm_max=2
                ),
                (0, 0),
            ),
            (fighter("Jax", kampfkunst=13, weapons=(KNIFE,)), (1, 1)),
            (fighter("Wache", Side.GEGNER, kampfkunst=12, weapons=(SPEAR,)), (6, 0)),
            (fighter("Wache 2", Side.GEGNER, kampfkunst=12, weapons=(KNIFE,)), (5, 3)),
        ],
        rows=rows,
        elevation=elev,
        options=options,
    )


def garage(options: RuleOptions = DEFAULT_OPTIONS) -> Game:
    rows = [
        "....#.....",
        "....+.....",
        "~~~~#~~~..",
        "~~~~#~~~..",
        "..........",
    ]
    return make_game(
        [
            (fighter("Kira", unbeugsamkeit=13, fernkampf=13, weapons=(PISTOL,)), (0, 0)),
            (fighter("Wache", Side.GEGNER, fernkampf=12, weapons=(PISTOL,)), (9, 0)),
            (fighter("Wache 2", Side.GEGNER, kampfkunst=12, weapons=(KNIFE,)), (9, 4)),
        ],
        rows=rows,
        options=options,
        victory=(Victory(VictoryKind.ELIMINATE),),
    )


def escort(options: RuleOptions = DEFAULT_OPTIONS) -> Game:
    return make_game(
        [
            (fighter("Kira", fernkampf=13, weapons=(PISTOL,), mumm=2, mumm_max=2), (0, 1)),
            (fighter("VIP", lp=15), (0, 2)),
            (fighter("Passant", Side.NEUTRAL, lp=10), (5, 0)),
            (fighter("Wache", Side.GEGNER, fernkampf=12, weapons=(PISTOL,)), (9, 2)),
        ],
        options=options,
        victory=(
            Victory(VictoryKind.ELIMINATE),
            Victory(VictoryKind.PROTECT_VIP, Side.RUNNER, vip=1),
            Victory(VictoryKind.SURVIVE, Side.RUNNER, rounds=6),
        ),
    )


ALL_GAMES = {
    "duel": duel,
    "firefight": firefight,
    "rooftop": rooftop,
    "garage": garage,
    "escort": escort,
}

ALTERNATIVES = RuleOptions(
    reactions_basis=o.ReactionBasis.GRUNDWERT,
    zielen_max_stacks=3,
    zielen_lost_on_hit=True,
    zielen_lost_at_round_end=True,
    zielen_qs_on_weakened_hit=False,
    angeschlagen_scope=o.PenaltyScope.ALL_CHECKS,
    angeschlagen_shake_below_half=False,
    death_threshold=o.DeathThreshold.BELOW,
    volltreffer_qs=o.VolltrefferQS.ROLL_BAND,
    defended_hit_qs=o.DifferenceQS.RAW,
    armour_floor_zero=False,
    brechend_armour_rounding=o.Rounding.UP,
    volltreffer_defendable=False,
    defence_patzer_niedergeworfen=True,
    mumm_verbrennen=True,
    nsc_mumm=False,
    nsc_at_zero=o.NscAtZero.DEAD,
    actionbonus=o.ActionBonusMode.NONE,
    sprint_total_multiplier=3,
    tie_order=TieOrder.RANDOM,
    climb_skill=Skill.INFILTRATION,
    fall_armour_mode=ArmourMode.DIREKT,
    fall_dice_rounding=o.Rounding.UP,
    escalation_steps=2,
    melee_defence=MeleeDefence.AUSWEICHEN_OR_KAMPFKUNST,
    maneuver_reaction_cost=0,
    maneuver_damage=True,
    niederwerfen_penalty_until=o.ProneBonusUntil.NEXT_ROUND,
    niederwerfen_vs_melee=True,
    prone_three_quarter_to_full=True,
    benommen_reactions=o.BenommenReactions.LOST,
    living_cover_stacking=o.LivingCoverStacking.STRONGER_BY_ONE,
    living_cover_melee=True,
    living_cover_prone_counts=True,
    area_cover=o.AreaCover.AREA_HACKS_ONLY,
    volltreffer_wins_contest=True,
    angeschlagen_trigger=o.AngeschlagenTrigger.EVERY_HIT,
    sterbend_damage_reinflicts=False,
    tod_abwenden_ends_sterbend=False,
    round_end_order=o.RoundEndOrder.PHASED,
    resistance_rounding=o.Rounding.UP,
    crit_extra_die=o.CritExtraDie.BARE_DIE,
    zerschmettert_all_direct=False,
    non_lethal_floor_zero=False,
    stabilise_patzer_victim=o.StabilisePatzerVictim.MEDIC,
    stabilise_needs_adjacent=False,
    passes_count_initiative_bonus=True,
    mumm_improve_per_check=2,
    mumm_rerolls_per_check=2,
    mumm_avert_after_reroll=False,
    mumm_extra_action_moves=False,
    move_with_forfeited_handlung=False,
    prone_movement=o.ProneMovement.CRAWL_HALF,
    halvings_stack=False,
    nsc_may_help=True,
    behinderung_scope=o.BehinderungScope.ALL_PHYSICAL,
    blockade_geometry=o.BlockadeGeometry.ENTER_REACH,
    forced_movement_blockade=o.ForcedMovementBlockade.ALL_FORCED,
    kampfunfaehig_prone=False,
    rucksack_failure=o.RucksackFailure.ITEM_LOST,
    friendly_fire=True,
)
"""Every option flipped to an alternative reading, so random play walks those paths too."""

VARIANTS = {
    "default": DEFAULT_OPTIONS,
    "passes": replace(DEFAULT_OPTIONS, initiative=InitiativeSystem.PASSES),
    "passes-random": replace(
        DEFAULT_OPTIONS, initiative=InitiativeSystem.PASSES, tie_order=TieOrder.RANDOM
    ),
    "alternatives": ALTERNATIVES,
    "alternatives-passes": replace(ALTERNATIVES, initiative=InitiativeSystem.PASSES),
    "parry": replace(
        DEFAULT_OPTIONS,
        melee_defence=MeleeDefence.AUSWEICHEN_OR_KAMPFKUNST,
        zielen_max_stacks=3,
        mumm_verbrennen=True,
        nsc_may_help=True,
    ),
}
