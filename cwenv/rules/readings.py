"""The enumerated readings of the X-questions (see :class:`cwenv.rules.options.RuleOptions`).

Each enum lists the readings one ambiguous passage allows; the option field that uses it
names the default and why.
"""

from __future__ import annotations

from enum import Enum


class InitiativeSystem(Enum):
    STEPS = "steps"  # I01–I04, the book
    PASSES = "passes"  # I10–I13, the online combat rules


class DropAbsorbed(Enum):
    BELOW_HALF = "below_half"
    UP_TO_HALF = "up_to_half"


class ClimbDown(Enum):
    """B03, X62: which way a Schwierige Bewegung goes down a climbable ledge's face."""

    NEVER = "never"  # a drop (B06) always: the engine before #15
    WHEN_HURT = "when_hurt"  # climbed where the drop would roll damage dice (B05)
    ALWAYS = "always"  # climbed wherever the drop is not absorbed


class ReactionBasis(Enum):
    ROLLED_INITIATIVE = "rolled_initiative"
    GRUNDWERT = "grundwert"
    REFLEXE = "reflexe"


class PenaltyScope(Enum):
    PHYSICAL = "physical"
    ALL_CHECKS = "all_checks"


class DeathThreshold(Enum):
    AT_OR_BELOW = "at_or_below"  # dies at LP <= -Unbeugsamkeit (the text's example)
    BELOW = "below"  # dies at LP < -Unbeugsamkeit


class VolltrefferQS(Enum):
    PROBENWERT_BAND = "probenwert_band"
    ROLL_BAND = "roll_band"
    MAX_ORDINARY = "max_ordinary"


class DifferenceQS(Enum):
    BAND = "band"
    RAW = "raw"


class Rounding(Enum):
    DOWN = "down"
    UP = "up"


class NscAtZero(Enum):
    STERBEND = "sterbend"
    DEAD = "dead"


class ActionBonusMode(Enum):
    NONE = "none"
    DECLARED_ONCE_PER_ROUND = "declared_once_per_round"


class TieOrder(Enum):
    SIDE_CHOOSES = "side_chooses"
    ROSTER = "roster"
    RANDOM = "random"


class MeleeDefence(Enum):
    AUSWEICHEN = "ausweichen"
    AUSWEICHEN_OR_KAMPFKUNST = "ausweichen_or_kampfkunst"


class ProneBonusUntil(Enum):
    OWN_NEXT_TURN = "own_next_turn"
    NEXT_ROUND = "next_round"


class BenommenReactions(Enum):
    BLOCKED = "blocked"  # held but unusable while benommen
    LOST = "lost"  # remaining reactions of the round are gone
    KEPT = "kept"  # may still react while benommen


class LivingCoverStacking(Enum):
    BETTER = "better"
    STRONGER_BY_ONE = "stronger_by_one"


class AreaCover(Enum):
    AREA_HACKS_ONLY = "area_hacks_only"
    ALL_AREA_ATTACKS = "all_area_attacks"


class AngeschlagenTrigger(Enum):
    CROSSING = "crossing"
    EVERY_HIT = "every_hit"


class RoundEndOrder(Enum):
    PER_FIGHTER = "per_fighter"  # each fighter: Zehrend damage, Zehrend check, dying check
    PHASED = "phased"  # all Zehrend first, then all dying checks


class CritExtraDie(Enum):
    FULL_ROLL = "full_roll"
    BARE_DIE = "bare_die"


class StabilisePatzerVictim(Enum):
    PATIENT = "patient"
    MEDIC = "medic"


class ProneMovement(Enum):
    NONE = "none"
    CRAWL_HALF = "crawl_half"


class BehinderungScope(Enum):
    ATTACKS = "attacks"
    ALL_PHYSICAL = "all_physical"


class BlockadeGeometry(Enum):
    PASSING = "passing"
    STAY_IN_REACH = "stay_in_reach"
    ENTER_REACH = "enter_reach"


class ForcedMovementBlockade(Enum):
    FEHLTRITT_ONLY = "fehltritt_only"
    ALL_FORCED = "all_forced"
    NEVER = "never"


