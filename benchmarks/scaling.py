"""Scaling: cost per combat and per decision as fighters and maps grow."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.core import Figure
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


def _measure(game: Game, agent: str, seconds: float, repeats: int) -> tuple[list[float], float]:
    from agents.base import play_out
    from agents.registry import make_agent

    agents = {0: make_agent(agent), 1: make_agent(agent), 2: make_agent(agent)}
    per_combat, per_decision = [], []
    seed = 0
    for _ in range(repeats):
        games = decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2 or games == 0:
            seed += 1
            c = game.new_combat(seed)
            play_out(c, agents, {s: random.Random(seed + s) for s in agents})
            games += 1
            decisions += len(c.history)
        elapsed = time.perf_counter() - start
        per_combat.append(elapsed / games * 1000)
        per_decision.append(elapsed / decisions * 1e6)
    per_decision.sort()
    return per_combat, per_decision[len(per_decision) // 2]


def run_scaling(seconds: float, repeats: int, out: Path, agent: str) -> Iterator[Figure]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fighters = (1, 2, 4, 8, 12)
    sizes = (16, 32, 48, 64)
    by_fighters, by_size = [], []
    for n in fighters:
        ms, us = _measure(open_game(n, 32), agent, seconds, repeats)
        fig = Figure(
            f"scaling:fighters={2 * n}:map=32", "ms/combat", ms, extra={"us_per_decision": us}
        )
        by_fighters.append((2 * n, fig.value, us))
        yield fig
    for s in sizes:
        ms, us = _measure(open_game(4, s), agent, seconds, repeats)
        fig = Figure(f"scaling:fighters=8:map={s}", "ms/combat", ms, extra={"us_per_decision": us})
        by_size.append((s, fig.value, us))
        yield fig
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].plot([f for f, _, _ in by_fighters], [u for _, _, u in by_fighters], "o-")
    axes[0].set_xlabel("fighters (32×32 map)")
    axes[0].set_ylabel("µs per decision")
    axes[1].plot([s * s for s, _, _ in by_size], [u for _, _, u in by_size], "o-")
    axes[1].set_xlabel("map cells (8 fighters)")
    axes[1].set_ylabel("µs per decision")
    fig.suptitle(f"cwenv scaling ({agent} vs {agent})")
    fig.tight_layout()
    fig.savefig(out / "scaling.png", dpi=100)
    plt.close(fig)
