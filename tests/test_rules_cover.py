"""Cover with scripted dice: C01–C05 (terrain, direction, area, living cover, misses through
living cover) and R06 Niederwerfen als Reaktion.

Kira (Runner, Fernkampf 14, pistol +2) shoots from (0, 2) at the Wache at (5, 2). Terrain
cover sits at (4, 2) unless said otherwise; a third fighter, when there is one, stands in
the line of fire at (3, 2). ``INIT`` rolls 20 for Kira (5 reactions) and 12 for everyone
else (3 reactions).
"""

from __future__ import annotations

from typing import Any

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.engine.state import Combat
from cwenv.model.specs import FighterSpec, HackSpec, RangeBand, WeaponSpec
from cwenv.model.types import CheckValue, Condition, CoverLevel, Side, Size, WeaponKind
from cwenv.rules.options import AreaCover, LivingCoverStacking, ProneBonusUntil
from tests.helpers import KNIFE, PISTOL, fighter, find, make_game, scripted

INIT = [5, 5, 1, 1]
INIT3 = [*INIT, 1, 1]
TAIL = [5] * 40
ASW = int(CheckValue.AUSWEICHEN)
SPEAR = WeaponSpec("Speer", WeaponKind.MELEE, bonus=2, reach=2)
GRENADE = WeaponSpec(
    "Granate",
    WeaponKind.RANGED,
    bonus=1,
    ranges=(RangeBand(12, 0),),
    magazine=2,
    nachladen=1,
    area_radius=1,
)
ZAP = HackSpec("Synapsenbrand", range_m=20)
STORM = HackSpec("Datensturm", range_m=20, area_radius=1)


def of(c: Combat, kind: type[Any]) -> list[Any]:
    return [e for e in c.events if isinstance(e, kind)]


def parts(c: Combat, who: int = 0) -> dict[str, int]:
    return dict(labelled([e for e in of(c, ev.CheckRolled) if e.fighter == who][-1].parts))


def rows(ch: str = ".", x: int = 4, y: int = 2) -> list[str]:
    out = ["." * 10] * 5
    out[y] = out[y][:x] + ch + out[y][x + 1 :]
    return out


def fight(
    dice: list[int],
    *,
    cover: str = ".",
    cover_at: int = 4,
    extra: tuple[tuple[FighterSpec, tuple[int, int]], ...] = (),
    kira: dict[str, Any] | None = None,
    t: dict[str, Any] | None = None,
    at: tuple[int, int] = (0, 2),
    **opts: Any,
) -> Combat:
    spec = {"fernkampf": 14, "hacking": 14, "weapons": (PISTOL,), **(kira or {})}
    return scripted(
        make_game(
            [
                (fighter("Kira", **spec), at),
                (fighter("Wache", Side.GEGNER, **{"lp": 80, **(t or {})}), (5, 2)),
                *extra,
            ],
            rows=rows(cover, cover_at),
            **opts,
        ),
        dice,
    )


def shoot(
    c: Combat, *, prone: bool = False, kind: ActionKind = ActionKind.ATTACK, index: int = 0
) -> None:
    c.apply(find(c, kind, target=1, arg=index))
    if c.decision.kind is DecisionKind.NIEDERWERFEN:
        c.apply(find(c, ActionKind.DROP_PRONE if prone else ActionKind.STAY_UP))


def can_attack(c: Combat, target: int = 1) -> bool:
    kinds = (ActionKind.ATTACK, ActionKind.HACK)
    return any(a.kind in kinds and a.target == target for a in c.legal_actions())


# -- C01, C02, C03 --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cover", "label", "penalty"),
    [
        ("=", "halbe Deckung", -2),
        ("%", "Dreiviertel-Deckung", -4),
    ],
)
@pytest.mark.parametrize("means", [ActionKind.ATTACK, ActionKind.HACK])
def test_c01_c03_cover_penalty(cover: str, label: str, penalty: int, means: ActionKind) -> None:
    """C01/C03: half cover −2, three-quarter −4 on shots and on targeted hacks."""
    c = fight([*INIT, 3, 4, *TAIL], cover=cover, kira={"hacks": (ZAP,)})
    shoot(c, kind=means)
    skill = "Fernkampf" if means is ActionKind.ATTACK else "Hacking"
    assert parts(c) == {skill: 14, label: penalty}


def test_c01_full_cover_allows_no_direct_attack() -> None:
    """C01/C03: behind a wall (full cover) the target cannot be shot or hacked at all."""
    c = fight([*INIT, *TAIL], cover="#", kira={"hacks": (ZAP,)})
    assert not can_attack(c)


