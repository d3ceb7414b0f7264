"""The native lines of fire (``cwenv._core``) against the Python reference (cwenv/battlemap/los.py).

Every shipped scenario and 50 generated ones; per map every pair from a few source cells
and a seeded sample of other pairs, each under the map's own opacity and under a random
overlay (walls where there are none, doors shut or open), so corner pairs, blocked and
open lines and every cover level occur. Steps, blocked-or-not and the cover level must
agree exactly.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from cwenv import _core
from cwenv.battlemap import los
from cwenv.battlemap.grid import BattleMap
from cwenv.model.types import CoverLevel
from cwenv.runner.task import load_game
from tests.native_maps import GENERATED, SCENARIOS, all_maps, engine_as


@pytest.fixture(scope="module")
def maps() -> list[tuple[str, BattleMap]]:
    return list(all_maps())


def _pairs(bm: BattleMap, rng: random.Random) -> list[tuple[int, int]]:
    n = bm.size
    sources = rng.sample(range(n), min(3, n))
    pairs = [(a, b) for a in sources for b in range(n)]
    pairs += [(rng.randrange(n), rng.randrange(n)) for _ in range(1500)]
    return pairs


def _overlay(bm: BattleMap, rng: random.Random) -> bytearray:
    return bytearray(1 if rng.random() < 0.25 else 0 for _ in range(bm.size))


def test_every_map_every_sampled_pair_agrees_with_the_reference(
    maps: list[tuple[str, BattleMap]],
) -> None:
    assert len(maps) == len(SCENARIOS) + len(GENERATED)
    seen = {level: 0 for level in CoverLevel}
    corner_pairs = 0
    for name, bm in maps:
        rng = random.Random(name)
        lines = _core.Lines(bm.width, bm.height, bytes(bm.terrain))
        overlays = (bm.initial_opacity(), _overlay(bm, rng))
        for a, b in _pairs(bm, rng):
            steps = los._supercover(bm.width, bm.xs[a], bm.ys[a], bm.xs[b], bm.ys[b])
            assert _core.supercover(bm.width, a, b) == steps, (name, a, b)
            corner_pairs += sum(len(step) == 2 for step in steps)
            reference = los._compile(bm, b, steps)
            assert tuple(lines.cells(a, b)) == reference.cells, (name, a, b)
            for opaque in overlays:
                blocked = reference.blocked(opaque)
                cover = CoverLevel.FULL if blocked else reference.cover
                assert lines.blocked(opaque, a, b) is blocked, (name, a, b, bytes(opaque))
                assert lines.terrain_cover(opaque, a, b) == cover, (name, a, b, bytes(opaque))
                seen[cover] += 1
    assert corner_pairs > 0
    assert all(seen.values()), seen  # every cover level was compared somewhere


def test_the_native_engine_keeps_no_line_per_pair_of_cells() -> None:
    """Random play under the native core leaves the map's compiled-line cache empty: C04's
    living cover asks the core for a line's cells (los.line_cells) instead of caching one
    SightLine per pair, a cache that grew with every pair a fight met (18 MB RSS over
    1,000,000 decisions, up to 144 MB on kreuzung; benchmarks/NOTES.md, memory)."""
    from cwenv.engine.actions import ActionKind

    game = load_game("feuergefecht")
    bm = game.battlemap
    bm.line_cache.clear()  # the game is shared: other tests' reference runs filled it
    rng = random.Random(3)
    attacks = 0
    with engine_as("native"):
        for seed in range(4):
            c = game.new_combat(seed)
            while not c.is_terminal():
                action = rng.choice(c.legal_actions())
                attacks += action.kind is ActionKind.ATTACK
                c.apply(action)
        assert attacks > 20  # living cover was asked, on lines through fighters
        assert len(bm.line_cache) == 0
    with engine_as("python"):
        c = game.new_combat(0)
        for _ in range(200):
            if c.is_terminal():
                break
            c.apply(rng.choice(c.legal_actions()))
        assert len(bm.line_cache) > 0  # the reference still compiles and caches its lines


def test_the_array_form_equals_one_query_per_cell(maps: list[tuple[str, BattleMap]]) -> None:
    for name, bm in maps[:: len(maps) // 8]:
        lines = _core.Lines(bm.width, bm.height, bytes(bm.terrain))
        opaque = bm.initial_opacity()
        cells = np.arange(bm.size, dtype=np.int32)
        for a in random.Random(name).sample(range(bm.size), 4):
            got = lines.terrain_covers(opaque, a, cells)
            assert got.dtype == np.int8
            want = [int(los.terrain_cover(bm, opaque, a, b)) for b in range(bm.size)]
            assert got.tolist() == want, (name, a)


def test_los_answers_from_the_core_by_default_and_the_reference_on_request() -> None:
    bm = BattleMap.from_rows(["....", ".#=.", "...."])
    opaque = bm.initial_opacity()
    answers = {}
    for choice in los.ENGINES:
        with engine_as(choice):
            assert los.engine() == choice
            answers[choice] = [
                (los.has_line_of_sight(bm, opaque, a, b), los.terrain_cover(bm, opaque, a, b))
                for a in range(bm.size)
                for b in range(bm.size)
            ]
    assert answers["native"] == answers["python"]
    assert (False, CoverLevel.FULL) in answers["native"]  # the wall hides some cells
    assert (True, CoverLevel.HALF) in answers["native"]  # the crate covers some


def test_bad_engine_choices_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(los.EngineChoiceError, match="choose one of native, python"):
        los.use_engine("rust")
    bm = BattleMap.from_rows(["..", ".."])
    lines = _core.Lines(bm.width, bm.height, bytes(bm.terrain))
    with pytest.raises(ValueError, match="opacity has 3 cells; the map 4"):
        lines.blocked(bytearray(3), 0, 1)
    with pytest.raises(IndexError, match="cell 4 is off the map"):
        lines.terrain_cover(bm.initial_opacity(), 0, 4)
    with pytest.raises(ValueError, match="unknown terrain value 9"):
        _core.Lines(2, 1, bytes([0, 9]))


def test_without_the_core_the_reference_answers_with_one_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cwenv

    monkeypatch.setitem(sys.modules, "cwenv._core", None)  # as if it had not been built
    monkeypatch.delattr(cwenv, "_core")
    with pytest.warns(RuntimeWarning, match="native core is not built"):
        assert los._load_core("native", asked=False) is None
    with pytest.raises(los.EngineChoiceError, match="its core is not built"):
        los._load_core("native", asked=True)


def test_cwenv_engine_python_selects_the_reference_at_import() -> None:
    probe = "from cwenv.battlemap import los; print(los.engine())"
    for choice, shown in (("python", "python"), ("native", "native"), ("", "native")):
        env = {**os.environ, "CWENV_ENGINE": choice}
        if not choice:
            del env["CWENV_ENGINE"]
        out = subprocess.run(
            [sys.executable, "-W", "error", "-c", probe],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == shown, (choice, out.stderr)


@pytest.mark.parametrize(
    ("agent", "scenarios"), [("greedy", SCENARIOS), ("taktiker", ["duell", "feuergefecht"])]
)
def test_whole_combats_are_the_same_under_both_engines(agent: str, scenarios: list[str]) -> None:
    """One seeded combat per scenario: the same event log under both engines, event for
    event (greedy everywhere; the doctrine, which reads the lines' cache itself, on two)."""
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    for name in scenarios:
        game = load_game(name)
        logs = {}
        for choice in los.ENGINES:
            with engine_as(choice):
                c = game.new_combat(7)
                agents = {side: make_agent(agent) for side in (0, 1, 2)}
                play_out(c, agents, {side: random.Random(side) for side in agents})
                logs[choice] = c.events
        assert logs["native"] == logs["python"], name
