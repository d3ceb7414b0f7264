"""Issue #19, items 3 and 9: pickle-free checkpoints, and `cwenv train` that checks its
config (ranges, strict types, the names it uses) before torch loads and leaves no
half-made run folder behind."""

from __future__ import annotations

import base64
import json
import pickle
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from agents.policy.bundle import load_bundle
from agents.training import train as train_module
from agents.training.checkpoint import CheckpointError, checkpoints, read_checkpoint
from agents.training.config import League
from agents.training.evaluate import EvaluationError, evaluate
from agents.training.league import LeagueError, LeagueOpponent
from agents.training.runs import export_run
from cwenv.cli.main import app
from cwenv.yamlio import ConfigError

ROOT = Path(__file__).resolve().parents[1]

TINY: dict[str, Any] = {
    "name": "tiny",
    "scenario": "duell",
    "side": "gegner",
    "seed": 3,
    "total_timesteps": 256,
    "n_envs": 2,
    "checkpoint_every": 128,
    "move_radius": 12,
    "drag_radius": 4,
    "hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
    "league": {"members": [{"agent": "random", "weight": 1.0}]},
    "evaluation": {"every": 1_000_000, "games": 2, "opponents": ["random"]},
}


def _config(folder: Path, **changes: Any) -> Path:
    data = json.loads(json.dumps(TINY))
    for key, value in changes.items():
        data[key] = value
    path = folder / f"{data['name']}-{len(list(folder.glob('*.yaml')))}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


class Unpickled(AssertionError):
    pass


