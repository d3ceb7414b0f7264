"""Search's questions of a state answered in C++ (issue #16, agents/native/queries.cpp):
the state value with the conditions' costs and the MOVE cells a TURN keeps as candidates
are agents/search.py's own, float for float, on every decision of shipped and drawn
fights; so MCTS on the native combat searches the same tree either way."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("agents._rollouts", reason="the native rollout policies are not built")

from agents import search
from agents.board import Board
from agents.mcts import MCTSAgent, MCTSConfig
from agents.native_rollouts import native_query
from cwenv.agent import DecisionView
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.native.combat import NativeCombat, playable
from cwenv.model.types import Side
from cwenv.native import cases
from cwenv.native.differential import engine_as

WEIGHTS = ((0.5, 0.5, 1.0), (1.0, 0.0, 2.5), (0.2, 0.8, 0.0))


def _python_value(c: NativeCombat, side: Side, weights: tuple[float, float, float]) -> float:
    real = search.native_query
    search.native_query = lambda name: None  # type: ignore[assignment]
    try:
        return search.state_value(c, side, *weights)
    finally:
        search.native_query = real  # type: ignore[assignment]


def _states(games: range, pool: str) -> list[NativeCombat]:
    """Every 3rd decision of random play in the pool's games ``games``."""
    out = []
    with engine_as("native"):
        for index in games:
            case = cases.case_of(index, pool)
            c = NativeCombat(case.game("native"), case.seed)
            rng = random.Random(index)
            while c.outcome is None and len(c.history) < 300:
                if len(c.history) % 3 == 0:
                    out.append(c.clone())
                d = c.decision
                assert d is not None
                c.apply(rng.choice(playable(d.kind, c.legal_actions())))
            out.append(c)
    return out


def test_the_native_state_value_is_searchs() -> None:
    seen: Counter[str] = Counter()
    for c in _states(range(12), "shipped") + _states(range(4), "drawn"):
        for side in (Side.RUNNER, Side.GEGNER):
            for weights in WEIGHTS:
                want = _python_value(c, side, weights)
                got = search.state_value(c, side, *weights)
                assert got == want, (c.round, side, weights)
                conditioned = any(f.conditions and f.standing for f in c.fighters)
                seen["conditioned" if conditioned and weights[2] else "plain"] += 1
    # the conditions' costs are what the native sums are for: many states carry some
    assert seen["conditioned"] > 300 and seen["plain"] > 300, seen


def test_the_native_move_candidates_are_searchs() -> None:
    query = native_query("move_candidates")
    picks = 0
    for c in _states(range(16), "shipped") + _states(range(4), "drawn"):
        d = c.decision
        if d is None or d.kind is not DecisionKind.TURN:
            continue
        legal = c.legal_actions()
        cells = sorted({a.cell for a in legal if a.kind is ActionKind.MOVE})
        if not cells:
            continue
        for limit in (1, 3, 5, 20):
            want = search._picked_moves(Board(DecisionView(c)), cells, limit)
            assert [int(x) for x in c.ask(query, (limit, *cells))] == want, (c.round, limit)
            fewer = cells[::2]  # a caller's narrower legal list: its own cells only
            narrow = search._picked_moves(Board(DecisionView(c)), fewer, limit)
            assert [int(x) for x in c.ask(query, (limit, *fewer))] == narrow
            picks += len(want)
    assert picks > 2_000


def test_a_prompt_is_not_asked_for_move_candidates() -> None:
    with engine_as("native"):
        c = NativeCombat(cases.case_of(0, "shipped").game("native"), 0)
        rng = random.Random(0)
        while c.decision is not None and c.decision.kind is DecisionKind.TURN:
            c.apply(rng.choice(playable(c.decision.kind, c.legal_actions())))
        if c.decision is not None:
            with pytest.raises(ValueError, match="not a TURN decision"):
                c.ask(native_query("move_candidates"), (5, 0))
        with pytest.raises(ValueError, match="a limit, then the cells"):
            c.ask(native_query("move_candidates"), ())


def test_mcts_searches_the_same_tree_with_the_native_questions() -> None:
    """The same visits and values at the root, with the questions in C++ or in Python."""
    with engine_as("native"):
        case = cases.case_of(2, "shipped")
        c = NativeCombat(case.game("native"), case.seed)
        rng = random.Random(5)
        agent = MCTSAgent(MCTSConfig(iterations=24))
        searched = 0
        while c.outcome is None and searched < 3:
            legal = c.legal_actions()
            view = DecisionView(c)
            if search.worth_searching(view, legal, agent.config):
                native = agent.scores(view, legal, random.Random(searched))
                real = search.native_query
                search.native_query = lambda name: None  # type: ignore[assignment]
                try:
                    python = agent.scores(view, legal, random.Random(searched))
                finally:
                    search.native_query = real  # type: ignore[assignment]
                assert native is not None and python is not None
                assert native.chosen == python.chosen
                assert native.values == python.values
                searched += 1
            d = c.decision
            assert d is not None
            c.apply(rng.choice(playable(d.kind, legal)))
        assert searched == 3
