"""The native movement search (``cwenv._core.Moves``) against the Python reference
(cwenv/battlemap/paths.py).

Every shipped scenario and 50 generated ones; on each map seeded random fighter
positions (standing enemies who block and threaten, allies and the fallen who may be
passed, never ended on), every X43 geometry, X48 hurdles on and off, X49 alternating
diagonals on and off from either parity, free movement and Schwierige Bewegung, several
movement profiles and budgets. Destinations and, for every destination, the whole route
(cells, metres, kind, provocations, deepest drop, first difficult cell, parity) must agree
exactly, tie-breaks included. Then whole combats: the same event log under both engines.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from cwenv import _core
from cwenv.battlemap import los
from cwenv.battlemap.blockade import Guard, Threat
from cwenv.battlemap.grid import BattleMap
from cwenv.battlemap.paths import NativeReach, Reach, Route, reachable
from cwenv.battlemap.steps import MoveProfile, StepKind
from cwenv.rules.readings import BlockadeGeometry
from cwenv.runner.task import load_game
from tests.native_maps import GENERATED, SCENARIOS, all_maps, engine_as


@pytest.fixture(scope="module")
def maps() -> list[tuple[str, BattleMap]]:
    return list(all_maps())


def _searches(bm: BattleMap, rng: random.Random) -> Iterator[dict[str, object]]:
    """Seeded searches on ``bm``: a fighter at a random standable cell among random enemies
    and allies, under every reading this search depends on."""
    standable = [c for c in range(bm.size) if bm.terrain[c].standable]
    solid = bytearray(0 if t.standable else 1 for t in bm.terrain)
    for _ in range(2):
        start, *others = rng.sample(standable, min(len(standable), 7))
        enemies, friends = others[:3], others[3:]
        down = set(rng.sample(enemies, 1)) if enemies else set()  # a fallen enemy: passable
        blocked = solid[:]
        for cell in enemies:
            if cell not in down:
                blocked[cell] = 1
        occupied = frozenset(others)
        passable = frozenset(friends) | frozenset(down)
        guards = [
            Guard(1 << i, bm.xs[cell], bm.ys[cell], rng.choice((1, 2, 3)))
            for i, cell in enumerate(enemies)
            if cell not in down
        ]
        bewegung = rng.choice((1, 3, 4, 6, 8))
        for hurdles in (False, True):
            for alternate in (False, True):
                profile = MoveProfile(
                    free_jump=max(1, bewegung // 2),
                    free_drop=rng.choice((max(1, bewegung // 2), max(1, -(-bewegung // 2) - 1))),
                    slow_cost=rng.choice((1, 2)),
                    max_jump=max(1, bewegung),
                    hurdles=hurdles,
                    alternate=alternate,
                    climb_down=rng.choice((0, 1, 3)),  # B03, X62: climbing down off 'H'
                    climb_down_max=rng.choice((0, 2)),  # X40 climb_over_actions false
                )
                for geometry in (None, *BlockadeGeometry):
                    threat = None if geometry is None else Threat(bm, guards, geometry)
                    for difficult in (False, True):
                        yield {
                            "bm": bm,
                            "blocked": blocked,
                            "start": start,
                            "budget": rng.choice((1, 2, bewegung, 2 * bewegung, 4 * bewegung)),
                            "profile": profile,
                            "occupied": occupied,
                            "passable_occupied": passable,
                            "threat": threat,
                            "difficult": difficult,
                            "parity": rng.choice((0, 1)),
                        }


def _answers(reach: Reach) -> tuple[list[int], list[Route]]:
    return list(reach.dests), [reach.route(cell) for cell in reach.dests]


def _search(engine: str, args: dict[str, object]) -> Reach:
    with engine_as(engine):
        return reachable(**args)  # type: ignore[arg-type]


def test_every_map_every_search_agrees_with_the_reference(
    maps: list[tuple[str, BattleMap]],
) -> None:
    assert len(maps) == len(SCENARIOS) + len(GENERATED)
    seen_kinds: set[StepKind] = set()
    provoked = dropped = odd = climbed_down = 0
    searches = 0
    for name, bm in maps:
        rng = random.Random(name)
        for args in _searches(bm, rng):
            reference, native = _search("python", args), _search("native", args)
            assert isinstance(native, NativeReach) and not isinstance(reference, NativeReach)
            want, got = _answers(reference), _answers(native)
            assert got[0] == want[0], (name, args["start"], args["profile"], args["difficult"])
            for mine, theirs in zip(got[1], want[1], strict=True):
                assert mine == theirs, (name, args["start"], args["profile"], mine, theirs)
            for route in want[1]:
                seen_kinds.add(route.kind)
                provoked += route.provocations > 0
                dropped += route.drop > 0
                odd += route.parity
                climbed_down += route.kind is StepKind.CLIMB and (
                    args["bm"].elevation[route.dest] < args["bm"].elevation[args["start"]]
                )
            searches += 1
    # the comparison met every step kind, provocations, drops and odd parities somewhere
    assert seen_kinds == set(StepKind), seen_kinds
    assert provoked and dropped and odd and climbed_down, (provoked, dropped, odd, climbed_down)
    assert searches == len(maps) * 2 * 4 * 4 * 2


def test_a_difficult_search_after_the_free_one_is_the_whole_search(
    maps: list[tuple[str, BattleMap]],
) -> None:
    """A turn's Schwierige Bewegung search starts from its free search (paths.cpp
    SearchDifficult): where no difficult step is in reach it lays the free search's tables
    out instead of searching. Its tables, not only its routes, equal the whole search's."""
    from cwenv.battlemap.paths_core import GEOMETRIES, native_moves

    shortcut = searched = 0
    for name, bm in maps:
        rng = random.Random(f"{name}:after-free")
        for args in _searches(bm, rng):
            if not args["difficult"]:
                continue
            moves = native_moves(_core, bm, args["profile"])  # type: ignore[arg-type]
            threat = args["threat"]
            guards = (
                None if threat is None else [(g.x, g.y, g.reach) for g in threat.guards.values()]
            )
            geometry = 0 if threat is None else GEOMETRIES[threat.geometry]
            common = (
                args["blocked"],
                args["start"],
                args["budget"],
                args["occupied"],
                args["passable_occupied"],
                guards,
                geometry,
                True,
                args["parity"],
            )
            after, whole = moves.search(*common), moves.search(*common, after_free=False)
            assert after.__getstate__() == whole.__getstate__(), (name, args["start"])
            if whole.dests:
                searched += 1
            else:
                shortcut += 1
    # Both branches of SearchDifficult are exercised: 1,485 and 467 on these maps.
    assert shortcut > 300 and searched > 300, (shortcut, searched)


