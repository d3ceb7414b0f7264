"""Attack and defence with scripted dice: A01–A08, R01–R03 with M05, and H11 Zielen.

Dice order (steps system): every fighter's initiative dice in roster order, then per check
two W10, per QS one damage die, two W10 for the Volltreffer/Patzer table. ``INIT`` gives the
striker (roster 0, Reflexe 10) 10+5+5 = 20 (acts at 20 and 10, 5 reactions) and the target
(roster 1) 10+1+1 = 12 (acts at 12 and 2, 3 reactions).
"""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.specs import HackSpec, WeaponSpec
from cwenv.model.types import ArmourMode, CheckValue, Condition, Side, WeaponKind
from cwenv.rules.options import CritExtraDie, DifferenceQS, MeleeDefence, VolltrefferQS
from cwenv.rules.tables import CritRow, FumbleRow, patzer_row, volltreffer_effect
from tests.helpers import KNIFE, PISTOL, fighter, find, make_game, scripted

INIT = [5, 5, 1, 1]
TAIL = [5] * 40
ASW = int(CheckValue.AUSWEICHEN)
ZAP = HackSpec("Synapsenbrand", range_m=20)


def of(c: Combat, kind: type[Any]) -> list[Any]:
    return [e for e in c.events if isinstance(e, kind)]


def checks(c: Combat, who: int) -> list[ev.CheckRolled]:
    return [e for e in of(c, ev.CheckRolled) if e.fighter == who]


def end_turn(c: Combat) -> None:
    c.apply(find(c, ActionKind.END_TURN))


def attack(c: Combat, target: int = 1, weapon: int = 0) -> None:
    """Declare an attack; a ranged one first lets the target stay up (R06 prompt)."""
    c.apply(find(c, ActionKind.ATTACK, target=target, arg=weapon))
    if c.decision is not None and c.decision.kind is DecisionKind.NIEDERWERFEN:
        c.apply(find(c, ActionKind.STAY_UP))


def duel(
    dice: list[int],
    *,
    weapon: WeaponSpec = KNIFE,
    kk: int = 14,
    a: dict[str, Any] | None = None,
    t: dict[str, Any] | None = None,
    **opts: Any,
) -> Combat:
    """Kira (Kampfkunst ``kk``, roster 0) at (1, 1) next to the Wache (80 LP) at (2, 1)."""
    return scripted(
        make_game(
            [
                (fighter("Kira", kampfkunst=kk, weapons=(weapon,), **(a or {})), (1, 1)),
                (fighter("Wache", Side.GEGNER, **{"lp": 80, **(t or {})}), (2, 1)),
            ],
            **opts,
        ),
        dice,
    )


def undefended(dice: list[int], **kw: Any) -> Combat:
    c = duel(dice, **kw)
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    return c


# -- A01 ------------------------------------------------------------------------------------
def test_a01_attack_value_is_skill_minus_behinderung_plus_situation() -> None:
    """A01: Angriffswert = Fernkampf 14 − Behinderung 2 − 2 (range band) = 10."""
    game = make_game(
        [
            (fighter("Kira", fernkampf=14, behinderung=2, weapons=(PISTOL,)), (0, 2)),
            (fighter("Wache", Side.GEGNER), (15, 2)),
        ],
        rows=["." * 20] * 5,
    )
    c = scripted(game, [*INIT, 2, 3, 4])
    attack(c)
    roll = checks(c, 0)[0]
    assert dict(labelled(roll.parts)) == {"Fernkampf": 14, "Behinderung": -2, "Entfernung": -2}
    assert roll.probenwert == 10 and roll.success and roll.qs == 1


def test_a01_failed_attack_ends_without_defence() -> None:
    """A01: a failed attack roll ends the attack at once: no defence, no reaction spent."""
    c = duel([*INIT, 7, 8, *TAIL])  # 15 > 14
    attack(c)
    assert of(c, ev.AttackFailed)[-1].reason == "verfehlt"
    assert c.decision.kind is DecisionKind.TURN and not of(c, ev.Hit)
    assert c.fighters[1].reactions == 3 and c.fighters[1].lp == 80


