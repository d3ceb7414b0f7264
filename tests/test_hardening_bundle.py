"""Issue #19, items 4 and 12: policy bundles are validated field by field, their checksum
covers the whole manifest, odd files are clean errors, a bundle is checked against the
game it plays, and a policy game runs with numpy only (no gymnasium, no torch)."""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from agents.policy import agent as agent_module
from agents.policy.agent import PolicyAgent, PolicyMismatchError, PolicyMismatchWarning
from agents.policy.bundle import (
    MANIFEST,
    WEIGHTS,
    BundleError,
    load_bundle,
    manifest_digest,
    sha256_of,
    upgrade_bundle,
)
from cwenv.agent import DecisionView
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.cli.main import app
from cwenv.content import load_scenario
from cwenv.model.types import Side

ROOT = Path(__file__).resolve().parents[1]
DUELL = ROOT / "agents" / "policies" / "duell-nsc"
SPIEGEL = ROOT / "agents" / "policies" / "spiegelduell-nsc"


def _copy(tmp_path: Path, src: Path = DUELL, name: str = "bundle") -> Path:
    return Path(shutil.copytree(src, tmp_path / name))


def _manifest(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return data


def _rewrite(folder: Path, data: dict[str, Any], *, reseal: bool = True) -> None:
    """Write ``data`` as the manifest; with ``reseal`` its checksum matches again, so what
    refuses it is the field's validation, not the checksum."""
    if reseal:
        data["manifest_sha256"] = manifest_digest(data)
    (folder / MANIFEST).write_text(json.dumps(data), encoding="utf-8")


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value


FIELD_CASES = [
    ("training.move_radius", 10**9, r"training\.move_radius: Input should be less than or eq"),
    ("training.drag_radius", 0, r"training\.drag_radius: Input should be greater"),
    ("training.move_radius", "12", r"training\.move_radius: Input should be a valid integer"),
    ("training.timesteps", -1, r"training\.timesteps: Input should be greater"),
    ("training.surprise", 1, r"training\.surprise: Extra inputs are not permitted"),
    ("action_size", 2193.0, r"action_size: Input should be a valid integer"),
    ("action_size", 10**12, r"action_size: Input should be less than or equal"),
    ("observation.0.shape", [15, -37], r"observation\.0\.shape\.1: Input should be greater"),
    ("observation.0.shape", [1, 1, 1, 1, 1], r"observation\.0\.shape: List should have at most"),
    ("observation.0.name", "../../etc", r"observation\.0\.name: String should match"),
    ("policy.0.in_features", 0, r"policy\.0\.in_features: Input should be greater"),
    ("policy.0.out_features", 10**7, r"policy\.0\.out_features: Input should be less"),
    ("policy.0.activation", "os.system", r"policy\.0\.activation: Input should be"),
    ("side", "boss", r"side: Input should be 'gegner' or 'runner'"),
    ("scenario", "", r"scenario: String should have at least 1"),
    ("observation_encoding", 0, r"observation_encoding: Input should be greater than or eq"),
    ("format_version", 3, r"format_version: Input should be 1 or 2"),
    ("rules.variant", 5, r"rules\.variant: Input should be a valid string"),
    ("weights_sha256", "xyz", r"weights_sha256: String should match pattern"),
]


@pytest.mark.parametrize(("field", "value", "message"), FIELD_CASES)
def test_every_manifest_field_is_validated(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    folder = _copy(tmp_path)
    data = _manifest(folder)
    _set(data, field, value)
    _rewrite(folder, data)
    with pytest.raises(BundleError, match=message):
        load_bundle(folder)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "cwenv-policy", "format": "x"}', "duplicate key 'format'"),
        ('{"action_size": NaN}', "NaN is not a JSON number"),
        ("[1, 2]", "expected a JSON object"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("\xff{", "not valid JSON|not UTF-8"),
    ],
)
def test_malformed_manifest_json_is_a_clean_error(tmp_path: Path, text: str, message: str) -> None:
    folder = _copy(tmp_path)
    (folder / MANIFEST).write_bytes(text.encode("latin-1"))
    with pytest.raises(BundleError, match=message):
        load_bundle(folder)


