"""The doctrines choose and score exactly as before the per-decision memos (issue #16).

The walking field is the least of cached single-target fields, a weapon's damage profile
is kept once per decision, the Stürmer values its manoeuvres once per enemy: all three
must leave every choice and every score as it was. :mod:`tests.doctrine_reference` keeps
the former computation. Over seeded fights (all three doctrines on both sides, every
shipped scenario, generated fights, rule variants) every decision's action and, at each
TURN decision, every action's doctrine value (``agents.doctrine_scores.turn_scores``: the
cells' worth, the Handlungen, ending the turn) must be equal, exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from agents.board import Board
from agents.doctrine import Doctrine, TurnChoices
from agents.doctrine_scores import turn_scores
from agents.schuetze import Schuetze
from agents.stuermer import Stuermer
from agents.taktiker import Taktiker
from cwenv.agent import DecisionView
from cwenv.content.generate import generate_game
from cwenv.engine.actions import DecisionKind
from cwenv.engine.game import Game
from cwenv.runner.task import load_game
from tests.doctrine_reference import PlainStuermer, plain_board

SCENARIOS = sorted(p.stem for p in Path("configs/scenarios").glob("*.yaml"))
CASES = [
    *((name, None, i) for i, name in enumerate(SCENARIOS)),
    *((seed, None, seed) for seed in (3, 11, 216)),
    ("feuergefecht", "zielen-stapelbar", 40),
    ("strassenschlacht", "passes", 41),
    ("duell", "differenz-roh", 42),
]
DECISIONS = 120  # per fight, three fights per case
DOCTRINES: list[tuple[type[Doctrine], type[Doctrine]]] = [
    (Taktiker, Taktiker),
    (Stuermer, PlainStuermer),
    (Schuetze, Schuetze),
]


def _game(scenario: str | int, rules: str | None) -> Game:
    return generate_game(scenario) if isinstance(scenario, int) else load_game(scenario, rules)


@pytest.mark.parametrize("case", CASES, ids=lambda k: "-".join(map(str, k)))
def test_doctrines_choose_and_score_as_before(case: tuple[str | int, str | None, int]) -> None:
    scenario, rules, seed = case
    game = _game(scenario, rules)
    turns = 0
    for k in range(3):  # each doctrine on each side, against the next one
        first, second = DOCTRINES[k], DOCTRINES[(k + 1) % 3]
        sides = {0: first, 1: second, 2: first}
        agents = {s: (new(), plain()) for s, (new, plain) in sides.items()}
        c = game.new_combat(seed * 7 + k)
        view = DecisionView(c)
        rng = random.Random(seed)
        for _ in range(DECISIONS):
            if c.is_terminal():
                break
            legal = c.legal_actions()
            doc, ref = agents[int(c.fighters[c.current_fighter()].side)]
            action = doc.act(view, legal, rng)
            if len(legal) > 1:
                assert ref._choose(plain_board(view), legal) == action, (case, k, c.decision)
                if c.decision is not None and c.decision.kind is DecisionKind.TURN:
                    got = turn_scores(doc, Board(view), TurnChoices(legal))
                    want = turn_scores(ref, plain_board(view), TurnChoices(legal))
                    assert got == want, (case, k, c.decision)
                    turns += 1
            c.apply(action)
    assert turns >= 15, turns
