"""The Taktiker's native twin (issue #16, agents/native/taktiker.cpp): at every decision
it takes (its turns and its answers to the prompts) it chooses what agents/taktiker.py
chooses, it hands back what it does not value, and whole games and search rollouts played
with it are the Python Taktiker's, event for event."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

pytest.importorskip("agents._rollouts", reason="the native rollout policies are not built")

from agents.doctrine import Doctrine
from agents.native_rollouts import native_policy, native_twin
from agents.taktiker import Taktiker, TaktikerConfig
from cwenv.agent import DecisionView, play_out
from cwenv.engine.actions import DecisionKind
from cwenv.engine.native.combat import NativeCombat, playable
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.runner.task import load_game


def _compare(agent: Doctrine, games: range, follow: bool, pool: str = "shipped") -> Counter[str]:
    """Ask the twin and the agent at every decision of the ``pool``'s games ``games``; the
    game goes on with the agent's choice (``follow``) or at random."""
    twin = native_twin(agent)
    assert twin is not None
    seen: Counter[str] = Counter()
    with engine_as("native"):
        for index in games:
            case = cases.case_of(index, pool)
            c = NativeCombat(case.game("native"), case.seed)
            view, rng = DecisionView(c), random.Random(index)
            while c.outcome is None and len(c.history) < 300:
                legal, d = c.legal_actions(), c.decision
                assert d is not None
                want = agent.act(view, legal, rng)
                got = c.twin_choice(twin)
                turn = d.kind in (DecisionKind.TURN, DecisionKind.ORDER)
                if got is None:
                    seen["deferred:turn" if turn else "deferred:prompt"] += 1
                elif len(legal) == 1:
                    seen["lone"] += 1
                else:
                    assert legal[got] == want, (index, d.kind, legal[got], want)
                    seen["turn" if turn else "prompt"] += 1
                    seen[f"ask:{d.kind.name}"] += 1
                    seen[f"chose:{want.kind.name}"] += 1
                if follow:
                    c.apply(want)
                else:
                    c.apply(random.Random(len(c.history)).choice(playable(d.kind, legal)))
    return seen


def test_the_native_taktiker_chooses_as_the_python_taktiker() -> None:
    seen = _compare(Taktiker(), range(16), follow=False)
    seen += _compare(Taktiker(), range(16, 28), follow=True)
    seen += _compare(Taktiker(), range(8), follow=True, pool="drawn")
    # every shipped scenario and variant in turn, and drawn fights: every choice in the core
    assert seen["turn"] > 5_000 and seen["prompt"] > 1_500, seen
    assert seen["deferred:turn"] == seen["deferred:prompt"] == 0, seen
    # the rare paths stay exercised: every kind of prompt these fights ask, and choices
    # that only a Handlung's or a spend's own valuation makes
    asked = "ORDER PRE_CHECK POST_CHECK KEEP DEFEND NIEDERWERFEN BLOCKADE DAMAGE DRAG"
    chosen = (
        "ATTACK HACK MANEUVER CYBERWARE USE_ITEM SHAKE AUFSTEHEN DOOR ZIELEN RELOAD DRAW "
        "SPRINT MUMM_EXTRA_ACTION MUMM_SHAKE PRE_GROSSER_WURF POST_REROLL BLOCKADE_ATTACK "
        "DRAG_TO HALVE_DAMAGE DROP_PRONE"
    )
    missing = [f"ask:{k}" for k in asked.split() if not seen[f"ask:{k}"]]
    missing += [f"chose:{k}" for k in chosen.split() if not seen[f"chose:{k}"]]
    assert not missing, missing


def test_a_taktiker_with_other_weights_is_twinned_with_them() -> None:
    config = TaktikerConfig(focus_weight=0.0, max_cells=5, risk_weight=2.0, move_margin=0.0)
    seen = _compare(Taktiker(config), range(8), follow=True)
    assert seen["turn"] > 500, seen
    assert native_twin(Taktiker(config)) is not native_twin(Taktiker())


def same_games(scenario: str, seeds: range, agents: Callable[[], dict[int, Doctrine]]) -> None:
    """Whole games of the doctrines ``agents()`` make, with and without their twins: the
    same events."""
    game = load_game(scenario)
    for seed in seeds:
        logs = []
        for twins in (False, True):
            c = game.new_combat(seed)
            players = agents()
            if not twins:
                for a in players.values():
                    a.native_twin = lambda: None  # type: ignore[method-assign]
            play_out(c, players, {s: random.Random(seed * 3 + s) for s in range(3)})
            logs.append(list(c.events))
        assert logs[0] == logs[1], (scenario, seed)


@pytest.mark.parametrize("scenario", ["feuergefecht", "strassenschlacht"])
def test_whole_taktiker_games_are_the_python_games(scenario: str) -> None:
    same_games(scenario, range(3), lambda: {side: Taktiker() for side in range(3)})


def test_every_taktiker_choice_of_the_firefight_is_made_in_the_core() -> None:
    """On the 4v4 firefight the twin values everything on offer: a whole game is one call."""
    game, agent = load_game("feuergefecht"), Taktiker()
    twin = native_twin(agent)
    asked: Counter[str] = Counter()
    for seed in range(3):
        c = game.new_combat(seed)
        assert isinstance(c, NativeCombat)
        view, rng = DecisionView(c), random.Random(seed)
        while not c.is_terminal():
            legal, d = c.legal_actions(), c.decision
            if d is not None and len(legal) > 1:
                assert c.twin_choice(twin) is not None, (d.kind, legal)
                asked[d.kind.name] += 1
            c.apply(agent.act(view, legal, rng))
    assert asked["TURN"] > 200 and asked["DEFEND"] > 20 and asked["PRE_CHECK"] > 20, asked
    for seed in range(7, 10):
        c = game.new_combat(seed)
        assert isinstance(c, NativeCombat)
        c.play_on({side: twin for side in range(3)})  # once: to the verdict
        assert c.outcome is not None and not c.deferred


def test_a_policy_that_hands_choices_back_is_a_twin_not_a_rollout_policy() -> None:
    """``native_policy`` (a rollout that never asks Python) has only whole twins; the
    Taktiker's is a ``native_twin``, which exact play-ons and search's rollouts use."""

    class Careful(Taktiker):
        pass

    assert native_policy(Taktiker()) is None
    assert native_twin(Taktiker()) is not None
    assert native_twin(Careful()) is None  # a subclass may choose otherwise


def test_a_taktiker_rollout_in_the_core_is_the_python_rollout() -> None:
    """Search's rollouts (agents/search.py): the twin plays, hands back what it leaves, and
    the rollout is the one the Python Taktiker plays, decision for decision."""
    from agents.mcts import MCTSConfig
    from agents.search import Horizon, rollout

    cfg = MCTSConfig(horizon_rounds=2, max_rollout_steps=2_000)
    off = cfg.model_copy(update={"native_rollouts": False})
    played = 0
    with engine_as("native"):
        for index in range(12):
            case = cases.case_of(index, "shipped")
            c = NativeCombat(case.game("native"), case.seed)
            for _ in range(30):  # somewhere into the fight
                if c.outcome is not None:
                    break
                c.apply(c.legal_actions()[0])
            if c.outcome is not None:
                continue
            policies = {side: Taktiker() for side in (0, 1, 2)}
            native, python = c.clone(), c.clone()
            steps = rollout(native, policies, random.Random(2), Horizon(native, cfg))
            assert rollout(python, policies, random.Random(2), Horizon(python, off)) == steps
            assert native.events == python.events
            assert native.history == python.history
            played += steps
    assert played > 1_000, played
