"""Kampfmanöver K01–K05 and the Blockadeangriff R04 (with A08 Fehltritt and X43).

Kira (Runner, Kampfkunst 14, roster 0) acts first: ``INIT`` rolls 20 for her (5 reactions)
and 12 for the Wache (roster 1, 3 reactions). Dice: two W10 per check, one per QS.
"""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.specs import FighterSpec
from cwenv.model.types import AttackMode, CheckValue, Condition, Maneuver, Side, Size
from cwenv.rules.options import BlockadeGeometry, ForcedMovementBlockade
from tests.helpers import KNIFE, fighter, find, make_game, scripted

INIT = [5, 5, 1, 1]
TAIL = [5] * 40
KK = int(CheckValue.KAMPFKUNST)
CORRIDOR = ["#" * 10, "." * 10, "." * 10, "#" * 10]  # rows 1 and 2 are open


def of(c: Combat, kind: type[Any]) -> list[Any]:
    return [e for e in c.events if isinstance(e, kind)]


def parts(c: Combat, who: int) -> dict[str, int]:
    return dict(labelled([e for e in of(c, ev.CheckRolled) if e.fighter == who][-1].parts))


def xy(c: Combat, who: int) -> tuple[int, int]:
    bm = c.game.battlemap
    pos = c.fighters[who].pos
    return bm.xs[pos], bm.ys[pos]


def cell(c: Combat, x: int, y: int) -> int:
    return c.game.battlemap.index(x, y)


def setup(
    dice: list[int],
    *,
    kira: tuple[int, int] = (2, 2),
    wache: tuple[int, int] = (3, 2),
    k: dict[str, Any] | None = None,
    w: dict[str, Any] | None = None,
    extra: tuple[tuple[FighterSpec, tuple[int, int]], ...] = (),
    rows: list[str] | None = None,
    **opts: Any,
) -> Combat:
    return scripted(
        make_game(
            [
                (fighter("Kira", **{"kampfkunst": 14, **(k or {})}), kira),
                (fighter("Wache", Side.GEGNER, **{"weapons": (KNIFE,), **(w or {})}), wache),
                *extra,
            ],
            rows=rows,
            **opts,
        ),
        dice,
    )


def maneuver(c: Combat, m: Maneuver, target: int = 1, defend: bool = False) -> None:
    c.apply(find(c, ActionKind.MANEUVER, target=target, arg=int(m)))
    if c.decision.kind is DecisionKind.DEFEND:
        c.apply(find(c, ActionKind.DEFEND, arg=KK) if defend else c.legal_actions()[-1])


def offered(c: Combat, m: Maneuver, target: int = 1) -> bool:
    return any(
        a.kind is ActionKind.MANEUVER and a.target == target and a.arg == m
        for a in c.legal_actions()
    )


# -- all manoeuvres -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("m", "modifier"),
    [
        (Maneuver.ENTWAFFNEN, -2),
        (Maneuver.FESTSETZEN, 0),
        (Maneuver.MITZERREN, -2),
        (Maneuver.UMREISSEN, 0),
        (Maneuver.WEGSTOSSEN, 0),
    ],
)
def test_k_rolled_and_defended_with_kampfkunst(m: Maneuver, modifier: int) -> None:
    """K01–K05, A03, X22: Kampfkunst (−2 for Entwaffnen and Mitzerren); the target
    defends with Kampfkunst only, for one reaction; a won defence stops the effect."""
    c = setup([*INIT, 3, 4, 4, 5, *TAIL])
    c.apply(find(c, ActionKind.MANEUVER, target=1, arg=int(m)))
    expected = {"Kampfkunst": 14, m.label: modifier} if modifier else {"Kampfkunst": 14}
    assert parts(c, 0) == expected
    assert [a.arg for a in c.legal_actions() if a.kind is ActionKind.DEFEND] == [KK]
    c.apply(find(c, ActionKind.DEFEND, arg=KK))  # 9 beats 7
    assert parts(c, 1) == {"Kampfkunst": 10} and c.fighters[1].reactions == 2
    w = c.fighters[1]
    assert of(c, ev.AttackDefended) and w.conditions == 0 and not w.disarmed
    assert xy(c, 1) == (3, 2) and c.decision.kind is DecisionKind.TURN


@pytest.mark.parametrize(
    ("m", "condition", "pushed_to"),
    [
        (Maneuver.FESTSETZEN, Condition.BENOMMEN, (3, 2)),  # K02
        (Maneuver.UMREISSEN, Condition.NIEDERGEWORFEN, (3, 2)),  # K04
        (Maneuver.WEGSTOSSEN, None, (5, 2)),  # K05: 2 m back
    ],
)
def test_k_effects_without_damage(
    m: Maneuver, condition: Condition | None, pushed_to: tuple[int, int]
) -> None:
    """K02/K04/K05, X22: the effect is only what the manoeuvre lists — no damage."""
    c = setup([*INIT, 3, 4, *TAIL])
    maneuver(c, m)
    w = c.fighters[1]
    assert w.conditions == (1 << condition if condition is not None else 0)
    assert xy(c, 1) == pushed_to and w.lp == 30 and not of(c, ev.DamageRolled)


