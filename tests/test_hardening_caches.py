"""Caches keyed by a map never answer for another map (issue #19, item 1).

A freed map's ``id`` is reused by the next map of the same size; a cache keyed by ``id``
then hands the new map the old one's cover cells and walking fields, and a seeded doctrine
game plays differently depending on what was loaded before it in the process.
"""

from __future__ import annotations

import random

from agents.board import cover_cells, walk_field
from cwenv.battlemap.grid import BattleMap, Terrain


def _random_map(rng: random.Random, chars: str = "....=%#") -> BattleMap:
    rows = ["".join(rng.choice(chars) for _ in range(8)) for _ in range(6)]
    return BattleMap.from_rows(rows)


def _fresh_cover_cells(bm: BattleMap) -> frozenset[int]:
    cover = (Terrain.COVER_HALF, Terrain.COVER_THREE_QUARTER)
    return frozenset(
        i
        for i in range(bm.size)
        if bm.terrain[i].standable and any(bm.terrain[n] in cover for n in bm.neighbours[i])
    )


def test_cover_cells_of_many_short_lived_maps_match_a_fresh_computation() -> None:
    rng = random.Random(19)
    wrong = 0
    for _ in range(300):
        bm = _random_map(rng)
        if cover_cells(bm) != _fresh_cover_cells(bm):
            wrong += 1
        del bm  # frees the map (no cycles hold it), so the next one may get its address
    assert wrong == 0


def test_walk_fields_of_many_short_lived_maps_match_a_fresh_computation() -> None:
    rng = random.Random(7)
    wrong = 0
    for _ in range(200):
        bm = _random_map(rng, "...=%")  # no walls: every map has the same door state
        opaque = bm.initial_opacity()
        targets = (0,)
        got = list(walk_field(bm, targets, opaque))
        twin = BattleMap(bm.width, bm.height, bm.terrain, bm.elevation)  # not yet cached
        if got != walk_field(twin, targets, twin.initial_opacity()):
            wrong += 1
        del bm, twin
    assert wrong == 0
