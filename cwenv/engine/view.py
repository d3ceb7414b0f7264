"""What the engine's pure rule helpers read of a combat.

``check_parts``, ``cover_against``, ``reaction_choices``, ``armour_after_mode``,
``defence_values``, ``area_targets`` and ``plan_attack`` work out a Probenwert, a cover or
an attack's defence from a handful of a combat's attributes and change nothing. They take a
:class:`CombatView`, so a :class:`~cwenv.engine.state.Combat` and an agent's per-decision
snapshot (``agents.board.Board``) both satisfy it structurally and agents use the engine's
own rules without touching the live combat.

The members are read-only properties: a plain attribute of a narrower type (a combat's
``list`` of fighters, a board's ``tuple``) then satisfies them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cwenv.battlemap.grid import BattleMap
    from cwenv.engine.fighter import FighterState
    from cwenv.rules.options import RuleOptions


class CombatView(Protocol):
    """The parts of a combat the pure rule helpers read."""

    @property
    def options(self) -> RuleOptions:
        """The fight's rule options (the X readings)."""
        ...

    @property
    def bm(self) -> BattleMap:
        """The battle map."""
        ...

    @property
    def opaque(self) -> bytearray:
        """1 where a cell blocks sight now (walls, closed doors)."""
        ...

    @property
    def occupant(self) -> Mapping[int, int]:
        """Cell → index of the fighter standing on it."""
        ...

    @property
    def fighters(self) -> Sequence[FighterState]:
        """Every fighter, by index."""
        ...
