"""Scaling: cost per combat and per turn as fighters and maps grow."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator

from benchmarks.core import Figure, Settings, clock
from cwenv.battlemap.grid import BattleMap
from cwenv.engine.game import Game
from cwenv.model.specs import FighterSpec, RangeBand, WeaponSpec
from cwenv.model.types import Side, WeaponKind

PISTOL = WeaponSpec(
    "Pistole",
    WeaponKind.RANGED,
    bonus=2,
    ranges=(RangeBand(10, 0), RangeBand(40, -2)),
    magazine=12,
    nachladen=1,
)
SKILLS = (10, 10, 10, 12, 10, 11, 10, 10, 12, 10, 11, 10)


def open_game(per_side: int, side_len: int) -> Game:
    """An open square map with some half cover; runners west, gegner east."""
    rows = []
    for y in range(side_len):
        row = ["."] * side_len
        if y % 4 == 2:
            for x in range(3, side_len - 3, 5):
                row[x] = "="
        rows.append("".join(row))
    bm = BattleMap.from_rows(rows)
    roster, positions = [], []
    for i in range(per_side):
        for side, x in ((Side.RUNNER, 0), (Side.GEGNER, side_len - 1)):
            roster.append(
                FighterSpec(
                    f"{side.label} {i + 1}", side, SKILLS, lp=26, weapons=(PISTOL,), ruestung=1
                )
            )
            positions.append(bm.index(x, (i * 2) % side_len))
    return Game(bm, tuple(roster), tuple(positions), round_limit=30)


def _measure(game: Game, agent: str, s: Settings) -> tuple[list[float], float]:
    """CPU ms per combat (samples) and the median CPU µs per turn."""
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    agents = {0: make_agent(agent), 1: make_agent(agent), 2: make_agent(agent)}
    per_combat, per_turn = [], []
    seed = 0
    for _ in range(s.repeats):
        games = turns = 0
        start = clock()
        while clock() - start < s.seconds / 2 or games == 0:
            seed += 1
            c = game.new_combat(seed)
            play_out(c, agents, {side: random.Random(seed + side) for side in agents})
            games += 1
            turns += max(c.counters.get("turns", 0), 1)
        elapsed = clock() - start
        per_combat.append(elapsed / games * 1000)
        per_turn.append(elapsed / turns * 1e6)
    return per_combat, statistics.median(per_turn)


def run_scaling(s: Settings, agent: str) -> Iterator[Figure]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fighters = (1, 2) if s.quick else (1, 2, 4, 8, 12)
    sizes = (16,) if s.quick else (16, 32, 48, 64)
    by_fighters, by_size = [], []
    for n in fighters:
        ms, us = _measure(open_game(n, 32), agent, s)
        fig = Figure(f"scaling:fighters={2 * n}:map=32", "ms/combat", ms, extra={"us_per_turn": us})
        by_fighters.append((2 * n, fig.value, us))
        yield fig
    per_side = 1 if s.quick else 4
    for size in sizes:
        ms, us = _measure(open_game(per_side, size), agent, s)
        fig = Figure(
            f"scaling:map={size}:fighters={2 * per_side}",
            "ms/combat",
            ms,
            extra={"us_per_turn": us},
        )
        by_size.append((size, fig.value, us))
        yield fig
    plot, axes = plt.subplots(2, 2, figsize=(10, 7))
    for row, (unit, col) in enumerate((("ms per combat", 1), ("µs per turn", 2))):
        axes[row][0].plot([p[0] for p in by_fighters], [p[col] for p in by_fighters], "o-")
        axes[row][0].set_xlabel("fighters (32×32 map)")
        axes[row][0].set_ylabel(unit)
        axes[row][1].plot([p[0] ** 2 for p in by_size], [p[col] for p in by_size], "o-")
        axes[row][1].set_xlabel(f"map cells ({2 * per_side} fighters)")
        axes[row][1].set_ylabel(unit)
    plot.suptitle(f"cwenv scaling ({agent} vs {agent}, CPU time)")
    plot.tight_layout()
    plot.savefig(s.out / "scaling.png", dpi=100)
    plt.close(plot)
