"""Initiative, the order of turns and reactions (I01–I04, I10–I13, R01, X01, X16, X36)."""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.game import Game
from cwenv.engine.roundflow import pass_actions
from cwenv.engine.state import Combat
from cwenv.model.specs import CyberwareSpec
from cwenv.model.types import Side
from cwenv.rules.options import InitiativeSystem, ReactionBasis, TieOrder
from tests.helpers import events_of, fighter, make_game, scripted

RAPTOR = CyberwareSpec("Raptor-Booster", initiative_bonus=6)


def play_round(c: Combat) -> list[tuple[str, int]]:
    """End every turn of round 1; return (name, step) of each turn in order."""
    while c.round == 1 and not c.is_terminal():
        d = c.decision
        assert d is not None
        if d.kind is DecisionKind.ORDER:
            c.apply(c.legal_actions()[0])
            continue
        c.apply(next(a for a in c.legal_actions() if a.kind is ActionKind.END_TURN))
    names = c.game.names
    turns = []
    for e in c.events:
        if isinstance(e, ev.RoundEnded):
            break
        if isinstance(e, ev.TurnStarted):
            turns.append((names[e.fighter], e.step))
    return turns


def test_i03_steps_every_ten_down_to_one() -> None:
    """I03: Initiative 26 acts at 26, 16, 6; Initiative 12 at 12 and 2."""
    game = make_game(
        [
            (fighter("Kira", reflexe=13), (0, 0)),  # 3 dice
            (fighter("Wache", Side.GEGNER), (9, 4)),
        ]
    )  # 2 dice
    c = scripted(game, [4, 4, 5, 1, 1] + [5] * 20)  # Kira 13 + 13 = 26, Wache 10 + 2 = 12
    assert play_round(c) == [("Kira", 26), ("Kira", 16), ("Wache", 12), ("Kira", 6), ("Wache", 2)]


def test_i04_ties_grundwert_then_runner_before_gegner() -> None:
    """I04: in the same step the higher Grundwert acts first; at equal Grundwert Runner
    before Gegner before Neutral."""
    game = make_game(
        [
            (fighter("Passant", Side.NEUTRAL, reflexe=10), (0, 4)),
            (fighter("Wache", Side.GEGNER, reflexe=10), (9, 4)),
            (fighter("Kira", reflexe=10), (0, 0)),
            (fighter("Boss", Side.GEGNER, reflexe=11), (9, 0)),
        ]
    )
    # Everybody reaches initiative 20: 10 + 5+5, and the Boss 11 + 5+4 (3 dice: 5+3+1).
    c = scripted(game, [5, 5, 5, 5, 5, 5, 5, 3, 1] + [5] * 20)
    order = [name for name, step in play_round(c) if step == 20]
    assert order == ["Boss", "Kira", "Wache", "Passant"]


def test_i04_x16_side_chooses_among_tied_fighters() -> None:
    """X16 (default): fighters of one side tied in step and Grundwert: the side chooses."""
    game = make_game(
        [
            (fighter("Jax"), (0, 0)),
            (fighter("Kira"), (0, 2)),
            (fighter("Wache", Side.GEGNER, reflexe=8), (9, 4)),
        ]
    )
    c = scripted(game, [5, 5, 5, 5, 5, 5] + [5] * 20)
    assert c.decision is not None and c.decision.kind is DecisionKind.ORDER
    choices = {a.target for a in c.legal_actions()}
    assert choices == {0, 1}
    c.apply(next(a for a in c.legal_actions() if a.target == 1))
    assert events_of(c, ev.TurnStarted)[0].fighter == 1


def test_x16_roster_order_alternative() -> None:
    game = make_game(
        [
            (fighter("Jax"), (0, 0)),
            (fighter("Kira"), (0, 2)),
            (fighter("Wache", Side.GEGNER, reflexe=8), (9, 4)),
        ],
        tie_order=TieOrder.ROSTER,
    )
    c = scripted(game, [5] * 30)
    assert c.decision is not None and c.decision.kind is DecisionKind.TURN
    assert events_of(c, ev.TurnStarted)[0].fighter == 0


@pytest.mark.parametrize(
    ("basis", "expected"),
    [
        (ReactionBasis.ROLLED_INITIATIVE, (10 + 9) // 4),  # R01, X01 default
        (ReactionBasis.GRUNDWERT, 10 // 4),
        (ReactionBasis.REFLEXE, 10 // 4),
    ],
)
def test_r01_x01_reactions(basis: ReactionBasis, expected: int) -> None:
    game = make_game(
        [(fighter("Kira"), (0, 0)), (fighter("Wache", Side.GEGNER), (9, 4))], reactions_basis=basis
    )
    c = scripted(game, [4, 5, 1, 1] + [5] * 20)
    assert c.fighters[0].reactions == expected


def passes_game(**opts: Any) -> Game:
    return make_game(
        [
            (fighter("Kira", reflexe=17), (0, 0)),  # 3 actions
            (fighter("Jax", reflexe=12, cyberware=(RAPTOR,)), (0, 2)),  # 2 (Raptor ignored, X36)
            (fighter("Wache", Side.GEGNER, reflexe=8), (9, 4)),  # 1
        ],
        initiative=InitiativeSystem.PASSES,
        **opts,
    )


def test_i11_actions_per_round() -> None:
    """I11: (Reflexe incl. its bonuses) ÷ 8 rounded up; X36: initiative bonuses don't count."""
    game = passes_game()
    c = game.new_combat(0)
    assert [pass_actions(c, f) for f in c.fighters] == [3, 2, 1]
    c2 = passes_game(passes_count_initiative_bonus=True).new_combat(0)
    assert pass_actions(c2, c2.fighters[1]) == 3


def test_i10_i12_activation_passes() -> None:
    """I10: 1W10 initiative; I12: pass k lets every fighter with ≥ k actions act once, in
    initiative order, which is kept for all passes."""
    c = scripted(passes_game(), [3, 9, 6] + [5] * 20)  # Kira 3, Jax 9, Wache 6
    turns = play_round(c)
    assert turns == [("Jax", 1), ("Wache", 1), ("Kira", 1), ("Jax", 2), ("Kira", 2), ("Kira", 3)]


def test_i13_ties_higher_reflexe_then_runner() -> None:
    c = scripted(passes_game(), [5, 5, 5] + [5] * 20)
    turns = play_round(c)
    assert [n for n, s in turns if s == 1] == ["Kira", "Jax", "Wache"]


def test_passes_reactions_from_one_w10() -> None:
    """X01 in the passes variant: Initiative is 1W10, so 0, 1 or 2 reactions."""
    c = scripted(passes_game(), [3, 9, 6] + [5] * 20)
    assert [f.reactions for f in c.fighters] == [0, 2, 1]
