"""Which combat ``Game.new_combat`` starts (issue #16): the native one wherever it can run
the fight, else the reference.

The native combat (:class:`~cwenv.engine.native.combat.NativeCombat`) plays a fight when the
native engine is chosen (``CWENV_ENGINE``, :func:`cwenv.battlemap.los.engine`), the dice
are the seeded stream and the core takes the game and its start (no job's carried state,
nobody starting with Zehrend); otherwise the reference :class:`~cwenv.engine.state.Combat`
does. Both play the same fight from the same seed: same events, same legal choices, same
outcome. ``CWENV_COMBAT`` (``native``, the default where the core is built, or
``python``) chooses at import, :func:`use_combat` in a process.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from cwenv.battlemap import los
from cwenv.rules.dice import SeededDice

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.rules.dice import Dice

COMBATS = ("native", "python")


class CombatChoiceError(ValueError):
    """``CWENV_COMBAT`` names no combat engine."""


def _chosen() -> str:
    choice = os.environ.get("CWENV_COMBAT", "native")
    if choice not in COMBATS:
        raise CombatChoiceError(f"CWENV_COMBAT={choice!r}: choose one of {', '.join(COMBATS)}")
    return choice


_CHOICE = [_chosen()]


def use_combat(choice: str) -> str:
    """Start native or reference combats from now on; returns the choice before."""
    if choice not in COMBATS:
        raise CombatChoiceError(f"combat {choice!r}: choose one of {', '.join(COMBATS)}")
    before = _CHOICE[0]
    _CHOICE[0] = choice
    return before


def combat_choice() -> str:
    return _CHOICE[0]


def new_combat(game: Game, dice: Dice) -> Combat:
    """The combat of ``game`` drawing from ``dice``: native where it can run, else the
    reference."""
    from cwenv.engine.state import Combat

    if _CHOICE[0] == "native" and los.engine() == "native" and isinstance(dice, SeededDice):
        from cwenv.engine.native.combat import NativeCombat, Unported

        if not game.carried:
            try:
                return NativeCombat(game, dice=dice)
            except Unported:
                pass  # a start the core does not take: the reference plays it
    return Combat(game, dice)
