"""``python -m benchmarks.clone``: a clone that copies its original's native kept state
(issue #16, src/sync_clone.cpp) against one that imports the whole combat on first use,
in one run (CPU time; figures to benchmarks/NOTES.md by hand), on the mid-fight 4v4
feuergefecht state of ``python -m benchmarks``' ``clone`` figure:

* ``clone``: ``clone()`` alone;
* ``clone+sync``: ``clone()`` and the clone's first native call (``Kampf.load``: the
  copied state brought up to date from the events, or the whole combat imported);
* ``clone+apply``: ``clone()``, one legal action applied and the next decision's legal
  actions listed (what a search pays per clone it plays on; the clone's first native call
  copies or imports);
* ``mcts``: MCTS iterations/s as ``python -m benchmarks``' ``mcts`` figure measures them.

``copied``: the clone copies the kept state; ``import``: it imports whole
(``clone_core.copy_on_clone(False)``, as before); ``python``: ``CWENV_ENGINE=python``.
Samples alternate between the modes.
"""

from __future__ import annotations

import argparse
import statistics

from benchmarks.core import Settings, rate
from benchmarks.sections import _game, mcts, mid_fight
from cwenv.battlemap import los
from cwenv.engine import offers_core
from cwenv.engine.clone_core import copy_on_clone
from cwenv.native.differential import engine_as

MODES = ("copied", "import", "python")


def _sample(name: str, seconds: float) -> float:
    """One sample of figure ``name`` under the engine and mode now, per CPU second; 0 for
    ``clone+sync`` under the reference (nothing to sync)."""
    if name == "mcts":
        return next(iter(mcts(Settings(seconds=seconds, repeats=1)))).value
    c = mid_fight(_game("feuergefecht"))
    legal = c.legal_actions()
    core = los._core
    compiled = None if core is None else offers_core.kampf_of(core, c)
    if name == "clone+sync" and compiled is None:
        return 0.0

    def clones() -> int:
        for _ in range(100):
            c.clone()
        return 100

    def synced() -> int:
        assert compiled is not None
        for _ in range(100):
            compiled.kampf.load(c.clone(), None)
        return 100

    def played() -> int:
        for i in range(20):
            twin = c.clone()
            twin.apply(legal[i * 7 % len(legal)])
            twin.legal_actions()
        return 20

    work = {"clone": clones, "clone+sync": synced, "clone+apply": played}[name]
    return rate(work, seconds, 1)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clone", description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per sample")
    parser.add_argument("--repeats", type=int, default=3, help="samples per mode")
    parser.add_argument("--no-mcts", action="store_true", help="leave out the MCTS figure")
    args = parser.parse_args(argv)
    names = ["clone", "clone+sync", "clone+apply"] + ([] if args.no_mcts else ["mcts"])
    samples: dict[str, dict[str, list[float]]] = {n: {m: [] for m in MODES} for n in names}
    try:
        for r in range(args.repeats):
            for mode in MODES[:: 1 if r % 2 else -1]:
                copy_on_clone(mode == "copied")
                with engine_as("python" if mode == "python" else "native"):
                    for name in names:
                        samples[name][mode].append(_sample(name, args.seconds))
    finally:
        copy_on_clone(True)
    for name in names:
        med = {m: statistics.median(samples[name][m]) for m in MODES}
        row = "  ".join(f"{m} {med[m]:9,.0f}" if med[m] else f"{m} {'-':>9}" for m in MODES)
        print(f"{name:12} /s  {row}  copied/import {med['copied'] / med['import']:.2f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