@pytest.mark.parametrize(
    ("at", "cover_at", "penalty"),
    [
        ((0, 2), 4, -2),  # cover between shooter and target
        ((9, 2), 4, 0),  # same cover, shot from the other side
        ((0, 2), 6, 0),  # cover behind the target
    ],
)
def test_c02_cover_only_from_its_direction(
    at: tuple[int, int], cover_at: int, penalty: int
) -> None:
    """C02: cover protects only against attacks from its direction."""
    c = fight([*INIT, 3, 4, *TAIL], cover="=", cover_at=cover_at, at=at)
    shoot(c)
    assert parts(c).get("halbe Deckung", 0) == penalty


@pytest.mark.parametrize(("weapon", "penalty"), [(PISTOL, -2), (KNIFE, 0)])
def test_c02_cover_hampers_ranged_not_melee(weapon: WeaponSpec, penalty: int) -> None:
    """C02: the same crate at the corner covers against a shot, not against a stab."""
    c = fight(
        [*INIT, 3, 4, *TAIL], cover="=", at=(4, 1), kira={"kampfkunst": 14, "weapons": (weapon,)}
    )
    shoot(c)
    assert parts(c).get("halbe Deckung", 0) == penalty


@pytest.mark.parametrize(
    ("means", "area_cover", "penalty"),
    [
        ("hack", AreaCover.AREA_HACKS_ONLY, 0),
        ("hack", AreaCover.ALL_AREA_ATTACKS, 0),
        ("grenade", AreaCover.ALL_AREA_ATTACKS, 0),
        ("grenade", AreaCover.AREA_HACKS_ONLY, -2),
    ],
)
def test_c03_area_attacks_ignore_partial_cover(
    means: str, area_cover: AreaCover, penalty: int
) -> None:
    """C03, X26: area hacks ignore half cover; grenades too unless X26 limits it to hacks."""
    c = fight(
        [*INIT, 3, 4, *TAIL],
        cover="=",
        kira={"hacks": (STORM,), "weapons": (GRENADE,)},
        area_cover=area_cover,
    )
    shoot(c, kind=ActionKind.HACK if means == "hack" else ActionKind.ATTACK)
    assert parts(c).get("halbe Deckung", 0) == penalty


# -- C04 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("side", "size", "neutral", "label", "penalty"),
    [
        (Side.RUNNER, Size.MITTEL, CoverLevel.HALF, "halbe Deckung (lebend)", -2),  # comrade
        (Side.GEGNER, Size.MITTEL, CoverLevel.HALF, "Dreiviertel-Deckung (lebend)", -4),  # enemy
        (Side.RUNNER, Size.KLEIN, CoverLevel.HALF, None, 0),  # smaller than the target
        (Side.GEGNER, Size.KLEIN, CoverLevel.HALF, None, 0),
        (Side.RUNNER, Size.GROSS, CoverLevel.HALF, "Dreiviertel-Deckung (lebend)", -4),  # larger
        (Side.GEGNER, Size.GROSS, CoverLevel.HALF, "volle", None),  # larger enemy: full
        (Side.NEUTRAL, Size.MITTEL, CoverLevel.HALF, "halbe Deckung (lebend)", -2),  # X25
        (Side.NEUTRAL, Size.MITTEL, CoverLevel.THREE_QUARTER, "Dreiviertel-Deckung (lebend)", -4),
    ],
)
def test_c04_living_cover(
    side: Side, size: Size, neutral: CoverLevel, label: str | None, penalty: int | None
) -> None:
    """C04, X25: a comrade of the attacker gives half cover, an enemy of the attacker
    three-quarter; smaller creatures none; larger ones a category more (full: no attack)."""
    body = fighter("Dazwischen", side, size=size)
    c = fight([*INIT3, 3, 4, *TAIL], extra=((body, (3, 2)),), living_cover_neutral=neutral)
    if penalty is None:
        assert not can_attack(c)
        return
    shoot(c)
    assert parts(c) == ({"Fernkampf": 14, label: penalty} if label else {"Fernkampf": 14})


@pytest.mark.parametrize(
    ("stacking", "label", "penalty"),
    [
        (LivingCoverStacking.BETTER, "halbe Deckung", -2),
        (LivingCoverStacking.STRONGER_BY_ONE, "Dreiviertel-Deckung (lebend)", -4),
    ],
)
def test_x25_living_and_terrain_cover_stacking(
    stacking: LivingCoverStacking, label: str, penalty: int
) -> None:
    """C04, X25: a crate (half) plus a comrade in the line (half): the better one, or one
    category stronger under stronger_by_one."""
    comrade = fighter("Kamerad")
    c = fight(
        [*INIT3, 3, 4, *TAIL], cover="=", extra=((comrade, (2, 2)),), living_cover_stacking=stacking
    )
    shoot(c)
    assert parts(c) == {"Fernkampf": 14, label: penalty}