@pytest.fixture
def no_unpickling(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every unpickling entry point fails the test (and is recorded)."""
    import cloudpickle  # type: ignore[import-untyped]
    import torch

    calls: list[str] = []

    def refuse(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            raise Unpickled(f"{name} called while loading a run")

        return call

    monkeypatch.setattr(pickle, "loads", refuse("pickle.loads"))
    monkeypatch.setattr(pickle, "load", refuse("pickle.load"))
    monkeypatch.setattr(cloudpickle, "loads", refuse("cloudpickle.loads"))
    monkeypatch.setattr(torch, "load", refuse("torch.load"))
    return calls


class _Payload:
    """Unpickling this creates the sentinel file (what `os.system` would do in an attack)."""

    def __init__(self, sentinel: Path) -> None:
        self.sentinel = sentinel

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.sentinel), "w"))


def _crafted_zip(path: Path, sentinel: Path) -> None:
    """An SB3-style zip whose `data` entry holds a cloudpickled value, as SB3 writes them:
    `MaskablePPO.load` decodes it with cloudpickle.loads, which runs the payload."""
    blob = base64.b64encode(pickle.dumps(_Payload(sentinel))).decode()
    data = {"policy_class": {":type:": "<class 'type'>", ":serialized:": blob}}
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps(data))
        zf.writestr("_stable_baselines3_version", "2.9.2")


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    folder = tmp_path_factory.mktemp("tiny")
    lines: list[str] = []
    run = train_module.train(_config(folder), runs=folder / "runs", progress=lines.append)
    return run, folder, lines


def test_a_crafted_old_zip_checkpoint_is_refused_by_name_and_never_unpickled(
    tmp_path: Path, no_unpickling: list[str]
) -> None:
    sentinel = tmp_path / "pwned"
    run = tmp_path / "runs" / "tiny"
    config = _config(tmp_path)
    run.mkdir(parents=True)
    (run / "config.yaml").write_text(
        yaml.safe_dump({**TINY, "hyperparams": TINY["hyperparams"]}), encoding="utf-8"
    )
    _crafted_zip(run / "checkpoints" / "model_0000000256.zip", sentinel)

    with pytest.raises(CheckpointError, match=r"model_0000000256\.zip.*not loaded, for safety"):
        export_run(run, tmp_path / "out")
    with pytest.raises(CheckpointError, match=r"model_0000000256\.zip.*not loaded, for safety"):
        export_run(run, tmp_path / "out", 256)
    with pytest.raises(CheckpointError, match="old format"):
        train_module.train(config, resume=True, runs=tmp_path / "runs")
    for args in (
        ["export", str(run), "--out", str(tmp_path / "out")],
        ["train", str(config), "--resume", "--runs", str(tmp_path / "runs")],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, result.output
        assert "model_0000000256.zip" in result.output and "for safety" in result.output
        assert "Traceback" not in result.output
    assert not sentinel.exists()
    assert no_unpickling == []
    assert not (tmp_path / "out").exists()


def test_resume_and_export_continue_the_saved_counters_and_weights_without_pickle(
    tiny_run: tuple[Path, Path, list[str]], tmp_path: Path, no_unpickling: list[str]
) -> None:
    import shutil

    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.training.restore import restore_model
    from agents.training.runs import load_run_config

    src, _, _ = tiny_run
    runs = tmp_path / "runs"
    shutil.copytree(src, runs / "tiny")
    run = runs / "tiny"
    for planted in (run / "evil.pkl", run / "checkpoints" / "step_0000000256" / "evil.pkl"):
        planted.write_bytes(pickle.dumps(_Payload(tmp_path / "pwned")))
    (run / "checkpoints" / ".tmp-step_0000009999-1").mkdir()  # a crash's leftover: ignored
    assert sorted(checkpoints(run)) == [128, 256]
    saved = read_checkpoint(checkpoints(run)[256])
    assert saved.state.num_timesteps == 256 and saved.state.n_updates == 2
    assert any(name.endswith("exp_avg_sq") for name in saved.moments)

    # Loaded into a model rebuilt from the config: the same tensors and counters.
    import gymnasium as gym

    env = gym.make("cwenv/Kampfrunde-v0", scenario="duell", move_radius=12, drag_radius=4)
    model = train_module.build_model(load_run_config(run), DummyVecEnv([lambda: env]))
    restore_model(model, saved)
    for name, value in model.policy.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), saved.policy[name])
    adam = model.policy.optimizer.state_dict()["state"]
    np.testing.assert_array_equal(adam[0]["exp_avg"].numpy(), saved.moments["0.exp_avg"])
    assert float(adam[0]["step"]) == saved.state.optimizer.steps[0]
    assert model.num_timesteps == 256 and model._n_updates == 2

    # Resume with nothing left to do: the final checkpoint is the one that was saved.
    started = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    same = _config(tmp_path)
    train_module.train(same, resume=True, runs=runs)
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    assert meta["started"] == started["started"]  # the run's provenance is kept
    assert meta["git_revision"] == started["git_revision"] and len(meta["resumes"]) == 1
    again = read_checkpoint(checkpoints(run)[256])
    for name, value in saved.policy.items():
        np.testing.assert_array_equal(again.policy[name], value)
    for name, value in saved.moments.items():
        np.testing.assert_array_equal(again.moments[name], value)

    # Resume for 128 more frames: it continues from the counters (one more update).
    longer = _config(tmp_path, total_timesteps=384)
    train_module.train(longer, resume=True, runs=runs)
    last = read_checkpoint(checkpoints(run)[384])
    assert last.state.num_timesteps == 384 and last.state.n_updates == 3
    minibatches = TINY["n_envs"] * TINY["hyperparams"]["n_steps"] // 64  # per epoch
    assert last.state.optimizer.steps[0] == saved.state.optimizer.steps[0] + minibatches

    bundle = load_bundle(export_run(run, tmp_path / "exported", 256))
    assert bundle.manifest.training.checkpoint == "step_0000000256"
    weight, bias, _ = bundle.layers()[0]
    np.testing.assert_array_equal(weight, saved.policy["mlp_extractor.policy_net.0.weight"])
    np.testing.assert_array_equal(bias, saved.policy["mlp_extractor.policy_net.0.bias"])
    assert no_unpickling == []
    assert not (tmp_path / "pwned").exists()


def test_a_resume_that_changes_the_network_is_refused_before_anything_changes(
    tiny_run: tuple[Path, Path, list[str]], tmp_path: Path
) -> None:
    import shutil

    src, _, _ = tiny_run
    shutil.copytree(src, tmp_path / "runs" / "tiny")
    wider = _config(tmp_path, hyperparams={**TINY["hyperparams"], "net_arch": [32]})
    before = sorted(p.name for p in (tmp_path / "runs" / "tiny").rglob("*"))
    with pytest.raises(CheckpointError, match=r"hyperparams\.net_arch: \[16\] in the run"):
        train_module.train(wider, resume=True, runs=tmp_path / "runs")
    assert sorted(p.name for p in (tmp_path / "runs" / "tiny").rglob("*")) == before


PROGRESS = (
    r"^[\w-]+: [\d,]+/[\d,]+ frames \(\d+ %\), [\d,]+ fps, (win rate \d\.\d\d, reward "
    r"[+-]\d+\.\d\d \(last \d+ episodes\)|no episode finished yet), ETA \d+:\d\d:\d\d$"
)


def test_training_prints_progress_lines(tiny_run: tuple[Path, Path, list[str]]) -> None:
    _, _, lines = tiny_run
    assert lines, "no progress line"
    for line in lines:
        assert re.match(PROGRESS, line), line
    assert lines[-1].startswith("tiny: 256/256 frames (100 %)")
    doc = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    sample = [line for line in doc.splitlines() if line.startswith("duell-nsc: ")]
    assert sample and all(re.match(PROGRESS, line) for line in sample), sample


BAD_CONFIGS: list[tuple[dict[str, Any], str]] = [
    ({"total_timesteps": "256"}, r":\d+: total_timesteps: Input should be a valid integer"),
    ({"n_envs": "2"}, r"n_envs: Input should be a valid integer"),
    ({"hyperparams": {"n_epochs": True}}, r"hyperparams\.n_epochs: Input should be a valid int"),
    ({"hyperparams": {"n_steps": 0}}, r"hyperparams\.n_steps: Input should be greater"),
    ({"hyperparams": {"n_steps": 64, "batch_size": 500}}, r"batch_size: 500 is larger than"),
    ({"hyperparams": {"batch_size": 0}}, r"hyperparams\.batch_size: Input should be greater"),
    ({"hyperparams": {"net_arch": []}}, r"hyperparams\.net_arch: List should have at least 1"),
    ({"hyperparams": {"net_arch": [8, 8, 8, 8, 8]}}, r"net_arch: List should have at most 4"),
    ({"hyperparams": {"net_arch": [5000]}}, r"net_arch\.0: Input should be less than or equal"),
    ({"hyperparams": {"gamma": 1.5}}, r"hyperparams\.gamma: Input should be less than or equal"),
    ({"hyperparams": {"gae_lambda": 0}}, r"hyperparams\.gae_lambda: Input should be greater"),
    ({"hyperparams": {"learning_rate": 0}}, r"hyperparams\.learning_rate: Input should be gr"),
    ({"hyperparams": {"learning_rate": "3e-4"}}, r"learning_rate: Input should be a valid num"),
    ({"hyperparams": {"clip_range": 0}}, r"hyperparams\.clip_range: Input should be greater"),
    ({"hyperparams": {"ent_coef": -0.1}}, r"hyperparams\.ent_coef: Input should be greater"),
    ({"hyperparams": {"vf_coef": -1}}, r"hyperparams\.vf_coef: Input should be greater"),
    ({"hyperparams": {"activation": "sigmoid"}}, r"hyperparams\.activation: Input should be"),
    ({"torch_threads": 0}, r"torch_threads: Input should be greater than or equal to 1"),
    ({"torch_threads": 100_000}, r"torch_threads: Input should be less than or equal to 256"),
    ({"league": {"members": [{"agent": "nobody"}]}}, r"league\.members\.0\.agent: .*'nobody'"),
    ({"league": {"members": [{"agent": "random", "weight": "yes"}]}}, r"weight: Input should"),
    ({"evaluation": {"opponents": ["random", "ghost"]}}, r"evaluation\.opponents\.1: .*'ghost'"),
    ({"init_policy": "agents/policies/nope"}, r"init_policy: cannot load the bundle"),
    ({"init_policy": "agents/policies/spiegelduell-nsc"}, r"init_policy: .*net_arch"),
    ({"scenario": "atlantis"}, r"scenario: cannot load it: .*unknown scenario 'atlantis'"),
    ({"scenario": "feuergefecht"}, r"move_radius: .*a move can reach 19 cells"),
    ({"reward": "stingy"}, r"reward: cannot load it"),
]


def test_config_mistakes_are_reported_before_torch_loads_and_make_no_run_folder(
    tmp_path: Path,
) -> None:
    """Each bad config through `cwenv train` in one fresh interpreter: exit 1, the file,
    line and field in the message, torch never imported, no runs/NAME made."""
    cases = []
    for i, (change, pattern) in enumerate(BAD_CONFIGS):
        data = json.loads(json.dumps(TINY))
        for key, value in change.items():
            data[key] = {**data[key], **value} if key == "hyperparams" else value
        path = tmp_path / f"bad{i}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        cases.append((str(path), pattern))
    script = (
        "import json, sys\n"
        "from typer.testing import CliRunner\n"
        "from cwenv.cli.main import app\n"
        "out = []\n"
        f"for path in {json.dumps([c[0] for c in cases])}:\n"
        f"    r = CliRunner().invoke(app, ['train', path, '--runs', {str(tmp_path / 'runs')!r}])\n"
        "    out.append([r.exit_code, r.output, 'torch' in sys.modules])\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for (file, pattern), (code, output, torch_loaded) in zip(cases, results, strict=True):
        assert code == 1, (file, output)
        assert file in output and re.search(pattern, output), (pattern, output)
        assert "Traceback" not in output
        assert not torch_loaded, (file, "torch was imported")
    assert not (tmp_path / "runs").exists()


def test_a_failed_start_removes_the_run_folder_it_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the model could not be built")

    monkeypatch.setattr(train_module, "build_model", boom)
    with pytest.raises(RuntimeError, match="could not be built"):
        train_module.train(_config(tmp_path, name="broken"), runs=tmp_path / "runs")
    assert not (tmp_path / "runs" / "broken").exists()


def test_train_help_names_a_config_that_exists() -> None:
    result = CliRunner().invoke(app, ["train", "--help"], terminal_width=200)
    assert result.exit_code == 0
    named = re.findall(r"configs/training/[\w.-]+\.yaml", result.output)
    assert named, result.output
    for name in named:
        assert (ROOT / name).is_file(), name


def test_a_league_without_members_and_an_unfinished_evaluation_are_typed_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(LeagueError, match="at least one member"):
        LeagueOpponent(League.model_construct(members=[], self_play=0.0, max_snapshots=1))
    from agents.policy.agent import PolicyAgent
    from cwenv.content import load_scenario
    from cwenv.model.types import Side

    monkeypatch.setattr("agents.training.evaluate.play_out", lambda *args: None)
    agent = PolicyAgent(load_bundle(ROOT / "agents" / "policies" / "duell-nsc"))
    with pytest.raises(EvaluationError, match="did not finish"):
        evaluate(agent, load_scenario("duell"), Side.GEGNER, "random", 1)


def test_strict_config_refuses_yaml_booleans_and_quoted_numbers(tmp_path: Path) -> None:
    from agents.training.config import load_training_config

    path = _config(tmp_path, league={"members": [{"agent": "random"}], "self_play": "0.5"})
    with pytest.raises(ConfigError, match=r"league\.self_play: Input should be a valid number"):
        load_training_config(path)
