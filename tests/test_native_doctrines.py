"""The Schütze's and the Stürmer's native twins (issue #16, agents/native/taktiker.cpp with
their hooks): the Doctrine base the Taktiker's twin already is, with each doctrine's own
target and weapon weights, risk, cell bonus and candidate keys — and the Stürmer's
manoeuvres and charge. At every decision they choose what agents/schuetze.py and
agents/stuermer.py choose, they hand nothing back, and whole games are the Python ones."""

from __future__ import annotations

import pytest

pytest.importorskip("agents._rollouts", reason="the native rollout policies are not built")

from agents.doctrine import Doctrine
from agents.native_rollouts import native_twin
from agents.schuetze import Schuetze, SchuetzeConfig
from agents.stuermer import Stuermer, StuermerConfig
from tests.test_native_taktiker import _compare, same_games


@pytest.mark.parametrize("make", [Schuetze, Stuermer], ids=["schuetze", "stuermer"])
def test_the_native_twin_chooses_as_the_python_doctrine(make: type[Doctrine]) -> None:
    agent = make()
    seen = _compare(agent, range(16), follow=False)
    seen += _compare(agent, range(16, 28), follow=True)
    seen += _compare(agent, range(8), follow=True, pool="drawn")
    assert seen["turn"] > 5_000 and seen["prompt"] > 1_500, seen
    assert seen["deferred:turn"] == seen["deferred:prompt"] == 0, seen
    # each doctrine's own paths are taken: the Stürmer's manoeuvres and charges, the
    # Schütze's aimed shots
    own = ("MANEUVER", "SPRINT") if make is Stuermer else ("ZIELEN", "ATTACK")
    assert all(seen[f"chose:{k}"] > 20 for k in own), seen


def test_other_weights_are_twinned_with_them() -> None:
    schuetze = Schuetze(
        SchuetzeConfig(danger_weight=2.0, keep_distance=6, distance_weight=3.0, melee_weight=0.1)
    )
    stuermer = Stuermer(
        StuermerConfig(maneuvers=("Entwaffnen", "Umreissen", "Wegstossen"), sprint_value=9.0)
    )
    for agent in (schuetze, stuermer):
        seen = _compare(agent, range(8), follow=True)
        assert seen["turn"] > 500 and seen["deferred:turn"] == 0, seen
    assert native_twin(schuetze) is not native_twin(Schuetze())
    assert native_twin(stuermer) is not native_twin(Stuermer())


def test_a_subclass_has_no_twin() -> None:
    class Wild(Stuermer):
        pass

    assert native_twin(Stuermer()) is not None and native_twin(Wild()) is None


@pytest.mark.parametrize("scenario", ["feuergefecht", "strassenschlacht"])
def test_schuetze_against_stuermer_games_are_the_python_games(scenario: str) -> None:
    same_games(scenario, range(2), lambda: {0: Schuetze(), 1: Stuermer(), 2: Schuetze()})
