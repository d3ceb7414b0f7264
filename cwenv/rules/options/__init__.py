"""Rule options: every reading the text leaves open, in one frozen dataclass.

Each field answers one X-question of the checklist (its ``metadata["x"]``) or selects a
variant (the initiative system). The default is the reading this project plays by; the
field's metadata says why and names the alternatives. A rule function that depends on
an option cites both the rule ID and the X-ID. ``docs/rules.md`` is generated from
:func:`option_table`.

The fields are declared by checklist section, one module each (:mod:`.probe`,
:mod:`.mumm`, :mod:`.initiative`, :mod:`.handlungen`, :mod:`.movement`, :mod:`.reactions`,
:mod:`.attack`, :mod:`.maneuvers`, :mod:`.cover`, :mod:`.damage`, :mod:`.conditions`):
a new option goes into the section of the rule it reads. :class:`RuleOptions` joins the
sections into the one frozen, slotted dataclass the engine reads.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from cwenv.rules.options.attack import AttackOptions
from cwenv.rules.options.conditions import (
    ZEHREND_CHECKS_DEFAULT as ZEHREND_CHECKS_DEFAULT,
    ConditionOptions,
)
from cwenv.rules.options.cover import CoverOptions
from cwenv.rules.options.damage import DamageOptions
from cwenv.rules.options.documented import Section
from cwenv.rules.options.handlungen import HandlungOptions
from cwenv.rules.options.initiative import InitiativeOptions
from cwenv.rules.options.maneuvers import ManeuverOptions
from cwenv.rules.options.movement import MovementOptions
from cwenv.rules.options.mumm import MummOptions
from cwenv.rules.options.probe import MENTAL_CHECKS_DEFAULT as MENTAL_CHECKS_DEFAULT, ProbeOptions
from cwenv.rules.options.reactions import ReactionOptions
from cwenv.rules.readings import (
    ActionBonusMode as ActionBonusMode,
    AngeschlagenTrigger as AngeschlagenTrigger,
    AreaCover as AreaCover,
    BehinderungScope as BehinderungScope,
    BenommenReactions as BenommenReactions,
    BlockadeGeometry as BlockadeGeometry,
    ClimbDown as ClimbDown,
    CritExtraDie as CritExtraDie,
    DeathThreshold as DeathThreshold,
    DifferenceQS as DifferenceQS,
    DisarmedDamage as DisarmedDamage,
    DropAbsorbed as DropAbsorbed,
    ForcedMovementBlockade as ForcedMovementBlockade,
    GrosserWurfRoll as GrosserWurfRoll,
    HelpModifier as HelpModifier,
    HelpScope as HelpScope,
    InitiativeSystem as InitiativeSystem,
    LivingCoverStacking as LivingCoverStacking,
    LoneWinnerQS as LoneWinnerQS,
    ManeuverCrit as ManeuverCrit,
    MeleeDefence as MeleeDefence,
    MummRegen as MummRegen,
    NscAtZero as NscAtZero,
    PatzerDefence as PatzerDefence,
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
    TieQS as TieQS,
    VolltrefferQS as VolltrefferQS,
    ZehrendShake as ZehrendShake,
)

SECTIONS: tuple[type[Section], ...] = (
    ProbeOptions,
    MummOptions,
    InitiativeOptions,
    HandlungOptions,
    MovementOptions,
    ReactionOptions,
    AttackOptions,
    ManeuverOptions,
    CoverOptions,
    DamageOptions,
    ConditionOptions,
)
"""The sections in checklist order (P, M, I, H, B, R, A, K, C, D, Z): the order of the
fields, of ``cwenv rules options`` and of the option tables in ``docs/rules.md``."""


# A dataclass takes its bases' fields in reverse MRO order, so the bases are listed last
# section first: the fields then run in SECTIONS order.
@dataclass(frozen=True, slots=True)
class RuleOptions(
    ConditionOptions,
    DamageOptions,
    CoverOptions,
    ManeuverOptions,
    AttackOptions,
    ReactionOptions,
    MovementOptions,
    HandlungOptions,
    InitiativeOptions,
    MummOptions,
    ProbeOptions,
):
    """Every choice the rules text leaves open (X01–X46) and the variant selectors."""


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
    section: str = ""  # the checklist section's letter (P, M, I, H, B, R, A, K, C, D, Z)


def _show(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value) if not isinstance(value.value, int) else value.name
    if isinstance(value, frozenset):
        return ", ".join(sorted(_show(v) for v in value))
    if isinstance(value, tuple):
        return ", ".join(f"{k}→{_show(v)}" for k, v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def section_of(name: str) -> type[Section]:
    """The section class that declares the option ``name``."""
    for section in SECTIONS:
        if name in section.__annotations__:
            return section
    raise KeyError(name)


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
                section=section_of(f.name).SECTION,
            )
        )
    return rows