# -- R01, A02, M05 --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "initiative", "reactions"),
    [
        ((1, 1), 12, 3),
        ((1, 2), 13, 3),
        ((2, 2), 14, 3),
        ((3, 3), 16, 4),
        ((10, 9), 29, 7),
    ],
)
def test_r01_reactions_are_rolled_initiative_div_4(
    dice: tuple[int, int], initiative: int, reactions: int
) -> None:
    """R01, X01: reactions per round = rolled Initiative ÷ 4, rounded down."""
    c = duel([5, 5, *dice, *TAIL])
    rolled = of(c, ev.InitiativeRolled)[1]
    assert (rolled.initiative, rolled.reactions) == (initiative, reactions)
    assert c.fighters[1].reactions == reactions


def test_a02_defence_costs_one_reaction_even_before_own_turn_and_r01_resets() -> None:
    """A02/R01: the target defends (before its own first turn) for one reaction; the
    reactions are granted afresh next round."""
    c = duel([*INIT, 3, 4, 8, 9, 5, 5, 1, 1, 3, 3, *TAIL])
    attack(c)
    assert c.decision.kind is DecisionKind.DEFEND and c.decision.fighter == 1
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))  # 17 > ASW 10: fails
    used = [(u.fighter, u.kind.label, u.left, u.extra) for u in of(c, ev.ReactionUsed)]
    assert used == [(1, "Verteidigung", 2, False)] and c.fighters[1].reactions == 2
    for _ in range(4):  # Kira 20, Wache 12, Kira 10, Wache 2
        end_turn(c)
    assert c.round == 2 and c.fighters[1].reactions == (10 + 3 + 3) // 4


def test_a02_no_reactions_means_no_defence_prompt() -> None:
    """A02/R01: Initiative 2 + 1 = 3 → 0 reactions → the hit is undefended, no prompt."""
    c = duel([5, 5, 1, 3, 4, 5, 5, *TAIL], t={"reflexe": 2})
    attack(c)
    assert c.decision.kind is DecisionKind.TURN
    assert of(c, ev.Hit)[-1].qs == 2 and c.fighters[1].lp == 80 - 12


def test_m05_extra_reaction_paid_with_mumm() -> None:
    """M05/A02: without reactions a Runner with Mumm may still defend, paying 1 Mumm."""
    game = make_game(
        [
            (fighter("Schläger", Side.GEGNER, kampfkunst=14, weapons=(KNIFE,)), (1, 1)),
            (fighter("Kira", reflexe=2, ausweichen=12, mumm=1, mumm_max=1, lp=40), (2, 1)),
        ]
    )
    c = scripted(game, [5, 5, 1, 3, 4, 8, 9, *TAIL])
    attack(c)
    choices = c.legal_actions()
    assert c.decision.kind is DecisionKind.DEFEND
    assert choices[0].mumm == 1 and choices[-1].kind is ActionKind.NO_DEFENCE
    c.apply(choices[0])
    assert (c.fighters[1].mumm, c.fighters[1].reactions) == (0, 0)
    assert of(c, ev.ReactionUsed)[-1].extra
    assert labelled(checks(c, 1)[0].parts) == (("Ausweichen", 12),)


