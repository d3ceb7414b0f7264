"""Write benchmarks/results.json and benchmarks/RESULTS.md (atomically)."""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.core import Figure

HERE = Path(__file__).resolve().parent
DOORKEY = "ref:MiniGrid-DoorKey-8x8-v0"
FIREFIGHT = "combats:feuergefecht:steps:taktiker"


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, 0o644)  # mkstemp creates 0600; these files are for everyone to read
    os.replace(tmp, path)


def _fmt(value: float) -> str:
    return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.1f}"


def targets(figures: list[Figure]) -> list[dict[str, Any]]:
    """The issues' targets (#9, #16, #18): each with the measured value and whether it is
    met."""
    by = {f.name: f for f in figures}
    doorkey = by[DOORKEY].value if DOORKEY in by else None
    out: list[dict[str, Any]] = []

    def add(name: str, goal: str, value: float | None, met: bool | None, gap: str) -> None:
        out.append({"target": name, "goal": goal, "value": value, "met": met, "distance": gap})

    if FIREFIGHT in by:
        v = by[FIREFIGHT].value
        add("4v4 firefight, doctrine vs doctrine", "≥ 1,000 combats/s", v, v >= 1000,
            f"{1000 / v:,.0f}× short" if v < 1000 else "met")  # fmt: skip
    if doorkey:
        for f in figures:
            if f.name.startswith("env:") and f.name.endswith(":random"):
                r = f.value / doorkey
                add(f"env steps {f.name[4:]}", "≥ 3× DoorKey", r, r >= 3,
                    f"{3 / r:.1f}× short" if r < 3 else "met")  # fmt: skip
    if "ppo:frames" in by:
        v = by["ppo:frames"].value
        add("MaskablePPO frames/s", "≥ 1,500", v, v >= 1500,
            f"{1500 / v:.1f}× short" if v < 1500 else "met")  # fmt: skip
    if "ppo:frames_policy_only" in by:
        v = by["ppo:frames_policy_only"].value
        add("MaskablePPO frames/s, env cost 0 (replayed)", "≥ 1,500", v, v >= 1500,
            f"{1500 / v:.1f}× short" if v < 1500 else "met")  # fmt: skip
    if "ppo:env_share" in by:
        v = by["ppo:env_share"].value
        add("env share of rollout time", "≤ 25 %", v, v <= 0.25,
            f"{v / 0.25:.1f}× over" if v > 0.25 else "met")  # fmt: skip
    # issue #18: the candidate scorer (encoding 2) trains at ≥ 1,500 frames/s, env ≤ 25 %
    for name, what in (("ppo2:frames", ""), ("ppo2:frames_policy_only", ", env cost 0")):
        if name in by:
            v = by[name].value
            add(f"candidate scorer frames/s{what}", "≥ 1,500", v, v >= 1500,
                f"{1500 / v:.1f}× short" if v < 1500 else "met")  # fmt: skip
    if "ppo2:env_share" in by:
        v = by["ppo2:env_share"].value
        add("candidate scorer: env share of rollout time", "≤ 25 %", v, v <= 0.25,
            f"{v / 0.25:.1f}× over" if v > 0.25 else "met")  # fmt: skip
    out += native_targets(by, doorkey)
    scale = sorted(
        (int(f.name.split("=")[1].split(":")[0]), f.extra["us_per_turn"])
        for f in figures
        if f.name.startswith("scaling:fighters=") and f.name.endswith(":map=32")
    )
    if len(scale) >= 2 and scale[0][1] > 0:
        (n0, t0), (n1, t1) = scale[0], scale[-1]
        slope = math.log(t1 / t0) / math.log(n1 / n0)
        add(f"cost per turn vs fighters ({n0}→{n1})", "at most linear (exponent ≤ 1)",
            slope, slope <= 1.0, "met" if slope <= 1 else f"exponent {slope:.2f}")  # fmt: skip
    return out


