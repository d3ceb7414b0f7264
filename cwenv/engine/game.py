"""The rules object of one fight: map, roster, placements, options and victory conditions.

Immutable and shared: many combats (tournament games, search rollouts, env episodes) are
started from one :class:`Game` with :meth:`Game.new_combat`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from cwenv.battlemap.grid import BattleMap
from cwenv.model.specs import FighterSpec
from cwenv.model.types import Side
from cwenv.rules.dice import Dice, seeded
from cwenv.rules.options import DEFAULT_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from cwenv.engine.carry import CarriedFighter
    from cwenv.engine.state import Combat


class GameSetupError(ValueError):
    """A Game cannot be built from these parts (overlapping fighters, cells off the map)."""


class VictoryKind(Enum):
    ELIMINATE = "eliminate"  # the other side has nobody standing
    SURVIVE = "survive"  # ``side`` wins if it still stands after ``rounds`` rounds
    REACH_EXIT = "reach_exit"  # ``side`` wins when ``count`` of its fighters (or ``vip``) escaped
    PROTECT_VIP = "protect_vip"  # ``side`` loses when fighter ``vip`` is down or dead


@dataclass(frozen=True, slots=True)
class Victory:
    kind: VictoryKind
    side: Side = Side.RUNNER
    rounds: int = 0
    count: int = 1
    vip: int = -1


DECISION_CAP = 20_000
"""Decisions after which a combat ends undecided ("Entscheidungslimit erreicht"), the ones
the rules take alone (a single legal choice) included. The longest shipped fights take
about 2,300 (random play in ``strassenschlacht``); a scenario that cannot end (sealed
rooms, nobody able to act, no round limit) stops here instead of running forever."""


@dataclass(frozen=True)
class Game:
    """Static rules and parameters of one fight (OpenSpiel's Game)."""

    battlemap: BattleMap
    roster: tuple[FighterSpec, ...]
    positions: tuple[int, ...]
    options: RuleOptions = DEFAULT_OPTIONS
    victory: tuple[Victory, ...] = (Victory(VictoryKind.ELIMINATE),)
    round_limit: int | None = None
    name: str = "combat"
    ambushed: frozenset[Side] = field(default_factory=frozenset)
    decision_cap: int = DECISION_CAP
    # roster index → state brought from an earlier fight of a job (cwenv.engine.carry, M10)
    carried: tuple[tuple[int, CarriedFighter], ...] = ()

    def __post_init__(self) -> None:
        if len(self.positions) != len(self.roster):
            raise GameSetupError("one position per fighter is needed")
        if len(set(self.positions)) != len(self.positions):
            raise GameSetupError("two fighters cannot start in the same cell")
        bm = self.battlemap
        for spec, pos in zip(self.roster, self.positions, strict=True):
            if not 0 <= pos < bm.size:
                raise GameSetupError(f"{spec.name} starts outside the map")
            if not bm.terrain[pos].standable:
                raise GameSetupError(
                    f"{spec.name} starts on {bm.terrain[pos].described} at {tuple(bm.cell(pos))}"
                )
        sides = {spec.side for spec in self.roster}
        if not {Side.RUNNER, Side.GEGNER} <= sides:
            raise GameSetupError("a fight needs at least one Runner and one Gegner")
        for v in self.victory:
            if v.kind is VictoryKind.PROTECT_VIP and not 0 <= v.vip < len(self.roster):
                raise GameSetupError("protect_vip needs the VIP's roster index")
            if v.kind is VictoryKind.SURVIVE and v.rounds < 1:
                raise GameSetupError("survive needs rounds >= 1")
            if v.kind is VictoryKind.REACH_EXIT:
                if not self.battlemap.exits:
                    raise GameSetupError("reach_exit needs exit cells on the map")
                members = sum(1 for spec in self.roster if spec.side is v.side)
                if v.vip < 0 and not 1 <= v.count <= members:
                    raise GameSetupError(f"reach_exit count must be 1..{members}")
                if v.vip >= len(self.roster):
                    raise GameSetupError("reach_exit names no fighter of the roster")
        if self.round_limit is not None and self.round_limit < 1:
            raise GameSetupError("round_limit must be at least 1")
        if self.decision_cap < 1:
            raise GameSetupError("decision_cap must be at least 1")
        if self.carried:
            from cwenv.engine.carry import check_carried

            check_carried(self)

    def new_combat(self, seed: int | None = None, dice: Dice | None = None) -> Combat:
        """Start a combat: one seeded generator (or the given dice) for all its draws. The
        native engine's combat where it can run the fight, else the reference
        (:mod:`cwenv.engine.native.choice`); both play the same fight."""
        from cwenv.engine.native.choice import new_combat

        return new_combat(self, dice if dice is not None else seeded(seed))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(spec.name for spec in self.roster)
