"""The Probe (P01–P07) with its open readings X06, X07 and X27.

Scenario tables name the rule each row checks; the exhaustive checks walk all 100 dice
outcomes so that a rule broken for any single roll fails here.
"""

from __future__ import annotations

import pytest

from cwenv.rules.options import DEFAULT_OPTIONS, DifferenceQS, RuleOptions, VolltrefferQS
from cwenv.rules.probe import (
    Difficulty,
    ProbeResult,
    contest,
    difference_qs,
    forced_volltreffer,
    qs_band,
    resolve_probe,
)

ROLL_BAND = RuleOptions(volltreffer_qs=VolltrefferQS.ROLL_BAND)
MAX_ORDINARY = RuleOptions(volltreffer_qs=VolltrefferQS.MAX_ORDINARY)
RAW_DIFF = RuleOptions(defended_hit_qs=DifferenceQS.RAW)
VT_WINS = RuleOptions(volltreffer_wins_contest=True)
FACES = range(1, 11)
PROBENWERTE = range(-3, 41)


def probe(probenwert: int, d1: int, d2: int, options: RuleOptions = DEFAULT_OPTIONS) -> ProbeResult:
    return resolve_probe(probenwert, d1, d2, options)


# --- P01: 2W10 roll-under ------------------------------------------------------------------


def test_p01_book_example_johnny_climbs_the_tree() -> None:
    # Infiltration 13, "recht einfach" +2 → Probenwert 15; dice 5 and 6 → 11 ≤ 15.
    probenwert = 13 + Difficulty.WENIG_FORDERND
    result = probe(probenwert, 5, 6)
    assert probenwert == 15
    assert result.total == 11
    assert result.success
    assert not result.volltreffer and not result.patzer
    assert result.qs == 3  # 11–15: guter Erfolg


@pytest.mark.parametrize(
    ("probenwert", "d1", "d2", "success"),
    [
        (15, 7, 8, True),  # roll equal to the Probenwert succeeds
        (15, 7, 9, False),  # one above fails
        (10, 1, 2, True),
        (3, 1, 2, True),
        (2, 1, 2, False),
        (12, 10, 3, False),
        (12, 3, 10, False),  # dice order does not matter
        (18, 8, 10, True),
        (0, 1, 2, False),
        (-4, 1, 2, False),
    ],
)
def test_p01_success_iff_roll_at_most_probenwert(
    probenwert: int, d1: int, d2: int, success: bool
) -> None:
    result = probe(probenwert, d1, d2)
    assert result.success is success
    assert (result.d1, result.d2, result.probenwert) == (d1, d2, probenwert)
    if not success:
        assert result.qs == 0


def test_p01_p04_every_outcome() -> None:
    for pw in PROBENWERTE:
        for a in FACES:
            for b in FACES:
                r = probe(pw, a, b)
                assert r.success is (a + b <= pw and a + b < 19), (pw, a, b)
                assert probe(pw, b, a).success is r.success


# --- P02: modifiers act on the Probenwert only ------------------------------------------------


