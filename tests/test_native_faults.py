"""Fault injection (issue #16): with a deviation planted in the native core
(``cwenv._core._fault``, test only, src/faults.hpp), the conformance checks of
tests/test_native_los.py and tests/test_native_paths.py fail, naming the map and the
differing answer; with it turned off they pass (those files' own runs)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cwenv import _core
from cwenv.battlemap.grid import BattleMap
from tests import test_native_los, test_native_paths
from tests.native_maps import all_maps


@pytest.fixture(scope="module")
def maps() -> list[tuple[str, BattleMap]]:
    return list(all_maps())


def test_an_unknown_fault_is_refused() -> None:
    choices = (
        "provocation_tie, cover_level, melee_reach_edge, guard_reach, extra_action_twice, "
        "living_cover_tie, sync_lp, last_reaction, sync_aim, plan_prone or strike_armour"
    )
    with pytest.raises(ValueError, match=f"unknown fault x; choose {choices}"):
        _core._fault("x")


def test_a_misreported_cover_level_fails_the_lines_check(
    maps: list[tuple[str, BattleMap]], fault: Callable[[str], None]
) -> None:
    fault("cover_level")  # three-quarter cover reported as half
    with pytest.raises(AssertionError, match=r"terrain_cover") as failure:
        test_native_los.test_every_map_every_sampled_pair_agrees_with_the_reference(maps)
    assert "THREE_QUARTER" in str(failure.value), failure.value


def test_a_flipped_provocation_tie_fails_the_search_check(
    maps: list[tuple[str, BattleMap]], fault: Callable[[str], None]
) -> None:
    fault("provocation_tie")  # on a metre tie, the state with more provocations wins
    with pytest.raises(AssertionError, match=r"Route\(") as failure:
        test_native_paths.test_every_map_every_search_agrees_with_the_reference(maps)
    assert "provocations=" in str(failure.value), failure.value
