"""Start a combat in the middle: a fighter's turn in a described situation.

A game master at the table describes where everybody stands and how they fare; the engine
resumes from there as if the round had reached that fighter's turn (the GM advisor, tests
of late-fight situations). The rest of the round is empty: after this turn the round ends
(Zehrend, dying checks) and the next one starts with fresh initiative.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cwenv.engine.roundflow import CombatFrame, RoundFrame
from cwenv.engine.turn import TurnFrame
from cwenv.rules.dice import Dice, SeededDice

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat


class SituationError(ValueError):
    """The described situation cannot be set up (a fighter who cannot act, a bad cell)."""


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
    combat = game.new_combat(seed, dice if dice is not None else SeededDice(seed))
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
                raise SituationError(f"{g.name} stands on {game.battlemap.terrain[g.pos].name}")
            combat.occupant[g.pos] = g.idx
    outer = CombatFrame()
    outer.stage = 1
    rounds = RoundFrame()
    rounds.stage = 2
    combat.round = round_
    combat.queue = []
    combat.events = []
    combat.history = []
    combat._stack = [outer, rounds, TurnFrame(fighter, 0)]
    combat._pending = None
    combat.refresh_legal()
    combat.mark_dirty()  # the situation itself may already decide the fight
    combat._run(None)
    return combat
