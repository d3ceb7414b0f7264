"""``python -m benchmarks.cells``: the doctrines' cell scoring in C++ (``agents._cells``,
agents/native/cells.cpp) against the reference loops of agents/cells.py, both under the
native engine, in one run (CPU time; figures to benchmarks/NOTES.md by hand):

* ``taktiker:SCENARIO``: whole Taktiker-vs-Taktiker combats on the 4v4 firefight and
  the 6v6 street fight (the same seeds in both modes; their event logs must agree);
* ``mcts``: MCTS iterations/s (doctrine rollouts) as ``python -m benchmarks``' ``mcts``
  figure measures them.

``native``: the C++ tables; ``loops``: ``agents.cells.use_native(False)``. Samples
alternate between the modes.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable

from agents import cells
from benchmarks.core import Settings, rate
from benchmarks.sections import _combat_runner, _game, mcts
from cwenv.native.differential import engine_as

MODES = ("native", "loops")
SCENARIOS = ("feuergefecht", "strassenschlacht")


def _logs(scenario: str, seeds: range) -> list[str]:
    """The event logs of Taktiker combats on ``seeds`` (the modes must agree)."""
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent

    game = _game(scenario)
    out = []
    for seed in seeds:
        c = game.new_combat(seed)
        agents = {side: make_agent("taktiker") for side in range(3)}
        play_out(c, agents, {side: random.Random(seed * 3 + side) for side in agents})
        out.append(repr(c.events))
    return out


def _work(name: str) -> Callable[[], int]:
    return _combat_runner(_game(name.split(":")[1]), "taktiker")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cells", description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per sample")
    parser.add_argument("--repeats", type=int, default=3, help="samples per mode")
    parser.add_argument("--no-mcts", action="store_true", help="leave out the MCTS figure")
    args = parser.parse_args(argv)
    if cells._built is None:
        raise SystemExit("agents._cells is not built (pip install -e . with a C++ compiler)")
    names = [f"taktiker:{s}" for s in SCENARIOS] + ([] if args.no_mcts else ["mcts"])
    samples: dict[str, dict[str, list[float]]] = {n: {m: [] for m in MODES} for n in names}
    logs: dict[str, list[str]] = {}
    try:
        with engine_as("native"):
            for r in range(args.repeats):
                for mode in MODES[:: 1 if r % 2 else -1]:
                    cells.use_native(mode == "native")
                    if r == 0:
                        logs[mode] = [n for s in SCENARIOS for n in _logs(s, range(1, 4))]
                    for name in names:
                        if name == "mcts":
                            fig = next(iter(mcts(Settings(seconds=args.seconds, repeats=1))))
                            samples[name][mode].append(fig.value)
                        else:
                            samples[name][mode] += rate(_work(name), args.seconds, 1)
    finally:
        cells.use_native(True)
    if logs["native"] != logs["loops"]:
        raise SystemExit("the modes disagree: the same seeds gave different combats")
    print(f"{'figure':24} {'native':>10} {'loops':>10} {'ratio':>8}")
    for name in names:
        native, loops = (statistics.median(samples[name][m]) for m in MODES)
        unit = "iterations/s" if name == "mcts" else "combats/s"
        print(f"{name:24} {native:>10.1f} {loops:>10.1f} {native / loops:>7.2f}×  {unit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