def test_the_checksum_covers_the_whole_manifest(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    data = _manifest(folder)
    # Reformatting keeps the content: still loads.
    (folder / MANIFEST).write_text(json.dumps(data, indent=7, sort_keys=True), encoding="utf-8")
    load_bundle(folder)
    for field, value in (("scenario", "feuergefecht"), ("training.move_radius", 24)):
        edited = _manifest(folder)
        _set(edited, field, value)
        _rewrite(folder, edited, reseal=False)
        with pytest.raises(BundleError, match=r"checksum .* the manifest was edited"):
            load_bundle(folder)
    del data["manifest_sha256"]
    _rewrite(folder, data, reseal=False)
    with pytest.raises(BundleError, match="format_version 2 needs it"):
        load_bundle(folder)


def test_format_1_bundles_are_refused_and_upgrade(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    data = _manifest(folder)
    data["format_version"] = 1
    del data["manifest_sha256"]
    data["scenario"] = "feuergefecht"  # an edit format 1's weights-only checksum cannot see
    _rewrite(folder, data, reseal=False)
    with pytest.raises(BundleError, match=r"format_version 1.*agents\.policy\.bundle upgrade"):
        load_bundle(folder)
    weights = sha256_of(folder / WEIGHTS)
    upgrade_bundle(folder)
    assert load_bundle(folder).manifest.format_version == 2
    assert sha256_of(folder / WEIGHTS) == weights
    for shipped in (DUELL, SPIEGEL):
        assert load_bundle(shipped).manifest.format_version == 2


def _bf16_file(src: Path, dst: Path, name: str) -> None:
    """A safetensors file like ``src`` with tensor ``name`` stored as BF16 (by hand:
    numpy has no bfloat16)."""
    from safetensors.numpy import load_file

    tensors = load_file(str(src))
    header: dict[str, Any] = {}
    blobs = []
    offset = 0
    for key in sorted(tensors):
        array = np.ascontiguousarray(tensors[key], dtype=np.float32)
        if key == name:
            raw = array.view(np.uint16)[..., 1::2].tobytes()  # the upper half of each float
            dtype = "BF16"
        else:
            raw, dtype = array.tobytes(), "F32"
        header[key] = {
            "dtype": dtype,
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    dst.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def test_bf16_tensors_are_a_clean_error(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _bf16_file(DUELL / WEIGHTS, folder / WEIGHTS, "head.bias")
    data = _manifest(folder)
    data["weights_sha256"] = sha256_of(folder / WEIGHTS)
    _rewrite(folder, data)
    with pytest.raises(BundleError, match=r"head\.bias is BF16; only F32 is supported"):
        load_bundle(folder)


def test_symlink_loops_and_fifos_are_clean_errors(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(BundleError):
        load_bundle(loop)
    with pytest.raises(UnknownAgentError, match="cannot load"):
        make_agent(f"policy:{loop}")
    result = CliRunner().invoke(app, ["fight", "duell", "--nscs", f"policy:{loop}"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit), result.exception

    folder = _copy(tmp_path)
    (folder / MANIFEST).unlink()
    (folder / MANIFEST).symlink_to(folder / MANIFEST)
    with pytest.raises(BundleError, match="cannot read"):
        load_bundle(folder)
    (folder / MANIFEST).unlink()
    os.mkfifo(folder / MANIFEST)  # reading it would block forever
    with pytest.raises(BundleError, match="not a regular file"):
        load_bundle(folder)


@pytest.mark.parametrize(
    "args",
    [
        ["fight", "feuergefecht", "--nscs", "policy:agents/policies/duell-nsc", "--quiet"],
        ["play", "feuergefecht", "--nscs", "policy:agents/policies/duell-nsc"],
        [
            "advise",
            "configs/situations/wache-am-zug.yaml",
            "--agent",
            "policy:agents/policies/duell-nsc",
        ],
    ],
)
def test_a_bundle_that_cannot_play_the_scenario_ends_with_a_message(args: list[str]) -> None:
    result = CliRunner().invoke(app, args, input="q\n")
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    doc = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    sample = next(line for line in doc.splitlines() if "cannot play" in line)
    assert sample.removesuffix(" …") in result.output  # the message docs/training.md shows
    assert "Traceback" not in result.output


def test_playing_an_unfit_scenario_raises_the_bundle_error_not_a_limit_error() -> None:
    agent = PolicyAgent(load_bundle(DUELL))
    combat = load_scenario("feuergefecht").new_combat(0)
    with pytest.raises(PolicyMismatchError, match="cannot play"):
        agent.act(DecisionView(combat), combat.legal_actions(), random.Random(0))


def _play(agent: PolicyAgent, scenario: str, seed: int, runner: str = "random") -> None:
    game = load_scenario(scenario)
    combat = game.new_combat(seed)
    other = make_agent(runner)
    rng = random.Random(seed)
    view = DecisionView(combat)
    while not combat.is_terminal():
        who = combat.fighters[combat.current_fighter()].side
        actor = agent if who is Side.GEGNER else other
        combat.apply(actor.act(view, combat.legal_actions(), rng))


def test_another_scenario_or_side_warns_once_naming_the_difference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(agent_module, "_WARNED", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for seed in range(2):  # fresh agents, as a tournament makes them
            _play(PolicyAgent(load_bundle(SPIEGEL)), "duell", seed)
        for seed in range(2):
            _play(PolicyAgent(load_bundle(SPIEGEL)), "spiegelduell", seed)
        runner_seat = PolicyAgent(load_bundle(DUELL))
        for seed in range(2):
            game = load_scenario("duell")
            combat = game.new_combat(seed)
            view = DecisionView(combat)
            rng = random.Random(seed)
            while not combat.is_terminal():
                combat.apply(runner_seat.act(view, combat.legal_actions(), rng))
    texts = [str(w.message) for w in caught if issubclass(w.category, PolicyMismatchWarning)]
    assert len([t for t in texts if "plays 'Duell im Dojo'" in t]) == 1, texts
    assert "trained on 'spiegelduell'" in texts[0]
    assert len([t for t in texts if "plays the runner side" in t]) == 1, texts
    assert len(texts) == 2, texts


def test_a_new_combat_never_inherits_the_step_count_of_an_old_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With every id() equal (what CPython does when a freed combat's memory is reused),
    the next combat's first observation is still that of a fresh agent."""
    monkeypatch.setattr(agent_module, "id", lambda obj: 42, raising=False)
    game = load_scenario("duell")
    used = PolicyAgent(load_bundle(DUELL))
    first = game.new_combat(1)
    for _ in range(5):
        used.observation(DecisionView(first))
    second = game.new_combat(2)
    seen, _, _ = used.observation(DecisionView(second))
    fresh, _, _ = PolicyAgent(load_bundle(DUELL)).observation(DecisionView(second))
    for key in fresh:
        np.testing.assert_array_equal(seen[key], fresh[key], err_msg=key)


BLOCKED_GAME = """
import importlib.abc, json, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("gymnasium", "torch", "pettingzoo", "stable_baselines3",
                                  "sb3_contrib"):
            raise ImportError(f"{name} is blocked: policies must run with numpy only")
        return None

sys.meta_path.insert(0, Refuse())
from typer.testing import CliRunner
from cwenv.cli.main import app

result = CliRunner().invoke(app, ["simulate", "spiegelduell", "--runners", "schuetze", "--nscs",
    "policy:agents/policies/spiegelduell-nsc", "--games", "2", "--seed", "1", "--json"])
print(json.dumps({"code": result.exit_code, "output": result.output,
    "error": repr(result.exception),
    "loaded": [m for m in ("gymnasium", "torch", "pettingzoo") if m in sys.modules]}))
"""


def test_a_policy_game_runs_without_gymnasium_or_torch() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_GAME], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0, report
    assert report["loaded"] == []
    data = json.loads(report["output"])
    assert data["games"] == 2 and data["sides"]["GEGNER"]["agent"].startswith("policy:")


def test_the_gymnasium_env_still_registers() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import cwenv.envs, gymnasium; "
            "env = gymnasium.make('cwenv/Kampfrunde-v0', scenario='duell'); "
            "print(env.action_space.n, type(cwenv.envs.KampfrundeEnv).__name__)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == "type"
