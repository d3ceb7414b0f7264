"""The one interface every agent implements: given a decision point, return an action.

The same interface drives enemies in the environments, in tournaments, in stress tests and
at the table. An agent sees a read-only :class:`DecisionView` of the combat (and may clone
it to look ahead), the legal actions, and its own seeded generator; it never draws from a
global random source.

It lives in ``cwenv`` so that the environments, the runner and the table game need no
concrete agent: they build agents from specs through :mod:`cwenv.agent_registry`, and the
project's ``agents`` package (or a user's own) implements them.

The interface assumes no game system: an :class:`Agent` is generic in what it sees and what
it chooses. Bare ``Agent`` is a Corporate Wars agent (a :class:`DecisionView` and engine
:class:`~cwenv.engine.actions.Action` s); an agent of another ruleset
(:mod:`cwenv.ruleset`) sees that ruleset's ``view(state)`` and chooses among its actions,
and :func:`play_through` plays any ruleset's game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from typing_extensions import TypeVar

from cwenv.engine.actions import Action, Decision
from cwenv.ruleset import Ruleset

if TYPE_CHECKING:
    from cwenv.battlemap.grid import BattleMap
    from cwenv.engine.events import Event
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.rules.options import RuleOptions


class DecisionView:
    """A read-only window on a combat at a decision point.

    Agents must not change what they see; :meth:`clone` gives them a private copy to play
    forward (search agents use it as a forward model).
    """

    __slots__ = ("_combat",)

    def __init__(self, combat: Combat) -> None:
        self._combat = combat

    @property
    def decision(self) -> Decision:
        d = self._combat.decision
        if d is None:
            raise ValueError("the combat is over; there is no decision")
        return d

    @property
    def fighter(self) -> FighterState:
        """The deciding fighter."""
        return self._combat.fighters[self.decision.fighter]

    @property
    def fighters(self) -> Sequence[FighterState]:
        return tuple(self._combat.fighters)

    @property
    def game(self) -> Game:
        return self._combat.game

    @property
    def options(self) -> RuleOptions:
        return self._combat.options

    @property
    def battlemap(self) -> BattleMap:
        return self._combat.bm

    @property
    def round(self) -> int:
        return self._combat.round

    @property
    def events(self) -> Sequence[Event]:
        return tuple(self._combat.events)

    @property
    def opaque(self) -> bytes:
        return bytes(self._combat.opaque)

    def legal_actions(self) -> list[Action]:
        return list(self._combat.legal_actions())

    @property
    def combat(self) -> Combat:
        """The combat itself, for encoders that read it (observations for policies).
        Read-only by contract: an agent that changes it breaks the game."""
        return self._combat

    def clone(self) -> Combat:
        """A private, mutable copy of the combat (dice included) for lookahead."""
        return self._combat.clone()


ViewT = TypeVar("ViewT", contravariant=True, default=DecisionView)
"""What an agent sees (Corporate Wars: a :class:`DecisionView`)."""
ActionT = TypeVar("ActionT", default=Action)
"""What an agent chooses among (Corporate Wars: an engine :class:`Action`)."""


ANY_RULESET = "*"
"""In an agent's ``rulesets``: it plays every ruleset (it reads nothing but ``legal``)."""


def plays(agent: object, ruleset: str) -> bool:
    """Whether ``agent`` can play games of the ruleset named ``ruleset``: the names in its
    optional ``rulesets`` attribute (:data:`ANY_RULESET`: every one); an agent without it
    plays Corporate Wars (``cw``) only."""
    names = getattr(agent, "rulesets", ("cw",))
    return ruleset in names or ANY_RULESET in names


@runtime_checkable
class Agent(Protocol[ViewT, ActionT]):
    """Anything with a ``name`` and ``act``; optionally ``rulesets`` (see :func:`plays`)."""

    name: str

    def act(self, view: ViewT, legal: Sequence[ActionT], rng: random.Random) -> ActionT:
        """Choose one of ``legal`` (never empty) for the decision in ``view``."""
        ...


