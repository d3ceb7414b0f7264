"""The maps the native core's conformance tests compare both engines on: every shipped
scenario's and 50 generated ones (tests/test_native_los.py, tests/test_native_paths.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cwenv.battlemap.grid import BattleMap
from cwenv.content.generate import generate_game
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.native.differential import engine_as
from cwenv.rules.dice import seeded
from cwenv.runner.task import load_game

__all__ = ["GENERATED", "SCENARIOS", "all_maps", "engine_as"]

SCENARIOS = sorted(p.stem for p in Path("configs/scenarios").glob("*.yaml"))
GENERATED = range(50)


def all_maps() -> Iterator[tuple[str, BattleMap]]:
    """(name, map) of every shipped scenario, then of the generated ones."""
    for name in SCENARIOS:
        yield name, load_game(name).battlemap
    for seed in GENERATED:
        yield f"generated:{seed}", generate_game(seed).battlemap


def reference(game: Game, seed: int) -> Combat:
    """The reference ``Combat`` of ``game`` from ``seed``, whatever ``Game.new_combat``
    starts: the tests of the native pieces (legality, prompts, plans, the kept state) ask
    the core about a reference combat."""
    return Combat(game, seeded(seed))
