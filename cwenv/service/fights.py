"""One fight of the service: its start, the actions taken, the dice typed at the table.

Like a ``cwenv play`` session the fight keeps no hidden state: its combat is a pure
function of the start (:mod:`cwenv.service.origins`), the actions and the typed dice, so
the store keeps exactly those (a save) and a restart, an undo or an eviction rebuilds the
combat by replaying them through the engine's legality check.

Table dice over HTTP: a fight created with ``dice: table`` never rolls. When the rules
need a W10 that the client has not sent, the step is rolled back to the last consistent
point and the fight answers "needs a die" (what it is for); the client sends it in the next
request (:meth:`Fight.supply`), and the step is carried out again with every die sent so
far, as ``cwenv play --dice table`` asks for each roll at the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cwenv.agent import Agent
from cwenv.engine.actions import Action
from cwenv.engine.state import Combat, IllegalActionError
from cwenv.play.advise import Advice, advise, decision_seed
from cwenv.play.roll_text import roll_json, roll_text
from cwenv.play.savefile import DiceMode, SavedAction, SavedGame
from cwenv.play.table_game import TableDice
from cwenv.service.errors import Issue, ServiceError
from cwenv.service.origins import OriginKind, Start

MAX_DICE_PER_STEP = 200
"""Dice one step may take from the table (a long fight's round of initiative and attacks
is far below it); more pending dice than this are refused, not stored."""


class NeedsDie(Exception):
    """The rules want a W10 the table has not sent yet; ``what`` is the rule rolling."""

    def __init__(self, what: str, purpose: dict[str, Any] | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.purpose = purpose  # cwenv.play.roll_text.roll_json: whose die, which of how many


@dataclass(slots=True)
class Pending:
    """A step waiting for dice: the action (None: the fight's setup, e.g. initiative),
    the dice sent for it so far, and what the next die is for."""

    action: Action | None
    dice: list[int] = field(default_factory=list)
    wants: str = ""
    purpose: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class StepResult:
    """What a step did: the action taken (None for setup), the events it caused (by
    index into the combat's event log), or the die it still waits for."""

    action: Action | None
    first_event: int
    needs_die: Pending | None
    unused_dice: int = 0  # dice sent beyond what the step needed (dropped, not kept)


class Fight:
    """A fight being played through the service (not thread-safe: the registry holds one
    lock per fight around every use)."""

    def __init__(
        self, fight_id: str, kind: OriginKind, text: str | None, start: Start, source: str = ""
    ) -> None:
        self.id = fight_id
        self.kind = kind
        self.text = text
        self.start = start
        self.setup = start.saved.model_copy(update={"actions": [], "typed_dice": []})
        self.typed: list[int] = []  # the table's dice used by the actions taken
        self.queue: list[int] = []  # dice sent for the step being carried out
        self.pending: Pending | None = None
        self.combat: Combat | None = None
        self._dice: TableDice | None = None  # the table dice of the combat being built
        self._source = source or kind.value
        actions = [a.action() for a in start.saved.actions]
        typed = list(start.saved.typed_dice)
        if self.table:
            self.typed = typed
        self._replay_or_wait(actions)

    # -- building ---------------------------------------------------------------------------
    @property
    def table(self) -> bool:
        return self.setup.dice is DiceMode.TABLE

    def _ask(self) -> int:
        if self.queue:
            return self.queue.pop(0)
        dice = self._dice
        if dice is None or dice.combat is None or dice.current is None:
            raise NeedsDie("Kampfbeginn (Initiative)")
        names = dice.combat.game.names
        raise NeedsDie(roll_text(dice.current, names), roll_json(dice.current, names))

    def _build(self, actions: Sequence[Action]) -> Combat:
        """The combat after ``actions``, with the typed dice (NeedsDie when they run out)."""
        dice = TableDice(self.typed, self._ask) if self.table else None
        self._dice = dice
        self.combat = None
        combat = self.start.build(dice)
        self.combat = combat
        for i, action in enumerate(actions):
            try:
                combat.apply(action)
            except IllegalActionError as exc:
                raise ServiceError(
                    422,
                    "not_replayable",
                    f"{self._source}.actions.{i}: not legal when replayed: {exc}",
                    (Issue(f"{self._source}.actions.{i}", f"not legal when replayed: {exc}"),),
                ) from None
        if isinstance(dice, TableDice):
            self.typed = dice.typed[: dice.pos]
        return combat

    def _replay_or_wait(self, actions: Sequence[Action]) -> None:
        """Rebuild; a save or setup short of dice waits for them (the last action pending)."""
        try:
            self._build(actions)
        except NeedsDie as need:
            if not actions:
                self.pending = Pending(None, [], need.what, need.purpose)
                self.combat = None
                return
            self._build(actions[:-1])
            self.pending = Pending(actions[-1], [], need.what, need.purpose)

    @classmethod
    def restore(
        cls,
        fight_id: str,
        kind: OriginKind,
        text: str | None,
        start: Start,
        pending: Pending | None,
    ) -> Fight:
        """A stored fight as it was, a step waiting for dice included (with the dice the
        table had sent for it)."""
        fight = cls(fight_id, kind, text, start, "stored fight")
        if pending is not None and (pending.action is None) == (fight.combat is None):
            fight.pending = pending
        return fight

    # -- reading ----------------------------------------------------------------------------
    @property
    def step_count(self) -> int:
        """Decisions taken so far (the state's version: a client can insist on it)."""
        return len(self.combat.history) if self.combat is not None else 0

    def saved(self) -> SavedGame:
        """The fight as a saved game (what the store keeps; ``cwenv play --load`` reads it
        when it started from a shipped scenario)."""
        history = self.combat.history if self.combat is not None else []
        return self.setup.model_copy(
            update={
                "actions": [SavedAction.of(a) for a in history],
                "typed_dice": list(self.typed) if self.table else [],
            }
        )

    def live(self) -> Combat:
        """The combat; 409 while the setup still waits for its first dice."""
        if self.combat is None:
            raise ServiceError(
                409, "needs_die", f"the fight waits for a W10 ({self._wants()}): POST …/dice"
            )
        return self.combat

    def _wants(self) -> str:
        return self.pending.wants if self.pending is not None else ""

    # -- acting -----------------------------------------------------------------------------
    def check_step(self, expect_step: int | None) -> None:
        if expect_step is not None and expect_step != self.step_count:
            raise ServiceError(
                409,
                "stale_state",
                f"expect_step is {expect_step}, but the fight is at step {self.step_count}: "
                "someone else acted; read the state again",
                (Issue("expect_step", f"the fight is at step {self.step_count}"),),
            )

    def apply(self, action: Action, dice: Sequence[int] = (), field: str = "action") -> StepResult:
        """Carry out a legal action (409 with the engine's reason, naming the request's
        ``field`` that carried it, when it is not)."""
        combat = self.live()
        if self.pending is not None:
            raise ServiceError(
                409, "needs_die", f"a step waits for a W10 ({self._wants()}): POST …/dice or undo"
            )
        self._check_dice(dice)
        if combat.is_terminal():
            raise ServiceError(409, "fight_over", "the fight is over; nothing can be done")
        if not combat.is_legal(action):
            raise ServiceError(
                409,
                "illegal_action",
                f"not legal now: {why_not(combat, action)}",
                (Issue(field, why_not(combat, action)),),
            )
        return self._carry_out(action, list(dice))

    def supply(self, dice: Sequence[int]) -> StepResult:
        """The dice the table rolled for the waiting step; carries it on."""
        pending = self.pending
        if pending is None:
            raise ServiceError(409, "no_die_wanted", "no step waits for a die")
        self._check_dice(dice, already=len(pending.dice))
        sent = [*pending.dice, *dice]
        if pending.action is None:  # the setup: initiative of the first round
            self.queue = list(sent)
            try:
                self._build([])
            except NeedsDie as need:
                self.combat = None
                self.pending = Pending(None, sent, need.what, need.purpose)
                return StepResult(None, 0, self.pending)
            finally:
                left, self.queue = len(self.queue), []
            self.pending = None
            return StepResult(None, 0, None, left)
        self.pending = None
        return self._carry_out(pending.action, sent)

    def _carry_out(self, action: Action, sent: list[int]) -> StepResult:
        combat = self.live()
        n, first = len(combat.history), len(combat.events)
        self.queue = list(sent)
        try:
            combat.apply(action)
        except NeedsDie as need:
            # The step stopped half-way inside the rules: back to the consistent point.
            self._build(combat.history[:n])
            self.pending = Pending(action, sent, need.what, need.purpose)
            return StepResult(action, first, self.pending)
        finally:
            left, self.queue = len(self.queue), []
        if isinstance(combat.dice, TableDice):
            self.typed = combat.dice.typed[: combat.dice.pos]
        return StepResult(action, first, None, left)

    def undo(self) -> bool:
        """Take back the waiting step, or else the last action; False when there is none."""
        if self.pending is not None and self.pending.action is not None:
            self.pending = None
            return True
        combat = self.combat
        if combat is None or not combat.history:
            return False
        self._build(combat.history[:-1])
        return True

    def _check_dice(self, dice: Sequence[int], already: int = 0) -> None:
        if dice and not self.table:
            raise ServiceError(
                422,
                "invalid_request",
                "dice: this fight rolls its own dice (created with dice 'seeded'); only a "
                "fight created with dice 'table' takes dice from the table",
                (Issue("dice", "only a fight with dice 'table' takes dice", None, ("table",)),),
            )
        if already + len(dice) > MAX_DICE_PER_STEP:
            raise ServiceError(
                422,
                "invalid_request",
                f"dice: at most {MAX_DICE_PER_STEP} dice for one step",
                (Issue("dice", f"at most {MAX_DICE_PER_STEP} dice for one step"),),
            )

    # -- advice -----------------------------------------------------------------------------
    def snapshot(self) -> Combat:
        """A private copy to think about outside the fight's lock (advice may search)."""
        return self.live().clone()


def why_not(combat: Combat, action: Action) -> str:
    """The engine's reason an action is not legal now; never fails on a strange action."""
    try:
        reason = combat.why_illegal(action)
    except (ValueError, IndexError, KeyError):  # an action no menu ever offered (actor
        reason = None  # 999, manoeuvre -5): the engine's tables need not describe it
    return reason or "it is not among the legal actions of this decision"


def advice_for(combat: Combat, agent: Agent, top: int, seed: int) -> Advice:
    """The ``cwenv advise`` core on a private copy of the fight."""
    if combat.is_terminal():
        raise ServiceError(409, "fight_over", "the fight is over; there is no move to advise")
    return advise(combat, agent, top, decision_seed(seed, combat))
