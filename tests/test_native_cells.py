"""The doctrines' cell scoring in C++ (``agents._cells``, agents/native/cells.cpp) gives
the reference loops' numbers exactly (issue #16, native rollout policies).

Over seeded fights (every shipped scenario, generated fights, rule variants; the three
doctrines taking turns on both sides) at every TURN decision the best attack from every
legal MOVE cell and the cell stood on, under each doctrine's weights, and the expected
damage taken there must be the same float from both tables; so must the doctrines'
choices and the scores they compare when only the tables differ. Without the module
the reference loops run, and the reference engine always runs them.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from agents import cells
from agents.board import Board
from agents.doctrine import Doctrine, TurnChoices
from agents.doctrine_scores import turn_scores
from agents.schuetze import Schuetze
from agents.stuermer import Stuermer
from agents.taktiker import Taktiker
from cwenv.agent import DecisionView
from cwenv.content.generate import generate_game
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.game import Game
from cwenv.native.differential import engine_as
from cwenv.runner.task import load_game

pytestmark = pytest.mark.skipif(cells._built is None, reason="agents._cells is not built")

SCENARIOS = sorted(p.stem for p in Path("configs/scenarios").glob("*.yaml"))
CASES = [
    *((name, None, i) for i, name in enumerate(SCENARIOS)),
    *((seed, None, seed) for seed in (5, 19, 948)),
    ("feuergefecht", "zielen-stapelbar", 40),
    ("strassenschlacht", "passes", 41),
]
DECISIONS = 90  # per fight, three fights per case


@contextmanager
def _reference_loops() -> Iterator[None]:
    cells.use_native(False)
    try:
        yield
    finally:
        cells.use_native(True)


def _game(scenario: str | int, rules: str | None) -> Game:
    return generate_game(scenario) if isinstance(scenario, int) else load_game(scenario, rules)


def _tables(
    doctrine: Doctrine, view: DecisionView
) -> tuple[Board, cells.ShotTable, cells.ThreatTable]:
    board = Board(view)
    return board, doctrine.shots(board), cells.ThreatTable(board)


@pytest.mark.parametrize("case", CASES, ids=lambda k: "-".join(map(str, k)))
def test_the_native_tables_score_every_cell_as_the_reference(
    case: tuple[str | int, str | None, int],
) -> None:
    scenario, rules, seed = case
    game = _game(scenario, rules)
    doctrines: list[Doctrine] = [Taktiker(), Stuermer(), Schuetze()]
    compared = 0
    with engine_as("native"):
        for k in range(3):
            c = game.new_combat(seed * 5 + k)
            view, rng = DecisionView(c), random.Random(seed)
            sides = {0: doctrines[k], 1: doctrines[(k + 1) % 3], 2: doctrines[k]}
            for _ in range(DECISIONS):
                if c.is_terminal():
                    break
                legal = c.legal_actions()
                doctrine = sides[int(c.fighters[c.current_fighter()].side)]
                if c.decision is not None and c.decision.kind is DecisionKind.TURN:
                    me = c.fighters[c.current_fighter()]
                    spots = sorted({a.cell for a in legal if a.kind is ActionKind.MOVE} | {me.pos})
                    _, shots, threats = _tables(doctrine, view)
                    assert shots.best_from != shots._best_from  # the native one answers
                    with _reference_loops():
                        _, ref_shots, ref_threats = _tables(doctrine, view)
                    for cell in spots:
                        assert shots.best_from(cell) == ref_shots.best_from(cell), (case, cell)
                        assert threats.exposure(cell) == ref_threats.exposure(cell), (case, cell)
                    got = turn_scores(doctrine, Board(view), TurnChoices(legal))
                    with _reference_loops():
                        want = turn_scores(doctrine, Board(view), TurnChoices(legal))
                        choice = doctrine.act(view, legal, rng)
                    assert got == want, (case, c.decision)
                    assert doctrine.act(view, legal, rng) == choice, (case, c.decision)
                    compared += len(spots)
                c.apply(doctrine.act(view, legal, rng))
    assert compared >= 50, compared


def test_the_reference_engine_runs_the_reference_loops() -> None:
    game = load_game("feuergefecht")
    with engine_as("python"):
        c = game.new_combat(3)
        assert cells.native_cells() is None
        _, shots, threats = _tables(Taktiker(), DecisionView(c))
        assert shots.best_from == shots._best_from and threats.exposure == threats._exposure


def _live(kind: type) -> int:
    gc.collect()
    return sum(isinstance(o, kind) for o in gc.get_objects())


def test_a_decisions_tables_are_freed_with_its_board() -> None:
    """The native table calls back into its Python table, which holds it: a cycle the
    garbage collector must see, or every decision of a long run would leak its tables."""
    game = load_game("feuergefecht")
    with engine_as("native"):
        c = game.new_combat(4)
        view = DecisionView(c)
        here = c.fighters[c.current_fighter()].pos
        before = _live(cells.ShotTable), _live(cells.ThreatTable)
        for _ in range(20):
            board, shots, threats = _tables(Taktiker(), view)
            shots.best_from(here), threats.exposure(here)
        del board, shots, threats
        assert (_live(cells.ShotTable), _live(cells.ThreatTable)) == before


def test_a_bad_table_is_refused_with_a_reason() -> None:
    native = cells._built
    assert native is not None
    with pytest.raises(ValueError, match="width × height"):
        native.Map(3, 2, bytes(5))
    plan = native.Map(3, 2, bytes(6))
    with pytest.raises(ValueError, match="one byte per cell"):
        native.Shots(plan, bytearray(5), 0, [], lambda *a: 0.0)
    table = native.Threats(plan, bytearray(6), [], lambda *a: 0.0, lambda *a: 0.0)
    with pytest.raises(IndexError, match="off the map"):
        table.exposure(6)