@pytest.mark.parametrize(("option", "penalty"), [(False, 0), (True, -2)])
def test_x25_living_cover_in_melee(option: bool, penalty: int) -> None:
    """C02, X25: a comrade between a spear (reach 2) and its target covers only under X25."""
    comrade = fighter("Kamerad")
    c = fight(
        [*INIT3, 3, 4, *TAIL],
        at=(3, 2),
        extra=((comrade, (4, 2)),),
        kira={"kampfkunst": 14, "weapons": (SPEAR,)},
        living_cover_melee=option,
    )
    shoot(c)
    assert parts(c).get("halbe Deckung (lebend)", 0) == penalty


# -- C05 ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("side", "roll", "d10", "hit_qs"),
    [
        (Side.RUNNER, (6, 7), 3, 3),  # 13 > 12 but ≤ 14; W10 3 → the comrade, QS 3
        (Side.RUNNER, (6, 7), 5, 3),  # 5 still hits the cover
        (Side.RUNNER, (6, 7), 6, None),  # 6: a plain miss
        (Side.RUNNER, (6, 8), 1, 3),  # 14 = Fernkampf: would have hit exactly
        (Side.RUNNER, (1, 10), 2, 3),  # 11 ≤ 12 hits the target itself: no C05
        (Side.GEGNER, (5, 7), 2, 3),  # enemy cover −4: 12 > 10 but ≤ 14
    ],
)
def test_c05_miss_through_living_cover(
    side: Side, roll: tuple[int, int], d10: int, hit_qs: int | None
) -> None:
    """C05: a miss that would have hit without the living-cover penalty hits the covering
    creature on a W10 of 1–5, with the QS of the roll without the penalty."""
    body = fighter("Dazwischen", side, lp=80)
    c = fight([*INIT3, *roll, d10, *TAIL], extra=((body, (3, 2)),))
    shoot(c)
    if sum(roll) <= of(c, ev.CheckRolled)[-1].probenwert:  # a plain hit on the target
        assert c.decision.fighter == 1 and not of(c, ev.AttackRedirected)
        return
    if hit_qs is None:
        assert of(c, ev.AttackFailed)[-1].reason == "verfehlt" and c.decision.fighter == 0
        assert c.dice.used == len(INIT3) + 3
        return
    assert of(c, ev.AttackRedirected)[-1] == ev.AttackRedirected(0, 1, 2, d10)
    assert c.decision.kind is DecisionKind.DEFEND and c.decision.fighter == 2
    c.apply(find(c, ActionKind.NO_DEFENCE))
    hit = of(c, ev.Hit)[-1]
    assert (hit.target, hit.qs) == (2, hit_qs)
    assert c.fighters[2].lp == 80 - 7 * hit_qs and c.fighters[1].lp == 80


def test_c05_the_covering_creature_may_defend() -> None:
    """C05: the new target defends normally: its 14 beats the attack's 13."""
    body = fighter("Kamerad", ausweichen=14)
    c = fight([*INIT3, 6, 7, 3, 6, 8, *TAIL], extra=((body, (3, 2)),))
    shoot(c)
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))
    assert of(c, ev.AttackDefended)[-1] == ev.AttackDefended(0, 2, 13, 14)
    assert c.fighters[2].reactions == 2 and not of(c, ev.Hit)


@pytest.mark.parametrize("case", ["beyond", "terrain", "defended"])
def test_c05_no_roll_outside_its_case(case: str) -> None:
    """C05, X25: no W10 for cover when the roll misses even without the penalty (15 > 14),
    when the cover is terrain, or when a successful attack is beaten by the defence."""
    roll = {"beyond": [7, 8], "terrain": [6, 7], "defended": [3, 4]}[case]
    terrain = case == "terrain"
    extra = () if terrain else ((fighter("Kamerad", lp=80), (3, 2)),)
    c = fight(
        [*(INIT if terrain else INIT3), *roll, 4, 5, *TAIL],
        cover="=" if terrain else ".",
        extra=extra,
        t={"ausweichen": 14},
    )
    shoot(c)
    if case == "defended":
        c.apply(find(c, ActionKind.DEFEND, arg=ASW))
        assert of(c, ev.AttackDefended)
    assert not of(c, ev.AttackRedirected) and not of(c, ev.Hit)
    assert c.dice.used == len(c.fighters) * 2 + 2 + (2 if case == "defended" else 0)


