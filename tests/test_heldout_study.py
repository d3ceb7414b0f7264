"""The held-out evaluation of issue #18 (experiments/nsc-general/heldout.py): paired games,
the best doctrine per seat chosen on other seeds, resumable after a kill."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--shipped", "duell", "--generated", "5", "1", "--doctrines", "greedy", "stuermer",
        "--select", "2", "1", "--eval", "4", "2"]  # fmt: skip


def _study() -> ModuleType:
    path = ROOT / "experiments" / "nsc-general" / "heldout.py"
    spec = importlib.util.spec_from_file_location("heldout_study", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["heldout_study"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return _study()


@pytest.fixture(scope="module")
def first(study: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("heldout")
    study.main(["--agent", "greedy", "--out", str(out), *ARGS])
    return out


def test_every_game_is_played_once(study: ModuleType, first: Path) -> None:
    lines = (first / "games.jsonl").read_text(encoding="utf-8").splitlines()
    keys = [json.loads(line)["key"] for line in lines]
    summary = json.loads((first / "summary.json").read_text(encoding="utf-8"))
    s = study.Settings("greedy", ("duell",), (5, 1), ("greedy", "stuermer"), 2, 1, 4, 2)
    wanted = {g.key for g in study.selection_games(s) + study.evaluation_games(s, summary["best"])}
    # selection: 2 fights x 2x2 doctrine pairs x (2 or 1) games; evaluation: 2 seats x
    # 2 players x (4 or 2) games a fight; a game the agent plays as a seat's best doctrine
    # counts once
    assert len(keys) == len(set(keys)) == len(wanted) and set(keys) == wanted
    assert 12 < len(wanted) <= (4 * 2 + 4 * 1) + (2 * 2 * 4 + 2 * 2 * 2)
    for seat, verdict in summary["verdict"].items():
        rows = [r for r in summary["rows"] if r["seat"] == seat]
        assert verdict["mean_diff"] == pytest.approx(sum(r["diff"] for r in rows) / len(rows))
    assert (first / "summary.md").read_text(encoding="utf-8").startswith("# Held-out")


def test_the_agent_and_the_doctrine_play_the_same_dice(study: ModuleType, tmp_path: Path) -> None:
    """With one doctrine, the seat's best is the agent itself: the paired games are the
    same games on the same seeds, so the results and the difference are exactly equal —
    and each pair was played once."""
    args = ["--shipped", "duell", "--generated", "5", "1", "--doctrines", "stuermer",
            "--select", "1", "1", "--eval", "6", "3"]  # fmt: skip
    summary = study.main(["--agent", "stuermer", "--out", str(tmp_path), *args])
    assert len(summary["rows"]) == 4
    for r in summary["rows"]:
        assert r["doctrine"] in ("stuermer", "various") and r["diff"] == 0
        assert r["agent_rate"] == r["doctrine_rate"] and r["games"] in (6, 3)
    lines = (tmp_path / "games.jsonl").read_text(encoding="utf-8").splitlines()
    # selection 1 + 1, evaluation: both seats are the same stuermer-vs-stuermer game
    assert len(lines) == 2 + 6 + 3


def test_selection_and_evaluation_use_other_seeds(study: ModuleType) -> None:
    sel = {study.Game("select", "duell", "greedy", "greedy", i).seed for i in range(50)}
    ev = {study.Game("eval", "duell", "greedy", "greedy", i).seed for i in range(50)}
    assert len(sel) == len(ev) == 50 and not sel & ev


def test_a_killed_run_resumes_where_it_stopped(
    study: ModuleType, first: Path, tmp_path: Path
) -> None:
    out = tmp_path / "resumed"
    out.mkdir()
    for name in ("config.json",):
        (out / name).write_bytes((first / name).read_bytes())
    lines = (first / "games.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    kept = len(lines) // 2
    # half the games and a line the kill cut short
    (out / "games.jsonl").write_text("".join(lines[:kept]) + lines[kept][:17], encoding="utf-8")
    study.main(["--agent", "greedy", "--out", str(out), *ARGS])
    again = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()[kept:]]
    before = {json.loads(x)["key"]: json.loads(x) for x in lines}
    assert len(again) == len(lines) - kept  # only the missing games were played
    assert all(before[r["key"]] == r for r in again)  # and came out the same
    assert json.loads((out / "summary.json").read_text()) == json.loads(
        (first / "summary.json").read_text()
    )


def test_other_settings_in_the_same_folder_are_refused(study: ModuleType, first: Path) -> None:
    with pytest.raises(SystemExit, match="other settings"):
        study.main(["--agent", "random", "--out", str(first), *ARGS])


def _scorer_bundle(folder: Path, fill: float, held_out: dict[str, Any] | None = None) -> None:
    """A tiny scorer bundle whose every weight is ``fill`` (trained on spiegelduell with
    ``held_out`` held out, when given)."""
    import numpy as np

    from agents.policy.manifest import EncodingRecord
    from agents.policy.scorer import param_shapes
    from agents.policy.scorer_bundle import (
        Network,
        ScorerManifest,
        scorer_dims,
        write_scorer_bundle,
    )
    from cwenv.envs.encoding2 import ENCODING2_VERSION, encoding2_record

    network = Network(hidden=4, vs_hidden=2, cand_hidden=4)
    manifest = ScorerManifest(
        observation_encoding=ENCODING2_VERSION, action_encoding=ENCODING2_VERSION,
        encoding=EncodingRecord.model_validate(encoding2_record(512)), network=network,
        scenario="duell", side="gegner", weights_sha256="0" * 64,
    )  # fmt: skip
    shapes = param_shapes(scorer_dims(manifest))
    tensors = {k: np.full(v, fill, dtype=np.float32) for k, v in shapes.items()}
    trained = None if held_out is None else {"scenarios": ["spiegelduell"], "sides": ["gegner"],
                                             "held_out": held_out}  # fmt: skip
    write_scorer_bundle(folder, tensors, scenario="duell", side="gegner", network=network,
                        trained_on=trained)  # fmt: skip


def test_a_bundle_retrained_in_place_is_other_settings(study: ModuleType, tmp_path: Path) -> None:
    """The results folder of ``scorer:PATH`` is not reused once PATH holds other weights
    (its games would be the old bundle's, the summary claimed for the new one)."""
    folder, out = tmp_path / "bundle", tmp_path / "out"
    args = ["--agent", f"scorer:{folder}", "--out", str(out), "--shipped", "duell",
            "--generated", "0", "--doctrines", "greedy", "--select", "1", "1",
            "--eval", "1", "1"]  # fmt: skip
    _scorer_bundle(folder, 0.0)
    study.main(args)
    study.main(args)  # the same bundle: resumes, nothing to play
    _scorer_bundle(folder, 0.5)
    with pytest.raises(SystemExit, match="other settings"):
        study.main(args)


def test_generated_seeds_among_the_held_out_scenarios_are_generated_fights(
    study: ModuleType, tmp_path: Path
) -> None:
    """A manifest whose held-out scenarios name ``generated:SEED`` (and a range
    ``generated:FIRST…LAST``) evaluates those as generated fights: the generated game
    count, pooled with the held-out range, never a shipped fight of its own."""
    from agents.policy.scorer_bundle import load_scorer_bundle

    folder, out = tmp_path / "bundle", tmp_path / "out"
    held = {"scenarios": ["duell", "generated:5", "generated:8…9"],
            "generated": {"first": 7, "count": 2}}  # fmt: skip
    _scorer_bundle(folder, 0.0, held_out=held)
    assert load_scorer_bundle(folder).manifest.trained_on is not None
    args = ["--agent", f"scorer:{folder}", "--out", str(out), "--doctrines", "greedy",
            "--select", "1", "1", "--eval", "3", "2"]  # fmt: skip
    s, _, _ = study.parse(args)
    assert s.shipped == ("duell",)
    assert s.fights() == ["duell", "generated:7", "generated:8", "generated:5", "generated:9"]
    summary = study.main(args)
    groups = {(r["group"], r["seat"]): r["games"] for r in summary["rows"]}
    # duell: 3 games a seat; the four generated fights pooled, 2 games each
    assert groups == {(g, seat): n for g, n in (("duell", 3), ("generated (4)", 8))
                      for seat in ("gegner", "runner")}  # fmt: skip
