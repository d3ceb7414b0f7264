"""Corporate Wars as a :class:`~cwenv.ruleset.Ruleset`: the first implementation of the seam.

A thin wrapper: the game is the engine's :class:`~cwenv.engine.game.Game` (loaded from the
YAML library by :func:`cwenv.content.load_scenario`), the state its
:class:`~cwenv.engine.state.Combat`, agents see a :class:`~cwenv.agent.DecisionView`.
Nothing here decides a rule; every method hands over to the engine, so a game played
through the seam is the game the engine plays (the golden digests check it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from cwenv.model.types import Side
from cwenv.ruleset import GameRecord, Outcome, ScenarioError
from cwenv.rulesets import cw_content

if TYPE_CHECKING:
    from cwenv.agent import DecisionView
    from cwenv.engine.actions import Action
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat


class CorporateWars:
    """Corporate Wars (``cw``); its scenario specs need no prefix."""

    name = "cw"
    title = "Corporate Wars"
    sides: tuple[str, ...] = tuple(side.name for side in Side)  # by value: RUNNER, GEGNER, …

    @property
    def tactics(self) -> Mapping[str, str]:
        from cwenv.engine.tactics import TACTICS

        return TACTICS

    # -- content ---------------------------------------------------------------------------
    def load(self, scenario: str, rules: str | None) -> Game:
        from cwenv.content import load_scenario
        from cwenv.yamlio import ConfigError

        try:
            return load_scenario(scenario, rules=rules)
        except ConfigError as exc:
            raise ScenarioError(str(exc)) from None

    def game_sides(self, game: Game) -> tuple[str, ...]:
        return tuple(side.name for side in sorted({spec.side for spec in game.roster}))

    def rules_mapping(self, game: Game) -> dict[str, Any]:
        from cwenv.rules.variants import options_to_mapping

        return options_to_mapping(game.options)

    def content_parts(self, game: Game) -> dict[str, Any]:
        return cw_content.game_parts(game)

    def content_sources(self, scenario: str, game: Game, rules: str | None) -> dict[str, str]:
        return cw_content.part_sources(scenario, game, rules, list(self.content_parts(game)))

    def describe_part(self, label: str) -> str:
        return cw_content.describe_part(label)

    # -- play ------------------------------------------------------------------------------
    def new_state(self, game: Game, seed: int) -> Combat:
        return game.new_combat(seed)

    def forbid(self, state: Combat, side: int, tags: Iterable[str]) -> None:
        state.forbid(Side(side), tags)  # restricted play goes through the legality function

    def view(self, state: Combat) -> DecisionView:
        from cwenv.agent import DecisionView

        return DecisionView(state)

    def is_terminal(self, state: Combat) -> bool:
        return state.is_terminal()

    def to_move(self, state: Combat) -> int:
        return int(state.fighters[state.current_fighter()].side)

    def legal_actions(self, state: Combat) -> list[Action]:
        return state.legal_actions()

    def apply(self, state: Combat, action: Action) -> None:
        state.apply(action)

    def outcome(self, state: Combat) -> Outcome | None:
        found = state.outcome
        if found is None:
            return None
        winner = found.winner.name if found.winner is not None else None
        return Outcome(winner, found.reason, found.rounds)

    # -- presentation and record ---------------------------------------------------------
    def narrate(self, state: Combat) -> list[str]:
        from cwenv.engine.narration import narrate_all

        return narrate_all(state.events, state.game.names)

    def record(self, state: Combat) -> GameRecord:
        from cwenv.rulesets.cw_record import record_of

        return record_of(state)

    def side_label(self, side: str) -> str:
        return Side[side].label

    def counter_label(self, key: str) -> str:
        from cwenv.engine.narration import counter_label

        return counter_label(key)


RULESET = CorporateWars()