# -- A03 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("means", "x21", "expected"),
    [
        ("melee", False, [CheckValue.AUSWEICHEN]),
        ("ranged", False, [CheckValue.AUSWEICHEN]),
        ("melee", True, [CheckValue.AUSWEICHEN, CheckValue.KAMPFKUNST]),
        ("ranged", True, [CheckValue.AUSWEICHEN]),
        ("hack", False, [CheckValue.FIREWALL]),
    ],
)
def test_a03_defence_value_by_kind_of_attack(
    means: str, x21: bool, expected: list[CheckValue]
) -> None:
    """A03/R02/R03, X21: weapons → Ausweichen (melee also Kampfkunst under X21), hacks →
    Firewall."""
    option = MeleeDefence.AUSWEICHEN_OR_KAMPFKUNST if x21 else MeleeDefence.AUSWEICHEN
    c = duel(
        [*INIT, 3, 4, *TAIL],
        weapon=PISTOL if means == "ranged" else KNIFE,
        a={"fernkampf": 14, "hacking": 14, "hacks": (ZAP,)},
        melee_defence=option,
    )
    if means == "hack":
        c.apply(find(c, ActionKind.HACK, target=1, arg=0))
        c.apply(find(c, ActionKind.STAY_UP))
    else:
        attack(c)
    offered = [CheckValue(a.arg) for a in c.legal_actions() if a.kind is ActionKind.DEFEND]
    assert offered == expected


@pytest.mark.parametrize(("ausweichen", "value"), [(None, 10), (13, 13)])
def test_r02_ausweichen_is_reflexe_unless_given(ausweichen: int | None, value: int) -> None:
    """R02, X21: ASW is Reflexe unless the stat block gives its own value."""
    c = duel([*INIT, 3, 4, 1, 2, *TAIL], t={"ausweichen": ausweichen})
    attack(c)
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))
    assert labelled(checks(c, 1)[0].parts) == (("Ausweichen", value),)


# -- A04, A05 -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("atk", "dfc", "x07", "qs", "weakened"),
    [
        ((4, 5), (3, 4), "band", 1, True),  # 9 − 7 = 2 → QS 1
        ((5, 7), (1, 3), "band", 2, True),  # 12 − 4 = 8 → QS 2
        ((6, 7), (1, 2), "band", 2, True),  # 13 − 3 = 10 → QS 2
        ((5, 7), (1, 3), "raw", 8, True),  # X07: the raw difference
        ((6, 7), (1, 2), "raw", 10, True),
        ((3, 4), (2, 5), "band", None, False),  # 7 = 7 → the defender
        ((2, 3), (4, 5), "band", None, False),  # 9 beats 5
        ((5, 6), (7, 8), "band", 3, False),  # A05: the defence fails (15 > 14): QS of 11
    ],
)
def test_a04_a05_defended_attacks(
    atk: tuple[int, int], dfc: tuple[int, int], x07: str, qs: int | None, weakened: bool
) -> None:
    """A04, X07: both succeed → higher roll wins, tie to the defender; the attacker's
    weakened hit has the QS of the difference (band, or raw under X07). A05: a failed
    defence lets the hit through with the QS of the attack roll."""
    c = duel(
        [*INIT, *atk, *dfc, *TAIL],
        t={"ausweichen": 14, "lp": 100},
        defended_hit_qs=DifferenceQS(x07),
    )
    attack(c)
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))
    if qs is None:
        assert of(c, ev.AttackDefended) and not of(c, ev.Hit) and c.fighters[1].lp == 100
    else:
        hit = of(c, ev.Hit)[-1]
        assert (hit.qs, hit.weakened) == (qs, weakened)
        assert len(of(c, ev.DamageRolled)[-1].rolls) == qs


@pytest.mark.parametrize(
    ("atk", "qs"),
    [
        ((1, 2), 1),
        ((2, 3), 1),
        ((2, 4), 2),
        ((4, 6), 2),
        ((5, 6), 3),
        ((7, 8), 3),
        ((7, 9), 4),
        ((8, 10), 4),
    ],
)
def test_a05_undefended_hit_takes_qs_from_the_attack_roll(atk: tuple[int, int], qs: int) -> None:
    """A05/P05: undefended → QS from the roll: 1–5 → 1, 6–10 → 2, 11–15 → 3, 16–18 → 4."""
    c = undefended([*INIT, *atk, *TAIL], kk=18)
    hit = of(c, ev.Hit)[-1]
    assert (hit.qs, hit.weakened) == (qs, False)
    assert c.fighters[1].lp == 80 - 6 * qs  # every die 5 + 1


