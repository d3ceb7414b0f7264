"""The doctrines' walking field toward the enemies is the least of cached single-target
fields (issue #16) and equals one search from all targets at once.

``agents.board.walk_field`` guides every doctrine's moves (``Board.walk_distance``: the
ranking of cells, the approach term of a cell's worth, sprints). It now keeps a field per
map, target cell and door state and takes the least of the enemies' fields, so that when
one enemy moves only its own field is searched anew. :mod:`tests.walk_reference` is the
multi-source search it replaced; on every shipped and 50 generated maps, under random door
states and target sets, and through a seeded fight in which doors open, both must give
the same steps for every cell.
"""

from __future__ import annotations

import random

import pytest

from agents import board
from agents.board import walk_field
from cwenv.agent import play_out
from cwenv.agent_registry import make_agent
from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.runner.task import load_game
from tests.native_maps import all_maps
from tests.walk_reference import plain_walk_field


def test_walk_fields_equal_one_search_from_all_targets() -> None:
    rng = random.Random(16)
    compared = 0
    for name, bm in all_maps():
        standable = [c for c in range(bm.size) if bm.terrain[c].standable]
        doors = [c for c in range(bm.size) if bm.terrain[c] is Terrain.DOOR_CLOSED]
        for k in range(6):
            opaque = bm.initial_opacity()
            for door in doors:  # a random door state: a shut door costs a step more
                if rng.random() < 0.5:
                    opaque[door] ^= 1
            targets = tuple(sorted(rng.sample(standable, min(len(standable), 1 + k % 4))))
            want = plain_walk_field(bm, targets, opaque)
            assert walk_field(bm, targets, opaque) == want, (name, targets, bytes(opaque))
            compared += 1
    assert compared > 300


def test_walk_fields_of_a_fight_equal_one_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a Taktiker fight on the map with the most doors, water and fire, every field
    the doctrines asked for."""
    game = load_game("strassenschlacht")
    asked: list[tuple[tuple[int, ...], bytes]] = []

    def spy(bm: BattleMap, targets: tuple[int, ...], opaque: bytearray) -> list[int]:
        asked.append((targets, bytes(opaque)))
        return walk_field(bm, targets, opaque)

    monkeypatch.setattr(board, "walk_field", spy)
    agents = {s: make_agent("taktiker") for s in (0, 1, 2)}
    for a in agents.values():  # every decision in Python: the native twin walks in C++
        a.native_twin = lambda: None  # type: ignore[attr-defined]
    play_out(game.new_combat(3), agents, {s: random.Random(s) for s in agents})
    monkeypatch.undo()
    assert len(set(asked)) > 20
    bm = game.battlemap
    for targets, opaque in set(asked):
        want = plain_walk_field(bm, targets, bytearray(opaque))
        assert walk_field(bm, targets, bytearray(opaque)) == want, targets
