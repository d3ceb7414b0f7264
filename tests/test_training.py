"""RL training, export and safe policy bundles (issue #6)."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import yaml

import cwenv  # noqa: F401  (registers the env)
from agents.policy.agent import PolicyAgent
from agents.policy.bundle import (
    MANIFEST,
    WEIGHTS,
    BundleError,
    load_bundle,
    manifest_digest,
    sha256_of,
)
from agents.training.checkpoint import read_checkpoint
from agents.training.config import load_training_config
from agents.training.export import torch_logits
from agents.training.restore import restore_model
from agents.training.runs import load_run_config
from agents.training.train import build_model, export_run, latest_checkpoint, train
from cwenv.agent import DecisionView
from cwenv.content import load_scenario
from cwenv.yamlio import ConfigError

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "training" / "smoke.yaml"


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runs = tmp_path_factory.mktemp("runs")
    return train(SMOKE, runs=runs)


def test_smoke_training_writes_a_complete_run(smoke_run: Path) -> None:
    for name in ("config.yaml", "meta.json", "eval.csv", "eval.png", "bundle/manifest.json"):
        assert (smoke_run / name).exists(), name
    resolved = yaml.safe_load((smoke_run / "config.yaml").read_text(encoding="utf-8"))
    assert resolved["hyperparams"]["n_steps"] == 128 and resolved["seed"] == 1
    assert json.loads((smoke_run / "meta.json").read_text())["git_revision"]
    rows = (smoke_run / "eval.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("timesteps,opponent") and len(rows) >= 3
    assert latest_checkpoint(smoke_run) is not None


def test_resume_continues_from_the_last_checkpoint(smoke_run: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    shutil.copytree(smoke_run, runs / "smoke")
    longer = tmp_path / "smoke.yaml"
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    data["total_timesteps"] = 1024
    longer.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(FileExistsError):
        train(longer, runs=runs)
    run = train(longer, runs=runs, resume=True)
    last = latest_checkpoint(run)
    assert last is not None and last.name == "step_0000001024"
    manifest = json.loads((run / "bundle" / MANIFEST).read_text())
    assert manifest["training"]["timesteps"] == 1024


def test_numpy_inference_matches_sb3_on_1000_observations(smoke_run: Path) -> None:
    from stable_baselines3.common.vec_env import DummyVecEnv

    checkpoint = latest_checkpoint(smoke_run)
    assert checkpoint is not None
    env = gym.make("cwenv/Kampfrunde-v0", scenario="duell", opponent="random")
    model = build_model(load_run_config(smoke_run), DummyVecEnv([lambda: env]))
    restore_model(model, read_checkpoint(checkpoint))  # the checkpoint's own tensors
    bundle = load_bundle(smoke_run / "bundle")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    agree = 0
    for _ in range(1000):
        mask = env.unwrapped.action_masks()
        ours = bundle.logits(obs)
        theirs = torch_logits(model, obs)
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)
        sb3_action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        agree += int(bundle.choose(obs, mask) == int(sb3_action))
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            obs, _ = env.reset()
    assert agree == 1000


def test_the_bundle_plays_as_an_agent(smoke_run: Path) -> None:
    agent = PolicyAgent(load_bundle(smoke_run / "bundle"))
    game = load_scenario("duell")
    combat = game.new_combat(5)
    import random

    for _ in range(30):
        if combat.is_terminal():
            break
        legal = combat.legal_actions()
        action = agent.act(DecisionView(combat), legal, random.Random(0))
        assert action in legal
        combat.apply(action)


def _copy_bundle(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def test_tampered_bundles_are_rejected(smoke_run: Path, tmp_path: Path) -> None:
    # Changed weights: the sha256 no longer matches.
    changed = _copy_bundle(smoke_run / "bundle", tmp_path / "changed")
    raw = bytearray((changed / WEIGHTS).read_bytes())
    raw[-5] ^= 0xFF
    (changed / WEIGHTS).write_bytes(bytes(raw))
    with pytest.raises(BundleError, match="sha256"):
        load_bundle(changed)
    # A manifest naming an unknown layer kind / activation.
    unknown = _copy_bundle(smoke_run / "bundle", tmp_path / "unknown")
    manifest = json.loads((unknown / MANIFEST).read_text())
    manifest["policy"][0]["kind"] = "lambda"
    (unknown / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(BundleError, match=r"policy\.0\.kind"):
        load_bundle(unknown)
    manifest["policy"][0]["kind"] = "linear"
    manifest["policy"][0]["activation"] = "os.system"
    (unknown / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(BundleError, match="activation"):
        load_bundle(unknown)
    # A pickle renamed to .safetensors, even with a matching hash in the manifest.
    pickled = _copy_bundle(smoke_run / "bundle", tmp_path / "pickled")
    (pickled / WEIGHTS).write_bytes(pickle.dumps({"pi.0.weight": np.zeros(3)}))
    manifest = json.loads((pickled / MANIFEST).read_text())
    manifest["weights_sha256"] = sha256_of(pickled / WEIGHTS)
    manifest["manifest_sha256"] = manifest_digest(manifest)  # a forger recomputes both
    (pickled / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(BundleError, match="not a valid safetensors file"):
        load_bundle(pickled)


def test_export_cli_writes_a_loadable_bundle(smoke_run: Path, tmp_path: Path) -> None:
    out = export_run(smoke_run, tmp_path / "policy")
    bundle = load_bundle(out)
    assert bundle.manifest.scenario == "duell" and bundle.manifest.side == "gegner"
    early = load_bundle(export_run(smoke_run, tmp_path / "early", timesteps=256))
    assert early.manifest.training.checkpoint == "step_0000000256"
    assert bundle.manifest.training.checkpoint == "step_0000000512"
    with pytest.raises(FileNotFoundError, match="have: 256, 512"):
        export_run(smoke_run, tmp_path / "none", timesteps=300)


def test_training_config_errors_name_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: x\ntotal_timesteps: 10\nhyperparams: {learnin_rate: 0.1}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="learnin_rate"):
        load_training_config(bad)
    bad.write_text("name: x\ntotal_timesteps: -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.yaml:2: total_timesteps"):
        load_training_config(bad)


def test_init_policy_warm_starts_a_fresh_run_from_a_bundle(smoke_run: Path, tmp_path: Path) -> None:
    """With a vanishing learning rate (a zero one is a config error) the run's exported
    actor is the bundle it began from (Adam moves a weight by at most about 1e-30)."""
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    data.update(name="warm", init_policy=str(smoke_run / "bundle"), total_timesteps=256)
    data["hyperparams"]["learning_rate"] = 1e-30
    data["league"]["self_play"] = 0.0
    config = tmp_path / "warm.yaml"
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    run = train(config, runs=tmp_path / "runs")
    start, end = load_bundle(smoke_run / "bundle"), load_bundle(run / "bundle")
    for (w0, b0, a0), (w1, b1, a1) in zip(start.layers(), end.layers(), strict=True):
        np.testing.assert_allclose(w0, w1, rtol=0, atol=1e-20)
        np.testing.assert_allclose(b0, b1, rtol=0, atol=1e-20)
        assert a0 == a1


def test_init_policy_with_another_network_is_refused(smoke_run: Path, tmp_path: Path) -> None:
    data = yaml.safe_load(SMOKE.read_text(encoding="utf-8"))
    data.update(name="wide", init_policy=str(smoke_run / "bundle"), total_timesteps=256)
    data["hyperparams"]["net_arch"] = [48, 48]
    config = tmp_path / "wide.yaml"
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"init_policy: .*net_arch"):  # before torch starts
        train(config, runs=tmp_path / "runs")
    assert not (tmp_path / "runs" / "wide").exists()
