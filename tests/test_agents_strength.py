"""Each doctrine beats random play; the measurement script's statistics are right.

The big measurements (hundreds of games, both scenarios, MCTS) live in docs/agents.md.
"""

from __future__ import annotations

import pytest

from agents.measure import main, match, wilson

GAMES = 20


@pytest.mark.parametrize("spec", ["stuermer", "schuetze", "taktiker"])
def test_doctrine_beats_random_on_duell(spec: str) -> None:
    result = match(spec, "random", "duell", GAMES, seed=100)
    assert len(result.games) == GAMES
    assert {g.a_side for g in result.games} == {0, 1}  # both sides played
    assert result.wins(0) >= 0.8 * GAMES
    assert result.actions(0)["ATTACK"] + result.actions(0)["MANEUVER"] > 0


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_measure_prints_a_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["greedy", "random", "--scenario", "duell", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "Wilson 95 %" in out and "greedy" in out and "ATTACK" in out
