"""The differential test of whole games (issue #16, cwenv/native/differential.py): seeded
games of random legal play under the Python reference and the native core in lockstep,
the same legal actions and events at every step, the same encodings on a sample.

The CI sample is a count of games, not a time budget, so it is the same on every machine:
every pair of source (shipped scenarios, generated, hand-built) and rule variant of the
mixed pool once, 200 steps each, then whole shipped games. The long run is
``python -m cwenv.native.differential --games 10000`` (docs/native.md). Last, the faults
planted in the core (``cwenv._core._fault``, src/faults.hpp) must be caught by random play
within a few games, the divergence naming the game, its seed and step.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv.battlemap import los
from cwenv.native import cases
from cwenv.native.command import main
from cwenv.native.differential import (
    Divergence,
    DivergenceError,
    Play,
    Tally,
    play_case,
)

MIXED_PAIRS = len(cases.variants()) * (len(cases.scenarios()) + 1 + 6)
"""Games 0 .. MIXED_PAIRS - 1 of the mixed pool meet every (source, variant) pair once."""


def _run(indices: range, pool: str, play: Play) -> Tally:
    total = Tally()
    for i in indices:
        total.add(play_case(cases.case_of(i, pool), pool, play))
    return total


def test_every_source_and_variant_agrees_for_200_steps() -> None:
    before = los.engine()
    total = _run(range(MIXED_PAIRS), "mixed", Play(encode_every=10, max_steps=200))
    assert los.engine() == before  # every call gave the engine back
    assert total.games == MIXED_PAIRS
    assert set(total.by_source) == {*cases.scenarios(), "generated", "tiny"}
    assert total.steps > 150 * MIXED_PAIRS and total.encoded >= total.steps // 10


def test_whole_shipped_games_agree_to_their_end() -> None:
    total = _run(range(0, 9 * 11 * 3, 37), "shipped", Play(encode_every=25))
    assert total.games == 9 and total.steps > 9 * 200  # late rounds too


def test_the_pool_meets_both_initiative_systems_and_every_reading() -> None:
    drawn = [cases.case_of(i, "mixed") for i in range(MIXED_PAIRS)]
    initiative = {c.game("python").options.initiative.value for c in drawn}
    assert initiative == {"steps", "passes"}
    readings = {r for c in drawn for r in c.readings}
    assert {v for k, v in readings if k == "blockade_geometry"} == {
        "passing",
        "stay_in_reach",
        "enter_reach",
    }
    assert {(k, v) for k, v in readings if k != "blockade_geometry"} == {
        (k, v) for k in ("hurdles", "diagonals_alternate") for v in ("True", "False")
    }
    assert cases.case_of(123, "mixed") == cases.case_of(123, "mixed")  # replayable


def test_games_under_every_option_drawn_agree_for_120_steps() -> None:
    """The drawn pool: every boolean and enum rule option drawn per game, which no shipped
    variant does, encodings compared at every step. Before 7025495 game 26 (nsc_at_zero
    dead, nsc_mumm) diverged at step 23: an NSC at its DEATH prompt encoded standing."""
    total = _run(range(36), "drawn", Play(encode_every=1, max_steps=120))
    assert total.games == 36 and total.steps > 80 * 36 and total.encoded == total.steps
    drawn = [cases.case_of(i, "drawn") for i in range(40)]
    options = [c.game("python").options for c in drawn]
    assert {o.nsc_at_zero.value for o in options} == {"sterbend", "dead"}
    assert {o.initiative.value for o in options} == {"steps", "passes"}
    assert {o.kampfunfaehig_prone for o in options} == {True, False}
    assert len({c.readings for c in drawn}) == 40 and len(drawn[0].readings) > 80
    assert cases.case_of(17, "drawn") == cases.case_of(17, "drawn")  # replayable
    sources = {cases.case_of(i, "drawn").source.split(":")[0] for i in range(MIXED_PAIRS)}
    assert {"generated", "tiny"} <= sources  # the mixed pool's sources
    shown = Divergence(drawn[3], "drawn", 5, "events", "a", "b").describe()
    assert "nsc_at_zero=" in shown and "--pool drawn --game 3" in shown


def test_the_command_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--pool", "mixed", "--start", "7", "--games", "2", "--max-steps", "30"]) == 0
    out = capsys.readouterr().out
    assert "2 games, 60 steps (legal lists and events compared)" in out
    assert "no divergence in games 7..8 of mixed" in out


def _first_divergence(games: int, play: Play) -> Divergence:
    for i in range(games):
        try:
            play_case(cases.case_of(i, "mixed"), "mixed", play)
        except DivergenceError as exc:
            return exc.divergence
    raise AssertionError(f"no divergence in {games} games")


@pytest.mark.parametrize(
    ("name", "play", "games"),
    [
        ("cover_level", Play(), 1),  # three-quarter cover reported as half
        ("cover_level", Play(encode_every=0), 5),  # the event log alone catches it too
        ("provocation_tie", Play(), 40),  # a metre tie goes to more provocations
    ],
    ids=["cover-encodings", "cover-events", "provocation-tie"],
)
def test_a_planted_fault_is_caught_with_its_seed_and_step(
    fault: Callable[[str], None], name: str, play: Play, games: int
) -> None:
    fault(name)
    found = _first_divergence(games, play)
    shown = found.describe()
    assert f"seed {found.case.seed}) at step {found.step}:" in shown
    assert f"--pool mixed --game {found.case.index}" in shown
    if not play.encode_every:
        assert not found.what.startswith("encoding"), found.what
    with pytest.raises(DivergenceError) as again:  # the game replays alone, to the same step
        play_case(found.case, "mixed", play)
    assert again.value.divergence == found


@pytest.mark.parametrize("only_native", [True, False], ids=["native-only", "both"])
def test_an_error_is_a_divergence_unless_both_engines_raise_it(
    monkeypatch: pytest.MonkeyPatch, only_native: bool
) -> None:
    from cwenv.engine.native.combat import NativeCombat
    from cwenv.engine.state import Combat

    def failing(real: Callable[[Combat, object], None]) -> Callable[[Combat, object], None]:
        def apply(self: Combat, action: object) -> None:
            if len(self.history) == 3 and (los.engine() == "native" or not only_native):
                raise RuntimeError("boom")
            real(self, action)

        return apply

    # the reference plays under the Python engine, the native combat under the native one
    monkeypatch.setattr(Combat, "apply", failing(Combat.apply))  # type: ignore[arg-type]
    monkeypatch.setattr(NativeCombat, "apply", failing(NativeCombat.apply))  # type: ignore[arg-type]
    case = cases.case_of(0, "mixed")
    if only_native:
        with pytest.raises(DivergenceError) as found:
            play_case(case, "mixed", Play(max_steps=10))
        d = found.value.divergence
        assert (d.step, d.what, d.python, d.native) == (
            3,
            "error",
            "None",
            "raised RuntimeError: boom",
        )
    else:  # the game's own error, raised as it is, saying where
        with pytest.raises(RuntimeError, match="boom") as raised:
            play_case(case, "mixed", Play(max_steps=10))
        assert raised.value.__notes__ == [
            f"under both engines, in game 0 ({case.label}, seed 0) at step 3; replay: "
            "python -m cwenv.native.differential --pool mixed --game 0"
        ]
