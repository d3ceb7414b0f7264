"""Write benchmarks/results.json and benchmarks/RESULTS.md (atomically)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.core import Figure

TARGETS = {
    "combats:feuergefecht:steps": 1000.0,  # 4v4 doctrine vs doctrine, one core
}


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_results(figures: list[Figure], meta: dict[str, Any], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    ref = {f.name: f.value for f in figures if f.name.startswith("ref:")}
    doorkey = ref.get("ref:MiniGrid-DoorKey-8x8-v0")
    data = {
        "meta": meta,
        "figures": [
            {
                "name": f.name,
                "unit": f.unit,
                "median": f.value,
                "samples": f.samples,
                "note": f.note,
                **f.extra,
            }
            for f in figures
        ],
    }
    _atomic_write(out / "results.json", json.dumps(data, indent=2) + "\n")
    lines = [
        "# Benchmark results",
        "",
        f"Measured {meta['date']} on {meta['machine']}, Python {meta['python']}; every figure",
        f"is the median of {meta['repeats']} samples of {meta['seconds_per_sample']} s in one",
        "process (`python -m benchmarks`); ratios are to MiniGrid DoorKey from the same run.",
        "",
        "| figure | median | unit | × DoorKey | target | note |",
        "|---|---:|---|---:|---:|---|",
    ]
    for f in figures:
        ratio = f"{f.value / doorkey:.2f}" if doorkey and f.unit.endswith("/s") else ""
        target = TARGETS.get(f.name)
        tcell = f"{target:,.0f} ({f.value / target:.0%})" if target else ""
        lines.append(f"| {f.name} | {f.value:,.1f} | {f.unit} | {ratio} | {tcell} | {f.note} |")
    lines.append("")
    notes = out / "NOTES.md"
    if notes.exists():
        lines += ["", notes.read_text(encoding="utf-8")]
    _atomic_write(out / "RESULTS.md", "\n".join(lines) + "\n")