class Surprise(Enum):
    NONE = "none"
    REFLEXE_CHECK = "reflexe_check"


class MummRegen(Enum):
    ADD_HALF_MAX = "add_half_max"
    RESTORE_TO_HALF = "restore_to_half"


class DaringMumm(Enum):
    """X61: what counts as 'etwas dummes, aber draufgängerisches' (M10)."""

    NEVER = "never"  # no Tycoon judges it
    ACTIONBONUS_WITHOUT_MUMM = "actionbonus_without_mumm"  # a P03 stunt with no Mumm on it


class HelpModifier(Enum):
    """X59, P08: 'Es gilt in der Regel derselbe Modifikator wie für die Hauptprobe'."""

    MAIN_CHECK = "main_check"  # the main check's situational modifiers (weapon, range, cover)
    NONE = "none"  # the helper's bare value and own conditions


class HelpScope(Enum):
    """X60, P08 in combat: which check of the helped ally an announced help counts for."""

    OWN_CHECKS = "own_checks"  # the next check of the ally's own turn (attack, climb, ...)
    ATTACKS = "attacks"  # only the ally's next attack, manoeuvre or hack


class RucksackFailure(Enum):
    ACTION_LOST = "action_lost"
    ITEM_LOST = "item_lost"


class ShakeTiming(Enum):
    """X38, M08: when 'Zustand abschütteln' ('sofort aufheben') may be spent."""

    ANY_DECISION = "any_decision"  # at any decision of the fighter, own turn or not
    OWN_TURN = "own_turn"  # only during the fighter's own turn


class ZehrendShake(Enum):
    """X55, M08 with Zehrend (D03, Z08): whether Mumm ends a Zehrend, and one whose cause is
    a danger zone the fighter still stands in."""

    REAPPLIED = "reapplied"  # shaken; the zone starts it again at round end (D03)
    REFUSED_IN_ZONE = "refused_in_zone"  # not while the fighter stands in its zone
    NEVER = "never"  # Zehrend is damage, no Zustand M08 ends (the engine before #15)


class ManeuverCrit(Enum):
    """X33, A07 for a Kampfmanöver that deals no damage (X22 ``maneuver_damage`` false):
    which rows of the Volltreffer table still act."""

    CONDITIONS = "conditions"  # verwirrt, eingeschränkt; the extra dice and Zehrend are damage
    ALL_ROWS = "all_rows"  # the rows' conditions and Zehrend (only the extra dice are void)
    NONE = "none"  # no table: the Volltreffer gives only the highest QS


class DisarmedDamage(Enum):
    """X22, K01 'NSCs erhalten –2 auf Angriff und Schaden': how the −2 meets the damage."""

    TOTAL = "total"  # once on the damage roll's total, after armour
    PER_DIE = "per_die"  # once for each damage die (after armour)


class PatzerDefence(Enum):
    """X09: whose QS A08's 'Würfel bei einem Patzer 2W10 – QS des Verteidigers' subtracts."""

    NONE = "none"  # a failed attack draws no defence roll: 2W10 − 0
    DEFENCE_ROLL = "defence_roll"  # the target rolls its defence; a success's QS counts


class LoneWinnerQS(Enum):
    """X27: the QS of the one side that succeeds in a Vergleichende Probe."""

    OWN_ROLL = "own_roll"  # the band of its own roll, as an ordinary success
    DIFFERENCE = "difference"  # P07's difference of the two rolls, at least 1


class TieQS(Enum):
    """X27: the defender's QS when both succeed with the same roll."""

    ZERO = "zero"  # the difference, 0
    OWN_ROLL = "own_roll"  # the band of its own roll


class GrosserWurfRoll(Enum):
    """X54: what roll M09's automatic Volltreffer counts as in a comparison."""

    BEST_PASCH = "best_pasch"  # the highest Pasch the Probenwert allows (at most 9+9)
    HIGHEST_ROLL = "highest_roll"  # the highest successful roll, min(Probenwert, 18)