def test_k02_festgesetzt_is_benommen_and_cannot_defend() -> None:
    """K02/Z02/A02: in the grip the Wache is benommen: her turn is the Mumm-Probe (failed,
    17), and she cannot defend Kira's next blow (X24: reactions blocked)."""
    c = setup([*INIT, 3, 4, 9, 8, 3, 4, *TAIL])
    maneuver(c, Maneuver.FESTSETZEN)
    c.apply(find(c, ActionKind.END_TURN))  # Kira 20; the Wache's turn 12 is forced
    assert [e.purpose for e in of(c, ev.CheckRolled)][-1] == "Mumm-Probe (benommen)"
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))  # Kira 10, fists
    assert c.decision.kind is DecisionKind.TURN and of(c, ev.Hit)[-1].target == 1


def test_x22_maneuver_damage_and_free_defence() -> None:
    """X22 alternatives: the defence costs no reaction; a manoeuvre hit deals unarmed
    damage (W10 − 2 per QS)."""
    c = setup([*INIT, 3, 4, 9, 8, 5, 5, *TAIL], maneuver_reaction_cost=0, maneuver_damage=True)
    maneuver(c, Maneuver.UMREISSEN, defend=True)  # the defence fails: 17 > 10
    assert c.fighters[1].reactions == 3 and c.fighters[1].has(Condition.NIEDERGEWORFEN)
    assert of(c, ev.DamageRolled)[-1].total == 3 + 3 and c.fighters[1].lp == 24


# -- K01 Entwaffnen -------------------------------------------------------------------------
def test_k01_disarmed_nsc_gets_minus_2_on_attack_and_damage() -> None:
    """K01: a disarmed NSC gets −2 on attack and on damage for the rest of the fight."""
    c = setup([*INIT, 3, 4, 2, 3, 5, *TAIL])
    maneuver(c, Maneuver.ENTWAFFNEN)
    assert c.fighters[1].disarmed and not offered(c, Maneuver.ENTWAFFNEN)
    c.apply(find(c, ActionKind.END_TURN))
    c.apply(find(c, ActionKind.ATTACK, target=0, arg=0))
    assert parts(c, 1) == {"Kampfkunst": 10, "entwaffnet": -2}
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert of(c, ev.DamageRolled)[-1].total == 5 + 1 - 2 and c.fighters[0].lp == 26


def test_k01_disarmed_runner_drops_the_weapon() -> None:
    """K01: a Runner's weapon is knocked from the hand: no attack with it until picked up."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, kampfkunst=14), (2, 2)),
            (fighter("Kira", weapons=(KNIFE,)), (3, 2)),
        ]
    )
    c = scripted(game, [*INIT, 3, 4, *TAIL])
    maneuver(c, Maneuver.ENTWAFFNEN)
    kira = c.fighters[1]
    assert kira.drawn == -1 and kira.dropped == 1 and not kira.disarmed
    c.apply(find(c, ActionKind.END_TURN))
    kinds = {(a.kind, a.arg) for a in c.legal_actions()}
    assert (ActionKind.ATTACK, 0) not in kinds and (ActionKind.PICK_UP, 0) in kinds


@pytest.mark.parametrize(
    ("w", "allowed"),
    [
        ({}, True),
        ({"size": Size.RIESIG}, True),
        ({"weapons": ()}, False),
        ({"humanoid": False}, False),
    ],
)
def test_k01_only_against_humanoids_using_weapons(w: dict[str, Any], allowed: bool) -> None:
    """K01: Entwaffnen works on humanoid foes that wield a weapon (any size)."""
    c = setup([*INIT, *TAIL], w=w)
    assert offered(c, Maneuver.ENTWAFFNEN) is allowed


# -- size limits ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("m", "size", "allowed"),
    [
        (Maneuver.FESTSETZEN, Size.GROSS, True),
        (Maneuver.FESTSETZEN, Size.RIESIG, False),
        (Maneuver.MITZERREN, Size.MITTEL, True),
        (Maneuver.MITZERREN, Size.GROSS, False),
        (Maneuver.UMREISSEN, Size.KLEIN, True),
        (Maneuver.UMREISSEN, Size.GROSS, False),
        (Maneuver.WEGSTOSSEN, Size.MITTEL, True),
        (Maneuver.WEGSTOSSEN, Size.GROSS, False),
    ],
)
def test_k_size_limits(m: Maneuver, size: Size, allowed: bool) -> None:
    """K02: Festsetzen up to one category larger; K03–K05: at most the attacker's size."""
    c = setup([*INIT, *TAIL], w={"size": size})
    assert offered(c, m) is allowed


