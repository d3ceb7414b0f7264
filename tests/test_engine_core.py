"""The combat state's contract (issue #2): legality, validation, determinism, clone, soak."""

from __future__ import annotations

import random

import pytest

from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.narration import narrate_all
from cwenv.engine.state import CombatOverError, IllegalActionError
from cwenv.rules.dice import DiceExhaustedError, ScriptedDice
from tests.helpers import random_policy
from tests.invariants import check_invariants
from tests.zoo import ALL_GAMES, VARIANTS


def _play(game_name: str, variant: str, seed: int, policy_seed: int) -> list[str]:
    game = ALL_GAMES[game_name](VARIANTS[variant])
    c = game.new_combat(seed)
    choose = random_policy(policy_seed)
    while not c.is_terminal():
        c.apply(choose(c))
    return narrate_all(c.events, game.names)


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_same_seed_same_actions_same_log(name: str) -> None:
    """Determinism: the same seed and the same actions give the same log, line for line."""
    assert _play(name, "default", 11, 5) == _play(name, "default", 11, 5)


def test_different_seeds_differ() -> None:
    assert _play("firefight", "default", 1, 5) != _play("firefight", "default", 2, 5)


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_clone_then_same_actions_is_identical(name: str) -> None:
    """clone() mid-fight, then the same actions on both: identical events and outcome."""
    game = ALL_GAMES[name]()
    c = game.new_combat(3)
    rng = random.Random(9)
    for _ in range(40):
        if c.is_terminal():
            break
        c.apply(rng.choice(c.legal_actions()))
    twin = c.clone()
    while not c.is_terminal():
        action = rng.choice(c.legal_actions())
        assert twin.legal_actions() == c.legal_actions()
        c.apply(action)
        twin.apply(action)
    assert twin.events == c.events and twin.outcome == c.outcome


def test_clone_is_independent() -> None:
    game = ALL_GAMES["firefight"]()
    c = game.new_combat(3)
    twin = c.clone()
    c.apply(c.legal_actions()[0])
    assert len(twin.events) < len(c.events) or twin.history != c.history
    assert twin.fighters[0] is not c.fighters[0]


def test_illegal_action_raises_and_leaves_state_unchanged() -> None:
    game = ALL_GAMES["duel"]()
    c = game.new_combat(1)
    before_events = list(c.events)
    before_legal = list(c.legal_actions())
    bogus = Action(ActionKind.ATTACK, c.current_fighter(), target=99, arg=0)
    with pytest.raises(IllegalActionError) as info:
        c.apply(bogus)
    assert isinstance(info.value, ValueError)
    assert "illegal action" in str(info.value)
    assert c.events == before_events and c.legal_actions() == before_legal
    wrong_actor = before_legal[0]._replace(actor=(before_legal[0].actor + 1) % 2)
    with pytest.raises(IllegalActionError):
        c.apply(wrong_actor)


def test_no_action_after_the_end() -> None:
    game = ALL_GAMES["duel"]()
    c = game.new_combat(1)
    choose = random_policy(1)
    while not c.is_terminal():
        c.apply(choose(c))
    assert c.legal_actions() == [] and c.current_fighter() == -1
    with pytest.raises(CombatOverError):
        c.apply(Action(ActionKind.END_TURN, 0))


def test_scripted_dice_run_out_clearly() -> None:
    game = ALL_GAMES["duel"]()
    with pytest.raises(DiceExhaustedError, match="exhausted after 2 rolls"):
        game.new_combat(dice=ScriptedDice([5, 5]))


def test_decision_points_offer_choices_and_one_decider() -> None:
    """Every decision point has at least two choices (single forced choices are applied by
    the engine) and all of them belong to the one decider."""
    game = ALL_GAMES["firefight"]()
    for seed in range(3):
        c = game.new_combat(seed)
        choose = random_policy(seed)
        while not c.is_terminal():
            legal = c.legal_actions()
            d = c.decision
            assert d is not None and len(legal) >= 2, (d, legal)
            if d.kind is not DecisionKind.ORDER:
                assert {a.actor for a in legal} == {d.fighter}
            c.apply(choose(c))


def test_turn_offers_hundreds_not_thousands() -> None:
    """A turn is split into legs, so one decision offers a manageable number of choices."""
    game = ALL_GAMES["firefight"]()
    c = game.new_combat(0)
    choose = random_policy(0)
    biggest = 0
    while not c.is_terminal():
        biggest = max(biggest, len(c.legal_actions()))
        c.apply(choose(c))
    assert 20 < biggest < 1000


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_random_play_soak_with_invariants(name: str, variant: str) -> None:
    """Random legal play raises nothing, always terminates, and keeps the invariants at
    every step (LP bounds, reactions and Mumm in range, the dead and the benommen never
    act, exactly one decider while not terminal)."""
    game = ALL_GAMES[name](VARIANTS[variant])
    for seed in range(10):
        c = game.new_combat(seed)
        choose = random_policy(seed + 1000)
        steps = 0
        while not c.is_terminal():
            check_invariants(c)
            c.apply(choose(c))
            steps += 1
            assert steps < 20_000, "combat did not end"
        check_invariants(c)


def test_restricted_play_goes_through_the_legality_function() -> None:
    """Forbidden tactics vanish from the legal actions of that side only."""
    from cwenv.engine.tactics import tactic_tags
    from cwenv.model.types import Side

    game = ALL_GAMES["firefight"]()
    c = game.new_combat(2)
    c.forbid(Side.RUNNER, {"SPRINTEN", "ZIELEN", "DECKUNG", "VERTEIDIGEN", "M02", "M05"})
    choose = random_policy(4)
    seen_runner = 0
    while not c.is_terminal():
        legal = c.legal_actions()
        if c.fighters[c.current_fighter()].side is Side.RUNNER:
            seen_runner += 1
            for a in legal:
                tags = set(tactic_tags(c.bm, a))
                assert not tags & {"SPRINTEN", "ZIELEN", "DECKUNG", "M02", "M05"} or len(legal) == 1
        c.apply(choose(c))
    assert seen_runner > 10
    with pytest.raises(ValueError, match="unknown tactics"):
        c.forbid(Side.RUNNER, {"FLIEGEN"})
