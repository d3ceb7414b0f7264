"""B — Bewegung: the rule options of this checklist section.

Moving (B01–B06): Bewegung, climbing, swimming, falls and drops, halved movement.
A new option that reads a rule of this section goes here, in X order, documented with
:func:`~cwenv.rules.options.documented.documented` (``docs/rules.md`` lists it under this
section after ``cwenv rules doc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cwenv.model.types import ArmourMode, Skill
from cwenv.rules.options.documented import Section, documented
from cwenv.rules.readings import (
    ClimbDown,
    DropAbsorbed,
    ProneMovement,
    Rounding,
)


@dataclass(frozen=True)
class MovementOptions(Section):
    """The B section of :class:`~cwenv.rules.options.RuleOptions` (Bewegung)."""

    __slots__ = ()
    SECTION: ClassVar[str] = "B"
    TITLE: ClassVar[str] = "Bewegung"

    default_bewegung: int = documented(
        6, "X13", "Stat-block default when a fighter file omits Bewegung.", "int >= 1"
    )
    climb_skill: Skill = documented(
        Skill.UNBEUGSAMKEIT, "X17", "B03's movement rule is the specific one.", "INFILTRATION"
    )
    diagonals_alternate: bool = documented(
        False,
        "X49",
        "B01 counts metres of Bewegung; on the 1 m grid a diagonal step is 1 m (the distance "
        "is the larger of the two sides, as for ranges and reach), so a fighter covers as "
        "many cells diagonally as straight.",
        "true: every second diagonal metre of a move costs 2 (1-2-1), for walking, jumping "
        "and swimming; climbing is vertical; ranges, reach and forced moves stay on the "
        "1 m count",
    )
    hurdles: bool = documented(
        True,
        "X48",
        "B02 'einen oder mehrere Abgründe oder Hürden überwinden, der seiner halben Bewegung "
        "(min. 1 Meter) entspricht … Weitere oder höhere Sprünge erfordern eine Probe auf "
        "Infiltration': a low wall or crate ('=', its top 1 m above its ground) is jumped like "
        "a gap, free up to half Bewegung across, farther (up to Bewegung) as a Schwierige "
        "Bewegung; a step up onto a cell that is no climbable ledge costs its height in metres, "
        "free up to half Bewegung, higher (up to Bewegung) as a Schwierige Bewegung; a failed "
        "jump over a hurdle or up a step makes no headway; a climbable ledge ('H') is climbed "
        "(B03).",
        "false: '=' bars the way and a step up of more than 1 m only climbs onto 'H' (the "
        "engine before #15)",
    )
    climb_over_actions: bool = documented(
        True,
        "X40",
        "B03 'Bewegung … halbiert (min. 1 Meter)': a ledge higher than half the movement left "
        "is climbed over several Schwierige Bewegungen, at least 1 m each; the climber hangs "
        "at the wall between them; a failed check makes no headway (as for a whole climb); "
        "moving otherwise, falling prone, Benommen or going down let go (a fall: "
        "climb_let_go_falls).",
        "false: a ledge is climbed whole within one action's movement or not at all (a "
        "face too high for that is dropped, not climbed down: X62 climb_down)",
    )
    climb_let_go_falls: bool = documented(
        True,
        "X40",
        "B03/B05: a climber who lets go of the wall part-way (moving otherwise, falling prone, "
        "Benommen, going down) falls the height climbed: absorbed below half Bewegung (B06, "
        "X18 drop_absorbed), else 1W10 brechend per 3 m; outside its turn it may catch the "
        "fall with a reaction (R05).",
        "false: letting go costs no fall (the engine before #15)",
    )
    climb_down: ClimbDown = documented(
        ClimbDown.WHEN_HURT,
        "X62",
        "B03 'Klettern erfordert immer eine Probe … Die Bewegung ist während dem Klettern "
        "halbiert': the text knows no direction, so a fighter on a climbable ledge ('H', "
        "whose faces are climbed onto from below) also climbs down them, as the same check "
        "at half speed. A Schwierige Bewegung is a destination cell, so this option says "
        "which way one goes down a face the drop would hurt on: where the drop is deeper "
        "than absorbed (B06) and would roll damage dice (B05, 3 m under X18 "
        "fall_dice_rounding down), the fighter climbs down, over several actions when it "
        "is higher than the movement left allows (X40 climb_over_actions); a failed check "
        "makes no headway, as climbing up; letting go part-way falls the rest of the way "
        "(X40 climb_let_go_falls) into the cell below. Shallower deep drops stay drops; a "
        "route round the ledge that a cheaper whole Schwierige Bewegung takes (a drop off a "
        "plain edge beside it) still beats a partial climb down (X40). B06 ('Tiefere Stürze "
        "erfordern eine Probe auf Infiltration … Schwierige Bewegung') allows a deliberate "
        "drop down the same face too; with one Schwierige Bewegung per destination cell the "
        "climb is read where both are open, and the drop where no climb is: a face higher "
        "than one action's movement climbs under X40 climb_over_actions false is dropped.",
        "never: every step down deeper than the absorbed drop is a drop (B06; the engine "
        "before #15); always: every such step off a climbable ledge is climbed down",
    )
    swim_skill: Skill = documented(
        Skill.UNBEUGSAMKEIT, "X17", "B04 names Unbeugsamkeit.", "any skill"
    )
    fall_armour_mode: ArmourMode = documented(
        ArmourMode.BRECHEND, "X18", "B05 says brechend; D02's list is an example.", "direkt"
    )
    fall_dice_rounding: Rounding = documented(
        Rounding.DOWN, "X18", "'pro 3 Meter': a full 3 m per die, so under 3 m no dice.", "up"
    )
    own_turn_fall_roll: bool = documented(
        False,
        "X18",
        "B05's Akrobatik roll is the Sturz abfangen of B06/R05: in one's own turn a deep drop "
        "is a Schwierige Bewegung whose check is that roll, outside it a reaction buys it; a "
        "fall forced on a fighter in its own turn (a failed jump, a Fehltritt, letting go of "
        "a wall) has no roll.",
        "true: such a fall rolls Infiltration (Akrobatik) too, without a reaction; QS removes "
        "damage dice",
    )
    drop_absorbed: DropAbsorbed = documented(
        DropAbsorbed.BELOW_HALF,
        "X18",
        "B06: 'Ein Sturz von weniger als der halben Bewegung (min. 1 Meter) kann … abgefangen "
        "werden': strictly less than half Bewegung, but a 1 m drop always.",
        "up_to_half (a drop of exactly half Bewegung is absorbed too)",
    )
    move_with_forfeited_handlung: bool = documented(
        True, "X40", "Movement is 'bei jeder Handlung', used or not.", "false"
    )
    prone_movement: ProneMovement = documented(
        ProneMovement.NONE, "X40", "Aufstehen first (H02).", "crawl_half"
    )
    halvings_stack: bool = documented(
        True, "X40", "Each halving applies (eingeschränkt while climbing = a quarter).", "false"
    )
