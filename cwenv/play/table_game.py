"""A game in progress at the table: who decides, undo, save and load, table dice.

A session never keeps hidden state outside the combat: the combat is a pure function of
(scenario, rules, seed, dice typed at the table, actions taken). Undo rebuilds the combat
from a shorter list of actions; a saved game is that list in a readable YAML file, and
loading it replays every action through the engine's legality check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from cwenv.agent import Agent, DecisionView
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.engine.actions import Action
from cwenv.engine.game import Game
from cwenv.engine.roll_purposes import RollPurpose, next_die
from cwenv.engine.state import Combat, IllegalActionError
from cwenv.model.types import Side
from cwenv.play.roll_text import roll_text
from cwenv.play.savefile import (
    HUMAN,
    SAVE_VERSION,
    DiceMode,
    SavedAction,
    SavedGame,
    load_game,
    load_saved,
    read_saved,
    write_save,
)
from cwenv.rules.dice import InvalidDieError, MersenneDice, ScriptedDice, SeededDice, seeded_dice
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument

__all__ = [
    "HUMAN",
    "SAVE_VERSION",
    "DiceMode",
    "PlayError",
    "PlaySession",
    "SavedAction",
    "SavedGame",
    "TableDice",
    "load_game",
    "load_saved",
    "read_saved",
]


class TableDice:
    """W10s typed at the table; those already typed are replayed first (undo, load).

    The combat rolling them attaches itself; then ``current`` is what the die being rolled
    is for (counted for replayed dice too, so a roll's die number stays right after a
    load in the middle of a roll)."""

    __slots__ = ("_ask", "combat", "current", "pos", "typed")

    def __init__(self, typed: Sequence[int], ask: Callable[[], int] | None) -> None:
        for i, value in enumerate(typed):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
                raise InvalidDieError(f"typed die #{i + 1} is {value!r}; a W10 is 1–10")
        self.typed = list(typed)
        self.pos = 0
        self._ask = ask
        self.combat: Combat | None = None
        self.current: RollPurpose | None = None

    def attach(self, combat: Combat) -> None:
        self.combat = combat

    def d10(self) -> int:
        if self.combat is not None:
            purpose = self.combat.resolving()
            self.current = None if purpose is None else next_die(self.current, purpose)
        if self.pos < len(self.typed):
            value = self.typed[self.pos]
        else:
            if self._ask is None:
                raise ConfigError(
                    [
                        ConfigIssue(
                            "<table>",
                            None,
                            ("typed_dice",),
                            "the saved dice ran out and nobody can type more",
                        )
                    ]
                )
            value = self._ask()
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
                raise InvalidDieError(f"a W10 shows 1 to 10, not {value!r}")
            self.typed.append(value)
        self.pos += 1
        return value

    def clone(self) -> ScriptedDice:
        """Lookahead cannot ask the table: a clone replays nothing and must be reseeded."""
        return ScriptedDice(())


class PlayError(ValueError):
    """A game cannot go on as asked (no decision pending, no result where one is due)."""


class PlaySession:
    """One game: a scenario, the human sides, the agents for the rest.

    ``source`` is the saved file the game came from (its document, for line numbers, or a
    name), named by errors found while replaying it.
    """

    def __init__(
        self,
        game: Game,
        saved: SavedGame,
        ask_die: Callable[[], int] | None = None,
        source: str | YamlDocument = "<save>",
        tell_die: Callable[[str], None] | None = None,
    ):
        """``tell_die`` hears what each W10 ``ask_die`` is asked for is for, in words (the
        first ones while the combat is set up, before anything else can say)."""
        self.game = game
        self.setup = saved
        self.ask_die = ask_die
        self.tell_die = tell_die
        self.source = source
        self.humans = {
            side
            for side, spec in ((Side.RUNNER, saved.runners), (Side.GEGNER, saved.nscs))
            if spec == HUMAN
        }
        if saved.nscs == HUMAN:
            self.humans.add(Side.NEUTRAL)
        self.agents: dict[Side, Agent] = {}
        for side, field, spec in (
            (Side.RUNNER, "runners", saved.runners),
            (Side.GEGNER, "nscs", saved.nscs),
            (Side.NEUTRAL, "nscs", saved.nscs),
        ):
            if spec != HUMAN:
                try:
                    self.agents[side] = make_agent(spec)
                except UnknownAgentError as exc:
                    raise ConfigError([self._issue((field,), str(exc))]) from None
        self.undo_points: list[int] = []
        self.table_dice: TableDice | None = None  # the dice of the combat being built or run
        self.combat = self._rebuild([a.action() for a in saved.actions], saved.typed_dice)

    # -- building -------------------------------------------------------------------------
    def _issue(self, path: tuple[str | int, ...], message: str) -> ConfigIssue:
        if isinstance(self.source, YamlDocument):
            return self.source.issue(path, message)
        return ConfigIssue(self.source, None, path, message)

    def _ask(self) -> int:
        """A die from the table; ``ask_die`` is looked up late (the terminal sets it)."""
        if self.ask_die is None:
            raise ConfigError(
                [self._issue(("typed_dice",), "the saved dice ran out and nobody can type more")]
            )
        if self.tell_die is not None:
            self.tell_die(self.die_text())
        return self.ask_die()

    def die_text(self) -> str:
        """What the W10 being asked for is for (cwenv.play.roll_text), '' if unknown."""
        dice = self.table_dice
        if dice is None or dice.combat is None or dice.current is None:
            return ""
        return roll_text(dice.current, dice.combat.game.names)

    def _dice(self, typed: Sequence[int]) -> SeededDice | MersenneDice | TableDice:
        if self.setup.dice is DiceMode.TABLE:
            self.table_dice = TableDice(typed, self._ask)
            return self.table_dice
        return seeded_dice(self.setup.seed, self.setup.dice_stream)

    def _rebuild(self, actions: Sequence[Action], typed: Sequence[int]) -> Combat:
        combat = self.game.new_combat(dice=self._dice(typed))
        for i, action in enumerate(actions):
            try:
                combat.apply(action)
            except IllegalActionError as exc:
                raise ConfigError(
                    [self._issue(("actions", i), f"not legal when replayed: {exc}")]
                ) from None
        return combat

    # -- play -------------------------------------------------------------------------------
    def human_to_move(self) -> bool:
        c = self.combat
        return not c.is_terminal() and c.fighters[c.current_fighter()].side in self.humans

    def agent_step(self) -> Action:
        """Let the agent of the deciding side choose and apply one action."""
        c = self.combat
        side = c.fighters[c.current_fighter()].side
        rng = random.Random(self.setup.seed * 1_000_003 + len(c.history))
        action = self.agents[side].act(DecisionView(c), c.legal_actions(), rng)
        c.apply(action)
        return action

    def human_step(self, action: Action, undo_point: bool = True) -> None:
        """Apply a human choice (validated by the engine); remember it for undo unless it
        is part of the decision before it (``undo_point=False``: undo takes back both)."""
        if not undo_point:
            self.combat.apply(action)
            return
        self.undo_points.append(len(self.combat.history))
        try:
            self.combat.apply(action)
        except IllegalActionError:
            self.undo_points.pop()
            raise

    def undo(self) -> bool:
        """Take back the last human decision (and everything the agents did after it)."""
        if not self.undo_points:
            return False
        keep = self.undo_points.pop()
        typed = self._typed_before(keep)
        self.combat = self._rebuild(self.combat.history[:keep], typed)
        return True

    def restore(self, n_actions: int) -> None:
        """Go back to the state after the first ``n_actions`` decisions: an action cut off
        half-way (Ctrl-C while the rules ran) may have left the combat inconsistent."""
        typed = self._typed_before(n_actions)
        self.undo_points = [p for p in self.undo_points if p < n_actions]
        self.combat = self._rebuild(self.combat.history[:n_actions], typed)

    def _typed_before(self, n_actions: int) -> list[int]:
        """The typed dice consumed before the ``n_actions``-th decision was made."""
        dice = self.combat.dice
        if not isinstance(dice, TableDice):
            return []
        probe_dice = TableDice(dice.typed, None)
        probe = self.game.new_combat(dice=probe_dice)
        for action in self.combat.history[:n_actions]:
            probe.apply(action)
        return dice.typed[: probe_dice.pos]

    # -- files --------------------------------------------------------------------------
    def saved(self) -> SavedGame:
        dice = self.combat.dice
        typed = list(dice.typed[: dice.pos]) if isinstance(dice, TableDice) else []
        return self.setup.model_copy(
            update={
                "actions": [SavedAction.of(a) for a in self.combat.history],
                "typed_dice": typed,
                "cwenv_save": SAVE_VERSION,  # a format-1 save is written again as format 2
            }
        )

    def save(self, path: Path) -> None:
        """Write the game to ``path`` atomically (OSError when it cannot be written)."""
        write_save(path, self.saved())
