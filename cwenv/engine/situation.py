"""Start a combat in the middle: a fighter's turn in a described situation.

A game master at the table describes where everybody stands and how they fare; the engine
resumes from there as if the round had reached that fighter's turn (the GM advisor, tests
of late-fight situations). The rest of the round is empty: after this turn the round ends
(Zehrend, dying checks) and the next one starts with fresh initiative.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cwenv.engine.roundflow import (
    REACTION_DIVISOR,
    CombatFrame,
    CombatStage,
    RoundFrame,
    RoundStage,
    initiative_dice,
)
from cwenv.engine.state import Combat
from cwenv.engine.turn import TurnFrame
from cwenv.model.types import Side, Skill
from cwenv.rules.dice import Dice, seeded
from cwenv.rules.readings import DeathThreshold, InitiativeSystem, NscAtZero, ReactionBasis

if TYPE_CHECKING:
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.game import Game

W10_MAX = 10


class SituationError(ValueError):
    """The described situation cannot be set up (a fighter who cannot act, a bad cell)."""


def max_reactions(c: Combat, f: FighterState) -> int:
    """The most reactions ``f`` can have in a round (R01, X01): the highest Initiative its
    dice can roll (or its Grundwert, or Reflexe, by ``reactions_basis``) ÷ 4."""
    basis = c.options.reactions_basis
    if basis is ReactionBasis.ROLLED_INITIATIVE:
        if c.options.initiative is InitiativeSystem.STEPS:
            top = f.grundwert + W10_MAX * initiative_dice(f.grundwert)
        else:
            top = W10_MAX  # I10: the passes system rolls one W10 as the Initiative
    elif basis is ReactionBasis.GRUNDWERT:
        top = f.grundwert
    else:
        top = f.spec.skill(Skill.REFLEXE)
    return max(0, top) // REACTION_DIVISOR


def lowest_lp(c: Combat, f: FighterState) -> int:
    """The lowest LP ``f`` can have and still be in the fight (sterbend, D07/X05); below
    that it is dead. An NSC that dies at 0 (``nsc_at_zero: dead``) can still lie at 0
    unconscious from non-lethal damage."""
    if f.side is not Side.RUNNER and c.options.nsc_at_zero is NscAtZero.DEAD:
        return 0
    limit = -f.spec.skill(Skill.UNBEUGSAMKEIT)
    return limit + 1 if c.options.death_threshold is DeathThreshold.AT_OR_BELOW else limit


def combat_at_turn(
    game: Game,
    fighter: int,
    edit: Callable[[Combat], None] | None = None,
    *,
    round_: int = 1,
    seed: int = 0,
    dice: Dice | None = None,
) -> Combat:
    """A combat paused at ``fighter``'s turn in round ``round_``, after ``edit`` has set
    positions, LP, conditions, reactions and Mumm on the fresh combat's fighters."""
    # the reference: a situation sets the frames up by hand (the native combat keeps its own)
    combat = Combat(game, dice if dice is not None else seeded(seed))
    if edit is not None:
        edit(combat)
    f = combat.fighters[fighter]
    if not f.standing:
        raise SituationError(f"{f.name} cannot take a turn (down, dead or gone)")
    combat.occupant = {}
    for g in combat.fighters:
        if g.on_map:
            if g.pos in combat.occupant:
                other = combat.fighters[combat.occupant[g.pos]].name
                raise SituationError(f"{g.name} and {other} stand on the same cell")
            if not game.battlemap.terrain[g.pos].standable:
                raise SituationError(
                    f"{g.name} stands on {game.battlemap.terrain[g.pos].described}"
                )
            combat.occupant[g.pos] = g.idx
    outer = CombatFrame()
    outer.stage = CombatStage.ROUND_OVER
    rounds = RoundFrame()
    rounds.stage = RoundStage.TURNS
    combat.round = round_
    combat.queue = []
    combat.events = []
    combat.history = []
    combat.forced = 0
    combat._stack = [outer, rounds, TurnFrame(fighter, 0)]
    combat._pending = None
    combat.refresh_legal()
    # The situation itself may already decide the fight (all Runners out): the turn's first
    # step poses a decision, which the driver never checks for an outcome, so check here.
    if combat._decide_outcome():
        return combat
    combat._run(None)
    return combat
