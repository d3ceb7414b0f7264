"""The seam between a game system and everything that plays it at scale.

``cwenv simulate``, tournaments, the results store, ratings, reports and restricted play
(``cwenv stress tactics``) know no rule of Corporate Wars: they talk to a :class:`Ruleset`.
Corporate Wars is the first one (:mod:`cwenv.rulesets.corporate_wars`); another system
plugs in by implementing this protocol and registering it under the entry-point group
``cwenv.rulesets`` (:mod:`cwenv.rulesets`, ``docs/rulesets.md``). Its scenarios are then
named ``NAME:SCENARIO`` wherever a command takes a scenario.

A ruleset is a set of functions over two objects it defines itself: a *game* (the
immutable content of one scenario, shared by many plays) and a *state* (one play of it,
changed in place by :meth:`Ruleset.apply`). The runner never looks inside either.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from cwenv.hashing import content_hash


class ScenarioError(ValueError):
    """A scenario a ruleset cannot load; the message names the file, the field and what is
    allowed (the runner prints it as it is)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a play ended: the winning side's name (None: a draw), why, after how many rounds."""

    winner: str | None
    reason: str
    rounds: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the results store keeps of one finished game; everything in it is deterministic
    (no timings), so two plays of one game give the same :attr:`digest`.

    ``counters`` are the ruleset's own tallies (``action:KIND``, ``damage_dealt`` …; the
    statistics of ``cwenv simulate`` add them up), ``lp_lost`` the damage each side took,
    ``events``/``events_hash`` the length and hash of its event log, ``tactics`` how often
    each side used each tactic tag (restricted play)."""

    winner: str | None  # side name, None for a draw
    reason: str
    rounds: int
    counters: dict[str, int] = field(default_factory=dict)
    lp_lost: dict[str, int] = field(default_factory=dict)  # by side name of the victim
    events: int = 0
    events_hash: str = ""
    tactics: dict[str, dict[str, int]] = field(default_factory=dict)  # side → tag → uses

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["counters"] = dict(sorted(self.counters.items()))
        data["lp_lost"] = dict(sorted(self.lp_lost.items()))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            winner=data["winner"],
            reason=str(data["reason"]),
            rounds=int(data["rounds"]),
            counters={str(k): int(v) for k, v in data.get("counters", {}).items()},
            lp_lost={str(k): int(v) for k, v in data.get("lp_lost", {}).items()},
            events=int(data.get("events", 0)),
            events_hash=str(data.get("events_hash", "")),
            tactics={
                str(side): {str(k): int(v) for k, v in tags.items()}
                for side, tags in data.get("tactics", {}).items()
            },
        )

    @property
    def digest(self) -> str:
        """A hash of the whole record: two plays of one game must give the same digest."""
        return content_hash(self.to_json(), 32)


@runtime_checkable
class Ruleset(Protocol):
    """A game system, as the runner, the store, the ratings and the stress tools see it.

    Sides are named; their order matters: the index of a side in :attr:`sides` keys the
    agents, their generators and :meth:`to_move`. ``sides[0]`` is played by a run's first
    agent (``--runners``), every other side by the second (``--nscs``); restricted play
    forbids tactics to ``sides[0]`` or ``sides[1]``.
    """

    @property
    def name(self) -> str:
        """Registry name: the prefix of its scenario specs (``dice:duel``)."""
        ...

    @property
    def title(self) -> str:
        """For people: "Corporate Wars"."""
        ...

    @property
    def sides(self) -> tuple[str, ...]:
        """Every side a game of this system can have, in seat order (at least two)."""
        ...

    @property
    def tactics(self) -> Mapping[str, str]:
        """Tactic tag → what it stands for: what restricted play can forbid."""
        ...

    # -- content ---------------------------------------------------------------------------
    def load(self, scenario: str, rules: str | None) -> Any:
        """The game of ``scenario`` (its name or file, without the ``NAME:`` prefix) under
        the rule variant ``rules`` (None: the scenario's own); :class:`ScenarioError` (or
        another ``ValueError`` naming file and field) when it cannot be loaded."""
        ...

    def game_sides(self, game: Any) -> tuple[str, ...]:
        """The sides present in ``game``, in seat order."""
        ...

    def rules_mapping(self, game: Any) -> dict[str, Any]:
        """The rules ``game`` is played under, resolved, as plain JSON (its hash is part of
        every game id)."""
        ...

    def content_parts(self, game: Any) -> dict[str, Any]:
        """``game`` split into named parts of plain JSON (map, rules, one per fighter …):
        each part's hash is part of the game ids, so an edit is noticed on a resume."""
        ...

    def content_sources(self, scenario: str, game: Any, rules: str | None) -> dict[str, str]:
        """Part label → the file(s) it is read from (named when a resume is refused)."""
        ...

    def describe_part(self, label: str) -> str:
        """A part label in words ("fighter Kowalski")."""
        ...

    # -- play ------------------------------------------------------------------------------
    def new_state(self, game: Any, seed: int) -> Any:
        """A fresh play of ``game`` whose chance events all follow from ``seed``."""
        ...

    def forbid(self, state: Any, side: int, tags: Iterable[str]) -> None:
        """Restricted play: side ``side`` may no longer choose actions with these tags."""
        ...

    def view(self, state: Any) -> Any:
        """What agents see: a live, read-only window on ``state`` (made once per play)."""
        ...

    def is_terminal(self, state: Any) -> bool: ...

    def to_move(self, state: Any) -> int:
        """The index (into :attr:`sides`) of the side that decides next."""
        ...

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """The choices of the deciding side (never empty while the play goes on)."""
        ...

    def apply(self, state: Any, action: Any) -> None:
        """Take one of :meth:`legal_actions`; a ``ValueError`` for any other."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """How the play ended (None while it goes on)."""
        ...

    # -- presentation and record ---------------------------------------------------------
    def narrate(self, state: Any) -> list[str]:
        """Every event so far as a line of text."""
        ...

    def record(self, state: Any) -> GameRecord:
        """The record of a finished play (``ValueError`` while it goes on)."""
        ...

    def side_label(self, side: str) -> str:
        """A side's name for people ("Runner")."""
        ...

    def counter_label(self, key: str) -> str:
        """A counter's name for people (``action:ZIELEN`` → "Zielen")."""
        ...


def seat_of(ruleset: Ruleset, side: str | None) -> int | None:
    """0 or 1 when ``side`` is a seat of ``ruleset`` (played by a run's first or second
    agent); None for a draw or any other side (a neutral win rates nobody)."""
    seats = ruleset.sides[:2]
    return seats.index(side) if side in seats else None
