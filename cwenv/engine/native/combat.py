"""The native combat (issue #16, src/combat.hpp): a fight the core runs itself, behind the
reference's whole face.

:class:`NativeCombat` is a :class:`~cwenv.engine.state.Combat` whose rules run in C++
(``_core.CoreCombat``: the state, the dice — the same PCG32 stream as ``SeededDice`` —,
the frame stack, the events, the counters). Its Python state is a mirror the core keeps
equal to its own (src/bind_mirror.hpp): after every decision it writes the fields that
changed into the :class:`~cwenv.engine.fighter.FighterState` objects, the occupants and
the doors, so agents, encoders and the engine's helpers read it as they read a reference
combat. The decision comes with its payload (:mod:`cwenv.engine.native.views`), the running
frames as stand-ins (a turn's numbers on a real ``TurnFrame``). A decision costs one call
into C++ and the mirror's update.

Editing the mirror (tests, a GM's situation) and calling :meth:`refresh_legal` reads it
back into the core. Restricted play (:meth:`forbid`) and dice other than the seeded
stream stay with the reference (:class:`Unported`). A native combat pickles as its game,
its first dice and its choices, and is played again when unpickled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from cwenv.engine import events as ev
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, Decision, DecisionKind
from cwenv.engine.frames import Frame
from cwenv.engine.native.build import Unported, core_combat, core_module
from cwenv.engine.native.events import reason_text
from cwenv.engine.native.views import counters_of, decision_of, frames_of
from cwenv.engine.state import Combat, CombatOverError, Outcome
from cwenv.engine.turn import TurnFrame
from cwenv.model.types import Side
from cwenv.rules.dice import Dice, SeededDice, reseeded, seeded

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from cwenv.engine.game import Game

__all__ = ["PROMPTS", "TURN_CHOICES", "NativeCombat", "Unported", "playable"]

_UNSET: Any = object()
_KINDS = tuple(ActionKind)  # by value: the core's history rows name kinds by number

TURN_CHOICES = HANDLUNG_KINDS | {
    ActionKind.MOVE,
    ActionKind.END_TURN,
    ActionKind.CHOOSE_ACTOR,
    ActionKind.MUMM_EXTRA_ACTION,
    ActionKind.MUMM_SHAKE,
}
"""The TURN and ORDER choices the native frames carry out."""
PROMPTS = frozenset(
    {
        DecisionKind.PRE_CHECK,
        DecisionKind.POST_CHECK,
        DecisionKind.KEEP,
        DecisionKind.DEFEND,
        DecisionKind.NIEDERWERFEN,
        DecisionKind.BLOCKADE,
        DecisionKind.DAMAGE,
        DecisionKind.DEATH,
        DecisionKind.STURZ,
        DecisionKind.DRAG,
    }
)
"""The prompts the native frames ask; every choice there is carried out, M08 included."""


def playable(kind: DecisionKind, legal: list[Action]) -> list[Action]:
    """The choices of a decision of ``kind`` the native combat carries out (the lockstep
    test's and the benchmark's random play)."""
    if kind in (DecisionKind.TURN, DecisionKind.ORDER):
        return [a for a in legal if a.kind in TURN_CHOICES]
    return legal


class NativeCombat(Combat):
    """One fight run by the core from ``seed`` (or the seeded ``dice``): the dice of
    ``game.new_combat(seed)``, so both engines play the same fight."""

    def __init__(self, game: Game, seed: int | None = None, *, dice: Dice | None = None) -> None:
        self._core: Any = None
        Combat.__init__(self, game, dice if dice is not None else seeded(seed), start=False)
        first = self._dice
        self._first = (first.state, first.inc) if isinstance(first, SeededDice) else None
        self._edited = False
        self._core, self._maker = core_combat(core_module(), self)
        self._sync()

    # -- the mirror ---------------------------------------------------------------------------
    def _sync(self) -> None:
        """The core's state into the mirror, after every decision."""
        core = self._core
        core.sync(self)
        self.round = core.round
        self.forced = core.forced
        self.turn_fighter = core.turn_fighter
        self.queue = core.queue
        got = core.outcome
        if got is not None and self.outcome is None:
            winner, reason, rounds, about = got
            text = reason_text(self.game, reason, about)
            self.outcome = Outcome(None if winner < 0 else Side(winner), text, rounds)
        self._frames: list[Frame] | None = None
        self._decision: Decision | None = _UNSET
        self._counts: dict[str, int] | None = None
        self._legal = None
        self._legal_set = None

    @property
    def _stack(self) -> list[Frame]:
        if self._core is None:
            return []
        if self._frames is None:
            # stand-ins answer describe() and their class name as the reference's frames do
            self._frames = cast("list[Frame]", frames_of(self._core, self._maker, self.fighters))
            if self._frames and isinstance(self._frames[-1], TurnFrame):
                self._frames[-1].legal = self.legal_actions()  # as the reference's caches it
        return self._frames

    @_stack.setter
    def _stack(self, value: list[Frame]) -> None:  # Combat.__init__'s CombatFrame
        self._frames = None

    @property
    def events(self) -> list[ev.Event]:
        """Every event so far: the core's turned into the reference's when first asked."""
        told = self._told
        if self._core is not None:
            rows = self._core.events_from(len(told))
            if rows:
                make = self._maker.event
                told.extend(make(row) for row in rows)
        return told

    @events.setter
    def events(self, value: list[ev.Event]) -> None:  # Combat.__init__'s empty log
        self._told = value

    @property
    def history(self) -> list[Action]:
        """Every choice made (not those the rules took alone), as the reference keeps them;
        a rollout's are read from the core when first asked."""
        made = self._made
        if self._core is not None:
            rows = self._core.history_from(len(made))
            if rows:
                made.extend(Action(_KINDS[k], *rest) for k, *rest in rows)
        return made

    @history.setter
    def history(self, value: list[Action]) -> None:  # Combat.__init__'s empty list
        self._made = value

    def rollout(
        self,
        policies: dict[int, Any],
        stop_round: int,
        stop_turns: int,
        steps: int,
        exact: bool = False,
    ) -> int:
        """Play on in the core with a native rollout policy per side (``agents._rollouts``
        capsules) until after round ``stop_round``, after ``stop_turns`` turns counted (-1:
        no such stop) or ``steps`` decisions; the decisions played (agents/search.py).
        ``exact``: stop before a choice a policy leaves to its agent (:attr:`deferred`)."""
        by_side = [policies.get(side) for side in range(3)]
        try:
            return int(self._core.rollout(by_side, stop_round, stop_turns, steps, exact=exact))
        finally:  # what was played before an error stands: the mirror shows it
            self._sync()

    def twin_choice(self, twin: Any) -> int | None:
        """The index into :meth:`legal_actions` of the choice the native twin ``twin`` (a
        capsule, :class:`cwenv.agent.NativeTwin`) makes now; None where it leaves the
        choice to its agent (one it does not value, a random draw)."""
        if self.outcome is not None:
            return None
        got = self._core.choose(twin, exact=True)
        return None if got is None else int(got)

    def ask(self, query: Any, args: Sequence[float]) -> list[float]:
        """A native query's answer about the combat where it stands (a capsule an agents'
        module makes, e.g. search's state value, ``agents.native_rollouts.native_query``):
        numbers in, numbers out; nothing changes."""
        return list(self._core.ask(query, [float(x) for x in args]))

    @property
    def deferred(self) -> bool:
        """The last exact rollout or play-on stopped before a choice left to an agent."""
        return bool(self._core.deferred)

    def play_on(self, policies: dict[int, Any]) -> int:
        """Play on in the core with the native twins ``policies`` (capsules by side, the
        agents' own, :class:`cwenv.agent.NativeTwin`) to the combat's end, stopping before
        a decision of a side without a twin and before a choice a twin leaves to its agent
        (a random draw): the agents' game, event for event. The decisions played."""
        if self.outcome is not None:
            return 0
        if not self._made and not self.history:
            self._adopt_edits()  # set-up edits, as apply() takes them
        by_side = [policies.get(side) for side in range(3)]
        try:
            played = int(self._core.rollout(by_side, 1 << 30, -1, 1 << 30, exact=True))
        except BaseException:
            self._sync()  # what was played before the error stands: the mirror shows it
            raise
        if played:
            self._sync()
        return played

    def current_fighter(self) -> int:
        got = self._core.decision
        return -1 if got is None else int(got[1])

    @property
    def _pending(self) -> Decision | None:
        if self._core is None:
            return None
        if self._decision is _UNSET:
            self._decision = decision_of(self._core)
        return self._decision

    @_pending.setter
    def _pending(self, value: Decision | None) -> None:
        self._decision = _UNSET

    @property
    def counters(self) -> dict[str, int]:
        if self._core is None:
            return {}
        if self._counts is None:
            self._counts = counters_of(self._core)
        return self._counts

    @counters.setter
    def counters(self, value: dict[str, int]) -> None:
        self._counts = None

    @property
    def dice(self) -> Dice:
        """The dice as they stand now (the core draws them): a SeededDice at its state."""
        if self._core is None:
            return self._dice
        now = SeededDice.__new__(SeededDice)
        now.seed = None
        now.state, now.inc = self._core.dice_state
        return now

    @dice.setter
    def dice(self, value: Dice) -> None:
        if self._core is not None:
            raise Unported("the native combat's dice are the core's: reseed_dice() samples others")
        self._dice = value

    # -- the reference's face -----------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            if not self._made and not self.history:
                self._adopt_edits()  # set-up edits after new_combat, as the reference sees them
            self._legal = self._core.legal()
            self._legal_set = None
        return self._legal

    def apply(self, action: Action) -> None:
        """Validate ``action`` and carry it out in the core, running the rules to the next
        decision; the mirror follows."""
        if self.outcome is not None:
            raise CombatOverError("the combat is over")
        if not self._made and not self.history:
            self._adopt_edits()
        a = action
        try:  # the core validates before it changes anything
            self._core.apply(int(a.kind), a.actor, a.target, a.cell, a.arg, a.mumm)
        except ValueError:
            raise self._illegal(action) from None
        self._sync()

    def clone(self) -> NativeCombat:
        """An independent twin: the core copied, the mirror with it."""
        twin = NativeCombat.__new__(NativeCombat)
        state = self.__dict__.copy()
        state["fighters"] = [f.copy() for f in self.fighters]
        state["occupant"] = self.occupant.copy()
        state["opaque"], state["solid"] = self.opaque[:], self.solid[:]
        state["_told"] = self.events.copy()
        state["_made"] = self.history.copy()
        state["queue"] = self.queue.copy()
        state["_core"] = self._core.clone()
        state["_frames"] = None
        state["_counts"] = None
        state.pop("_core_token", None)
        twin.__dict__.update(state)
        if self.forbidden:
            twin._core.restrict(twin)  # the twin's own restrict(), not the original's
        return twin

    def refresh_legal(self) -> None:
        """The mirror was edited: the core reads it back, and the pending decision's legal
        choices are worked out again (a TURN's searched anew, a prompt's shakes)."""
        for frame in self._frames or ():
            if isinstance(frame, TurnFrame):
                frame.legal = None  # the reference forgets the turn's cached list so
        self._adopt_edits()
        self._legal = self._legal_set = None

    def mark_dirty(self) -> None:
        """An edit that may decide the fight: read back, and the victory conditions are
        checked at the core's next step (state.py mark_dirty)."""
        self._adopt_edits()
        self._core.mark_dirty()

    def _adopt_edits(self) -> None:
        """Whatever was edited in the mirror since the core last wrote it, into the core
        (its legal choices worked out again); nothing when nothing changed."""
        if self._core.reimport(self):
            self._edited = True
            self.__dict__.pop("_core_token", None)
            self._sync()

    def reseed_dice(self, seed: int) -> None:
        fresh = reseeded(self.dice, seed)
        if not isinstance(fresh, SeededDice):
            raise Unported("the native combat draws from the seeded stream only")
        self._core.reseed(fresh.state, fresh.inc)

    def forbid(self, side: Side, tags: Iterable[str]) -> None:
        """Restricted play: every legal list of ``side`` goes through :meth:`restrict`
        (the reference's), in the core's decisions too (a prompt left with one choice is
        taken at once)."""
        from cwenv.engine.tactics import TACTICS, unknown_tactics

        wanted = frozenset(tags)
        unknown = unknown_tactics(wanted)
        if unknown:
            raise ValueError(f"unknown tactics {unknown}; allowed: {', '.join(TACTICS)}")
        self.forbidden = {**self.forbidden, side: wanted}
        self._core.restrict(self)
        self._sync()

    def d10(self) -> int:
        raise Unported("the native combat's rules draw in the core")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and deepcopy as the game, the first dice and the choices; played again."""
        if self._edited or self._first is None:
            raise Unported("an edited native combat cannot be pickled (its choices do not say it)")
        return (_replayed, (self.game, self._first, self.forbidden, list(self.history)))


def _replayed(
    game: Game,
    first: tuple[int, int],
    forbidden: dict[Side, frozenset[str]],
    history: list[Action],
) -> NativeCombat:
    dice = SeededDice.__new__(SeededDice)
    dice.seed = None
    dice.state, dice.inc = first
    combat = NativeCombat(game, dice=dice)
    for side, tags in forbidden.items():
        combat.forbid(side, tags)
    for action in history:
        combat.apply(action)
    return combat
