"""R — Reaktionen: the rule options of this checklist section.

Reactions (R01–R06): how many, Niederwerfen als Reaktion, Benommen's reactions, the
Blockadeangriff.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import (
    BenommenReactions,
    BlockadeGeometry,
    ForcedMovementBlockade,
    ProneBonusUntil,
    ReactionBasis,
)


@dataclass(frozen=True)
class ReactionOptions(Section):
    """The R section of :class:`~cwenv.rules.options.RuleOptions` (Reaktionen)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "R"
    TITLE: ClassVar[str] = "Reaktionen"

    reactions_basis: ReactionBasis = documented(
        ReactionBasis.ROLLED_INITIATIVE,
        "X01",
        "R01 says 'Initiative ÷ 4' and the initiative section calls the rolled total the "
        "Initiativewert.",
        "grundwert, reflexe",
    )
    niederwerfen_penalty_until: ProneBonusUntil = documented(
        ProneBonusUntil.OWN_NEXT_TURN,
        "X23",
        "'bis zum Beginn ihrer nächsten Runde' reads as the fighter's own next turn.",
        "next_round",
    )
    niederwerfen_vs_melee: bool = documented(
        False, "X23", "Dropping prone is about using cover against fire.", "true"
    )
    prone_three_quarter_to_full: bool = documented(
        False, "X23", "R06 only upgrades half cover.", "true"
    )
    benommen_reactions: BenommenReactions = documented(
        BenommenReactions.BLOCKED,
        "X24",
        "Benommen cannot act; reactions come back when it ends.",
        "lost, kept",
    )
    blockade_geometry: BlockadeGeometry = documented(
        BlockadeGeometry.PASSING,
        "X43",
        "'an dir vorbeizubewegen (nicht wegbewegen)': a step that starts inside reach and "
        "neither approaches nor moves away — it keeps the distance, or runs at right angles "
        "to the line to the guard out of a diagonal corner of the reach (so weaving through "
        "that corner is passing too). Straight towards or away never provokes, at any reach.",
        "stay_in_reach (both ends inside reach at the same distance: the corner exit is free), "
        "enter_reach (any step ending inside reach that does not move away)",
    )
    forced_movement_blockade: ForcedMovementBlockade = documented(
        ForcedMovementBlockade.FEHLTRITT_ONLY,
        "X43",
        "Only Fehltritt says it can provoke a Blockadeangriff.",
        "all_forced, never",
    )
