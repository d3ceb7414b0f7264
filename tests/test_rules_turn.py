"""The turn and its Handlungen (H00, H03–H10, H12 stabilise, P08, D09, X15, X35, X40, X41, X46)."""

from __future__ import annotations

from typing import Any

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.specs import (
    AbilityKind,
    CyberAbility,
    CyberwareSpec,
    HackSpec,
    ItemKind,
    ItemSpec,
    RangeBand,
    WeaponSpec,
)
from cwenv.model.types import Condition, Side, WeaponKind
from cwenv.rules.options import RucksackFailure
from tests.helpers import (
    KNIFE,
    PISTOL,
    events_of,
    fighter,
    find,
    init_dice,
    lines,
    make_game,
    scripted,
)


def solo(
    dice: list[int],
    rows: list[str] | None = None,
    *,
    enemy_at: tuple[int, int] = (9, 4),
    **kira: Any,
) -> Combat:
    """Kira (Reflexe 12, first) at (1,1); a Wache far away."""
    opts = {k: kira.pop(k) for k in list(kira) if k in ("options",)}
    game = make_game(
        [(fighter("Kira", reflexe=12, **kira), (1, 1)), (fighter("Wache", Side.GEGNER), enemy_at)],
        rows=rows,
        **opts,
    )
    return scripted(game, init_dice(game) + dice + [5] * 60)


def next_turn_of(c: Combat, idx: int) -> None:
    """End the current turn, then pass every other decision until ``idx``'s next turn."""
    c.apply(find(c, ActionKind.END_TURN))
    while c.decision is not None and not (
        c.decision.kind is DecisionKind.TURN and c.current_fighter() == idx
    ):
        c.apply(c.legal_actions()[-1])


def moves(c: Combat) -> set[int]:
    return {a.cell for a in c.legal_actions() if a.kind is ActionKind.MOVE}


def far(c: Combat) -> int:
    f = c.fighters[c.current_fighter()]
    return max(c.bm.distance(f.pos, x) for x in moves(c))


def test_h00_move_before_and_after_the_handlung_within_bewegung() -> None:
    """H00/B01: movement up to Bewegung per Handlung, split freely before and after it."""
    c = solo([], weapons=(PISTOL,))
    assert far(c) == 6
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(3, 1)))
    assert far(c) == 4
    c.apply(find(c, ActionKind.ZIELEN, target=1))
    assert far(c) == 4, "the remaining metres stay after the Handlung"
    assert not any(a.kind is ActionKind.ZIELEN for a in c.legal_actions())


def test_h08_x15_sprinten_moves_bewegung_again_and_is_the_handlung() -> None:
    c = solo([], weapons=(PISTOL,), bewegung=4)
    c.apply(find(c, ActionKind.SPRINT))
    assert far(c) == 8  # free move 4 + sprint 4, nothing used yet
    kinds = {a.kind for a in c.legal_actions()}
    assert ActionKind.ATTACK not in kinds and ActionKind.ZIELEN not in kinds


def test_x40_moving_with_a_forfeited_handlung() -> None:
    """X40: the movement belongs to the Handlung whether or not it is used."""
    c = solo([])
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(7, 1)))
    assert c.fighters[0].pos == c.bm.index(7, 1)


def test_x40_alternative_moving_commits_to_the_handlung() -> None:
    from cwenv.rules.options import RuleOptions

    c = solo([], options=RuleOptions(move_with_forfeited_handlung=False))
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(2, 1)))
    assert not any(a.kind is ActionKind.END_TURN for a in c.legal_actions())
    c.apply(find(c, ActionKind.SPRINT))
    assert any(a.kind is ActionKind.END_TURN for a in c.legal_actions())


def test_h04_doors_open_sight_and_weapons_are_drawn() -> None:
    """H04: opening a door is an Interagieren; a closed door blocks sight (full cover)."""
    rows = ["....#.....", "....+.....", "....#....."]
    c = solo([], rows=rows, enemy_at=(8, 1), weapons=(KNIFE, PISTOL))
    assert not any(a.kind is ActionKind.ATTACK and a.target == 1 for a in c.legal_actions())
    c.apply(find(c, ActionKind.MOVE, cell=c.bm.index(3, 1)))
    c.apply(find(c, ActionKind.DOOR, cell=c.bm.index(4, 1)))
    assert c.opaque[c.bm.index(4, 1)] == 0
    # Kira's next turn: draw the pistol (an Interagieren), the shot must wait.
    next_turn_of(c, 0)
    c.apply(find(c, ActionKind.DRAW, arg=1))
    assert c.fighters[0].drawn == 1
    assert not any(a.kind is ActionKind.ATTACK for a in c.legal_actions())


def test_h05_reload_with_nachladen_two() -> None:
    """H05: an empty magazine cannot fire; Nachladen 2 takes two Handlungen."""
    gun = WeaponSpec(
        "Flinte", WeaponKind.RANGED, ranges=(RangeBand(20, 0),), magazine=2, nachladen=2
    )
    c = solo([], weapons=(gun,), enemy_at=(5, 1))
    c.fighters[0].ammo[0] = 0
    c.refresh_legal()
    assert not any(a.kind is ActionKind.ATTACK and a.arg == 0 for a in c.legal_actions())
    c.apply(find(c, ActionKind.RELOAD, arg=0))
    assert c.fighters[0].ammo[0] == 0 and c.fighters[0].reload_progress[0] == 1
    next_turn_of(c, 0)
    c.apply(find(c, ActionKind.RELOAD, arg=0))
    assert c.fighters[0].ammo[0] == 2