def test_routes_refuse_a_cell_that_is_not_reached() -> None:
    bm = BattleMap.from_rows(["..#.", "...."])
    blocked = bytearray(0 if t.standable else 1 for t in bm.terrain)
    with engine_as("native"):  # under CWENV_ENGINE=python too
        reach = reachable(bm, blocked, 0, 1, MoveProfile(free_jump=1, free_drop=1))
    assert isinstance(reach, NativeReach)
    assert reach.dests == [1, 4, 5]
    with pytest.raises(KeyError):
        reach.route(3)
    with pytest.raises(ValueError, match="blocked has 3 cells; the map 8"):
        _core_moves(bm).search(bytearray(3), 0, 1, (), (), None, 0, False, 0)
    with pytest.raises(IndexError, match="cell 8 is off the map"):
        _core_moves(bm).search(blocked, 8, 1, (), (), None, 0, False, 0)
    with pytest.raises(ValueError, match="step 0 is malformed"):
        _core.Moves(2, 1, [0, 1, 1], [1, 0, 0, 0, 0, 0, 0, 1], False)  # a step of 0 m


def _core_moves(bm: BattleMap) -> _core.Moves:
    from cwenv.battlemap.paths_core import native_moves

    return native_moves(_core, bm, MoveProfile(free_jump=1, free_drop=1))


VARIANTS = [
    {},
    {"blockade_geometry": BlockadeGeometry.STAY_IN_REACH, "hurdles": False},
    {"blockade_geometry": BlockadeGeometry.ENTER_REACH, "diagonals_alternate": True},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=["defaults", "x43-stay-x48-off", "x43-enter-x49"])
def test_whole_combats_are_the_same_under_both_engines(variant: dict[str, object]) -> None:
    """One seeded greedy combat per shipped scenario and reading: the same event log under
    both engines, event for event."""
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    for name in SCENARIOS:
        game = load_game(name)
        game = replace(game, options=replace(game.options, **variant))
        logs = {}
        for choice in los.ENGINES:
            with engine_as(choice):
                c = game.new_combat(11)
                agents = {side: make_agent("greedy") for side in (0, 1, 2)}
                play_out(c, agents, {side: random.Random(side) for side in agents})
                logs[choice] = c.events
        assert logs["native"] == logs["python"], (name, variant)


@pytest.mark.parametrize("engine", los.ENGINES)
def test_a_combat_mid_turn_pickles_and_deep_copies(engine: str) -> None:
    """A combat whose turn holds a movement search (and whose map holds the core's step
    tables and lines) survives pickle and copy.deepcopy, and plays on as the original."""
    import copy
    import pickle

    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    with engine_as(engine):
        c = load_game("feuergefecht").new_combat(5)
        for _ in range(3):
            c.apply(c.legal_actions()[-1])
        frame = c.turn_frame()
        assert frame is not None and frame.routes.dests  # a search is held
        twins = [pickle.loads(pickle.dumps(c)), copy.deepcopy(c)]
        logs = []
        for combat in (c, *twins):
            agents = {side: make_agent("greedy") for side in (0, 1, 2)}
            play_out(combat, agents, {side: random.Random(side) for side in agents})
            logs.append(combat.events)
    assert logs[0] == logs[1] == logs[2]
    assert len(logs[0]) > 20


def test_a_forged_search_state_is_refused() -> None:
    bm = BattleMap.from_rows(["...."])
    routes = _core_moves(bm).search(bytearray(4), 0, 2, (), (), None, 0, False, 0)
    state = routes.__getstate__()
    assert pickle_roundtrip(routes).dests == routes.dests == [1, 2]
    forged = _core.Routes.__new__(_core.Routes)
    with pytest.raises(ValueError, match="not the state of a movement search"):
        forged.__setstate__((*state[:4], [0], *state[5:]))


def pickle_roundtrip(obj: object) -> _core.Routes:
    import pickle

    back: _core.Routes = pickle.loads(pickle.dumps(obj))
    return back