# -- A06 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "floor", "armour", "total"),
    [
        (ArmourMode.NORMAL, True, 5, 0 + 5),  # 1+1−5 → 0, 9+1−5 = 5
        (ArmourMode.NORMAL, False, 5, -3 + 5),  # X08: no floor per roll
        (ArmourMode.BRECHEND, True, 2, 0 + 8),  # D01: armour 5 → 2 (rounded down)
        (ArmourMode.DIREKT, True, 0, 2 + 10),  # D02
    ],
)
def test_a06_damage_per_qs_with_armour_per_roll(
    mode: ArmourMode, floor: bool, armour: int, total: int
) -> None:
    """A06, X08: one damage die + bonus per QS (here QS 2), armour off each roll."""
    blade = WeaponSpec("Klinge", WeaponKind.MELEE, bonus=1, armour_mode=mode)
    c = undefended(
        [*INIT, 3, 4, 1, 9, *TAIL],
        weapon=blade,
        t={"ruestung": 5, "lp": 40},
        armour_floor_zero=floor,
    )
    dmg = of(c, ev.DamageRolled)[-1]
    assert (dmg.rolls, dmg.armour, dmg.total) == ((1, 9), armour, total)
    assert c.fighters[1].lp == 40 - total


# -- A07 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("table", "row", "dice", "per_die", "condition", "zehrend"),
    [
        ((1, 2), CritRow.ZERSCHMETTERTER_LEIB, 5, 5, None, ()),  # 0: +2 dice, direct
        ((2, 2), CritRow.VERHEERENDER_TREFFER, 5, 3, None, ()),  # 1
        ((1, 4), CritRow.VERHEERENDER_TREFFER, 5, 3, None, ()),  # 2
        ((3, 3), CritRow.TIEFE_WUNDE, 4, 3, None, ("Blutung",)),  # 3
        ((3, 4), CritRow.TIEFE_WUNDE, 4, 3, None, ("Blutung",)),  # 4
        ((4, 4), CritRow.KOPFTREFFER, 4, 3, Condition.VERWIRRT, ()),  # 5
        ((4, 5), CritRow.KOPFTREFFER, 4, 3, Condition.VERWIRRT, ()),  # 6
        ((5, 5), CritRow.BEINTREFFER, 4, 3, Condition.EINGESCHRAENKT, ()),  # 7
        ((6, 6), CritRow.BEINTREFFER, 4, 3, Condition.EINGESCHRAENKT, ()),  # 9
        ((6, 7), CritRow.GEFAEHRLICHER_TREFFER, 4, 3, None, ()),  # 10
        ((8, 9), CritRow.GEFAEHRLICHER_TREFFER, 4, 3, None, ()),  # 14
        ((9, 9), CritRow.GEWOEHNLICHER_TREFFER, 3, 3, None, ()),  # 15
        ((10, 10), CritRow.GEWOEHNLICHER_TREFFER, 3, 3, None, ()),  # 17
    ],
)
def test_a07_volltreffer_table_rows(
    table: tuple[int, int],
    row: CritRow,
    dice: int,
    per_die: int,
    condition: Condition | None,
    zehrend: tuple[str, ...],
) -> None:
    """A07: Pasch 3+3 under Probenwert 14 → Volltreffer QS 3; table 2W10 − 3 picks the row.
    Damage dice 4 each: W10+1 − armour 2 = 3, or 5 when the damage is direct."""
    c = undefended([*INIT, 3, 3, *table, *[4] * dice, *TAIL], t={"ruestung": 2})
    rolled = of(c, ev.TableRolled)[-1]
    assert (rolled.table, rolled.minus, rolled.row) == (ev.TableKind.VOLLTREFFER, 3, row.value)
    dmg = of(c, ev.DamageRolled)[-1]
    assert dmg.rolls == (4,) * dice and dmg.total == dice * per_die
    t = c.fighters[1]
    assert t.lp == 80 - dice * per_die and t.zehrend == zehrend
    got = {k for k in (Condition.VERWIRRT, Condition.EINGESCHRAENKT) if t.has(k)}
    assert got == ({condition} if condition else set())