def test_h03_upload_before_a_big_hack() -> None:
    """H03: a hack with upload 2 needs two Uploaden Handlungen first; running it resets."""
    big = HackSpec("Systemabsturz", range_m=20, upload=2)
    c = solo([], hacks=(big,), hacking=14, enemy_at=(5, 1))
    assert not any(a.kind is ActionKind.HACK for a in c.legal_actions())
    for _ in range(2):
        c.apply(find(c, ActionKind.UPLOAD, arg=0))
        next_turn_of(c, 0)
    c.apply(find(c, ActionKind.HACK, target=1, arg=0))
    assert c.fighters[0].upload_progress[0] == 0


def test_h06_x46_rucksack_needs_operations() -> None:
    stim = ItemSpec("Stim", ItemKind.STIM, condition=Condition.ANGESCHLAGEN)
    c = solo([3, 3], backpack=(stim,))
    c.apply(find(c, ActionKind.RUCKSACK, arg=0))
    assert c.fighters[0].items == [stim] and c.fighters[0].backpack == []
    assert labelled(events_of(c, ev.CheckRolled)[-1].parts)[0] == ("Operations", 10)
    failed = solo([9, 8], backpack=(stim,))
    failed.apply(find(failed, ActionKind.RUCKSACK, arg=0))
    assert failed.fighters[0].backpack == [stim], "X46: a failure only wastes the action"
    lost = solo(
        [9, 8],
        backpack=(stim,),
        options=failed.options.__class__(rucksack_failure=RucksackFailure.ITEM_LOST),
    )
    lost.apply(find(lost, ActionKind.RUCKSACK, arg=0))
    assert lost.fighters[0].backpack == []


def test_h04_medikament_and_h09_cyberware() -> None:
    kit = ItemSpec("Medipack", ItemKind.HEAL, amount=1)
    plating = CyberwareSpec("Reaktivpanzer", ability=CyberAbility(AbilityKind.ARMOUR, 2, uses=1))
    c = solo([6], items=(kit,), cyberware=(plating,))
    assert not any(a.kind is ActionKind.USE_ITEM for a in c.legal_actions()), "full LP"
    c.fighters[0].lp = 20
    c.refresh_legal()
    c.apply(find(c, ActionKind.USE_ITEM, arg=0))
    assert c.fighters[0].lp == 26 and c.fighters[0].items == []
    next_turn_of(c, 0)
    c.apply(find(c, ActionKind.CYBERWARE, arg=0))
    assert c.fighters[0].armour_bonus == 2 and c.fighters[0].cyber_uses == [0]


def test_d09_stabilise_an_adjacent_dying_ally() -> None:
    """D09, X35: an action and a Technik check; success ends Sterbend (still unconscious)."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, technik=12), (1, 1)),
            (fighter("Jax", lp=20), (2, 1)),
            (fighter("Wache", Side.GEGNER), (9, 4)),
        ]
    )
    c = scripted(game, init_dice(game) + [4, 4] + [5] * 40)
    jax = c.fighters[1]
    jax.lp = -3
    jax.down = True
    jax.conditions |= 1 << Condition.STERBEND
    c.refresh_legal()
    c.apply(find(c, ActionKind.STABILISE, target=1))
    assert not jax.has(Condition.STERBEND) and jax.stabilised and jax.down


def test_p08_x41_helfen_gives_the_best_qs_as_bonus() -> None:
    game = make_game(
        [
            (fighter("Kira", reflexe=12, fernkampf=12, weapons=(PISTOL,)), (1, 1)),
            (fighter("Jax", reflexe=11, fernkampf=14, weapons=(PISTOL,)), (2, 1)),
            (fighter("Wache", Side.GEGNER), (7, 1)),
        ]
    )
    c = scripted(game, init_dice(game) + [3, 5] + [5] * 40)
    c.apply(find(c, ActionKind.HELFEN, target=1))  # announced: Kira rolls with Jax's shot
    assert c.fighters[1].helpers == (0,)
    next_turn_of(c, 1)  # Kira: Fernkampf 12, roll 8 → QS 2
    c.apply(find(c, ActionKind.ATTACK, target=2, arg=0))
    if c.decision is not None and c.decision.kind is DecisionKind.NIEDERWERFEN:
        c.apply(find(c, ActionKind.STAY_UP))
    assert ("Hilfe", 2) in labelled(events_of(c, ev.CheckRolled)[-1].parts), lines(c)[-4:]


def test_x41_nscs_do_not_help_by_default() -> None:
    game = make_game(
        [
            (fighter("Kira", reflexe=8), (0, 0)),
            (fighter("Wache", Side.GEGNER, reflexe=12), (5, 1)),
            (fighter("Wache 2", Side.GEGNER), (6, 1)),
        ]
    )
    c = scripted(game, [9] * 10 + [5] * 40)
    assert c.fighters[c.current_fighter()].side is Side.GEGNER
    assert not any(a.kind is ActionKind.HELFEN for a in c.legal_actions())
