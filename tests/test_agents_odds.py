"""The agents' exact odds agree with the engine's and with brute force."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from agents.board import Board
from agents.estimates import damage_stats, weapon_estimate
from agents.exact import defended_loss, odds
from cwenv.agent import DecisionView
from cwenv.content import load_scenario
from cwenv.rules.odds import attack_odds
from cwenv.rules.options import DEFAULT_OPTIONS, MeleeDefence
from cwenv.rules.probe import contest, resolve_probe

ALT = replace(DEFAULT_OPTIONS, volltreffer_defendable=False, volltreffer_wins_contest=True)


@pytest.mark.parametrize(
    ("options", "attack", "defence"),
    [
        (DEFAULT_OPTIONS, 12, None),
        (DEFAULT_OPTIONS, 14, 11),
        (DEFAULT_OPTIONS, 9, 15),
        (DEFAULT_OPTIONS, 22, 18),
        (ALT, 13, 13),
        (ALT, 7, None),
    ],
)
def test_counted_odds_equal_attack_odds(options: object, attack: int, defence: int | None) -> None:
    mine = odds(options, attack, defence)  # type: ignore[arg-type]
    ref = attack_odds(attack, defence, options)  # type: ignore[arg-type]
    assert mine.hit == pytest.approx(float(ref.hit), abs=1e-12)
    assert mine.volltreffer == pytest.approx(float(ref.volltreffer), abs=1e-12)
    assert mine.patzer == pytest.approx(float(ref.patzer), abs=1e-12)
    for k in set(mine.qs) | set(ref.qs):
        assert mine.qs.get(k, 0.0) == pytest.approx(float(ref.qs.get(k, 0)), abs=1e-12)


def test_damage_distribution_by_brute_force() -> None:
    for dice, bonus, armour in [(1, 2, 2), (2, 3, 4), (3, -2, 1)]:
        totals = [
            sum(max(r + bonus - armour, 0) for r in rolls)
            for rolls in itertools.product(range(1, 11), repeat=dice)
        ]
        mean = sum(totals) / len(totals)
        ko = sum(1 for t in totals if t >= 12) / len(totals)
        got = damage_stats(dice, bonus, armour, True, 0, 0, False, 12)
        assert got == pytest.approx((mean, ko))
    # resistant halves (rounded down), vulnerable ×1.5
    assert damage_stats(1, 0, 0, True, 0, 2, False, 99)[0] == pytest.approx(
        sum(r // 2 for r in range(1, 11)) / 10
    )
    assert damage_stats(1, 0, 0, True, 0, 1, False, 99)[0] == 0.0


def test_defended_loss_by_brute_force() -> None:
    o = DEFAULT_OPTIONS
    attack = resolve_probe(14, 4, 7, o)  # 11: success, QS 3
    losses = [0.0, 5.0, 11.0, 17.0] + [20.0] * 9
    expected = 0.0
    for d1 in range(1, 11):
        for d2 in range(1, 11):
            d = resolve_probe(12, d1, d2, o)
            if not d.success:
                expected += losses[attack.qs]
            else:
                c = contest(attack, d, o)
                expected += losses[c.qs] if c.winner == 0 else 0.0
    assert defended_loss(o, attack, 12, losses) == pytest.approx(expected / 100)


def test_estimates_follow_the_rules() -> None:
    """Against a defender an attack is worth less; parrying (X21) lowers it further."""
    game = load_scenario("duell")
    c = game.new_combat(0)
    view = DecisionView(c)
    while c.decision is not None and c.decision.fighter != 0:
        c.apply(c.legal_actions()[-1])
    board = Board(view)
    me, foe = c.fighters[0], c.fighters[1]
    defended = weapon_estimate(board, me, foe, me.drawn, src=foe.pos, defended=True)
    open_ = weapon_estimate(board, me, foe, me.drawn, src=foe.pos, defended=False)
    assert defended is not None and open_ is not None
    assert 0 < defended.damage < open_.damage
    both = MeleeDefence.AUSWEICHEN_OR_KAMPFKUNST
    parry = replace(game, options=replace(game.options, melee_defence=both))
    c2 = parry.new_combat(0)
    while c2.decision is not None and c2.decision.fighter != 0:
        c2.apply(c2.legal_actions()[-1])
    board2 = Board(DecisionView(c2))
    p = weapon_estimate(board2, c2.fighters[0], c2.fighters[1], 0, src=c2.fighters[1].pos)
    assert p is not None and p.damage <= defended.damage + 1e-9
