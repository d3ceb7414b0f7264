"""Danger zones (D03), the declared Actionbonus (P03, X14, X41) and surprise (X45)."""

from __future__ import annotations

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.game import Game
from cwenv.engine.parts import labelled
from cwenv.model.types import Side
from cwenv.rules.options import ActionBonusMode, Surprise
from tests.helpers import KNIFE, events_of, fighter, find, init_dice, lines, make_game, scripted


def fire_game() -> Game:
    return make_game(
        [
            (fighter("Kira", reflexe=12, ruestung=0), (0, 1)),
            (fighter("Wache", Side.GEGNER), (9, 2)),
        ],
        rows=["..........", ".**.......", ".........."],
    )


def test_d03_fire_zone_burns_until_left_without_a_check() -> None:
    """D03/Z08: entering burning ground starts Zehrend (Feuer); at the end of the round it
    deals 1W10 (fire: brechend) and no check can end it while Kira stands in it; leaving
    the zone ends it without a check."""
    game = fire_game()
    c = scripted(game, init_dice(game) + [6] + [5] * 40)
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(1, 1)))
    assert c.fighters[0].zehrend == ("Feuer",)
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    assert c.fighters[0].lp == 30 - 6, lines(c)
    assert not [e for e in events_of(c, ev.CheckRolled) if "Zehrend" in e.purpose]
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(0, 1)))
    while c.round == 2:
        c.apply(find(c, ActionKind.END_TURN))
    assert c.fighters[0].zehrend == () and c.fighters[0].lp == 24
    assert any(e.cause == "Gefahrenbereich verlassen" for e in events_of(c, ev.ConditionLost))


def test_p03_x14_declared_actionbonus_once_per_round() -> None:
    game = make_game(
        [
            (fighter("Kira", reflexe=12, kampfkunst=12, weapons=(KNIFE,)), (1, 1)),
            (fighter("Wache", Side.GEGNER, lp=60), (2, 1)),
        ],
        actionbonus=ActionBonusMode.DECLARED_ONCE_PER_ROUND,
    )
    c = scripted(game, init_dice(game) + [6, 7] + [5] * 60)
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.decision is not None and c.decision.kind is DecisionKind.PRE_CHECK
    c.apply(find(c, ActionKind.PRE_ACTIONBONUS))
    check = events_of(c, ev.CheckRolled)[-1]
    assert ("Actionbonus", 2) in labelled(check.parts) and check.probenwert == 14 and check.success
    # Not again this round; the NSC gets none (X41 default).
    while c.decision is not None and c.round == 1:
        assert not any(a.kind is ActionKind.PRE_ACTIONBONUS for a in c.legal_actions())
        c.apply(c.legal_actions()[-1])


def test_x45_surprise_reflexe_check_costs_the_first_round() -> None:
    game = make_game(
        [
            (fighter("Kira", reflexe=12), (0, 0)),
            (fighter("Wache", Side.GEGNER, reflexe=14), (9, 4)),
        ],
        surprise=Surprise.REFLEXE_CHECK,
    )
    game = Game(
        game.battlemap, game.roster, game.positions, game.options, ambushed=frozenset({Side.GEGNER})
    )
    c = scripted(game, init_dice(game) + [9, 9] + [5] * 60)  # the Wache fails Reflexe
    assert c.fighters[1].reactions == 0
    while c.round == 1:
        c.apply(find(c, ActionKind.END_TURN))
    turns = [e.fighter for e in events_of(c, ev.TurnStarted)]
    first_round_end = next(i for i, e in enumerate(c.events) if isinstance(e, ev.RoundEnded))
    first = [e.fighter for e in c.events[:first_round_end] if isinstance(e, ev.TurnStarted)]
    assert 1 not in first and 1 in turns
