"""A dice duel: the tiny second ruleset that shows the seam of ``cwenv.ruleset`` (#14 item 8).

The rules fit in a dozen lines (:func:`_exchange`): every round each side chooses how to
roll, then both roll a die; the higher die hits (a tie hits nobody) and the first side to
score N hits wins (a draw after 30 rounds). Aiming (tactic ``AIM``) rolls two dice and keeps
the higher — so strong that restricted play must call it dominant; bluffing (``BLUFF``)
changes nothing. Scenarios: ``duel`` (first to 3 hits) and ``duel-N`` (first to N, 1 to 9).

It is registered the way a user's package registers its own (``docs/rulesets.md``): the
tests install a ``.dist-info`` with the entry points

    [cwenv.rulesets]
    dice = tests.dice_duel:RULESET
    [cwenv.agents]
    dice = tests.dice_duel:AGENTS

and then play ``dice:duel`` with ``cwenv simulate``, ``cwenv tournament`` and ``cwenv stress
tactics``. Its agents: the project's ``random`` and :class:`FirstChoice` (``first``).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cwenv.ruleset import GameRecord, Outcome, ScenarioError

SIDES = ("A", "B")
CHOICES = ("AIM", "BLUFF", "ROLL")  # the plain roll last: restricted play always keeps it
ROUND_LIMIT = 30
TACTICS = {"AIM": "Zielen: zwei Würfel, der höhere zählt", "BLUFF": "Bluffen: ändert nichts"}


@dataclass(frozen=True)
class DuelGame:
    """The content of one duel: hits needed to win."""

    hits: int


@dataclass
class Duel:
    """One play of a duel (agents get it read-only as their view)."""

    game: DuelGame
    rng: random.Random
    hits: list[int] = field(default_factory=lambda: [0, 0])
    chosen: list[str] = field(default_factory=list)  # this round's choices, A's first
    rounds: int = 0
    log: list[str] = field(default_factory=list)
    history: list[tuple[int, str]] = field(default_factory=list)  # (side, choice)
    forbidden: dict[int, frozenset[str]] = field(default_factory=dict)
    result: Outcome | None = None


def _exchange(duel: Duel) -> None:
    """Both sides roll (an aimer keeps the higher of two dice); the higher die hits."""
    dice = [max(duel.rng.randint(1, 6), duel.rng.randint(1, 6)) if c == "AIM" else
            duel.rng.randint(1, 6) for c in duel.chosen]  # fmt: skip
    duel.rounds += 1
    if dice[0] != dice[1]:
        duel.hits[0 if dice[0] > dice[1] else 1] += 1
    duel.log.append(
        f"Runde {duel.rounds}: A {duel.chosen[0].lower()} {dice[0]}, "
        f"B {duel.chosen[1].lower()} {dice[1]} → {duel.hits[0]}:{duel.hits[1]}"
    )
    duel.chosen = []
    for side in (0, 1):
        if duel.hits[side] >= duel.game.hits:
            duel.result = Outcome(SIDES[side], f"{duel.game.hits} Treffer", duel.rounds)
    if duel.result is None and duel.rounds >= ROUND_LIMIT:
        duel.result = Outcome(None, "Rundenlimit", duel.rounds)


class DiceDuel:
    """The dice duel as a :class:`cwenv.ruleset.Ruleset`."""

    name = "dice"
    title = "Würfelduell"
    sides = SIDES
    tactics = TACTICS

    def load(self, scenario: str, rules: str | None) -> DuelGame:
        if rules is not None:
            raise ScenarioError(f"dice:{scenario}: the dice duel has no rule variants (--rules)")
        match = re.fullmatch(r"duel(?:-([1-9]))?", scenario)
        if match is None:
            raise ScenarioError(
                f"unknown dice scenario {scenario!r}; known: duel, duel-N (N hits to win, 1-9)"
            )
        return DuelGame(int(match.group(1) or 3))

    def game_sides(self, game: DuelGame) -> tuple[str, ...]:
        return SIDES

    def rules_mapping(self, game: DuelGame) -> dict[str, Any]:
        return {"round_limit": ROUND_LIMIT, "die": 6}

    def content_parts(self, game: DuelGame) -> dict[str, Any]:
        return {"setup": {"hits": game.hits}}

    def content_sources(self, scenario: str, game: DuelGame, rules: str | None) -> dict[str, str]:
        return {"setup": __file__}

    def describe_part(self, label: str) -> str:
        return "the hits to win" if label == "setup" else label

    def new_state(self, game: DuelGame, seed: int) -> Duel:
        return Duel(game, random.Random(seed))

    def forbid(self, state: Duel, side: int, tags: Iterable[str]) -> None:
        state.forbidden[side] = frozenset(tags)

    def view(self, state: Duel) -> Duel:
        return state

    def is_terminal(self, state: Duel) -> bool:
        return state.result is not None

    def to_move(self, state: Duel) -> int:
        return len(state.chosen)

    def legal_actions(self, state: Duel) -> list[str]:
        banned = state.forbidden.get(self.to_move(state), frozenset())
        return [c for c in CHOICES if c not in banned]

    def apply(self, state: Duel, action: str) -> None:
        if state.result is not None or action not in self.legal_actions(state):
            raise ValueError(f"{action!r} is not a legal choice now")
        state.history.append((self.to_move(state), action))
        state.chosen.append(action)
        if len(state.chosen) == 2:
            _exchange(state)

    def outcome(self, state: Duel) -> Outcome | None:
        return state.result

    def narrate(self, state: Duel) -> list[str]:
        return list(state.log)

    def record(self, state: Duel) -> GameRecord:
        if state.result is None:
            raise ValueError("the duel has not ended")
        counters: dict[str, int] = {}
        tactics: dict[str, dict[str, int]] = {}
        for side, choice in state.history:
            counters[f"action:{choice}"] = counters.get(f"action:{choice}", 0) + 1
            if choice in self.tactics:
                used = tactics.setdefault(SIDES[side], {})
                used[choice] = used.get(choice, 0) + 1
        log = hashlib.sha256("\n".join(state.log).encode("utf-8")).hexdigest()[:32]
        return GameRecord(
            winner=state.result.winner,
            reason=state.result.reason,
            rounds=state.result.rounds,
            counters=dict(sorted(counters.items())),
            lp_lost={s: state.hits[1 - i] for i, s in enumerate(SIDES) if state.hits[1 - i]},
            events=len(state.log),
            events_hash=log,
            tactics={s: dict(sorted(t.items())) for s, t in sorted(tactics.items())},
        )

    def side_label(self, side: str) -> str:
        return f"Seite {side}"

    def counter_label(self, key: str) -> str:
        return {"AIM": "Zielen", "BLUFF": "Bluffen", "ROLL": "Würfeln"}.get(key, key)


RULESET = DiceDuel()


class FirstChoice:
    """Always the first legal choice: aims whenever it may."""

    name = "first"
    rulesets = ("dice",)  # cwenv.agent.plays: the runner refuses it any other game

    def act(self, view: Duel, legal: Sequence[str], rng: random.Random) -> str:
        return legal[0]


class _Agents:
    """The agent resolver of this package (entry-point group ``cwenv.agents``)."""

    def known(self) -> list[str]:
        return ["first"]

    def resolve(self, spec: str) -> FirstChoice | None:
        return FirstChoice() if spec == "first" else None


AGENTS = _Agents()
