"""Illegal actions say why (issue #14 item 6): ``Combat.why_illegal`` and the error message.

Kira (Runner, Reflexe 20) acts first on an open 10 × 5 map; the Wache (Gegner) stands 3 m
east of her unless a test moves it. Every reason is derived from the legality function, so
each test builds the situation and asks about one action the rules exclude.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cwenv.content import load_scenario
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.state import Combat, CombatOverError, IllegalActionError
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import CheckValue, Condition, Maneuver, Side, Size, WeaponKind
from tests.helpers import KNIFE, PISTOL, decline_prompts, fighter, init_dice, make_game, scripted

K = ActionKind
SPEAR = WeaponSpec("Speer", WeaponKind.MELEE, bonus=1, reach=2)
OPEN = ["." * 10] * 5


def setup(
    *,
    kira: dict[str, Any] | None = None,
    wache: dict[str, Any] | None = None,
    at: tuple[int, int] = (4, 2),
    rows: list[str] | None = None,
    dice: list[int] | None = None,
    **opts: Any,
) -> Combat:
    kira = {"weapons": (KNIFE, PISTOL), "reflexe": 20, **(kira or {})}
    game = make_game(
        [
            (fighter("Kira", **kira), (1, 2)),
            (fighter("Wache", Side.GEGNER, **(wache or {})), at),
        ],
        rows=rows or OPEN,
        **opts,
    )
    if dice is not None:
        return scripted(game, init_dice(game, 1) + dice)
    return game.new_combat(seed=1)


def _routes(c: Combat) -> tuple[object, object] | None:
    """The movement searches of the turn running now (its TURN decision's choices)."""
    turn = c.turn_frame()
    return None if turn is None else (turn.routes, turn.hard_routes)


def refused(c: Combat, action: Action) -> str:
    """The reason, which must also be the message of the error ``apply`` raises."""
    reason = c.why_illegal(action)
    assert reason, f"{action} should be illegal"
    with pytest.raises(IllegalActionError) as info:
        c.apply(action)
    assert str(info.value).startswith("illegal action")
    assert str(info.value).endswith(reason)
    return reason


def test_every_legal_action_has_no_reason() -> None:
    c = setup()
    assert c.legal_actions()
    assert all(c.why_illegal(a) is None for a in c.legal_actions())


def test_out_of_range_names_the_distance_and_the_reach() -> None:
    reason = refused(setup(), Action(K.ATTACK, 0, 1, arg=0))  # the knife, 3 m away
    assert reason == "Angriff on Wache: out of range: 3 m away, Messer reaches 1 m"


def test_no_line_of_sight() -> None:
    rows = ["..........", "..........", "..#.......", "..........", ".........."]
    c = setup(kira={"weapons": (SPEAR,)}, at=(3, 2), rows=rows)  # a wall between, reach 2
    assert refused(c, Action(K.ATTACK, 0, 1, arg=0)).endswith("no line of sight")


def test_full_cover() -> None:
    rows = ["..........", "..........", "....#.....", "..........", ".........."]
    c = setup(kira={"weapons": (PISTOL,)}, at=(5, 2), rows=rows)
    assert refused(c, Action(K.ATTACK, 0, 1, arg=0)).endswith("full cover (C01)")
    assert refused(c, Action(K.ZIELEN, 0, 1)).endswith("full cover (C01)")


def test_a_weapon_not_drawn() -> None:
    reason = refused(setup(at=(2, 2)), Action(K.ATTACK, 0, 1, arg=1))  # the pistol
    assert reason.endswith("the weapon is not drawn (H04)")


def test_not_enough_metres() -> None:
    c = setup()
    far = c.bm.index(9, 4)
    assert refused(c, Action(K.MOVE, 0, cell=far)) == (
        "not enough metres: (9, 4) is 8 m away, 6 m are left"
    )


def test_a_cell_that_is_walled_off() -> None:
    rows = ["........#.", "........#.", "........#.", "........#.", "........#."]
    c = setup(rows=rows)
    reason = refused(c, Action(K.MOVE, 0, cell=c.bm.index(9, 0)))
    assert reason.startswith("(9, 0) cannot be reached")


def test_not_a_known_cell() -> None:
    reason = refused(setup(), Action(K.MOVE, 0, cell=999))
    assert reason == "cell 999 is not a known cell of the 10×5 map"


def test_a_field_the_kind_does_not_use() -> None:
    assert refused(setup(), Action(K.END_TURN, 0, target=1)) == (
        "a END_TURN takes no target: it must be -1"
    )


def test_not_this_fighters_decision() -> None:
    assert refused(setup(), Action(K.END_TURN, 1)) == (
        "it is not Wache's decision: Kira decides now (TURN)"
    )


def test_wrong_decision_kind() -> None:
    reason = refused(setup(), Action(K.DEFEND, 0, 1, arg=int(CheckValue.AUSWEICHEN)))
    assert reason == "a DEFEND answers a DEFEND decision, but the pending decision is TURN (Zug)"


def test_the_handlung_is_used_and_m07_is_not_affordable() -> None:
    c = setup(kira={"mumm": 1, "mumm_max": 3})
    assert refused(c, Action(K.MUMM_EXTRA_ACTION, 0)) == (
        "the Handlung is not used yet: M07 adds one after it"
    )
    c.apply(Action(K.SPRINT, 0))
    assert refused(c, Action(K.SHAKE, 0, arg=0)) == "the turn's Handlung is used (H00)"
    assert refused(c, Action(K.MUMM_EXTRA_ACTION, 0)) == (
        "Zusätzliche Aktion (ZUSAETZLICHE_AKTION) is not affordable: not enough Mumm: "
        "it costs 2, Kira has 1"
    )


def test_entmutigt_cannot_spend_mumm() -> None:
    c = setup(kira={"mumm": 3, "mumm_max": 3}, mumm_verbrennen=False)
    c.apply(Action(K.SPRINT, 0))
    c.fighters[0].conditions |= 1 << Condition.ENTMUTIGT  # Z04, M11
    c.refresh_legal()
    assert refused(c, Action(K.MUMM_EXTRA_ACTION, 0)).endswith(
        "entmutigt: no Mumm may be spent (M11)"
    )


def test_a_manoeuvre_on_a_larger_target() -> None:
    c = setup(at=(2, 2), wache={"size": Size.RIESIG})
    assert refused(c, Action(K.MANEUVER, 0, 1, arg=int(Maneuver.UMREISSEN))) == (
        "Kampfmanöver on Wache: Umreissen (K04): the target is larger than the attacker"
    )


def test_restricted_play_names_the_tactic() -> None:
    c = setup()
    c.forbid(Side.RUNNER, ["SPRINTEN"])
    assert refused(c, Action(K.SPRINT, 0)) == (
        "restricted play forbids Runner SPRINTEN (Sprinten (H08))"
    )


def _defence_prompt(wache: dict[str, Any]) -> Combat:
    """Kira stabs the adjacent Wache (2+1: a success); the Wache is asked to defend."""
    c = setup(at=(2, 2), wache=wache, dice=[2, 1] + [5] * 40, nsc_mumm=True)
    c.apply(Action(K.ATTACK, 0, 1, arg=0))
    while c.decision is not None and c.decision.kind is not DecisionKind.DEFEND:
        c.apply(decline_prompts(c) or c.legal_actions()[-1])
    assert c.decision is not None and c.decision.fighter == 1
    return c


def test_no_reactions_left() -> None:
    c = _defence_prompt({"mumm": 2, "mumm_max": 2, "reflexe": 1})
    c.fighters[1].reactions = 0
    c.refresh_legal()
    defend = Action(K.DEFEND, 1, 0, arg=int(CheckValue.AUSWEICHEN))
    assert refused(c, defend) == (
        "cannot pay the reaction with one of the round's reactions: "
        "no reactions left this round (R01)"
    )


def test_mumm_pays_only_for_an_extra_reaction() -> None:
    c = _defence_prompt({"mumm": 2, "mumm_max": 2})
    assert c.fighters[1].reactions > 0
    defend = Action(K.DEFEND, 1, 0, arg=int(CheckValue.AUSWEICHEN), mumm=1)
    assert refused(c, defend) == (
        "cannot pay the reaction with Mumm (M05): a reaction is left: Mumm (M05) pays only "
        "for one more"
    )


def test_a_defence_value_the_attack_is_not_met_with() -> None:
    c = _defence_prompt({})
    defend = Action(K.DEFEND, 1, 0, arg=int(CheckValue.FIREWALL))
    assert refused(c, defend) == (
        "this attack is not defended with that value; it is met with Ausweichen (A03)"
    )


def test_the_combat_is_over() -> None:
    c = setup(at=(2, 2))
    c.fighters[1].dead = True
    c.fighters[1].down = True
    c.mark_dirty()
    c.apply(Action(K.END_TURN, 0))
    assert c.is_terminal()
    assert c.why_illegal(Action(K.END_TURN, 0)) == "the combat is over"
    with pytest.raises(CombatOverError):
        c.apply(Action(K.END_TURN, 0))


def _perturbed(rng: random.Random, a: Action, c: Combat) -> Action:
    field = rng.choice(["kind", "actor", "target", "cell", "index", "mumm"])
    if field == "kind":
        return a._replace(kind=rng.choice(list(ActionKind)))
    if field == "actor":
        return a._replace(actor=rng.randrange(-1, len(c.fighters) + 1))
    if field == "target":
        return a._replace(target=rng.randrange(-1, len(c.fighters) + 1))
    if field == "cell":
        return a._replace(cell=rng.randrange(-1, c.bm.size + 2))
    if field == "index":
        return a._replace(arg=rng.randrange(-1, 8))
    return a._replace(mumm=1 - a.mumm)


@pytest.mark.parametrize("scenario", ["feuergefecht", "hinterhalt"])
def test_every_illegal_action_gets_a_reason_and_asking_changes_nothing(scenario: str) -> None:
    """Random games: a legal action has no reason; a perturbed one that is illegal has one,
    which the error repeats; asking leaves the state and the legal actions as they were."""
    rng = random.Random(7)
    c = load_scenario(scenario).new_combat(seed=3)
    for _ in range(120):
        if c.is_terminal():
            break
        legal = list(c.legal_actions())
        for a in legal[:3]:
            assert c.why_illegal(a) is None
        for _ in range(4):
            b = _perturbed(rng, rng.choice(legal), c)
            events, routes = len(c.events), _routes(c)
            reason = c.why_illegal(b)
            assert (len(c.events), _routes(c), c.legal_actions()) == (events, routes, legal)
            if c.is_legal(b):
                assert reason is None
                continue
            assert isinstance(reason, str) and reason
            with pytest.raises(IllegalActionError, match="illegal action") as info:
                c.apply(b)
            assert str(info.value).endswith(reason)
        c.apply(rng.choice(legal))
