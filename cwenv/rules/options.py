"""Rule options: every reading the text leaves open, in one frozen dataclass.

Each field answers one X-question of the checklist (its ``metadata["x"]``) or selects a
variant (the initiative system). The default is the reading this project plays by; the
docstring metadata says why and names the alternatives. A rule function that depends on
an option cites both the rule ID and the X-ID. ``docs/rules.md`` is generated from
:func:`option_table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

from cwenv.model.types import ArmourMode, CheckValue, CoverLevel, Skill
from cwenv.rules.readings import (
    ActionBonusMode as ActionBonusMode,
    AngeschlagenTrigger as AngeschlagenTrigger,
    AreaCover as AreaCover,
    BehinderungScope as BehinderungScope,
    BenommenReactions as BenommenReactions,
    BlockadeGeometry as BlockadeGeometry,
    CritExtraDie as CritExtraDie,
    DeathThreshold as DeathThreshold,
    DifferenceQS as DifferenceQS,
    DropAbsorbed as DropAbsorbed,
    ForcedMovementBlockade as ForcedMovementBlockade,
    InitiativeSystem as InitiativeSystem,
    LivingCoverStacking as LivingCoverStacking,
    MeleeDefence as MeleeDefence,
    MummRegen as MummRegen,
    NscAtZero as NscAtZero,
    PenaltyScope as PenaltyScope,
    ProneBonusUntil as ProneBonusUntil,
    ProneMovement as ProneMovement,
    ReactionBasis as ReactionBasis,
    RoundEndOrder as RoundEndOrder,
    Rounding as Rounding,
    RucksackFailure as RucksackFailure,
    ShakeTiming as ShakeTiming,
    StabilisePatzerVictim as StabilisePatzerVictim,
    Surprise as Surprise,
    TieOrder as TieOrder,
    VolltrefferQS as VolltrefferQS,
)


def _opt(default: Any, x: str, why: str, alternatives: str) -> Any:
    """A rule-option field with the X-question it answers and its documentation."""
    meta = {"x": x, "why": why, "alternatives": alternatives}
    if isinstance(default, frozenset | dict | tuple):
        return field(default_factory=lambda: default, metadata=meta)
    return field(default=default, metadata=meta)


MENTAL_CHECKS_DEFAULT = frozenset(
    {
        CheckValue.COOLNESS,
        CheckValue.CONNECTIONS,
        CheckValue.DATAMINING,
        CheckValue.HACKING,
        CheckValue.OPERATIONS,
        CheckValue.TECHNIK,
        CheckValue.WAHRNEHMUNG,
        CheckValue.FIREWALL,
    }
)

ZEHREND_CHECKS_DEFAULT: tuple[tuple[str, Skill], ...] = (
    ("Blutung", Skill.TECHNIK),
    ("Feuer", Skill.REFLEXE),
)


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every choice the rules text leaves open (X01–X46) and the variant selectors."""

    initiative: InitiativeSystem = _opt(
        InitiativeSystem.STEPS, "I", "The book's step system (I01–I04).", "passes (I10–I13)"
    )
    reactions_basis: ReactionBasis = _opt(
        ReactionBasis.ROLLED_INITIATIVE,
        "X01",
        "R01 says 'Initiative ÷ 4' and the initiative section calls the rolled total the "
        "Initiativewert.",
        "grundwert, reflexe",
    )
    benommen_check: CheckValue = _opt(
        CheckValue.UNBEUGSAMKEIT,
        "X02",
        "Unbeugsamkeit covers fear and psychic pressure (P09); Mumm is courage.",
        "any check value, e.g. COOLNESS",
    )
    zielen_max_stacks: int = _opt(
        1, "X03", "One aim per attack; 'jeweils' reads as per Zielen, not cumulative.", "n >= 1"
    )
    zielen_bonus: int = _opt(2, "X03", "H11: +2 on the attack per Zielen.", "any int")
    zielen_qs_bonus: int = _opt(1, "X03", "H11: +1 QS on a hit per Zielen.", "any int >= 0")
    zielen_lost_on_move: bool = _opt(
        True, "X03", "Aiming at a weak spot needs a steady stance.", "false"
    )
    zielen_lost_on_hit: bool = _opt(False, "X03", "The text does not say so.", "true")
    zielen_lost_at_round_end: bool = _opt(
        False, "X03", "The text names no expiry; the aim waits for the next shot.", "true"
    )
    zielen_qs_on_weakened_hit: bool = _opt(
        True, "X03", "A weakened hit is still a hit ('+1 QS bei einem Treffer').", "false"
    )
    angeschlagen_scope: PenaltyScope = _opt(
        PenaltyScope.PHYSICAL,
        "X04",
        "The condition's own text (Z01) is the specific rule; D06 only triggers it.",
        "all_checks (D06's '–2 auf alle Proben')",
    )
    angeschlagen_shake_below_half: bool = _opt(
        True, "X04", "Z01 allows shaking it off without a condition on LP.", "false"
    )
    death_threshold: DeathThreshold = _opt(
        DeathThreshold.AT_OR_BELOW,
        "X05",
        "Text example: Unbeugsamkeit 10 dies at −10.",
        "below",
    )
    volltreffer_qs: VolltrefferQS = _opt(
        VolltrefferQS.PROBENWERT_BAND,
        "X06",
        "'Highest QS you can reach' = the band of the Probenwert, bands continuing above 20 "
        "(21–25 → 5), so only a Volltreffer reaches 5+ (P05).",
        "roll_band, max_ordinary",
    )
    defended_hit_qs: DifferenceQS = _opt(
        DifferenceQS.BAND, "X07", "Text example: 11 − 8 = 3 → QS 1.", "raw"
    )
    armour_floor_zero: bool = _opt(
        True, "X08", "Armour cannot turn a damage roll into healing.", "false"
    )
    brechend_armour_rounding: Rounding = _opt(
        Rounding.DOWN, "X08", "Halving rounds down everywhere the text says (M06).", "up"
    )
    volltreffer_defendable: bool = _opt(
        True,
        "X09",
        "A2 lets every successful attack be defended; no exception is written.",
        "false",
    )
    defence_patzer_niedergeworfen: bool = _opt(
        False, "X09", "A08 is the attack table; a failed defence simply fails.", "true"
    )
    mumm_verbrennen: bool = _opt(
        False,
        "X10",
        "'Verbrennen' is never defined, so it is not offered.",
        "true: an entmutigt fighter may still spend Mumm, losing the same from mumm_max",
    )
    nsc_mumm: bool = _opt(
        True, "X11", "Stat blocks give NSCs Mumm where the GM wants it.", "false: NSCs never spend"
    )
    nsc_at_zero: NscAtZero = _opt(
        NscAtZero.STERBEND,
        "X11",
        "D07 says 'Ein Charakter fällt … und erhält sterbend' for everybody.",
        "dead",
    )
    unarmed_bonus: int = _opt(
        -2, "X12", "Unarmed damage is weapon data; W10−2 keeps fists weaker than blades.", "int"
    )
    default_bewegung: int = _opt(
        6, "X13", "Stat-block default when a fighter file omits Bewegung.", "int >= 1"
    )
    actionbonus: ActionBonusMode = _opt(
        ActionBonusMode.NONE,
        "X14",
        "The Actionbonus is the Tycoon's judgement of a described stunt; a simulation has none.",
        "declared_once_per_round: a Runner may claim +2 on one check per round",
    )
    sprint_total_multiplier: int = _opt(
        2, "X15", "'Bewege dich erneut um deine Bewegung': the free move plus one more.", "3"
    )
    tie_order: TieOrder = _opt(
        TieOrder.SIDE_CHOOSES,
        "X16",
        "I04: 'Kämpfer derselben Fraktion bestimmen ihre Reihenfolge selbst'.",
        "roster, random",
    )
    climb_skill: Skill = _opt(
        Skill.UNBEUGSAMKEIT, "X17", "B03's movement rule is the specific one.", "INFILTRATION"
    )
    climb_over_actions: bool = _opt(
        True,
        "X40",
        "B03 'Bewegung … halbiert (min. 1 Meter)': a ledge higher than half the movement left "
        "is climbed over several Schwierige Bewegungen, at least 1 m each; the climber hangs "
        "at the wall between them; a failed check makes no headway (as for a whole climb); "
        "moving otherwise, falling prone, Benommen or going down let go, without a fall.",
        "false: a ledge is climbed whole within one action's movement or not at all",
    )
    swim_skill: Skill = _opt(Skill.UNBEUGSAMKEIT, "X17", "B04 names Unbeugsamkeit.", "any skill")
    fall_armour_mode: ArmourMode = _opt(
        ArmourMode.BRECHEND, "X18", "B05 says brechend; D02's list is an example.", "direkt"
    )
    fall_dice_rounding: Rounding = _opt(
        Rounding.DOWN, "X18", "'pro 3 Meter': a full 3 m per die, so under 3 m no dice.", "up"
    )
    drop_absorbed: DropAbsorbed = _opt(
        DropAbsorbed.BELOW_HALF,
        "X18",
        "B06: 'Ein Sturz von weniger als der halben Bewegung (min. 1 Meter) kann … abgefangen "
        "werden': strictly less than half Bewegung, but a 1 m drop always.",
        "up_to_half (a drop of exactly half Bewegung is absorbed too)",
    )
    escalation_steps: int = _opt(
        1,
        "X19",
        "One substitution; if the substitute is already held nothing further happens.",
        "0 (no substitution), 2+",
    )
    eingeschraenkt_check: Skill = _opt(
        Skill.UNBEUGSAMKEIT, "X20", "Shaking a limp off is toughness.", "any skill"
    )
    zehrend_checks: tuple[tuple[str, Skill], ...] = _opt(
        ZEHREND_CHECKS_DEFAULT,
        "X20",
        "Bleeding is stopped with Technik (first aid), burning clothes with Reflexe; any "
        "other type with Unbeugsamkeit.",
        "any mapping",
    )
    melee_defence: MeleeDefence = _opt(
        MeleeDefence.AUSWEICHEN,
        "X21",
        "A03: weapon attacks are defended with Ausweichen.",
        "ausweichen_or_kampfkunst (parry, P09)",
    )
    maneuver_reaction_cost: int = _opt(1, "X22", "A defence costs one reaction (A02).", "0")
    maneuver_damage: bool = _opt(
        False, "X22", "K lists effects only; no manoeuvre states damage.", "true"
    )
    entwaffnen_nsc_penalty: int = _opt(
        2, "X22", "K01: NSCs get −2 on attack and damage for the rest of the fight.", "int"
    )
    niederwerfen_penalty_until: ProneBonusUntil = _opt(
        ProneBonusUntil.OWN_NEXT_TURN,
        "X23",
        "'bis zum Beginn ihrer nächsten Runde' reads as the fighter's own next turn.",
        "next_round",
    )
    niederwerfen_vs_melee: bool = _opt(
        False, "X23", "Dropping prone is about using cover against fire.", "true"
    )
    prone_three_quarter_to_full: bool = _opt(False, "X23", "R06 only upgrades half cover.", "true")
    benommen_reactions: BenommenReactions = _opt(
        BenommenReactions.BLOCKED,
        "X24",
        "Benommen cannot act; reactions come back when it ends.",
        "lost, kept",
    )
    living_cover_neutral: CoverLevel = _opt(
        CoverLevel.HALF, "X25", "Neutrals are not the attacker's enemies.", "THREE_QUARTER"
    )
    living_cover_stacking: LivingCoverStacking = _opt(
        LivingCoverStacking.BETTER, "X25", "Cover levels do not add up in C01.", "stronger_by_one"
    )
    living_cover_melee: bool = _opt(False, "X25", "C02: cover hampers ranged attacks.", "true")
    living_cover_prone_counts: bool = _opt(
        False, "X25", "A body on the floor is not in the line of fire.", "true"
    )
    area_cover: AreaCover = _opt(
        AreaCover.ALL_AREA_ATTACKS,
        "X26",
        "A grenade's blast goes round half cover like an area hack's.",
        "area_hacks_only",
    )
    volltreffer_wins_contest: bool = _opt(False, "X27", "P07 compares rolls only.", "true")
    angeschlagen_trigger: AngeschlagenTrigger = _opt(
        AngeschlagenTrigger.CROSSING,
        "X28",
        "D06: 'sobald er … fällt' is the moment of crossing.",
        "every_hit",
    )
    sterbend_damage_reinflicts: bool = _opt(
        True, "X29", "Damage while dying inflicts sterbend again → 1W10 direct (Z06).", "false"
    )
    tod_abwenden_ends_sterbend: bool = _opt(
        True, "X30", "M04 leaves the runner unconscious, not dying.", "false"
    )
    round_end_order: RoundEndOrder = _opt(
        RoundEndOrder.PER_FIGHTER, "X31", "Per fighter in initiative order.", "phased"
    )
    resistance_rounding: Rounding = _opt(Rounding.DOWN, "X32", "Halving rounds down (M06).", "up")
    crit_extra_die: CritExtraDie = _opt(
        CritExtraDie.FULL_ROLL,
        "X33",
        "'Schadenswürfel' in A06 are rolled with all damage bonuses.",
        "bare_die",
    )
    zerschmettert_all_direct: bool = _opt(
        True, "X33", "'richtet … direkten Schaden an' speaks of the whole attack.", "false"
    )
    non_lethal_floor_zero: bool = _opt(
        True, "X34", "Non-lethal damage brings a fighter 'auf 0 LP', no further.", "false"
    )
    stabilise_patzer_victim: StabilisePatzerVictim = _opt(
        StabilisePatzerVictim.PATIENT,
        "X35",
        "'erleidet er' follows 'der Runner überlebt'.",
        "medic",
    )
    stabilise_needs_adjacent: bool = _opt(True, "X35", "First aid needs hands on.", "false")
    passes_count_initiative_bonus: bool = _opt(
        False,
        "X36",
        "Initiative bonuses such as the Raptor-Booster are not 'Boni' of Reflexe.",
        "true",
    )
    mumm_session_regen: MummRegen = _opt(
        MummRegen.ADD_HALF_MAX,
        "X37",
        "'regenerierst deinen halben Mumm': + floor(max / 2), capped at the maximum. Used "
        "between the fights of a multi-fight run, never inside a combat.",
        "restore_to_half",
    )
    mumm_improve_per_check: int = _opt(
        1, "X38", "One spend per check keeps M09 (3 Mumm) meaningful.", "n >= 1"
    )
    mumm_rerolls_per_check: int = _opt(
        1, "X38", "'den Wurf wiederholen' once; then choose.", "n >= 1"
    )
    mumm_avert_after_reroll: bool = _opt(
        True, "X38", "M01 applies to whichever result stands.", "false"
    )
    mumm_extra_action_moves: bool = _opt(
        True, "X38", "'Bei jeder Handlung darf sich der Kämpfer zusätzlich bewegen' (H00).", "false"
    )
    mumm_shake_timing: ShakeTiming = _opt(
        ShakeTiming.ANY_DECISION,
        "X38",
        "M08 'sofort aufheben': at any of the fighter's decisions (before a defence, a "
        "Blockadeangriff, a check), not only in its own turn; not while kampfunfähig "
        "(nothing to gain, X44 keeps it niedergeworfen; M04 stays affordable) and not for "
        "Benommen during the turn's forced Mumm-Probe (Z02: the Handlung is spent anyway).",
        "own_turn",
    )
    mental_checks: frozenset[CheckValue] = _opt(
        MENTAL_CHECKS_DEFAULT,
        "X39",
        "Geistig: social, knowledge, hacking, perception and technical checks and Firewall; "
        "everything else is körperlich.",
        "any set of check values",
    )
    move_with_forfeited_handlung: bool = _opt(
        True, "X40", "Movement is 'bei jeder Handlung', used or not.", "false"
    )
    prone_movement: ProneMovement = _opt(
        ProneMovement.NONE, "X40", "Aufstehen first (H02).", "crawl_half"
    )
    halvings_stack: bool = _opt(
        True, "X40", "Each halving applies (eingeschränkt while climbing = a quarter).", "false"
    )
    helfen_in_combat: bool = _opt(
        True, "X41", "P08 works in combat; helping costs the helper's Handlung.", "false"
    )
    nsc_may_help: bool = _opt(False, "X41", "P08 speaks of Runner.", "true")
    nsc_actionbonus: bool = _opt(
        False, "X41", "P03 grants the Actionbonus to a Runner.", "true (with X14 declared)"
    )
    behinderung_scope: BehinderungScope = _opt(
        BehinderungScope.ATTACKS, "X42", "A01 names the attack value.", "all_physical"
    )
    blockade_geometry: BlockadeGeometry = _opt(
        BlockadeGeometry.STAY_IN_REACH,
        "X43",
        "'vorbeibewegen (nicht wegbewegen)': a step that starts and ends inside reach.",
        "enter_reach (any step ending inside reach)",
    )
    forced_movement_blockade: ForcedMovementBlockade = _opt(
        ForcedMovementBlockade.FEHLTRITT_ONLY,
        "X43",
        "Only Fehltritt says it can provoke a Blockadeangriff.",
        "all_forced, never",
    )
    kampfunfaehig_prone: bool = _opt(True, "X44", "'kampfunfähig zu Boden'.", "false")
    surprise: Surprise = _opt(
        Surprise.NONE,
        "X45",
        "No surprise rule exists; scenarios may opt in.",
        "reflexe_check: ambushed fighters failing Reflexe lose round 1",
    )
    rucksack_failure: RucksackFailure = _opt(
        RucksackFailure.ACTION_LOST, "X46", "A failed search wastes the action.", "item_lost"
    )
    friendly_fire: bool = _opt(
        False, "A01", "Agents may target enemies and neutrals, not allies.", "true"
    )

    def is_mental(self, check: CheckValue) -> bool:
        """Whether a check counts as geistig (Verwirrt) or körperlich (Angeschlagen) (X39)."""
        return check in self.mental_checks

    def zehrend_check(self, kind: str) -> Skill:
        """The 'passende Probe' that ends a Zehrend of this type (Z08, X20)."""
        for name, skill in self.zehrend_checks:
            if name.lower() == kind.lower():
                return skill
        return Skill.UNBEUGSAMKEIT


DEFAULT_OPTIONS = RuleOptions()


def regenerate_session_mumm(current: int, maximum: int, options: RuleOptions) -> int:
    """Mumm at the start of a further session of a job (M10, X37)."""
    if options.mumm_session_regen is MummRegen.ADD_HALF_MAX:
        return min(maximum, current + maximum // 2)
    return max(current, maximum // 2)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    x: str
    default: str
    why: str
    alternatives: str


def _show(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value) if not isinstance(value.value, int) else value.name
    if isinstance(value, frozenset):
        return ", ".join(sorted(_show(v) for v in value))
    if isinstance(value, tuple):
        return ", ".join(f"{k}→{_show(v)}" for k, v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_table() -> list[OptionInfo]:
    """One row per option, in declaration order (for docs and ``cwenv rules options``)."""
    rows = []
    defaults = RuleOptions()
    for f in fields(RuleOptions):
        default = getattr(defaults, f.name)
        rows.append(
            OptionInfo(
                name=f.name,
                x=f.metadata["x"],
                default=_show(default),
                why=f.metadata["why"],
                alternatives=f.metadata["alternatives"],
            )
        )
    return rows