@pytest.mark.parametrize(
    ("opts", "qs", "prompt"),
    [
        ({}, 3, True),
        ({"volltreffer_qs": VolltrefferQS.ROLL_BAND}, 2, True),
        ({"volltreffer_qs": VolltrefferQS.MAX_ORDINARY}, 4, True),
        ({"volltreffer_defendable": False}, 3, False),
    ],
)
def test_x06_x09_volltreffer_qs_and_defence(opts: dict[str, Any], qs: int, prompt: bool) -> None:
    """P06/A07, X06: Pasch 3+3 against 14 → QS 3 (band of 14), 2 (band of 6) or 4; the
    table subtracts that QS. X09: without volltreffer_defendable there is no defence."""
    c = duel([*INIT, 3, 3, 10, 10, *TAIL], **opts)
    attack(c)
    assert (c.decision.kind is DecisionKind.DEFEND) is prompt
    if prompt:
        c.apply(find(c, ActionKind.NO_DEFENCE))
    assert of(c, ev.Hit)[-1].qs == qs and of(c, ev.TableRolled)[-1].minus == qs
    assert c.fighters[1].reactions == 3


@pytest.mark.parametrize(
    ("opts", "table", "armour", "total"),
    [
        ({"crit_extra_die": CritExtraDie.FULL_ROLL}, (6, 7), 0, 4 * 5),
        ({"crit_extra_die": CritExtraDie.BARE_DIE}, (6, 7), 0, 3 * 5 + 4),  # extra die bare
        ({"zerschmettert_all_direct": True}, (1, 2), 2, 5 * 5),  # all five dice direct
        ({"zerschmettert_all_direct": False}, (1, 2), 2, 3 * 3 + 2 * 5),  # only the extra two
    ],
)
def test_x33_volltreffer_extra_dice_readings(
    opts: dict[str, Any], table: tuple[int, int], armour: int, total: int
) -> None:
    """A07, X33: Gefährlicher Treffer (+1 die) and Zerschmetterter Leib (+2 dice, direct)
    with QS 3, every die 4 on W10+1: full or bare extra die; all or only extra dice direct."""
    c = undefended([*INIT, 3, 3, *table, *[4] * 5, *TAIL], t={"ruestung": armour}, **opts)
    assert of(c, ev.DamageRolled)[-1].total == total


@pytest.mark.parametrize("option", [False, True])
def test_x09_defence_patzer(option: bool) -> None:
    """X09: a defence Patzer (6+6 against ASW 10) lets the hit through; it throws the
    defender down only under defence_patzer_niedergeworfen."""
    c = duel([*INIT, 3, 4, 6, 6, *TAIL], defence_patzer_niedergeworfen=option)
    attack(c)
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))
    assert of(c, ev.Hit)[-1].qs == 2
    assert c.fighters[1].has(Condition.NIEDERGEWORFEN) is option


# -- A08 ------------------------------------------------------------------------------------
ROLLS = (-3, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 14, 15, 20)


def test_a07_a08_table_boundaries() -> None:
    """A07/A08: every row boundary of both tables, ≤0 included (2W10 − QS)."""
    crit = [volltreffer_effect(r) for r in ROLLS]
    assert [e.row for e in crit[::2]] == list(CritRow) == [e.row for e in crit[1::2]]
    assert [(e.extra_dice, e.direct) for e in crit[::2]] == [
        (2, True),
        (2, False),
        (1, False),
        (1, False),
        (1, False),
        (1, False),
        (0, False),
    ]
    fumble = [patzer_row(r) for r in ROLLS]
    assert fumble[::2] == list(FumbleRow) == fumble[1::2]


