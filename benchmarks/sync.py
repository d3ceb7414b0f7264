"""``python -m benchmarks.sync``: the native state kept across decisions (issue #16,
src/sync.cpp) against importing the whole combat at every native call, and the Python
reference, in one run (CPU time; figures to benchmarks/NOTES.md by hand):

* ``turn``: ``turn_actions`` per call at the TURN decisions of greedy feuergefecht
  combats (the call after the engine's own at that decision: no new events to apply);
* ``encode``: encoding 2's entity and candidate encoders (previews included) per
  observation at every decision of the same combats;
* ``combat``: whole greedy-vs-greedy feuergefecht combats (the event logs must agree);
* ``env2:SCENARIO``: ``cwenv/Kampfrunde2-v0`` steps/s, random masked actions against the
  random opponent;
* the sync's counts per decision (events applied, fighters re-read, whole imports).

``kept``: the state kept from the events; ``import``: ``Kampf.sync_on`` off, the whole
combat imported at every call, as before; ``python``: ``CWENV_ENGINE=python``.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable
from functools import partial

from benchmarks.core import clock, rate
from benchmarks.env2 import _stepper
from benchmarks.native import _play
from cwenv.battlemap import los
from cwenv.engine.sync_core import keep_state
from cwenv.native.differential import engine_as

MODES = ("kept", "import", "python")
SCENARIO = "feuergefecht"


def _mode(mode: str) -> str:
    """Switch to ``mode``; the engine it runs under."""
    keep_state(mode == "kept")
    return "python" if mode == "python" else "native"


def _per_call(seeds: range) -> dict[str, dict[str, float]]:
    """µs per turn_actions call and per observation, by mode, over ``seeds``' combats."""
    from cwenv.agent import DecisionView
    from cwenv.agent_registry import make_agent
    from cwenv.engine.actions import DecisionKind
    from cwenv.engine.turn import turn_actions
    from cwenv.envs.encoding2 import Session2
    from cwenv.envs.entities import entity_rows

    session = Session2(SCENARIO)
    agent = make_agent("greedy")
    spent = {m: {"turn": 0.0, "encode": 0.0} for m in MODES}
    calls = {m: {"turn": 0, "encode": 0} for m in MODES}
    for i, seed in enumerate(seeds):
        for mode in MODES[:: 1 if i % 2 else -1]:
            with engine_as(_mode(mode)):
                c = session.game.new_combat(seed)
                view, rng = DecisionView(c), random.Random(seed)
                while not c.is_terminal():
                    legal, d = c.legal_actions(), c.decision
                    assert d is not None
                    if d.kind is DecisionKind.TURN:
                        start = clock()
                        turn_actions(c, d.fighter)
                        spent[mode]["turn"] += clock() - start
                        calls[mode]["turn"] += 1
                    rows = entity_rows(session.slots, d.fighter)
                    start = clock()
                    session.entities.encode(c, d.fighter, legal)
                    session.candidates.encode(c, d.fighter, rows, legal)
                    spent[mode]["encode"] += clock() - start
                    calls[mode]["encode"] += 1
                    c.apply(agent.act(view, legal, rng))
    keep_state(True)
    return {m: {k: spent[m][k] / max(calls[m][k], 1) * 1e6 for k in spent[m]} for m in MODES}


def _combats(seeds: range) -> dict[str, float]:
    """Greedy combats per CPU second by mode, the modes alternating combat by combat."""
    spent = dict.fromkeys(MODES, 0.0)
    digests: dict[str, list[str]] = {m: [] for m in MODES}
    from cwenv.runner.task import load_game

    game = load_game(SCENARIO)
    for i, seed in enumerate(seeds):
        for mode in MODES[:: 1 if i % 2 else -1]:
            los.use_engine(_mode(mode))
            start = clock()
            digests[mode].append(_play(game, seed))
            spent[mode] += clock() - start
    los.use_engine("native")
    keep_state(True)
    if len({tuple(d) for d in digests.values()}) != 1:
        raise SystemExit("the modes disagree: the same seeds gave different event logs")
    return {m: len(seeds) / max(spent[m], 1e-9) for m in MODES}


def _env2(scenario: str, seconds: float, repeats: int) -> dict[str, float]:
    """Encoding 2's env steps per CPU second by mode (samples alternating)."""
    steppers: dict[str, Callable[[int], int]] = {}
    for seed, mode in enumerate(MODES):
        _mode(mode)
        steppers[mode] = _stepper(
            scenario, "fast", "python" if mode == "python" else "native", seed
        )
    found: dict[str, list[float]] = {m: [] for m in MODES}
    for m, steps in steppers.items():
        _mode(m)
        steps(200)  # warm-up: the odds cache, the cover rows, the move searches
    for _ in range(repeats):
        for m, steps in steppers.items():
            _mode(m)
            found[m] += rate(partial(steps, 20), seconds, 1)
    keep_state(True)
    return {m: statistics.median(v) for m, v in found.items()}


def _counts(seed: int) -> tuple[float, float, int, int]:
    """(events applied, fighters re-read per decision, whole imports, decisions) of one
    greedy combat kept from the events."""
    from cwenv import _core
    from cwenv.agent import DecisionView
    from cwenv.agent_registry import make_agent
    from cwenv.engine.offers_core import kampf_of
    from cwenv.runner.task import load_game

    with engine_as("native"):
        c = load_game(SCENARIO).new_combat(seed)
        compiled = kampf_of(_core, c)
        assert compiled is not None
        before = compiled.kampf.sync_counts
        agent, view, rng = make_agent("greedy"), DecisionView(c), random.Random(seed)
        decisions = 0
        while not c.is_terminal():
            c.apply(agent.act(view, c.legal_actions(), rng))
            decisions += 1
        after = compiled.kampf.sync_counts
    n = max(decisions, 1)
    return (after[1] - before[1]) / n, (after[2] - before[2]) / n, after[3] - before[3], n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sync", description=__doc__)
    parser.add_argument("--combats", type=int, default=10, help="combats per figure")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per env sample")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved env samples")
    args = parser.parse_args(argv)
    per_call = _per_call(range(100, 100 + max(args.combats // 2, 1)))
    for what in ("turn", "encode"):
        row = "  ".join(f"{m} {per_call[m][what]:8.1f}" for m in MODES)
        print(f"{what:14} µs/call  {row}")
    combats = _combats(range(1, 1 + args.combats))
    print(f"{'combat':14} /s       " + "  ".join(f"{m} {combats[m]:8.1f}" for m in MODES))
    for scenario in ("feuergefecht", "duell"):
        env = _env2(scenario, args.seconds, args.repeats)
        print(f"{'env2:' + scenario:14} steps/s  " + "  ".join(f"{m} {env[m]:8.0f}" for m in MODES))
    events, rereads, whole, decisions = _counts(7)
    print(
        f"sync per decision: {events:.2f} events applied, {rereads:.2f} fighters re-read, "
        f"{whole} whole imports in {decisions} decisions"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