# -- K03 Mitzerren --------------------------------------------------------------------------
def test_k03_mitzerren_drags_with_half_movement() -> None:
    """K03: after a hit Kira moves up to half her Bewegung (6 → 3 m); the grabbed Wache
    follows into the cells she leaves."""
    rows = ["#" * 10, "." * 10, "#" * 10]
    c = setup([*INIT, 3, 4, *TAIL], kira=(4, 1), wache=(5, 1), rows=rows)
    maneuver(c, Maneuver.MITZERREN)
    assert c.decision.kind is DecisionKind.DRAG and c.decision.fighter == 0
    choices = c.legal_actions()
    assert choices[-1].kind is ActionKind.DRAG_STOP
    bm = c.game.battlemap
    assert {(bm.xs[a.cell], bm.ys[a.cell]) for a in choices[:-1]} == {(1, 1), (2, 1), (3, 1)}
    c.apply(find(c, ActionKind.DRAG_TO, cell=cell(c, 1, 1)))
    assert (xy(c, 0), xy(c, 1)) == ((1, 1), (2, 1))
    assert of(c, ev.ForcedMove)[-1].cause == "Mitzerren"


# -- K05 Wegstossen -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kira", "wall", "end"),
    [
        ((2, 2), None, (5, 2)),  # straight back
        ((2, 1), None, (5, 4)),  # diagonally back
        ((2, 2), (5, 2), (4, 2)),  # stopped by a wall after 1 m
    ],
)
def test_k05_wegstossen_pushes_2m_straight_back(
    kira: tuple[int, int], wall: tuple[int, int] | None, end: tuple[int, int]
) -> None:
    """K05: the target is pushed 2 m straight away from the attacker."""
    rows = ["." * 10] * 5
    if wall:
        rows[wall[1]] = rows[wall[1]][: wall[0]] + "#" + rows[wall[1]][wall[0] + 1 :]
    c = setup([*INIT, 3, 4, *TAIL], kira=kira, rows=rows)
    maneuver(c, Maneuver.WEGSTOSSEN)
    assert xy(c, 1) == end and of(c, ev.ForcedMove)[-1].cause == "Wegstossen"


# -- R04 Blockadeangriff --------------------------------------------------------------------
def corridor(dice: list[int], kira: tuple[int, int], **opts: Any) -> Combat:
    """The Wache (knife) stands at (5, 2) in a corridor two cells wide."""
    return setup(dice, kira=kira, wache=(5, 2), rows=CORRIDOR, **opts)


def test_r04_moving_past_provokes_a_blockadeangriff() -> None:
    """R04: Kira runs past the Wache inside her reach; the Wache may attack with a
    reaction (knife or fist; letting her pass is last) and Kira then moves on."""
    c = corridor([*INIT, 3, 4, 5, 5, *TAIL], (2, 1))
    c.apply(find(c, ActionKind.MOVE, cell=cell(c, 8, 1)))
    d = c.decision
    assert (d.kind, d.fighter, d.payload.mover) == (DecisionKind.BLOCKADE, 1, 0)
    assert [(a.kind, a.arg) for a in c.legal_actions()] == [
        (ActionKind.BLOCKADE_ATTACK, 0),
        (ActionKind.BLOCKADE_ATTACK, 1),
        (ActionKind.LET_PASS, -1),
    ]
    assert xy(c, 0)[0] == 4  # stopped on the step into the Wache's reach past her
    c.apply(find(c, ActionKind.BLOCKADE_ATTACK, arg=0))
    assert of(c, ev.AttackDeclared)[-1].mode is AttackMode.BLOCKADE
    assert c.fighters[1].reactions == 2
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert c.fighters[0].lp == 30 - 12
    while c.decision.kind is DecisionKind.BLOCKADE:
        c.apply(find(c, ActionKind.LET_PASS))
    assert xy(c, 0) == (8, 1)


def test_r04_one_blockadeangriff_per_pass() -> None:
    """R04: 'Versucht ein Gegner sich … an dir vorbeizubewegen, so kannst du ihn mit einer
    Reaktion angreifen': one pass past the Wache gives her one Blockadeangriff, even if
    she still has reactions left for the next step inside her reach."""
    c = corridor([*INIT, 9, 8, *TAIL], (2, 1))  # the first attack misses (17)
    c.apply(find(c, ActionKind.MOVE, cell=cell(c, 8, 1)))
    c.apply(find(c, ActionKind.BLOCKADE_ATTACK, arg=0))
    assert c.decision.kind is DecisionKind.TURN and xy(c, 0) == (8, 1)
    assert len([e for e in of(c, ev.AttackDeclared) if e.mode is AttackMode.BLOCKADE]) == 1


