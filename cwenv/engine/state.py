"""The combat state: one play of a :class:`~cwenv.engine.game.Game`.

``legal_actions()`` lists what the current decider may do; ``apply(action)`` validates it
against that list (raising :class:`IllegalActionError`, a ``ValueError``, and leaving the
state untouched) and then runs the rules until the next decision point. ``clone()`` copies
the whole state, dice included, so a search agent can look ahead; ``reseed_dice`` lets it
sample other futures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cwenv.battlemap.grid import Terrain
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, Decision, DecisionKind
from cwenv.engine.clone_core import copy_kept
from cwenv.engine.fighter import FighterState
from cwenv.engine.frames import Frame, Return
from cwenv.engine.game import Game
from cwenv.engine.victory import ROUND_LIMIT_REASON, decide_after_change
from cwenv.model.types import Side
from cwenv.rules.dice import Dice, reseeded

if TYPE_CHECKING:
    from cwenv.engine.roll_purposes import RollPurpose
    from cwenv.engine.turn import TurnFrame

TURN = DecisionKind.TURN

DECISION_CAP_REASON = "Entscheidungslimit erreicht"
"""The reason of a combat ended by :attr:`Game.decision_cap`."""


def action_text(action: Action) -> str:
    """An action in a message: ``ATTACK(actor=0, target=1, arg=2)``, only set fields."""
    fields = [f"actor={action.actor}"]
    for name, unset in (("target", -1), ("cell", -1), ("arg", -1), ("mumm", 0)):
        value = getattr(action, name)
        if value != unset:
            fields.append(f"{name}={value}")
    return f"{action.kind.name}({', '.join(fields)})"


class IllegalActionError(ValueError):
    """The action is not among the current decider's legal actions."""


class CombatOverError(IllegalActionError):
    """The combat has ended; no further action can be applied."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a combat ended. ``winner`` is None for a draw."""

    winner: Side | None
    reason: str
    rounds: int


