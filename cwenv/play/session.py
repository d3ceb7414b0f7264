"""A game in progress at the table: who decides, undo, save and load, table dice.

A session never keeps hidden state outside the combat: the combat is a pure function of
(scenario, rules, seed, dice typed at the table, actions taken). Undo rebuilds the combat
from a shorter list of actions; a saved game is that list in a readable YAML file, and
loading it replays every action through the engine's legality check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from agents.base import Agent, DecisionView
from agents.registry import make_agent
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.game import Game
from cwenv.engine.state import Combat, IllegalActionError
from cwenv.model.types import Side
from cwenv.rules.dice import ScriptedDice, SeededDice
from cwenv.yamlio import ConfigError, ConfigIssue, read_yaml_file

HUMAN = "human"
SAVE_VERSION = 1


class DiceMode(Enum):
    SEEDED = "seeded"  # the engine rolls from the seed
    TABLE = "table"  # the GM types every W10 rolled at the table


class SavedAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        if value not in ActionKind.__members__:
            raise ValueError(f"unknown action kind; allowed: {', '.join(ActionKind.__members__)}")
        return value

    actor: int
    target: int = -1
    cell: int = -1
    index: int = -1
    mumm: int = 0

    @classmethod
    def of(cls, a: Action) -> SavedAction:
        return cls(
            kind=a.kind.name,
            actor=a.actor,
            target=a.target,
            cell=a.cell,
            index=a.index,
            mumm=a.mumm,
        )

    def action(self) -> Action:
        return Action(
            ActionKind[self.kind], self.actor, self.target, self.cell, self.index, self.mumm
        )


class SavedGame(BaseModel):
    """A saved game: everything needed to rebuild it exactly."""

    model_config = ConfigDict(extra="forbid")

    cwenv_save: int = Field(SAVE_VERSION, ge=1, le=SAVE_VERSION)
    scenario: str
    rules: str | None = None
    seed: int
    runners: str
    nscs: str
    dice: DiceMode = DiceMode.SEEDED
    typed_dice: list[int] = Field(default_factory=list)
    actions: list[SavedAction] = Field(default_factory=list)


class TableDice:
    """W10s typed at the table; those already typed are replayed first (undo, load)."""

    __slots__ = ("_ask", "pos", "typed")

    def __init__(self, typed: Sequence[int], ask: Callable[[], int] | None) -> None:
        self.typed = list(typed)
        self.pos = 0
        self._ask = ask

    def d10(self) -> int:
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
            if isinstance(value, bool) or not 1 <= value <= 10:
                raise ValueError(f"a W10 shows 1 to 10, not {value!r}")
            self.typed.append(value)
        self.pos += 1
        return value

    def clone(self) -> ScriptedDice:
        """Lookahead cannot ask the table: a clone replays nothing and must be reseeded."""
        return ScriptedDice(())


class PlaySession:
    """One game: a scenario, the human sides, the agents for the rest."""

    def __init__(self, game: Game, saved: SavedGame, ask_die: Callable[[], int] | None = None):
        self.game = game
        self.setup = saved
        self.ask_die = ask_die
        self.humans = {
            side
            for side, spec in ((Side.RUNNER, saved.runners), (Side.GEGNER, saved.nscs))
            if spec == HUMAN
        }
        if saved.nscs == HUMAN:
            self.humans.add(Side.NEUTRAL)
        self.agents: dict[Side, Agent] = {}
        for side, spec in (
            (Side.RUNNER, saved.runners),
            (Side.GEGNER, saved.nscs),
            (Side.NEUTRAL, saved.nscs),
        ):
            if spec != HUMAN:
                self.agents[side] = make_agent(spec)
        self.undo_points: list[int] = []
        self.combat = self._rebuild([a.action() for a in saved.actions], saved.typed_dice)

    # -- building -------------------------------------------------------------------------
    def _dice(self, typed: Sequence[int]) -> SeededDice | TableDice:
        if self.setup.dice is DiceMode.TABLE:
            return TableDice(typed, self.ask_die)
        return SeededDice(self.setup.seed)

    def _rebuild(self, actions: Sequence[Action], typed: Sequence[int]) -> Combat:
        combat = self.game.new_combat(dice=self._dice(typed))
        for i, action in enumerate(actions):
            try:
                combat.apply(action)
            except IllegalActionError as exc:
                raise ConfigError(
                    [ConfigIssue("<save>", None, ("actions", i), f"not legal when replayed: {exc}")]
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

    def human_step(self, action: Action) -> None:
        """Apply a human choice (validated by the engine); remember it for undo."""
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

    def _typed_before(self, n_actions: int) -> list[int]:
        """The typed dice consumed before the ``n_actions``-th decision was made."""
        dice = self.combat.dice
        if not isinstance(dice, TableDice):
            return []
        probe = self.game.new_combat(dice=TableDice(dice.typed, None))
        for action in self.combat.history[:n_actions]:
            probe.apply(action)
        assert isinstance(probe.dice, TableDice)
        return dice.typed[: probe.dice.pos]

    # -- files --------------------------------------------------------------------------
    def saved(self) -> SavedGame:
        dice = self.combat.dice
        typed = list(dice.typed[: dice.pos]) if isinstance(dice, TableDice) else []
        return self.setup.model_copy(
            update={
                "actions": [SavedAction.of(a) for a in self.combat.history],
                "typed_dice": typed,
            }
        )

    def save(self, path: Path) -> None:
        data = self.saved().model_dump(mode="json")
        text = "# cwenv: gespeicherte Partie\n" + yaml.safe_dump(
            data, sort_keys=False, allow_unicode=True
        )
        path.write_text(text, encoding="utf-8")


def load_saved(path: Path) -> SavedGame:
    """Read and validate a saved game; errors name the file, line and field."""
    doc = read_yaml_file(path)
    try:
        return SavedGame.model_validate(doc.data)
    except ValidationError as exc:
        issues = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            issues.append(doc.issue(loc, err["msg"]))
        raise ConfigError(issues) from None


def new_setup(**fields: Any) -> SavedGame:
    return SavedGame(**fields)