@pytest.mark.parametrize(
    ("level", "value"),
    [
        (Difficulty.SEHR_EINFACH, 6),
        (Difficulty.EINFACH, 4),
        (Difficulty.WENIG_FORDERND, 2),
        (Difficulty.FORDERND, 0),
        (Difficulty.SEHR_FORDERND, -2),
        (Difficulty.SCHWIERIG, -4),
        (Difficulty.SEHR_SCHWIERIG, -6),
    ],
)
def test_p02_named_difficulty_levels(level: Difficulty, value: int) -> None:
    assert int(level) == value
    # Skill 12: a roll exactly on the modified Probenwert succeeds, one above fails.
    on = 12 + value
    assert probe(12 + level, on // 2, on - on // 2).success
    assert not probe(12 + level, (on + 1) // 2, on + 1 - (on + 1) // 2).success


def test_p02_exactly_seven_levels() -> None:
    assert len(Difficulty) == 7


@pytest.mark.parametrize(
    ("level", "d1", "d2", "success", "qs"),
    [
        (Difficulty.SCHWIERIG, 4, 5, False, 0),  # 12 − 4 = 8 < 9
        (Difficulty.SCHWIERIG, 3, 5, True, 2),  # 8 ≤ 8
        (Difficulty.FORDERND, 4, 5, True, 2),
        (Difficulty.SEHR_EINFACH, 4, 5, True, 2),  # the bonus does not raise the QS
        (Difficulty.SEHR_EINFACH, 8, 10, True, 4),  # 18 ≤ 18
        (Difficulty.SEHR_SCHWIERIG, 2, 4, True, 2),  # 6 ≤ 6
        (Difficulty.SEHR_SCHWIERIG, 3, 4, False, 0),
    ],
)
def test_p02_modifier_changes_success_not_the_roll(
    level: Difficulty, d1: int, d2: int, success: bool, qs: int
) -> None:
    result = probe(12 + level, d1, d2)
    assert result.total == d1 + d2
    assert (result.success, result.qs) == (success, qs)


# --- P04: 19 and 20 always fail -----------------------------------------------------------


@pytest.mark.parametrize("probenwert", [19, 20, 21, 25, 30, 99])
def test_p04_roll_19_always_fails(probenwert: int) -> None:
    for d1, d2 in ((9, 10), (10, 9)):
        r = probe(probenwert, d1, d2)
        assert not r.success and not r.patzer and not r.volltreffer and r.qs == 0


@pytest.mark.parametrize("probenwert", [19, 20, 21, 25, 30, 99])
def test_p04_roll_20_fails_and_is_patzer(probenwert: int) -> None:
    r = probe(probenwert, 10, 10)
    assert not r.success and r.patzer and not r.volltreffer and r.qs == 0


@pytest.mark.parametrize("probenwert", [18, 19, 20, 25])
def test_p04_roll_18_still_succeeds(probenwert: int) -> None:
    assert probe(probenwert, 8, 10).success
    assert probe(probenwert, 9, 9).volltreffer


# --- P05: QS bands --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "band"),
    [
        (-3, 0), (0, 0), (1, 1), (3, 1), (5, 1), (6, 2), (10, 2), (11, 3), (15, 3),
        (16, 4), (18, 4), (20, 4), (21, 5), (25, 5), (26, 6), (30, 6), (31, 7),
    ],
)  # fmt: skip
def test_p05_qs_band(value: int, band: int) -> None:
    assert qs_band(value) == band


@pytest.mark.parametrize(
    ("d1", "d2", "qs"),
    [(1, 2, 1), (2, 3, 1), (2, 4, 2), (4, 6, 2), (5, 6, 3), (7, 8, 3), (7, 9, 4), (8, 10, 4)],
)
def test_p05_ordinary_success_qs_from_the_roll(d1: int, d2: int, qs: int) -> None:
    r = probe(25, d1, d2)
    assert r.success and not r.volltreffer and r.qs == qs


def test_p05_ordinary_success_at_most_qs4_only_volltreffer_reaches_5() -> None:
    for pw in PROBENWERTE:
        for a in FACES:
            for b in FACES:
                r = probe(pw, a, b)
                if r.success and not r.volltreffer:
                    assert r.qs == qs_band(a + b) <= 4, (pw, a, b)
                if r.qs >= 5:
                    assert r.volltreffer, (pw, a, b)


# --- P06: Volltreffer and Patzer (X06) -------------------------------------------------------


def test_p06_pasch_decides_volltreffer_and_patzer_everywhere() -> None:
    for pw in PROBENWERTE:
        for a in FACES:
            for b in FACES:
                r = probe(pw, a, b)
                assert r.volltreffer is (a == b and r.success), (pw, a, b)
                assert r.patzer is (a == b and not r.success), (pw, a, b)
                assert r.success is (r.qs >= 1)


@pytest.mark.parametrize(
    ("probenwert", "pasch", "qs"),
    [
        (2, 1, 1), (5, 1, 1), (6, 1, 2), (10, 5, 2), (14, 1, 3), (14, 7, 3),
        (15, 6, 3), (16, 8, 4), (19, 9, 4), (20, 9, 4), (21, 1, 5), (25, 9, 5),
        (26, 1, 6), (30, 5, 6),
    ],
)  # fmt: skip
def test_x06_default_volltreffer_qs_is_band_of_probenwert(
    probenwert: int, pasch: int, qs: int
) -> None:
    r = probe(probenwert, pasch, pasch)
    assert r.success and r.volltreffer and not r.patzer
    assert r.qs == qs


@pytest.mark.parametrize(
    ("probenwert", "pasch", "qs"),
    [(14, 1, 1), (14, 2, 1), (14, 3, 2), (14, 7, 3), (25, 1, 1), (25, 8, 4), (25, 9, 4)],
)
def test_x06_roll_band_volltreffer_qs(probenwert: int, pasch: int, qs: int) -> None:
    r = probe(probenwert, pasch, pasch, ROLL_BAND)
    assert r.volltreffer and r.qs == qs


@pytest.mark.parametrize(("probenwert", "pasch"), [(2, 1), (4, 2), (14, 1), (14, 7), (25, 9)])
def test_x06_max_ordinary_volltreffer_qs_is_4(probenwert: int, pasch: int) -> None:
    r = probe(probenwert, pasch, pasch, MAX_ORDINARY)
    assert r.volltreffer and r.qs == 4


@pytest.mark.parametrize(
    ("probenwert", "d", "options"),
    [(14, 8, DEFAULT_OPTIONS), (14, 10, DEFAULT_OPTIONS), (2, 2, DEFAULT_OPTIONS),
     (10, 6, ROLL_BAND), (25, 10, MAX_ORDINARY)],
)  # fmt: skip
def test_p06_failed_pasch_is_patzer_under_every_reading(
    probenwert: int, d: int, options: RuleOptions
) -> None:
    r = probe(probenwert, d, d, options)
    assert r.patzer and not r.success and not r.volltreffer and r.qs == 0


@pytest.mark.parametrize(
    ("probenwert", "options", "qs"),
    [
        (14, DEFAULT_OPTIONS, 3), (16, DEFAULT_OPTIONS, 4), (25, DEFAULT_OPTIONS, 5),
        (1, DEFAULT_OPTIONS, 1), (14, ROLL_BAND, 3), (15, ROLL_BAND, 3), (25, ROLL_BAND, 4),
        (3, ROLL_BAND, 1), (7, MAX_ORDINARY, 4),
    ],
)  # fmt: skip
def test_m09_forced_volltreffer(probenwert: int, options: RuleOptions, qs: int) -> None:
    r = forced_volltreffer(probenwert, options)
    assert r.success and r.volltreffer and not r.patzer
    assert r.qs == qs


@pytest.mark.parametrize("options", [DEFAULT_OPTIONS, ROLL_BAND, MAX_ORDINARY])
def test_m09_forced_volltreffer_is_the_best_rollable_volltreffer(options: RuleOptions) -> None:
    for pw in range(2, 35):
        best = max(probe(pw, k, k, options).qs for k in FACES)
        assert forced_volltreffer(pw, options).qs == best, pw


# --- P07: Vergleichende Probe (X07, X27) -----------------------------------------------------


def test_p07_book_example_guard_spots_the_runner() -> None:
    runner = probe(13, 3, 5)  # Infiltration 13 rolls 8
    guard = probe(11, 5, 6)  # Wahrnehmung 11 rolls 11: exactly on the value, a success
    assert runner.success and guard.success
    outcome = contest(runner, guard, DEFAULT_OPTIONS)
    assert outcome.winner == 1
    assert outcome.qs == 1  # 11 − 8 = 3 → QS 1
    assert contest(runner, guard, RAW_DIFF).qs == 3  # X07 alternative: the raw difference


@pytest.mark.parametrize(
    ("difference", "band", "raw"),
    [(-2, 0, 0), (0, 0, 0), (1, 1, 1), (3, 1, 3), (5, 1, 5), (6, 2, 6), (11, 3, 11), (16, 4, 16)],
)
def test_x07_difference_qs(difference: int, band: int, raw: int) -> None:
    assert difference_qs(difference, DEFAULT_OPTIONS) == band
    assert difference_qs(difference, RAW_DIFF) == raw


# actor (Probenwert, dice), defender (Probenwert, dice), options → winner, QS
CONTESTS = [
    # only one side succeeds: it wins with the band of its own roll (X27)
    ("only actor succeeds", (12, 3, 4), (10, 6, 7), DEFAULT_OPTIONS, 0, 2),
    ("only defender succeeds", (10, 6, 7), (12, 5, 6), DEFAULT_OPTIONS, 1, 3),
    ("defender patzer", (12, 3, 4), (10, 8, 8), DEFAULT_OPTIONS, 0, 2),
    ("actor volltreffer, defender fails", (14, 2, 2), (10, 6, 7), DEFAULT_OPTIONS, 0, 3),
    # both succeed: the higher roll wins, the QS is the band of the difference (X07)
    ("actor higher", (15, 6, 8), (12, 2, 3), DEFAULT_OPTIONS, 0, 2),
    ("actor higher, raw", (15, 6, 8), (12, 2, 3), RAW_DIFF, 0, 9),
    ("defender higher", (15, 2, 3), (15, 7, 8), DEFAULT_OPTIONS, 1, 2),
    ("tie goes to the defender", (15, 4, 6), (12, 3, 7), DEFAULT_OPTIONS, 1, 0),
    ("tie with raw difference", (15, 4, 6), (12, 3, 7), RAW_DIFF, 1, 0),
    # both fail: nobody wins (X27)
    ("both fail", (10, 6, 7), (10, 5, 9), DEFAULT_OPTIONS, None, 0),
    ("both patzer", (10, 6, 6), (10, 7, 7), DEFAULT_OPTIONS, None, 0),
    # X27 default: a Volltreffer does not win by itself; the rolls are compared
    ("vt loses to higher roll", (14, 3, 3), (14, 5, 7), DEFAULT_OPTIONS, 1, 2),
    ("vt wins under option", (14, 3, 3), (14, 5, 7), VT_WINS, 0, 3),
    ("defender vt wins under option", (14, 5, 7), (14, 3, 3), VT_WINS, 1, 3),
    ("both vt compare rolls", (14, 4, 4), (14, 6, 6), VT_WINS, 1, 1),
]


@pytest.mark.parametrize(
    ("actor", "defender", "options", "winner", "qs"),
    [c[1:] for c in CONTESTS],
    ids=[c[0] for c in CONTESTS],
)
def test_p07_x27_contest_table(
    actor: tuple[int, int, int],
    defender: tuple[int, int, int],
    options: RuleOptions,
    winner: int | None,
    qs: int,
) -> None:
    outcome = contest(probe(*actor, options), probe(*defender, options), options)
    assert (outcome.winner, outcome.qs) == (winner, qs)


@pytest.mark.parametrize(("actor_pw", "defender_pw"), [(14, 12), (11, 13), (20, 20)])
def test_p07_every_pair_of_outcomes(actor_pw: int, defender_pw: int) -> None:
    """Higher successful roll wins, tie → defender, lone success wins, both fail → none."""
    actors = [probe(actor_pw, a, b) for a in FACES for b in FACES]
    defenders = [probe(defender_pw, a, b) for a in FACES for b in FACES]
    for a in actors:
        for d in defenders:
            out = contest(a, d, DEFAULT_OPTIONS)
            if a.success and d.success:
                expected = 0 if a.total > d.total else 1
                assert out.winner == expected, (a, d)
                assert out.qs == qs_band(abs(a.total - d.total)), (a, d)
            elif a.success:
                assert (out.winner, out.qs) == (0, a.qs)
            elif d.success:
                assert (out.winner, out.qs) == (1, d.qs)
            else:
                assert (out.winner, out.qs) == (None, 0)