@pytest.mark.parametrize(
    ("table", "row", "lp_loss", "condition", "jammed"),
    [
        ((1, 1), FumbleRow.UEBERDEHNT, 7, None, False),  # 2: 1W10 direct (armour 3 ignored)
        ((1, 2), FumbleRow.OFFENE_DECKUNG, 0, Condition.VERWIRRT, False),  # 3
        ((1, 3), FumbleRow.OFFENE_DECKUNG, 0, Condition.VERWIRRT, False),  # 4
        ((2, 3), FumbleRow.FEHLTRITT, 0, Condition.EINGESCHRAENKT, False),  # 5
        ((2, 4), FumbleRow.FEHLTRITT, 0, Condition.EINGESCHRAENKT, False),  # 6
        ((3, 4), FumbleRow.WAFFE_BLOCKIERT, 0, None, True),  # 7
        ((4, 5), FumbleRow.WAFFE_BLOCKIERT, 0, None, True),  # 9
        ((5, 5), FumbleRow.ENTMUTIGT, 0, Condition.ENTMUTIGT, False),  # 10
        ((7, 7), FumbleRow.ENTMUTIGT, 0, Condition.ENTMUTIGT, False),  # 14
        ((7, 8), FumbleRow.UNSAUBERER_ANGRIFF, 0, None, False),  # 15
        ((10, 10), FumbleRow.UNSAUBERER_ANGRIFF, 0, None, False),  # 20
    ],
)
def test_a08_patzer_table_rows_hit_the_attacker(
    table: tuple[int, int],
    row: FumbleRow,
    lp_loss: int,
    condition: Condition | None,
    jammed: bool,
) -> None:
    """A08, X09: Pasch 6+6 fails against 10 → Patzer; 2W10 − 0 (no defence was rolled)
    picks the row; its effect falls on the attacker, the target is untouched."""
    c = duel([*INIT, 6, 6, *table, 7, *TAIL], kk=10, a={"ruestung": 3}, t={"lp": 30})
    attack(c)
    while c.decision.kind is not DecisionKind.TURN:  # Fehltritt may offer a Blockadeangriff
        c.apply(c.legal_actions()[-1])
    rolled = of(c, ev.TableRolled)[-1]
    assert (rolled.table, rolled.minus, rolled.row) == (ev.TableKind.PATZER, 0, row.value)
    a, t = c.fighters
    assert a.lp == 30 - lp_loss and t.lp == 30 and t.reactions == 3
    kinds = (
        Condition.VERWIRRT,
        Condition.EINGESCHRAENKT,
        Condition.ENTMUTIGT,
        Condition.ANGESCHLAGEN,
    )
    assert {k for k in kinds if a.has(k)} == ({condition} if condition else set())
    assert bool(a.jammed & 1) is jammed and a.weapon_usable(0) is not jammed
    bm = c.game.battlemap
    if row is FumbleRow.FEHLTRITT:  # 2 m on, past the opponent
        assert bm.distance(a.pos, bm.index(1, 1)) == 2 and bm.xs[a.pos] > bm.xs[t.pos]
    else:
        assert a.pos == bm.index(1, 1)


@pytest.mark.parametrize(("weapon", "skill"), [(KNIFE, "Unbeugsamkeit"), (PISTOL, "Technik")])
def test_a08_waffe_blockiert_freed_by_action_and_check(weapon: WeaponSpec, skill: str) -> None:
    """A08: a jammed weapon cannot attack; an action and an Unbeugsamkeit (melee) or Technik
    (ranged) check free it."""
    c = duel([*INIT, 6, 6, 3, 4, 2, 3, *TAIL], kk=10, weapon=weapon)
    attack(c)
    end_turn(c)  # Kira 20
    end_turn(c)  # Wache 12
    kinds = {(a.kind, a.arg) for a in c.legal_actions()}
    assert (ActionKind.FREE_WEAPON, 0) in kinds and (ActionKind.ATTACK, 0) not in kinds
    c.apply(find(c, ActionKind.FREE_WEAPON, arg=0))
    assert labelled(checks(c, 0)[-1].parts)[0][0] == skill
    assert c.fighters[0].jammed == 0 and c.fighters[0].weapon_usable(0)


