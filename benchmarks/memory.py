"""``python -m benchmarks --only memory``: the memory targets of issue #16.

* ``state_bytes``: the native Kampfrunde state (``_core.Kampf.state_bytes``: the
  ``State`` struct, its ``Fighter`` structs, the cells' occupant, opacity and solidity;
  the event log and the frames excluded) of a 4v4 combat on the largest shipped map,
  against the 64 KiB target. The largest map is found, not named: the scenario whose
  map has the most cells; the 4v4 is feuergefecht's roster moved onto that map (a
  scenario file written to a temporary folder), and that scenario's own roster is
  measured beside it, as is the capacity bound (64 fighters, ``kMaxFighters``) derived
  from the two.
* ``rss_growth``: random legal play on feuergefecht, a new combat with the next seed
  whenever one ends, ``Settings.decisions`` decisions under the native engine (a tenth of
  them under the Python reference), after a warm-up so that the game's caches (lines,
  step tables, the compiled game) are filled; the growth of the resident set
  (``/proc/self/statm``, after ``gc.collect()``) against the 10 MB target (MB = 10⁶
  bytes). Checkpoints every tenth of the run show whether growth is a trend or a step.
"""

from __future__ import annotations

import gc
import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.core import Figure, Settings, clock
from cwenv.battlemap import los

if TYPE_CHECKING:
    from cwenv.engine.game import Game

SCENARIO = "feuergefecht"  # the 4v4 whose roster is measured, and the RSS run's combats
STATE_TARGET = 64 * 1024  # bytes
RSS_TARGET = 10.0  # MB
WARMUP = 20_000  # decisions before the RSS run is measured
CAPACITY = 64  # src/kampf.hpp kMaxFighters
MB = 1e6


def rss_bytes() -> int:
    """The resident set of this process now (``/proc/self/statm``; ``ru_maxrss``, the
    peak, where there is no /proc)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def largest_map() -> tuple[str, str, int]:
    """(scenario, map name, cells) of the shipped scenario with the largest map."""
    from cwenv.content.api import list_scenarios
    from cwenv.runner.task import load_game

    sizes = [(load_game(s).battlemap.size, s) for s in list_scenarios()]
    cells, scenario = max(sizes)
    root = Path(__file__).resolve().parent.parent / "configs" / "scenarios"
    text = (root / f"{scenario}.yaml").read_text(encoding="utf-8")
    name = next(ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("map:"))
    return scenario, name, cells


def state_bytes(game: Game) -> int | None:
    """The native state of ``game``'s first combat as the core holds it; None without the
    core, or where the core cannot take the game."""
    from cwenv.engine.offers_core import kampf_of

    core = los._core
    if core is None:
        return None
    c = game.new_combat(1)
    compiled = kampf_of(core, c)
    if compiled is None or not compiled.kampf.load(c, None):
        return None
    return int(compiled.kampf.state_bytes)


def _moved_game(map_name: str) -> Game:
    """feuergefecht's fighters on ``map_name``."""
    from cwenv.content.api import load_scenario

    root = Path(__file__).resolve().parent.parent / "configs" / "scenarios"
    lines = (root / f"{SCENARIO}.yaml").read_text(encoding="utf-8").splitlines()
    moved = [f"map: {map_name}" if ln.startswith("map:") else ln for ln in lines]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{SCENARIO}-{map_name}.yaml"
        path.write_text("\n".join(moved) + "\n", encoding="utf-8")
        return load_scenario(path)


def state_figures() -> Iterator[Figure]:
    from cwenv.runner.task import load_game

    scenario, map_name, cells = largest_map()
    four = _moved_game(map_name)
    own = load_game(scenario)
    sizes = {len(g.new_combat(1).fighters): state_bytes(g) for g in (four, own)}
    if any(v is None for v in sizes.values()):
        return  # no native core here: nothing native to measure
    goal = f"target < {STATE_TARGET:,} (64 KiB); event log and frames excluded"
    n4 = len(four.new_combat(1).fighters)
    yield Figure(f"memory:state_bytes:4v4:{map_name}", "bytes", [float(sizes[n4])],
                 f"{SCENARIO}'s roster on {map_name} ({cells} cells); {goal}")  # fmt: skip
    n_own = len(own.new_combat(1).fighters)
    if n_own != n4:
        yield Figure(f"memory:state_bytes:{scenario}:{map_name}", "bytes",
                     [float(sizes[n_own])], f"{n_own} fighters; {goal}")  # fmt: skip
        per_fighter = (sizes[n_own] - sizes[n4]) / (n_own - n4)  # type: ignore[operator]
        bound = sizes[n4] + (CAPACITY - n4) * per_fighter  # type: ignore[operator]
        yield Figure(f"memory:state_bytes:{CAPACITY}_fighters:{map_name}", "bytes", [bound],
                     f"capacity bound, {per_fighter:,.0f} bytes a fighter; {goal}",
                     {"bytes_per_fighter": per_fighter})  # fmt: skip


def rss_growth(game: Game, decisions: int, warmup: int, seed: int = 0) -> Figure:
    """Random legal play for ``warmup`` then ``decisions`` decisions under the engine now
    chosen; the resident set's growth over the measured part, in MB."""
    rng = random.Random(seed)
    combats = [seed]
    c = game.new_combat(seed)

    def step(n: int) -> None:
        nonlocal c
        for _ in range(n):
            if c.is_terminal():
                combats[0] += 1
                c = game.new_combat(combats[0])
            c.apply(rng.choice(c.legal_actions()))

    step(warmup)
    gc.collect()
    start, t0, first = rss_bytes(), clock(), combats[0]
    points = [0.0]
    for i in range(10):
        step(decisions * (i + 1) // 10 - decisions * i // 10)
        gc.collect()
        points.append((rss_bytes() - start) / MB)
    spent = clock() - t0
    engine = los.engine()
    tenths = ", ".join(f"{p:.1f}" for p in points)
    return Figure(
        f"memory:rss_growth:{engine}",
        "MB",
        [points[-1]],
        f"{decisions:,} decisions of random play on {SCENARIO} after {warmup:,}; "
        f"target < {RSS_TARGET:g} MB; growth at each tenth: {tenths} MB",
        {  # numbers only (RESULTS.md prints them)
            "decisions": decisions,
            "warmup": warmup,
            "combats": combats[0] - first + 1,
            "rss_start_mb": start / MB,
            "growth_half_mb": points[5],
            "decisions_per_cpu_s": decisions / max(spent, 1e-9),
        },
    )


def section(s: Settings) -> Iterator[Figure]:
    """State size, then RSS growth: native at ``s.decisions``, the reference at a tenth."""
    from cwenv.runner.task import load_game

    chosen = los.engine()  # given back afterwards
    try:
        try:
            los.use_engine("native")
            engines: tuple[str, ...] = los.ENGINES
        except los.EngineChoiceError:  # no core built: the reference alone
            engines = ("python",)
        if "native" in engines:
            yield from state_figures()
        game = load_game(SCENARIO)
        for engine in engines:
            count = s.decisions if engine == "native" else s.decisions // 10
            los.use_engine(engine)
            yield rss_growth(game, max(count, 1), min(WARMUP, max(count // 5, 1)))
    finally:
        los.use_engine(chosen)
