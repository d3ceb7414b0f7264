"""``python -m benchmarks.native``: the native core against the Python reference, one run.

Both engines are measured in the same process, interleaved round by round (CPU time,
``benchmarks.core.rate``), so each figure is a ratio that a busy machine disturbs little:

* ``los``: ``terrain_cover`` + ``has_line_of_sight`` for the pairs of cells a greedy
  feuergefecht combat asks about, lines already compiled (as in a long run);
* ``los_array``: the cover of every cell of the map against 20 attacker cells, per cell:
  natively one call for the whole map (``Lines.terrain_covers``, the core without the
  Python call around each query), in Python one ``terrain_cover`` per cell;
* ``los_cold``: compiling lines of fire on a fresh map (``sight_line``, empty cache);
* ``paths``: the movement searches of real greedy feuergefecht turns (``reachable``, free
  movement and, where the map has difficult terrain, Schwierige Bewegung, each with the
  route to its last destination), step tables already built (as in a long run);
* ``legality``: ``handlung_actions`` (the Handlungen open to a fighter, offers.py) at the
  TURN decisions of real greedy feuergefecht combats, per call (natively: the combat's
  state imported into the core, the list computed, the Actions handed back);
* ``turn``: ``turn_actions`` (the whole TURN list with its movement searches, turn.py) at
  the same decisions, per call;
* ``prompts``: the choices of every ported prompt (cwenv/engine/prompts.py: a check's
  Mumm prompts, KEEP, NIEDERWERFEN, DEFEND) with the M08 shakes at it, at the prompts of
  real greedy feuergefecht combats, per call (natively: the fighter and frame read, the
  list computed, the Actions handed back);
* ``combat``: whole greedy-vs-greedy feuergefecht combats, each seed under both engines
  in turn; their event logs must be identical, or the benchmark fails;
* ``doctrine``: the same with the Taktiker doctrine on both sides.

``python -m benchmarks --only native`` reports the same figures, both engines side by side
(``native:FIGURE:ENGINE``). Figures and context go to benchmarks/NOTES.md by hand
(docs/native.md).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from benchmarks.core import Figure, Settings, clock, rate
from cwenv.battlemap import los
from cwenv.battlemap.grid import BattleMap
from cwenv.engine.game import Game

if TYPE_CHECKING:
    from cwenv.engine.state import Combat
    from cwenv.engine.turn import MoveSearch

SCENARIO = "feuergefecht"
AGENT = "greedy"
FIGURES = {
    "los": "queries/s",
    "los_array": "queries/s",
    "los_cold": "lines/s",
    "paths": "searches/s",
    "legality": "calls/s",
    "turn": "calls/s",
    "prompts": "calls/s",
    "combat": "combats/s",
    "doctrine": "combats/s",
}
DOCTRINE = "taktiker"


def _game() -> Game:
    from cwenv.runner.task import load_game

    return load_game(SCENARIO)


def _play(game: Game, seed: int, agent: str = AGENT) -> str:
    """One combat of ``agent`` against itself; the digest of its event log."""
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    agents = {side: make_agent(agent) for side in (0, 1, 2)}
    c = game.new_combat(seed)
    play_out(c, agents, {side: random.Random(seed * 3 + side) for side in agents})
    return hashlib.sha256(repr(c.events).encode()).hexdigest()


def _decisions(game: Game, combats: int) -> Iterator[Combat]:
    """Real greedy combats of the reference ``Combat`` (whose pieces ask the core),
    paused at every decision (seeds apart from the timed ones)."""
    from cwenv.agent import DecisionView
    from cwenv.agent_registry import make_agent
    from cwenv.engine.state import Combat
    from cwenv.rules.dice import seeded

    agent = make_agent(AGENT)
    for seed in range(combats):
        c = Combat(game, seeded(10_000 + seed))
        view, rng = DecisionView(c), random.Random(seed)
        while not c.is_terminal():
            yield c
            c.apply(agent.act(view, c.legal_actions(), rng))


def _asked_pairs(game: Game, combats: int) -> list[tuple[int, int]]:
    """The cells of every two fighters at every decision of real greedy combats: the
    (attacker, target) lines the engine and the agents ask about."""
    pairs: list[tuple[int, int]] = []
    for c in _decisions(game, combats):
        cells = [f.pos for f in c.fighters if f.on_map and not f.dead]
        pairs += [(a, b) for a in cells for b in cells if a != b]
    return pairs


def _asked_searches(game: Game, combats: int) -> list[tuple[MoveSearch, int]]:
    """The movement search of every TURN decision of real greedy combats, with its budget."""
    from cwenv.engine.actions import DecisionKind
    from cwenv.engine.turn import move_search, turn_of

    out: list[tuple[MoveSearch, int]] = []
    for c in _decisions(game, combats):
        d = c.decision
        if d is not None and d.kind is DecisionKind.TURN:
            f = c.fighters[d.fighter]
            budget = turn_of(c, f.idx).move_left(c, f)
            if budget > 0:
                out.append((move_search(c, f), budget))
    return out


def _legality_work(game: Game, combats: int, whole: bool = False) -> Callable[[], int]:
    """handlung_actions (``whole``: turn_actions) at every TURN decision of real greedy
    combats (each a clone)."""
    from cwenv.engine.actions import DecisionKind
    from cwenv.engine.offers import handlung_actions
    from cwenv.engine.turn import turn_actions

    asked = [
        (c.clone(), c.decision.fighter)
        for c in _decisions(game, combats)
        if c.decision is not None and c.decision.kind is DecisionKind.TURN
    ]

    def work() -> int:
        for c, fighter in asked:
            if whole:
                turn_actions(c, fighter)
            else:
                handlung_actions(c, c.fighters[fighter])
        return len(asked)

    work()  # the game compiled for the core, as in a long run
    return work


def _prompts_work(game: Game, combats: int) -> Callable[[], int]:
    """prompts.py's choices and prompt_shakes at every ported prompt of real greedy
    combats (each a clone)."""
    from cwenv.engine.conditions import prompt_shakes
    from cwenv.engine.prompts import PORTED, asked_choices

    asked = [
        (c.clone(), d.kind, d.fighter)
        for c in _decisions(game, combats)
        if (d := c.decision) is not None and d.kind in PORTED
    ]

    def work() -> int:
        for c, kind, fighter in asked:
            prompt_shakes(c, kind, fighter)
            asked_choices(c)
        return len(asked)

    work()  # the game compiled for the core, as in a long run
    return work


def _paths_work(game: Game, searches: list[tuple[MoveSearch, int]]) -> Callable[[], int]:
    from cwenv.battlemap.steps import has_difficult_terrain

    hard = has_difficult_terrain(game.battlemap, game.options.hurdles)

    def work() -> int:
        done = 0
        for search, budget in searches:
            for difficult in (False, True) if hard else (False,):
                reach = search.reach(budget, difficult=difficult)
                if reach.dests:
                    reach.route(reach.dests[-1])
                done += 1
        return done

    work()  # the step tables built, as in a long run
    return work


def _los_work(bm: BattleMap, pairs: list[tuple[int, int]]) -> Callable[[], int]:
    opaque = bm.initial_opacity()
    cover, sight = los.terrain_cover, los.has_line_of_sight

    def work() -> int:
        for a, b in pairs:
            cover(bm, opaque, a, b)
            sight(bm, opaque, a, b)
        return 2 * len(pairs)

    return work


def _array_work(bm: BattleMap) -> Callable[[], int]:
    import numpy as np

    opaque = bm.initial_opacity()
    cells = np.arange(bm.size, dtype=np.int32)
    standable = [c for c in range(bm.size) if bm.terrain[c].standable]
    sources = random.Random(0).sample(standable, 20)
    cover = los.terrain_cover

    def work() -> int:
        core = los._core
        if core is None:
            for a in sources:
                for b in range(bm.size):
                    cover(bm, opaque, a, b)
        else:
            lines = core.Lines(bm.width, bm.height, bytes(bm.terrain))
            for a in sources:
                lines.terrain_covers(opaque, a, cells)
        return len(sources) * bm.size

    work()  # the Python lines compiled, as in a long run
    return work


def _cold_work(bm: BattleMap, pairs: list[tuple[int, int]]) -> Callable[[], int]:
    fresh = BattleMap(width=bm.width, height=bm.height, terrain=bm.terrain, elevation=bm.elevation)

    def work() -> int:
        fresh.line_cache.clear()
        for a, b in pairs:
            los.sight_line(fresh, a, b)
        return len(pairs)

    return work


def _combats(
    game: Game, seeds: range, digests: dict[str, list[str]], agent: str = AGENT
) -> dict[str, float]:
    """Combats per CPU second of each engine over ``seeds``, the engines alternating combat
    by combat (and which goes first), so a neighbour's load falls on both alike; the
    event-log digests go to ``digests``."""
    spent = dict.fromkeys(los.ENGINES, 0.0)
    for i, seed in enumerate(seeds):
        for engine in los.ENGINES[:: 1 if i % 2 else -1]:
            los.use_engine(engine)
            start = clock()
            digests[engine].append(_play(game, seed, agent))
            spent[engine] += clock() - start
    return {engine: len(seeds) / max(spent[engine], 1e-9) for engine in los.ENGINES}


def measure(seconds: float, repeats: int, combats: int) -> dict[str, dict[str, list[float]]]:
    """Samples per figure and engine: {figure: {engine: [units per CPU second, ...]}}.

    The engines alternate inside every round; the combats of a round are the same seeds
    under both engines.
    """
    game = _game()
    bm = game.battlemap
    pairs = _asked_pairs(game, 2)
    distinct = sorted(set(pairs))
    searches = _asked_searches(game, 2)
    out: dict[str, dict[str, list[float]]] = {
        name: {engine: [] for engine in los.ENGINES} for name in FIGURES
    }
    digests: dict[str, list[str]] = {engine: [] for engine in los.ENGINES}
    chosen = los.engine()  # given back afterwards, so a caller on the reference stays there
    try:
        for round_ in range(repeats):
            for engine in los.ENGINES:
                los.use_engine(engine)
                out["los"][engine] += rate(_los_work(bm, pairs), seconds, 1)
                out["los_array"][engine] += rate(_array_work(bm), seconds, 1)
                out["los_cold"][engine] += rate(_cold_work(bm, distinct), seconds, 1)
                out["paths"][engine] += rate(_paths_work(game, searches), seconds, 1)
                out["legality"][engine] += rate(_legality_work(game, 2), seconds, 1)
                out["turn"][engine] += rate(_legality_work(game, 2, whole=True), seconds, 1)
                out["prompts"][engine] += rate(_prompts_work(game, 2), seconds, 1)
            seeds = range(1 + round_ * combats, 1 + (round_ + 1) * combats)
            for engine, value in _combats(game, seeds, digests).items():
                out["combat"][engine].append(value)
            for engine, value in _combats(game, seeds, digests, DOCTRINE).items():
                out["doctrine"][engine].append(value)
    finally:
        los.use_engine(chosen)
    if digests["native"] != digests["python"]:
        raise SystemExit("the engines disagree: the same seeds gave different event logs")
    return out


def section(s: Settings) -> Iterator[Figure]:
    """``python -m benchmarks --only native``: every figure under both engines."""
    combats = 1 if s.quick else 10
    for name, samples in measure(s.seconds / 2, s.repeats, combats).items():
        for engine in los.ENGINES:
            yield Figure(f"native:{name}:{engine}", FIGURES[name], samples[engine])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.native", description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per sample")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--combats", type=int, default=10, help="combats per combat sample")
    parser.add_argument("--quick", action="store_true", help="smoke test: tiny settings")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.repeats, args.combats = 0.02, 1, 1
    print(f"{'figure':10} {'native':>14} {'python':>14} {'native/python':>14}")
    for name, samples in measure(args.seconds, args.repeats, args.combats).items():
        native, python = (statistics.median(samples[e]) for e in los.ENGINES)
        ratio = native / python
        print(f"{name:10} {native:>14,.1f} {python:>14,.1f} {ratio:>13.2f}×  {FIGURES[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