def native_targets(by: dict[str, Figure], doorkey: float | None) -> list[dict[str, Any]]:
    """Issue #16's targets (the native core), each with how far it is."""
    out: list[dict[str, Any]] = []

    def value(figure: str, per_doorkey: bool = False) -> float | None:
        if figure not in by or (per_doorkey and not doorkey):
            return None
        return by[figure].value / doorkey if per_doorkey and doorkey else by[figure].value

    def at_least(name: str, v: float | None, goal: float, unit: str) -> None:
        if v is not None:
            gap = "met" if v >= goal else f"{goal / v:.1f}× short"
            out.append({"target": name, "goal": f"≥ {goal:,g}{unit}", "value": v,
                        "met": v >= goal, "distance": gap})  # fmt: skip

    greedy = "combats:feuergefecht:steps:greedy"  # as play_out plays it: the twins in the core
    at_least("4v4 greedy vs greedy (feuergefecht)", value(greedy), 1000, " combats/s")
    at_least("the same, × DoorKey", value(greedy, per_doorkey=True), 0.14, "×")
    at_least("4v4 doctrine vs doctrine (taktiker)", value(FIREFIGHT), 300, " combats/s")
    for doctrine in ("schuetze", "stuermer"):  # the other doctrines' twins (#16)
        v = value(f"combats:feuergefecht:steps:{doctrine}")
        at_least(f"4v4 doctrine vs doctrine ({doctrine})", v, 300, " combats/s")
    for name in ("duell", "feuergefecht", "strassenschlacht"):
        v = value(f"env2:{name}:random", per_doorkey=True)
        at_least(f"env steps (encoding 2) {name}, × DoorKey", v, 3, "×")
    at_least("MCTS, default configuration (taktiker rollouts)", value("mcts"), 1000, " it/s")
    at_least("MCTS, greedy rollouts in the core", value("mcts_greedy_native"), 1000, " it/s")
    at_least("clone of a 4v4 combat from Python", value("clone"), 200_000, "/s")
    for figure, goal in (("memory:state_bytes:4v4:kreuzung", 65_536),
                         ("memory:rss_growth:native", 10.0)):  # fmt: skip
        v = value(figure)
        if v is not None:
            out.append({"target": figure, "goal": f"< {goal:,g} {by[figure].unit}", "value": v,
                        "met": v < goal, "distance": "met" if v < goal else "over"})  # fmt: skip
    return out


def write_results(figures: list[Figure], meta: dict[str, Any], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    ref = {f.name: f.value for f in figures if f.name.startswith("ref:")}
    doorkey = ref.get(DOORKEY)
    goals = targets(figures)
    data = {
        "meta": meta,
        "figures": [
            {
                "name": f.name,
                "unit": f.unit,
                "median": f.value,
                "samples": f.samples,
                "note": f.note,
                "x_doorkey": f.value / doorkey if doorkey and f.unit.endswith("/s") else None,
                **f.extra,
            }
            for f in figures
        ],
        "targets": goals,
    }
    _atomic_write(out / "results.json", json.dumps(data, indent=2) + "\n")
    load = f"load average {meta['load_start'][0]} at the start, {meta['load_end'][0]} at the end"
    lines = [
        "# Benchmark results",
        "",
        f"Measured {meta['date']} on {meta['machine']} ({meta['cpus']} CPUs), Python",
        f"{meta['python']}, {load} ({meta['wall_seconds']} s wall). Every figure is the median",
        f"of {meta['repeats']} samples of {meta['seconds_per_sample']} s of CPU time in one",
        "process (`python -m benchmarks`); the clock is the process's CPU time, and ratios are",
        "to MiniGrid DoorKey-8x8 measured in the same run.",
        "",
        "| figure | median | unit | × DoorKey | note |",
        "|---|---:|---|---:|---|",
    ]
    for f in figures:
        ratio = f"{f.value / doorkey:.3g}" if doorkey and f.unit.endswith("/s") else ""
        extra = "".join(f"; {k} {_fmt(v)}" for k, v in f.extra.items())
        lines.append(f"| {f.name} | {_fmt(f.value)} | {f.unit} | {ratio} | {f.note}{extra} |")
    if goals:
        lines += ["", "## Targets (issues #9, #16, #18)", ""]
        lines += ["| target | goal | measured | met | distance |", "|---|---|---:|---|---|"]
        for g in goals:
            met = "yes" if g["met"] else "no"
            value = _fmt(g["value"])
            lines.append(f"| {g['target']} | {g['goal']} | {value} | {met} | {g['distance']} |")
    lines.append("")
    notes = HERE / "NOTES.md"
    if notes.exists() and not meta.get("quick"):
        lines += ["", notes.read_text(encoding="utf-8")]
    _atomic_write(out / "RESULTS.md", "\n".join(lines) + "\n")
