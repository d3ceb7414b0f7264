"""``python -m benchmarks``: measure the engine, the envs, search and training in one run.

Every figure is the median of several timed runs (CPU time) in this one process, and the Gymnasium
references (CartPole-v1, MiniGrid-DoorKey-8x8) are measured in the same run, so results
read as ratios that survive a noisy machine. Writes ``benchmarks/RESULTS.md`` and
``benchmarks/results.json``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

from benchmarks.core import Figure, Settings

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--seconds", type=float, default=None, help="CPU time per sample")
    parser.add_argument("--repeats", type=int, default=None, help="samples per figure")
    parser.add_argument(
        "--quick", action="store_true", help="smoke test: tiny settings, one scenario"
    )
    parser.add_argument("--only", nargs="*", default=None, help="sections to run")
    parser.add_argument(
        "--decisions", type=int, default=None, help="memory: decisions of the RSS run"
    )
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the results")
    args = parser.parse_args(argv)

    from benchmarks import sections

    settings = Settings(
        seconds=args.seconds if args.seconds is not None else (0.02 if args.quick else 2.0),
        repeats=args.repeats if args.repeats is not None else (1 if args.quick else 3),
        out=args.out,
        quick=args.quick,
        decisions=args.decisions or (2_000 if args.quick else 1_000_000),
    )
    args.out.mkdir(parents=True, exist_ok=True)
    load_start = os.getloadavg()
    started = time.perf_counter()
    figures: list[Figure] = []
    for name, section in sections.SECTIONS.items():
        if args.only and name not in args.only:
            continue
        print(f"== {name}", flush=True)
        for fig in section(settings):
            print(f"  {fig.name}: {fig.value:,.1f} {fig.unit} {fig.note}", flush=True)
            figures.append(fig)
    meta = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "cpus": os.cpu_count(),
        "seconds_per_sample": settings.seconds,
        "repeats": settings.repeats,
        "quick": settings.quick,
        "decisions": settings.decisions,
        "clock": "process_time (CPU seconds of the benchmark process)",
        "load_start": [round(x, 2) for x in load_start],
        "load_end": [round(x, 2) for x in os.getloadavg()],
        "wall_seconds": round(time.perf_counter() - started, 1),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    from benchmarks.report import write_results

    write_results(figures, meta, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