# -- R06 ------------------------------------------------------------------------------------
def test_r06_prompt_before_the_roll_and_prone_without_cover() -> None:
    """R06/Z05: targeted by a shot the Wache may drop prone for a reaction, before the
    attack roll; without cover the shot gets −2 and her defence −2 (niedergeworfen)."""
    c = fight([*INIT, 3, 4, 1, 2, *TAIL])
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.decision.kind is DecisionKind.NIEDERWERFEN and c.decision.fighter == 1
    assert [a.kind for a in c.legal_actions()] == [ActionKind.DROP_PRONE, ActionKind.STAY_UP]
    assert not of(c, ev.CheckRolled)
    c.apply(find(c, ActionKind.DROP_PRONE))
    w = c.fighters[1]
    assert w.has(Condition.NIEDERGEWORFEN) and w.reactions == 2
    assert parts(c) == {"Fernkampf": 14, "niedergeworfen": -2}
    c.apply(find(c, ActionKind.DEFEND, arg=ASW))
    assert parts(c, 1) == {"Ausweichen": 10, "niedergeworfen": -2}


@pytest.mark.parametrize(
    ("cover", "to_full", "expected"),
    [
        ("=", False, {"Fernkampf": 14, "Dreiviertel-Deckung": -4}),  # half → three-quarter
        ("%", False, {"Fernkampf": 14, "Dreiviertel-Deckung": -4}),  # stays (X23)
        ("%", True, None),  # X23 prone_three_quarter_to_full: the shot is lost
    ],
)
def test_r06_prone_behind_cover(cover: str, to_full: bool, expected: dict[str, int] | None) -> None:
    """R06, X23: prone in half cover counts as three-quarter (no extra −2)."""
    c = fight([*INIT, 3, 4, *TAIL], cover=cover, prone_three_quarter_to_full=to_full)
    shoot(c, prone=True)
    if expected is None:
        assert of(c, ev.AttackFailed)[-1].reason == "volle Deckung" and not of(c, ev.CheckRolled)
    else:
        assert parts(c) == expected


def test_r06_prone_behind_living_half_cover_counts_as_three_quarter() -> None:
    """R06/C04: Kira's comrade in the line gives the Wache half cover ('Kameraden des
    Angreifers gewähren dem Ziel halbe Deckung'); prone 'in Kombination mit halber Deckung
    zählt sie als dreiviertel gedeckt': the shot is at 14 − 4 = 10, not 12."""
    c = fight([*INIT3, 3, 4, *TAIL], extra=((fighter("Kamerad"), (3, 2)),))
    shoot(c, prone=True)
    roll = of(c, ev.CheckRolled)[-1]
    assert roll.probenwert == 10 and "niedergeworfen" not in dict(labelled(roll.parts))


@pytest.mark.parametrize(
    ("until", "penalty"),
    [
        (ProneBonusUntil.OWN_NEXT_TURN, 0),
        (ProneBonusUntil.NEXT_ROUND, -2),
    ],
)
def test_r06_penalty_lasts_until_her_next_turn(until: ProneBonusUntil, penalty: int) -> None:
    """R06, X23: the −2 lasts 'bis zum Beginn ihrer nächsten Runde' (her own turn by default)."""
    c = fight([*INIT, 9, 8, 9, 8, *TAIL], niederwerfen_penalty_until=until)
    shoot(c, prone=True)
    c.apply(find(c, ActionKind.END_TURN))  # Kira 20
    c.apply(find(c, ActionKind.END_TURN))  # Wache 12, still prone
    shoot(c)
    assert c.fighters[1].has(Condition.NIEDERGEWORFEN)
    assert parts(c).get("niedergeworfen", 0) == penalty


@pytest.mark.parametrize(("option", "penalty"), [(False, 0), (True, -2)])
def test_r06_x23_penalty_against_melee(option: bool, penalty: int) -> None:
    """R06, X23: melee attacks draw no prompt; the −2 applies to them only under X23."""
    thug = fighter("Klinge", kampfkunst=14, weapons=(KNIFE,))
    c = fight(
        [*INIT, 3, 3, 9, 8, 3, 4, *TAIL], extra=((thug, (6, 2)),), niederwerfen_vs_melee=option
    )
    shoot(c, prone=True)
    c.apply(find(c, ActionKind.END_TURN))  # Kira 20; Klinge acts at 16
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert c.decision.kind is DecisionKind.DEFEND
    assert parts(c, 2).get("niedergeworfen", 0) == penalty


def test_r06_no_reaction_no_prompt() -> None:
    """R06: without a reaction left (Initiative 3) there is no Niederwerfen prompt."""
    c = fight([5, 5, 1, 3, 4, *TAIL], t={"reflexe": 2})
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    assert not any(d.kind is DecisionKind.NIEDERWERFEN for d in [c.decision])
    assert of(c, ev.CheckRolled) and not c.fighters[1].has(Condition.NIEDERGEWORFEN)
