"""``python -m benchmarks --quick`` runs every section on tiny settings and writes the
results in the expected shape (issue #9). No timing assertions: only structure."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.__main__ import main
from benchmarks.sections import SECTIONS


def test_quick_benchmark_writes_json_md_and_plot(tmp_path: Path) -> None:
    assert main(["--quick", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert {"meta", "figures", "targets"} <= set(data)
    assert data["meta"]["quick"] is True
    assert len(data["meta"]["load_start"]) == 3
    names = [f["name"] for f in data["figures"]]
    assert len(names) == len(set(names))
    for prefix in (
        "ref:",
        "combats:",
        "env:",
        "clone",
        "legal_actions",
        "mcts",
        "ppo:",
        "ppo2:",
        "scaling:",
        "native:legality:",
    ):
        assert any(n.startswith(prefix) for n in names), prefix
    assert "ppo:frames_policy_only" in names  # the policy side alone, env replayed
    assert "ppo2:frames_policy_only" in names  # the candidate scorer's, likewise
    goals = {t["target"] for t in data["targets"]}
    assert (
        "candidate scorer frames/s" in goals
        and "candidate scorer: env share of rollout time" in goals
    )
    for f in data["figures"]:
        assert f["samples"] and f["median"] >= 0
        assert (f["x_doorkey"] is None) == (not f["unit"].endswith("/s"))
    assert all({"target", "goal", "value", "met", "distance"} <= set(t) for t in data["targets"])
    md = (tmp_path / "RESULTS.md").read_text(encoding="utf-8")
    assert md.startswith("# Benchmark results")
    assert "| figure | median | unit | × DoorKey | note |" in md
    assert all(f"| {n} |" in md for n in names)
    assert (tmp_path / "scaling.png").stat().st_size > 0


def test_sections_are_the_documented_ones() -> None:
    assert list(SECTIONS) == [
        "reference", "engine", "env", "state", "mcts", "training", "training2", "scaling",
        "native",
    ]  # fmt: skip