class Combat:
    """The state of one fight (OpenSpiel's State, python-chess's Board)."""

    def __init__(self, game: Game, dice: Dice, *, start: bool = True) -> None:
        from cwenv.engine.roundflow import CombatFrame

        self.game = game
        self.options = game.options
        self.bm = game.battlemap
        self.dice = dice
        self.fighters = [
            FighterState(i, spec, pos)
            for i, (spec, pos) in enumerate(zip(game.roster, game.positions, strict=True))
        ]
        if game.carried:  # a later fight of a job: carried LP, Mumm, Zustände (M10)
            from cwenv.engine.carry import apply_carried

            apply_carried(self)
        self.occupant: dict[int, int] = {f.pos: f.idx for f in self.fighters}
        self.opaque = self.bm.initial_opacity()
        self.solid = self.bm.initial_solid()
        self.round = 0
        self.events: list[ev.Event] = []
        self.history: list[Action] = []
        self.forced = 0  # choices the rules took alone (a single legal one): not in history
        self.queue: list[tuple[int, int]] = []  # (step or pass, fighter) still to act
        self.turn_fighter = -1
        self.outcome: Outcome | None = None
        self.forbidden: dict[Side, frozenset[str]] = {}  # restricted play: tactic tags
        self.counters: dict[str, int] = {}
        self._stack: list[Frame] = [CombatFrame()]
        self._pending: Decision | None = None
        self._legal: list[Action] | None = None
        self._legal_set: set[Action] | None = None
        self._dirty = False
        if hasattr(dice, "attach"):  # table dice ask this combat what each W10 is for
            dice.attach(self)
        if start:  # False: before the first round (the native combat imports that)
            self._run(None)

    # -- the public face ------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the combat is over."""
        return self._pending

    def current_fighter(self) -> int:
        """Index of the fighter who must decide now (−1 when the combat is over)."""
        return self._pending.fighter if self._pending is not None else -1

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def legal_actions(self) -> list[Action]:
        """The one legality function: every legal choice of the current decider."""
        if self._legal is None:
            self._legal = self._compute_legal()
            self._legal_set = None
        return self._legal

    def is_legal(self, action: Action) -> bool:
        legal = self.legal_actions()
        if self._legal_set is None:
            self._legal_set = set(legal)
        return action in self._legal_set

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal now; else why not, derived from the legality
        function (out of range, no line of sight, not affordable, not this fighter's
        decision, …). :meth:`apply` puts the reason in its error."""
        from cwenv.engine.why import why_illegal

        return why_illegal(self, action)

    def apply(self, action: Action) -> None:
        """Validate ``action`` and carry it out, running the rules to the next decision."""
        if self.outcome is not None:
            raise CombatOverError("the combat is over")
        if not self.is_legal(action):
            raise self._illegal(action)
        self.history.append(action)
        d = self._pending
        self._pending = None
        self._legal = None
        self._legal_set = None
        self._forget_turn_legal()
        if action.kind is ActionKind.MUMM_SHAKE and d is not None and d.kind is not TURN:
            self._shake_at_prompt(d, action)
        else:
            self._run(action)
        if self.outcome is None and len(self.history) + self.forced >= self.game.decision_cap:
            self._finish(None, DECISION_CAP_REASON)

    def _illegal(self, action: Action) -> IllegalActionError:
        """The error that refuses ``action``, with why (the legality function's reason)."""
        d = self._pending
        who, kind = (self.fighters[d.fighter].name, d.kind.name) if d is not None else ("-", "-")
        why = self.why_illegal(action)
        return IllegalActionError(
            f"illegal action {action_text(action)} for {who} at {kind}: {why}"
        )

    def take_forced(self) -> bool:
        """Count a choice the rules take alone; True (and the combat ended undecided) once
        the decisions, forced ones included, reach the game's ``decision_cap`` — a fight in
        which nobody ever has a real choice must end too."""
        self.forced += 1
        if len(self.history) + self.forced < self.game.decision_cap:
            return False
        self._finish(None, DECISION_CAP_REASON)
        return True

    def _shake_at_prompt(self, d: Decision, action: Action) -> None:
        """M08 at a prompt (X38): shake the condition or Zehrend (X55) off, then the same
        decision is asked again with what the fighter can do now; one choice left is taken."""
        from cwenv.engine.conditions import shake_with_mumm

        shaken = shake_with_mumm(self, self.fighters[d.fighter], action)
        again = self._stack[-1].reprompt(self, d, shaken)
        only = None if again is None else self._pose(again)
        if again is None or only is not None:
            self._run(only)

    def __getstate__(self) -> dict[str, Any]:  # pickle/deepcopy: a copy imports its own
        return {k: v for k, v in self.__dict__.items() if k != "_core_token"}  # native state

    def clone(self) -> Combat:
        """A deep, independent copy; the same actions give the same events in both."""
        twin = Combat.__new__(Combat)
        twin.game = self.game
        twin.options = self.options
        twin.bm = self.bm
        twin.dice = self.dice.clone()
        twin.fighters = [f.copy() for f in self.fighters]
        twin.occupant = self.occupant.copy()
        twin.opaque, twin.solid = self.opaque[:], self.solid[:]
        twin.round, twin.forced = self.round, self.forced
        twin.events = self.events.copy()
        twin.history = self.history.copy()
        twin.queue = self.queue.copy()
        twin.turn_fighter = self.turn_fighter
        twin.outcome = self.outcome
        twin.forbidden = self.forbidden
        twin.counters = self.counters.copy()
        twin._stack = [frame.copy() for frame in self._stack]
        twin._pending = self._pending
        twin._legal, twin._legal_set = self._legal, self._legal_set
        twin._dirty = self._dirty
        copy_kept(self, twin)  # the native kept state, copied (clone_core.py)
        return twin

    def turn_frame(self) -> TurnFrame | None:
        """The turn running now (its Handlung, movement and the searches of its TURN
        decision), None between turns."""
        from cwenv.engine.turn import TurnFrame

        for frame in reversed(self._stack):
            if isinstance(frame, TurnFrame):
                return frame
        return None

    def turn_benommen(self) -> bool:
        """Whether the turn running now began benommen (Z02: its Handlung is the Mumm-Probe)."""
        turn = self.turn_frame()
        return turn is not None and turn.benommen

    def resolving(self) -> RollPurpose | None:
        """What the die rolled now is for (:mod:`cwenv.engine.roll_purposes`; index 0)."""
        from cwenv.engine.roll_purposes import roll_purpose

        return roll_purpose(self)

    def stack_frames(self) -> tuple[Frame, ...]:
        """The running rule procedures, outermost first (read-only view)."""
        return tuple(self._stack)

    def refresh_legal(self) -> None:
        """Forget the cached legal actions: call after editing fighters directly (tests, a
        GM's situation edits), so the next ``legal_actions()`` sees the change."""
        self._legal = self._legal_set = None
        self.__dict__.pop("_core_token", None)  # the native core imports anew (sync_core.py)
        self._forget_turn_legal()

    def _forget_turn_legal(self) -> None:
        """The turn's cached legal list is stale (an action was taken or a fighter edited)."""
        from cwenv.engine.turn import TurnFrame

        top = self._stack[-1] if self._stack else None
        if isinstance(top, TurnFrame):
            top.legal = None

    def reseed_dice(self, seed: int) -> None:
        """Replace the dice with a fresh seeded stream of the same kind (search: sample
        another future)."""
        self.dice = reseeded(self.dice, seed)

    def forbid(self, side: Side, tags: Iterable[str]) -> None:
        """Restricted play: remove every action carrying one of these tactic tags (see
        :data:`cwenv.engine.tactics.TACTICS`) from ``side``'s legal actions.

        A decision always keeps at least its last (declining) choice, so none is left empty;
        a prompt left with that one choice is no decision and is taken at once."""
        from cwenv.engine.tactics import TACTICS, unknown_tactics

        wanted = frozenset(tags)
        unknown = unknown_tactics(wanted)
        if unknown:
            raise ValueError(f"unknown tactics {unknown}; allowed: {', '.join(TACTICS)}")
        self.forbidden = {**self.forbidden, side: wanted}
        self.refresh_legal()

    def restrict(self, fighter: int, actions: list[Action]) -> list[Action]:
        """The actions left to ``fighter`` under its side's restrictions."""
        banned = self.forbidden.get(self.fighters[fighter].side)
        if not banned:
            return actions
        from cwenv.engine.tactics import tactic_tags

        kept = [a for a in actions if banned.isdisjoint(tactic_tags(self.bm, a))]
        return kept if kept else actions[-1:]

    # -- helpers for the rule modules -------------------------------------------------------
    def emit(self, event: ev.Event) -> None:
        self.events.append(event)

    def count(self, key: str, n: int = 1) -> None:
        self.counters[key] = self.counters.get(key, 0) + n

    def d10(self) -> int:
        return self.dice.d10()

    def mark_dirty(self) -> None:
        """Something that can decide the fight happened (LP, status, position)."""
        self._dirty = True

    def enemies_of(self, f: FighterState) -> list[FighterState]:
        return [g for g in self.fighters if g.side is not f.side and g.on_map]

    def move_fighter(self, f: FighterState, cell: int) -> None:
        """Put ``f`` on ``cell``. Passing through an ally's cell leaves the ally its cell;
        a move never ends there (MoveFrame backs off to the last free cell)."""
        if self.occupant.get(f.pos) == f.idx:
            del self.occupant[f.pos]
        f.pos = cell
        f.let_go()  # B03, X40: a climber who moves lets go of the wall
        if cell not in self.occupant:
            self.occupant[cell] = f.idx
        if cell in self.bm.exits:
            self.mark_dirty()

    def remove_from_map(self, f: FighterState) -> None:
        if self.occupant.get(f.pos) == f.idx:
            del self.occupant[f.pos]

    def door_open(self, cell: int) -> bool:
        return (
            self.bm.terrain[cell] in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN)
            and not self.solid[cell]
        )

    def set_door(self, cell: int, open_: bool) -> None:
        self.solid[cell] = 0 if open_ else 1
        self.opaque[cell] = 0 if open_ else 1

    # -- the driver -----------------------------------------------------------------------
    def _run(self, value: Any) -> None:
        stack = self._stack
        while stack:
            result = stack[-1].step(self, value)
            if self.outcome is not None:
                return
            if self._dirty and type(result) is not Decision:
                # A pending decision (e.g. M04 for the last runner to fall) is settled first.
                self._dirty = False
                if self._decide_outcome():
                    return
            if type(result) is Return:
                stack.pop()
                value = result.value
            elif isinstance(result, Frame):
                stack.append(result)
                value = None
            else:
                only = self._pose(result)  # type: ignore[arg-type]  # the only other kind
                if only is None or self.take_forced():
                    return
                value = only
        self._finish(None, ROUND_LIMIT_REASON)

    def _pose(self, decision: Decision) -> Action | None:
        """Make ``decision`` the pending one; a prompt left with a single legal choice (by
        restricted play, or by an M08 shake that used the Mumm another choice needed) is no
        decision: its choice is returned to be taken at once."""
        self._pending = decision
        if decision.kind is TURN:
            return None  # TurnFrame takes forced turn choices itself
        legal = self.legal_actions()
        if len(legal) != 1:
            return None
        self._pending = None
        self._legal = None
        self._legal_set = None
        return legal[0]

    def _finish(self, winner: Side | None, reason: str) -> None:
        self.outcome = Outcome(winner, reason, self.round)
        self._stack.clear()
        self._pending = None
        self._legal = []
        label = winner.label if winner is not None else "Unentschieden"
        self.emit(ev.CombatEnded(label, reason, self.round))

    def _decide_outcome(self) -> bool:
        """Check the victory conditions (:mod:`cwenv.engine.victory`); end the combat when
        one is met."""
        verdict = decide_after_change(self)
        if verdict is None:
            return False
        self._finish(*verdict)
        return True

    def _compute_legal(self) -> list[Action]:
        d = self._pending
        if d is None:
            return []
        if d.kind is DecisionKind.TURN:
            from cwenv.engine.turn import TurnFrame, turn_actions

            top = self._stack[-1]
            if isinstance(top, TurnFrame) and top.legal is not None:
                return top.legal  # already restricted by the turn
            return self.restrict(d.fighter, turn_actions(self, d.fighter))
        from cwenv.engine.conditions import prompt_shakes

        # M08 'sofort' (X38): the shakes come first, so the declining choice stays last.
        shakes = prompt_shakes(self, d.kind, d.fighter)
        return self.restrict(d.fighter, [*shakes, *(d.actions or ())])
