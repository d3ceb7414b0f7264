"""The Probe in C++ (issue #16, src/probe.hpp) against cwenv/rules/probe.py: every
Probenwert from -6 to 30 and pair of dice under every X06 reading (P01, P04-P06), M09's
forced Volltreffer under every X06 and X54 reading, and A04/A05's hit QS (P07, X07, X27)
for seeded pairs of rolls under every combination of the readings it reads."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace
from typing import Any

import pytest

core = pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv.engine.native.strike import VOLLTREFFER_QS  # noqa: E402
from cwenv.rules.probe import ProbeResult, forced_volltreffer, hit_qs, resolve_probe  # noqa: E402
from cwenv.rules.readings import (  # noqa: E402
    DifferenceQS,
    GrosserWurfRoll,
    LoneWinnerQS,
    TieQS,
    VolltrefferQS,
)

PROBENWERTE = range(-6, 31)
DICE = list(itertools.product(range(1, 11), repeat=2))


def _readings(**fields: Any) -> tuple[Any, tuple[int, bool, bool, bool, bool, bool]]:
    """The options probe.py reads and the core's row of them (strike.py's names)."""
    o = SimpleNamespace(
        volltreffer_qs=VolltrefferQS.PROBENWERT_BAND,
        grosser_wurf_roll=GrosserWurfRoll.BEST_PASCH,
        defended_hit_qs=DifferenceQS.BAND,
        volltreffer_wins_contest=False,
        contest_lone_winner_qs=LoneWinnerQS.OWN_ROLL,
        contest_tie_qs=TieQS.ZERO,
    )
    for name, value in fields.items():
        setattr(o, name, value)
    row = (
        VOLLTREFFER_QS[o.volltreffer_qs],
        o.grosser_wurf_roll is GrosserWurfRoll.HIGHEST_ROLL,
        o.defended_hit_qs is DifferenceQS.RAW,
        o.volltreffer_wins_contest,
        o.contest_lone_winner_qs is LoneWinnerQS.DIFFERENCE,
        o.contest_tie_qs is TieQS.OWN_ROLL,
    )
    return o, row


def _fields(r: ProbeResult) -> tuple[int, int, int, bool, int, bool, bool]:
    return (r.probenwert, r.d1, r.d2, r.success, r.qs, r.volltreffer, r.patzer)


@pytest.mark.parametrize("reading", list(VolltrefferQS))
def test_every_roll_resolves_as_the_reference(reading: VolltrefferQS) -> None:
    o, row = _readings(volltreffer_qs=reading)
    for pw in PROBENWERTE:
        for d1, d2 in DICE:
            want = _fields(resolve_probe(pw, d1, d2, o))
            assert core.resolve_probe(row, pw, d1, d2) == want, (reading, pw, d1, d2)


def test_the_forced_volltreffer_is_the_reference_s() -> None:
    for qs, roll in itertools.product(VolltrefferQS, GrosserWurfRoll):
        o, row = _readings(volltreffer_qs=qs, grosser_wurf_roll=roll)
        for pw in PROBENWERTE:
            assert core.forced_volltreffer(row, pw) == _fields(forced_volltreffer(pw, o)), (
                qs,
                roll,
                pw,
            )


def test_every_contest_reading_gives_the_reference_s_hit_qs() -> None:
    rng = random.Random(16)
    held = hits = 0
    for raw, wins, lone, tie in itertools.product(DifferenceQS, (False, True), LoneWinnerQS, TieQS):
        o, row = _readings(
            defended_hit_qs=raw,
            volltreffer_wins_contest=wins,
            contest_lone_winner_qs=lone,
            contest_tie_qs=tie,
        )
        for _ in range(2_000):
            attack = resolve_probe(rng.randint(2, 20), *rng.choice(DICE), o)
            defence = resolve_probe(rng.randint(2, 20), *rng.choice(DICE), o)
            want = hit_qs(attack, defence, o)
            got = core.hit_qs(row, _fields(attack), _fields(defence))
            assert got == (-1 if want is None else want), (row, attack, defence)
            held += want is None
            hits += want is not None and want > 0
    assert held > 1_000 and hits > 1_000  # both outcomes met under every reading
