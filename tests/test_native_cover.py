"""The native cover_against (issue #16, src/legality.cpp ``CoverAgainst``): at every
decision of seeded random-play games of the differential test's mixed pool, for every
pair of fighters on the map and each way an attack meets cover (melee, direct ranged,
area), the core answers cover.py's ``cover_against`` whole: the level, whether living
cover set it, who gives it and the terrain's level (C01-C04, R06, X23, X25, X26). Each
game draws its own cover readings (living cover in melee, prone creatures counting, the
stacking rule, the neutral's level, prone three-quarter to full), so every branch is met;
a difference planted in the core (the coverer on a tie) is caught."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv import _core
from cwenv.engine import offers_core
from cwenv.engine.cover import cover_against
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.model.types import CoverLevel
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.rules.options import LivingCoverStacking

GAMES = 16
STEPS = 120
WAYS = ((False, False), (True, False), (True, True))  # (ranged, area): melee, direct, area


def _game(index: int) -> tuple[Game, int, str]:
    """Game ``index`` of the mixed pool under its own drawn cover readings."""
    case = cases.case_of(index, "mixed")
    game = case.game("native")
    rng = random.Random(f"native-cover:{index}")
    options = replace(
        game.options,
        living_cover_melee=rng.random() < 0.5,
        living_cover_prone_counts=rng.random() < 0.5,
        living_cover_stacking=rng.choice(list(LivingCoverStacking)),
        living_cover_neutral=rng.choice(list(CoverLevel)),
        prone_three_quarter_to_full=rng.random() < 0.5,
    )
    return replace(game, options=options), case.seed, case.label


def _compare(index: int) -> Counter[str]:
    """Plays game ``index``; at every decision compares every pair's cover both ways.
    Returns what the answers were (to show the sample meets every branch)."""
    game, seed, label = _game(index)
    c: Combat = game.new_combat(seed)
    compiled = offers_core.kampf_of(_core, c)
    assert compiled is not None, f"game {index} ({label}): the core refused the game"
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for step in range(STEPS):
        if c.outcome is not None:
            break
        on_map = [f for f in c.fighters if f.on_map]
        for a in on_map:
            for t in on_map:
                if a is t:
                    continue
                for ranged, area in WAYS:
                    ref = cover_against(c, a, t, ranged=ranged, area=area)
                    native = compiled.kampf.cover_against(c, a.idx, t.idx, ranged, area)
                    expect = (int(ref.level), ref.living, ref.coverer, int(ref.terrain))
                    assert native == expect, (
                        f"game {index} ({label}) step {step}: {a.name} -> {t.name} ranged="
                        f"{ranged} area={area}: native {native} != reference {expect}"
                    )
                    seen[f"level {ref.level.name}"] += 1
                    if ref.living:
                        seen["melee living" if not ranged else "ranged living"] += 1
        legal = c.legal_actions()
        c.apply(legal[rng.randrange(len(legal))])
    return seen


def _games(count: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    with engine_as("native"):
        for i in range(count):
            seen += _compare(i)
    return seen


def test_the_core_answers_cover_against_as_cover_py() -> None:
    seen = _games(GAMES)
    for branch in ("level NONE", "level HALF", "level THREE_QUARTER", "level FULL"):
        assert seen[branch] > 0, seen
    assert seen["melee living"] > 0 and seen["ranged living"] > 0, seen


def test_a_planted_difference_is_caught(fault: Callable[[str], None]) -> None:
    fault("living_cover_tie")  # on a tie the creature nearer the attacker covers
    with pytest.raises(AssertionError, match="native"):
        _games(GAMES)