@pytest.mark.parametrize(
    ("kira", "dest", "geometry", "provoked"),
    [
        ((4, 1), (1, 1), BlockadeGeometry.STAY_IN_REACH, False),  # moving away
        ((4, 1), (1, 1), BlockadeGeometry.ENTER_REACH, False),
        ((2, 1), (4, 1), BlockadeGeometry.STAY_IN_REACH, False),  # stepping into reach, stopping
        ((2, 1), (4, 1), BlockadeGeometry.ENTER_REACH, True),  # X43 alternative
        ((2, 1), (8, 1), BlockadeGeometry.ENTER_REACH, True),
    ],
)
def test_r04_x43_geometry(
    kira: tuple[int, int], dest: tuple[int, int], geometry: BlockadeGeometry, provoked: bool
) -> None:
    """R04, X43: moving away never provokes; entering reach provokes only under
    enter_reach (the default needs a step that starts and ends inside reach)."""
    c = corridor([*INIT, *TAIL], kira, blockade_geometry=geometry)
    c.apply(find(c, ActionKind.MOVE, cell=cell(c, *dest)))
    assert (c.decision.kind is DecisionKind.BLOCKADE) is provoked
    if not provoked:
        assert xy(c, 0) == dest and c.fighters[1].reactions == 3


def test_r04_no_reaction_no_blockadeangriff() -> None:
    """R04/R01: the Wache with Initiative 3 has no reaction: Kira passes unhindered."""
    c = corridor([5, 5, 1, *TAIL], (2, 1), w={"reflexe": 2})
    c.apply(find(c, ActionKind.MOVE, cell=cell(c, 8, 1)))
    assert c.decision.kind is DecisionKind.TURN and xy(c, 0) == (8, 1)


@pytest.mark.parametrize(
    ("option", "provoked"),
    [
        (ForcedMovementBlockade.FEHLTRITT_ONLY, True),
        (ForcedMovementBlockade.NEVER, False),
    ],
)
def test_a08_fehltritt_can_provoke_a_blockadeangriff(
    option: ForcedMovementBlockade, provoked: bool
) -> None:
    """A08 Fehltritt (2+4 = 6): Kira slides 2 m past the Wache 'kann Blockadeangriff
    auslösen' (X43: unless forced movement never provokes)."""
    c = corridor(
        [*INIT, 6, 6, 2, 4, *TAIL],
        (4, 2),
        k={"kampfkunst": 10, "weapons": (KNIFE,)},
        forced_movement_blockade=option,
    )
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.fighters[0].has(Condition.EINGESCHRAENKT)
    assert (c.decision.kind is DecisionKind.BLOCKADE) is provoked
    while c.decision.kind is DecisionKind.BLOCKADE:
        assert c.decision.fighter == 1 and c.decision.payload.mover == 0
        c.apply(find(c, ActionKind.LET_PASS))
    assert xy(c, 0) == (6, 1)  # round the Wache at (5, 2) and on


@pytest.mark.parametrize(
    ("option", "provoked"),
    [
        (ForcedMovementBlockade.FEHLTRITT_ONLY, False),
        (ForcedMovementBlockade.ALL_FORCED, True),
    ],
)
def test_x43_wegstossen_provokes_only_under_all_forced(
    option: ForcedMovementBlockade, provoked: bool
) -> None:
    """X43: a Wache pushed past Kira's comrade draws his Blockadeangriff only under
    all_forced."""
    comrade = fighter("Kamerad")
    c = setup(
        [*INIT, 1, 1, 3, 4, *TAIL],
        kira=(3, 2),
        wache=(4, 2),
        extra=((comrade, (5, 1)),),
        forced_movement_blockade=option,
    )
    maneuver(c, Maneuver.WEGSTOSSEN)
    assert (c.decision.kind is DecisionKind.BLOCKADE) is provoked
    if provoked:
        assert c.decision.fighter == 2 and c.decision.payload.mover == 1


def test_x43_mitzerren_provokes_under_all_forced() -> None:
    """X43 all_forced: the Wache dragged past Kira's comrade (Mitzerren is forced movement
    for her) draws his Blockadeangriff."""
    comrade = fighter("Kamerad")
    c = setup(
        [*INIT, 1, 1, 3, 4, *TAIL],
        kira=(4, 1),
        wache=(5, 1),
        rows=CORRIDOR,
        extra=((comrade, (2, 2)),),
        forced_movement_blockade=ForcedMovementBlockade.ALL_FORCED,
    )
    maneuver(c, Maneuver.MITZERREN)
    c.apply(find(c, ActionKind.DRAG_TO, cell=cell(c, 1, 1)))
    assert c.decision.kind is DecisionKind.BLOCKADE and c.decision.fighter == 2
