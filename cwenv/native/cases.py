"""The games the differential test plays (docs/native.md "The differential test"): every
shipped scenario, generated ones and a few small hand-built fights, each under a rule
variant of ``configs/rules`` (both initiative systems among them) and a drawn set of the
readings the movement search depends on (X43, X48, X49); in the ``drawn`` pool, every
boolean and enum rule option drawn instead (the shipped variants leave most at their
defaults, and a reading no variant sets is played nowhere else).

Game ``i`` of a run is a pure function of ``i`` and the pool, so a divergence found in a
long run replays alone from its number (``--game I``).
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, fields, replace
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from cwenv.battlemap.grid import BattleMap
from cwenv.engine.game import Game
from cwenv.rules.options import RuleOptions
from cwenv.rules.readings import BlockadeGeometry
from cwenv.rules.variants import load_rule_variant

POOLS = ("shipped", "mixed", "drawn")
"""``shipped``: the shipped scenarios only (the long run); ``mixed``: shipped, generated
and hand-built games in turn (the CI sample); ``drawn``: the mixed pool's games with every
boolean and enum option of ``RuleOptions`` drawn per game (over the variant's)."""

TINY_MAPS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[int, int], ...]]] = {
    # name: (terrain rows, elevation rows, start cells (x, y) in roster order)
    "ledge": (
        ("......", ".=..%.", "..HH..", "......", ".%..=.", "......"),
        ("000000", "000000", "003300", "333333", "333333", "333333"),
        ((0, 0), (5, 5), (5, 0), (0, 5)),
    ),
    "door": (
        ("...#....", ".%.#.=..", "...+....", ".=.#.%..", "...#...."),
        ("00000000",) * 5,
        ((0, 0), (7, 4), (0, 4), (7, 0)),
    ),
    "wet": (
        ("..~~....", ".%~~..=.", "..*...~.", ".=...%~.", "......~."),
        ("00000000", "00000000", "00000011", "00000011", "00000011"),
        ((0, 0), (7, 4), (0, 4), (7, 0)),
    ),
}
"""Small hand-built maps: cover of both levels, a climbable ledge and a drop, a door,
water and fire, on a few cells so that every fighter meets every feature."""

TINY_ROSTERS = {"1v1": ("duell", (0, 1)), "2v2": ("feuergefecht", (0, 4, 1, 5))}
"""The fighters of a hand-built game: a shipped scenario's roster by index, placed on the
map's start cells in this order (the 2v2 alternates sides, as the start cells do)."""

GENERATED_SEEDS = 1000
"""Generated scenarios are drawn from ``generate_game(0 .. GENERATED_SEEDS - 1)``."""


@dataclass(frozen=True, slots=True)
class Case:
    """One game of a differential run: where it comes from, the rules and the seed."""

    index: int
    source: str  # a shipped scenario, "generated:SEED" or "tiny:MAP:ROSTER"
    rules: str | None  # a rule variant of configs/rules, None for the scenario's own
    readings: tuple[tuple[str, str], ...]  # RuleOptions fields set after the variant
    seed: int  # the combat's seed; the random play's seed too

    @property
    def label(self) -> str:
        readings = ",".join(f"{k}={v}" for k, v in self.readings)
        return f"{self.source} rules={self.rules or '-'} {readings or 'readings=-'}"

    def game(self, engine: str) -> Game:
        """The Game of this case for one engine: each engine has its own copy of the map,
        so no cache one engine fills (lines, step tables) answers for the other."""
        game = _base_game(self.source, self.rules, engine)
        if not self.readings:
            return game
        readings: dict[str, Any] = {k: _reading(k, v) for k, v in self.readings}
        options = replace(game.options, **readings)
        return replace(game, options=options)


def scenarios() -> list[str]:
    from cwenv.content.api import list_scenarios

    return sorted(list_scenarios())