@dataclass(frozen=True, slots=True)
class ActionScores:
    """What an agent thinks of each legal action: the number it optimises itself (higher
    is better), what that number is, and the action it plays with them.

    ``chosen`` is what :meth:`Agent.act` returns for the same view and generator (an agent
    need not play the best-scored action: a search keeps its prior on weak evidence, a
    doctrine acts only above a threshold). Actions the agent does not score are missing
    from ``values``; an advisor shows them unranked, never by a number of its own."""

    chosen: Action
    values: Mapping[Action, float]
    kind: str
    """What the number is, in German (``Wahrscheinlichkeit``, ``Suchwert``, …)."""
    kind_en: str
    """The same in English (``probability``, ``search value``, …)."""
    visits: Mapping[Action, int] | None = None
    """A tree search's visit counts (what it ranks by), else None."""


@runtime_checkable
class Scoring(Protocol):
    """The one optional method of the agent interface: an agent that can say what it
    thinks of every legal action implements ``scores``. It must be consistent with its
    ``act``: the same view and an equally seeded generator give ``chosen == act(...)``.
    ``None`` means it has no scores for this decision (the advisor then shows only its
    choice)."""

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> ActionScores | None: ...


def scores_of(agent: Agent, view: DecisionView, legal: Sequence[Action], seed: int) -> ActionScores:
    """The agent's scores for this decision with its generator seeded by ``seed`` (as a
    game seeds it), or — an agent without scores — just what it plays with that seed."""
    if isinstance(agent, Scoring):
        found = agent.scores(view, legal, random.Random(seed))
        if found is not None:
            return found
    return ActionScores(agent.act(view, legal, random.Random(seed)), {}, "", "")


@runtime_checkable
class NativeTwin(Protocol):
    """Optional: an agent that has a native twin — a rollout policy in C++ that makes the
    choices the agent makes (``agents/native/``): every one, or those it can and hands the
    rest back — returns it from ``native_twin`` (None where it has none). On a native
    combat :func:`play_out` lets the core play the twins' decisions, handing back to the
    agents every choice the twin leaves and every one they would draw at random, so the
    game is the one the agents play alone, event for event."""

    def native_twin(self) -> object | None: ...


def native_play(state: object, agents: Mapping[int, object]) -> Callable[[], int] | None:
    """Where ``state`` is a native combat and some of ``agents`` (by side) have a native
    twin: a call that lets the core play on with those twins (``NativeCombat.play_on``: to
    the end, or to a decision it leaves to Python) and says how many decisions it played.
    None otherwise."""
    play_on = getattr(state, "play_on", None)
    if not callable(play_on):
        return None
    found = {side: a.native_twin() for side, a in agents.items() if isinstance(a, NativeTwin)}
    twins = {side: twin for side, twin in found.items() if twin is not None}
    return partial(play_on, twins) if twins else None


def play_out(
    combat: Combat,
    agents: dict[int, Agent],
    rngs: dict[int, random.Random],
) -> None:
    """Drive ``combat`` to its end: each decision goes to the agent of the deciding side
    (``agents`` and ``rngs`` keyed by ``Side`` value). Every combat ends, at the latest at
    its game's ``decision_cap``. Agents with a native twin (:class:`NativeTwin`) play in the
    core on a native combat, the same game."""
    view = DecisionView(combat)
    fast = native_play(combat, agents)
    while not combat.is_terminal():
        if fast is not None:
            fast()
            if combat.is_terminal():
                break
        side = int(combat.fighters[combat.current_fighter()].side)
        legal = combat.legal_actions()
        combat.apply(agents[side].act(view, legal, rngs[side]))


def play_through(
    ruleset: Ruleset,
    state: Any,
    agents: Mapping[int, Agent[Any, Any]],
    rngs: Mapping[int, random.Random],
) -> None:
    """Drive a play of any ruleset to its end: each decision goes to the agent of the side
    :meth:`~cwenv.ruleset.Ruleset.to_move` names (``agents`` and ``rngs`` keyed by side
    index). For Corporate Wars this is :func:`play_out`, decision for decision."""
    view = ruleset.view(state)
    fast = native_play(state, agents)  # a native Corporate Wars combat: as play_out
    while not ruleset.is_terminal(state):
        if fast is not None:
            fast()
            if ruleset.is_terminal(state):
                break
        side = ruleset.to_move(state)
        legal = ruleset.legal_actions(state)
        ruleset.apply(state, agents[side].act(view, legal, rngs[side]))