# -- H11 Zielen -----------------------------------------------------------------------------
def shooter(dice: list[int], **opts: Any) -> Combat:
    return duel(dice, weapon=PISTOL, a={"fernkampf": 14}, t={"ausweichen": 14}, **opts)


def aim_then_wait(c: Combat) -> None:
    c.apply(find(c, ActionKind.ZIELEN, target=1))
    end_turn(c)  # Kira 20
    end_turn(c)  # Wache 12


def test_h11_zielen_gives_plus_2_and_plus_1_qs() -> None:
    """H11: after Zielen the next shot gets +2 on the attack and +1 QS on the hit."""
    c = shooter([*INIT, 3, 4, *TAIL])
    aim_then_wait(c)
    assert not any(a.kind is ActionKind.ZIELEN for a in c.legal_actions())  # X03: one aim
    attack(c)
    roll = checks(c, 0)[-1]
    assert dict(labelled(roll.parts)) == {"Fernkampf": 14, "Zielen": 2} and roll.probenwert == 16
    c.apply(find(c, ActionKind.NO_DEFENCE))
    hit = of(c, ev.Hit)[-1]
    assert (hit.qs, hit.aim_bonus) == (3, 1) and len(of(c, ev.DamageRolled)[-1].rolls) == 3


@pytest.mark.parametrize(("option", "qs"), [(True, 2), (False, 1)])
def test_h11_zielen_qs_on_weakened_hit(option: bool, qs: int) -> None:
    """H11, X03: a weakened hit (9 vs 7 → QS 1) keeps Zielen's +1 QS unless X03 says no."""
    c = shooter([*INIT, 4, 5, 3, 4, *TAIL], zielen_qs_on_weakened_hit=option)
    aim_then_wait(c)
    attack(c)
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))
    assert of(c, ev.Hit)[-1].qs == qs


@pytest.mark.parametrize(("lost_on_move", "aimed"), [(True, False), (False, True)])
def test_h11_zielen_lost_on_moving(lost_on_move: bool, aimed: bool) -> None:
    """H11, X03: moving after Zielen loses the aim by default."""
    c = shooter([*INIT, 3, 4, *TAIL], zielen_lost_on_move=lost_on_move)
    c.apply(find(c, ActionKind.ZIELEN, target=1))
    c.apply(find(c, ActionKind.MOVE, cell=c.game.battlemap.index(0, 1)))
    end_turn(c)
    end_turn(c)
    attack(c)
    assert ("Zielen" in dict(labelled(checks(c, 0)[-1].parts))) is aimed


def test_h11_zielen_spent_by_the_next_ranged_attack() -> None:
    """H11, X03: the aim is used up by the next shot; the one after has no bonus."""
    c = shooter([*INIT, 3, 4, 10, 10, 10, *INIT, 3, 4, *TAIL])
    aim_then_wait(c)
    attack(c)
    c.apply(find(c, ActionKind.NO_DEFENCE))
    assert (c.fighters[0].aim_stacks, c.fighters[0].aim_target) == (0, -1)
    end_turn(c)  # Kira 10
    end_turn(c)  # Wache 2
    assert c.round == 2
    attack(c)
    assert dict(labelled(checks(c, 0)[-1].parts)) == {"Fernkampf": 14}


def test_h11_zielen_needs_a_drawn_ranged_weapon() -> None:
    """H11: Zielen is aiming a ranged weapon; a melee fighter cannot take it."""
    c = duel([*INIT, *TAIL])
    assert not any(a.kind is ActionKind.ZIELEN for a in c.legal_actions())