def variants() -> list[str | None]:
    """The scenario's own rules, then every shipped rule variant (``passes`` and
    ``passes-zufall`` play the passes initiative, I10-I13; the others steps, I01-I09)."""
    return [None, *sorted(p.stem for p in Path("configs/rules").glob("*.yaml"))]


def case_of(index: int, pool: str = "shipped") -> Case:
    """Game ``index`` of ``pool``: sources and variants in turn (every pair meets within
    len(sources) x len(variants) games); the readings drawn, half of them left default."""
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}; choose one of {', '.join(POOLS)}")
    rng = random.Random(f"cwenv-differential:{pool}:{index}")
    rules = variants()
    kinds = scenarios()
    if pool in ("mixed", "drawn"):
        kinds = [*kinds, "generated", *(f"tiny:{m}:{r}" for m in TINY_MAPS for r in TINY_ROSTERS)]
    source = kinds[(index // len(rules)) % len(kinds)]
    if source == "generated":
        source = f"generated:{rng.randrange(GENERATED_SEEDS)}"
    readings = _every_reading(rng) if pool == "drawn" else _search_readings(rng)
    return Case(index, source, rules[index % len(rules)], readings, index)


def _search_readings(rng: random.Random) -> tuple[tuple[str, str], ...]:
    """The readings the movement search depends on, each drawn half of the time."""
    readings: list[tuple[str, str]] = []
    if rng.random() < 0.5:
        readings.append(("blockade_geometry", rng.choice(list(BlockadeGeometry)).value))
    if rng.random() < 0.5:
        readings.append(("hurdles", str(rng.random() < 0.5)))
    if rng.random() < 0.5:
        readings.append(("diagonals_alternate", str(rng.random() < 0.5)))
    return tuple(readings)


_DEFAULTS = RuleOptions()


def _every_reading(rng: random.Random) -> tuple[tuple[str, str], ...]:
    """Every boolean and enum field of RuleOptions drawn evenly, in field order (a new
    field changes the draws after it: the pool is replayable per version, as the rest)."""
    readings: list[tuple[str, str]] = []
    for f in fields(_DEFAULTS):
        default = getattr(_DEFAULTS, f.name)
        if isinstance(default, bool):
            readings.append((f.name, str(rng.random() < 0.5)))
        elif isinstance(default, Enum):
            readings.append((f.name, str(rng.choice(list(type(default))).value)))
    return tuple(readings)


def _reading(name: str, value: str) -> object:
    """A reading's value from its text: a boolean, or the member of the field's enum whose
    value reads as ``value`` (an IntEnum's too)."""
    default = getattr(_DEFAULTS, name)
    if isinstance(default, bool):
        return value == "True"
    return next(m for m in type(default) if str(m.value) == value)


@cache
def _base_game(source: str, rules: str | None, engine: str) -> Game:
    """The game of ``source`` under ``rules``, one copy per engine (a pickled map comes
    back without its caches)."""
    copy: Game = pickle.loads(pickle.dumps(_loaded(source, rules)))
    return copy


def _loaded(source: str, rules: str | None) -> Game:
    if source.startswith("generated:"):
        from cwenv.content.generate import generate_game

        game = generate_game(int(source.split(":")[1]))
    elif source.startswith("tiny:"):
        _, name, roster = source.split(":")
        game = _tiny_game(name, roster)
    else:
        from cwenv.runner.task import load_game

        return load_game(source, rules)
    if rules is None:
        return game
    return replace(game, options=load_rule_variant(rules))


def _tiny_game(name: str, roster: str) -> Game:
    from cwenv.runner.task import load_game

    rows, elevation, starts = TINY_MAPS[name]
    bm = BattleMap.from_rows(list(rows), elevation_rows=list(elevation), name=f"tiny-{name}")
    scenario, picks = TINY_ROSTERS[roster]
    fighters = tuple(load_game(scenario).roster[i] for i in picks)
    cells = tuple(bm.index(x, y) for x, y in starts[: len(fighters)])
    return Game(bm, fighters, cells, name=f"tiny-{name}-{roster}")
