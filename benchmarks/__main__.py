"""``python -m benchmarks``: measure the engine, the envs, search and training in one run.

Every figure is the median of several timed runs in this one process, and the Gymnasium
references (CartPole-v1, MiniGrid-DoorKey-8x8) are measured in the same run, so results
read as ratios that survive a noisy machine. Writes ``benchmarks/RESULTS.md`` and
``benchmarks/results.json``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

from benchmarks.core import Figure

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per sample")
    parser.add_argument("--repeats", type=int, default=3, help="samples per figure")
    parser.add_argument("--only", nargs="*", default=None, help="sections to run")
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the results")
    args = parser.parse_args(argv)

    from benchmarks import sections

    figures: list[Figure] = []
    for name, section in sections.SECTIONS.items():
        if args.only and name not in args.only:
            continue
        print(f"== {name}", flush=True)
        for fig in section(args.seconds, args.repeats, args.out):
            print(f"  {fig.name}: {fig.value:,.1f} {fig.unit} {fig.note}", flush=True)
            figures.append(fig)
    meta = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "seconds_per_sample": args.seconds,
        "repeats": args.repeats,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    from benchmarks.report import write_results

    write_results(figures, meta, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
