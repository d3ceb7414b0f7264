"""Issue #14, item 5: padded, versioned RL encodings.

Every enumerated section has a fixed capacity (a new member fills a free slot, shapes stay),
bundles carry the encoding's fingerprint and are refused, naming what changed, when it
differs; the shipped bundles were padded from encoding 1 and choose exactly as before.

"Encoding 1" is rebuilt here independently of the product's upgrade code: by name (the
padded slots are ``condition_7`` …, ``side_3``, ``decision_12`` …; the padded actions
are MANEUVER index ≥ 5, SHAKE/MUMM_SHAKE index ≥ 7, DEFEND index ≥ 14 and the RESERVED
block). Two anchors recorded by the old code tie it to what encoding 1 really was: the env
digest of ``tests/test_golden_digests.py`` before the change and the sha256 of the
shipped bundles' weights before they were padded.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import sys
import warnings
from enum import IntEnum
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from agents.policy import agent as agent_module
from agents.policy.agent import PolicyAgent, PolicyMismatchWarning
from agents.policy.bundle import (
    MANIFEST,
    WEIGHTS,
    EncodingMismatchError,
    load_bundle,
    manifest_digest,
    sha256_of,
    write_bundle,
)
from agents.policy.manifest import Manifest
from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.envs import capacity
from cwenv.envs.encoding import encoding_record, fingerprint
from cwenv.envs.errors import LimitError
from cwenv.envs.features import CONTEXT_FEATURES, OTHER_FEATURES, SELF_FEATURES
from cwenv.envs.layout import ActionLayout
from cwenv.envs.observe import SHAPES
from cwenv.model.types import Side

ROOT = Path(__file__).resolve().parents[1]
POLICIES = ROOT / "agents" / "policies"
# bundle: (scenario, the Runner doctrine it plays against, sha256 of its encoding-1 weights)
SHIPPED = {
    "duell-nsc": (
        "duell",
        "stuermer",
        "b1b7d78913479bf5457bc8d0de71c8b300ebdb0dee882ba5c07d2b080851b657",
    ),
    "spiegelduell-nsc": (
        "spiegelduell",
        "schuetze",
        "731b31f1110861895a592c5d7fd5b9c222e8f8212feb450e01ef06cb424ad2e8",
    ),
}
OLD_ENV_DIGEST = "a4e99ea5bf553fa232ef5ddecd9466c8"  # ENV of test_golden_digests, encoding 1
# recorded by the encoding-1 code itself, so never re-recorded: the rules it was recorded
# under are replayed instead (OLD_RULES)
OLD_RULES = "name: vor-15\noptions:\n  blockade_geometry: stay_in_reach\n  hurdles: false\n"
"""The readings before #15 changed the defaults of X43 (R04, item 1) and X48 (B02, item 2)."""
V1_SLOTS = {"condition": 7, "side": 3, "decision": 12}
V1_INDEX = {"MANEUVER": 5, "SHAKE": 7, "MUMM_SHAKE": 7, "DEFEND": 14}
V1_NAMES = {"self": SELF_FEATURES, "allies": OTHER_FEATURES, "enemies": OTHER_FEATURES}
V1_NAMES["context"] = CONTEXT_FEATURES


# -- encoding 1, rebuilt by name --------------------------------------------------------------


def _v1_columns(names: tuple[str, ...]) -> np.ndarray:
    keep = []
    for k, name in enumerate(names):
        m = re.fullmatch(r"(condition|side|decision)_(\d+)", name)
        if m is None or int(m.group(2)) < V1_SLOTS[m.group(1)]:
            keep.append(k)
    return np.array(keep)


V1_COLUMNS = {key: _v1_columns(names) for key, names in V1_NAMES.items()}


def v1_observation(key: str, value: np.ndarray) -> np.ndarray:
    return value[..., V1_COLUMNS[key]] if key in V1_COLUMNS else value


def v1_actions(layout: ActionLayout) -> np.ndarray:
    """The indices of ``layout`` that encoding 1 had, in order."""
    keep = []
    for i in range(layout.size):
        name = layout.describe(i)
        kind = name.split()[0]
        m = re.search(r"index=(\d+)", name)
        if kind == "RESERVED" or (kind in V1_INDEX and m and int(m.group(1)) >= V1_INDEX[kind]):
            continue
        keep.append(i)
    return np.array(keep)


def v1_inputs(manifest: Manifest) -> np.ndarray:
    """The positions of encoding 1's inputs in the flat padded input vector."""
    out, offset = [], 0
    for key in manifest.observation:
        flat = np.arange(key.size).reshape(key.shape)
        out.append(offset + v1_observation(key.name, flat).reshape(-1))
        offset += key.size
    return np.concatenate(out)


def v1_tensors(folder: Path) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """The bundle's weights with the padding stripped, its input and action positions."""
    bundle = load_bundle(folder)
    m = bundle.manifest
    inputs = v1_inputs(m)
    actions = v1_actions(ActionLayout(m.training.move_radius, m.training.drag_radius))
    tensors = {}
    layers = bundle.layers()
    for k, (layer, (weight, bias, _)) in enumerate(zip(m.policy, layers, strict=True)):
        w, b = weight, bias
        if k == 0:
            w = w[:, inputs]
        if k == len(layers) - 1:
            w, b = w[actions], b[actions]
        tensors[f"{layer.name}.weight"] = np.ascontiguousarray(w)
        tensors[f"{layer.name}.bias"] = np.ascontiguousarray(b)
    return tensors, inputs, actions


def _v1_logits(tensors: dict[str, np.ndarray], names: list[str], x: np.ndarray) -> np.ndarray:
    """The old PolicyBundle.logits: dense layers, tanh between, on encoding-1 inputs."""
    for k, name in enumerate(names):
        x = tensors[f"{name}.weight"] @ x + tensors[f"{name}.bias"]
        if k < len(names) - 1:
            x = np.tanh(x).astype(np.float32)
    return x


# -- the capacities ---------------------------------------------------------------------------


def test_shapes_depend_on_the_capacities_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A member added to an enum fills a free slot: no shape, no index and no fingerprint
    changes, and the record names the new member."""
    before = encoding_record(12, 4)
    grown = IntEnum(  # type: ignore[misc]
        "Condition", [*capacity.members("conditions"), "NEUER_ZUSTAND"], start=0
    )
    monkeypatch.setitem(capacity.ENUMS, "conditions", grown)
    after = encoding_record(12, 4)
    assert after["fingerprint"] == before["fingerprint"]
    assert after["members"]["conditions"][-1] == "NEUER_ZUSTAND"
    assert ActionLayout(12, 4).size == 2564
    assert SHAPES["self"] == (49,) and SHAPES["allies"] == (15, 46)
    assert SHAPES["context"] == (25,)


def test_an_enum_above_its_capacity_is_a_limit_error(monkeypatch: pytest.MonkeyPatch) -> None:
    huge = IntEnum("Maneuver", [f"M{k}" for k in range(9)], start=0)  # type: ignore[misc]
    monkeypatch.setitem(capacity.ENUMS, "maneuvers", huge)
    with pytest.raises(LimitError, match=r"Maneuver has 9 members.*holds 8 \(MAX_MANEUVERS\)"):
        ActionLayout()


def test_a_new_action_kind_takes_its_indices_from_the_reserve() -> None:
    """What an entry in ADDED_SECTIONS does (enums cannot grow at run time, so an existing
    kind stands in): the kind gets indices at the reserve's front, nothing else moves."""
    from cwenv.engine.actions import ActionKind
    from cwenv.envs.layout import Field

    plain = ActionLayout(12, 4)
    grown = ActionLayout(12, 4, added=((ActionKind.SPRINT, Field.TARGET, 1),))
    assert grown.size == plain.size and grown.reserve_size == plain.reserve_size - 31
    assert grown.by_kind[ActionKind.SPRINT].start == plain.reserve_start
    assert [s.start for s in grown.sections[:-1]] == [s.start for s in plain.sections]
    with pytest.raises(LimitError, match=r"need 496 indices; RESERVED_ACTIONS is 256"):
        ActionLayout(12, 4, added=((ActionKind.SPRINT, Field.TARGET_INDEX, 16),))


# -- the fingerprint in the manifest ----------------------------------------------------------


def _copy(tmp_path: Path, name: str = "duell-nsc") -> Path:
    return Path(shutil.copytree(POLICIES / name, tmp_path / name))


def _edit(folder: Path, change: Any, *, refingerprint: bool = True) -> None:
    data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    change(data["encoding"])
    if refingerprint:
        data["encoding"]["fingerprint"] = fingerprint(data["encoding"])
    data["manifest_sha256"] = manifest_digest(data)
    (folder / MANIFEST).write_text(json.dumps(data), encoding="utf-8")


def test_every_bundle_carries_this_encodings_fingerprint() -> None:
    for name in SHIPPED:
        m = load_bundle(POLICIES / name).manifest
        assert m.observation_encoding == m.action_encoding == 2
        assert m.encoding is not None
        ours = encoding_record(m.training.move_radius, m.training.drag_radius)
        assert m.encoding.fingerprint == ours["fingerprint"]


def test_a_bundle_of_another_encoding_is_refused_naming_what_changed(tmp_path: Path) -> None:
    """As if trained by a cwenv with 5 manoeuvre slots and one condition slot fewer."""
    folder = _copy(tmp_path)

    def older(record: dict[str, Any]) -> None:
        for section in record["actions"]:
            if section["name"] == "MANEUVER":
                section["size"] = 155
        for key in record["observation"]:
            if key["key"] == "self":
                key["features"].remove("condition_15")
        record["capacities"]["maneuvers"] = 5

    _edit(folder, older)
    with pytest.raises(EncodingMismatchError) as caught:
        load_bundle(folder)
    text = str(caught.value)
    assert str(folder) in text and "trained on another encoding" in text
    assert "action section MANEUVER resized 155 → 248" in text
    assert "observation 'self' features added: condition_15" in text
    assert "capacity maneuvers: 5 → 8" in text


def test_an_edited_record_is_refused_by_its_fingerprint(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, lambda r: r["capacities"].update(weapons=9), refingerprint=False)
    with pytest.raises(EncodingMismatchError, match="fingerprint does not match the record"):
        load_bundle(folder)


def test_a_slot_that_holds_another_rule_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, lambda r: r["members"]["conditions"].__setitem__(3, "BETAEUBT"))
    with pytest.raises(EncodingMismatchError, match="conditions slot 3 was BETAEUBT, is ENTMUTIGT"):
        load_bundle(folder)


def test_a_rule_the_policy_never_saw_plays_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(tmp_path)
    _edit(folder, lambda r: r["members"]["conditions"].pop())  # trained before VERWIRRT
    monkeypatch.setattr(agent_module, "_WARNED", set())
    game = load_scenario("duell")
    runner = make_agent("random")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for seed in range(2):  # fresh agents, as a tournament makes them
            agent = PolicyAgent(load_bundle(folder))
            combat = game.new_combat(seed)
            view, rng = DecisionView(combat), random.Random(seed)
            while not combat.is_terminal():
                gegner = combat.fighters[combat.current_fighter()].side is Side.GEGNER
                combat.apply((agent if gegner else runner).act(view, combat.legal_actions(), rng))
            assert combat.outcome is not None
    texts = [str(w.message) for w in caught if issubclass(w.category, PolicyMismatchWarning)]
    assert len(texts) == 1 and "never saw them" in texts[0] and "conditions: VERWIRRT" in texts[0]


# -- encoding 1 and the upgrade ---------------------------------------------------------------


def _encoding_1_bundle(tmp_path: Path, name: str) -> Path:
    """The shipped bundle as it was before the padding (rebuilt by stripping it)."""
    tensors, _, _ = v1_tensors(POLICIES / name)
    m = load_bundle(POLICIES / name).manifest
    data = m.model_dump(mode="json")
    data.update(observation_encoding=1, action_encoding=1, encoding=None, padded_from=None)
    data["action_size"] = int(tensors["head.bias"].shape[0])
    for key in data["observation"]:
        if key["name"] in V1_COLUMNS:
            key["shape"][-1] = len(V1_COLUMNS[key["name"]])
    data["policy"][0]["in_features"] = int(tensors["pi.0.weight"].shape[1])
    data["policy"][-1]["out_features"] = data["action_size"]
    return write_bundle(tmp_path / name, Manifest.model_validate(data), tensors)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_bundles_are_their_old_weights_padded_with_zeros(
    name: str, tmp_path: Path
) -> None:
    old = _encoding_1_bundle(tmp_path, name)
    assert sha256_of(old / WEIGHTS) == SHIPPED[name][2]
    m = load_bundle(POLICIES / name).manifest
    assert m.padded_from is not None and m.padded_from.weights_sha256 == SHIPPED[name][2]
    # the padding is zeros only
    bundle = load_bundle(POLICIES / name)
    (w0, _, _), *_, (head, bias, _) = bundle.layers()
    pad_in = np.setdiff1d(np.arange(w0.shape[1]), v1_inputs(m))
    layout = ActionLayout(m.training.move_radius, m.training.drag_radius)
    pad_out = np.setdiff1d(np.arange(head.shape[0]), v1_actions(layout))
    assert not w0[:, pad_in].any() and not head[pad_out].any() and not bias[pad_out].any()


def test_an_encoding_1_bundle_is_refused_and_the_upgrade_pads_it(tmp_path: Path) -> None:
    old = _encoding_1_bundle(tmp_path, "duell-nsc")
    with pytest.raises(EncodingMismatchError, match=r"encoding 1 .*bundle upgrade"):
        load_bundle(old)
    done = subprocess.run(
        [sys.executable, "-m", "agents.policy.bundle", "upgrade", str(old)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert sha256_of(old / WEIGHTS) == sha256_of(POLICIES / "duell-nsc" / WEIGHTS)
    assert load_bundle(old).manifest == load_bundle(POLICIES / "duell-nsc").manifest
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duell-nsc"]  # no leftovers


def test_the_upgrade_of_a_missing_folder_is_one_clean_message(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agents.policy.bundle", "upgrade", str(tmp_path / "nope")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    assert "no such folder" in done.stderr and "Traceback" not in done.stderr


# -- identity with encoding 1 -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_policies_choose_exactly_as_with_encoding_1(name: str) -> None:
    """Seeded games: at every decision of the policy, the old network on the old
    observation gives bit-identical logits and the same action as the padded bundle."""
    scenario, opponent, _ = SHIPPED[name]
    tensors, _, actions = v1_tensors(POLICIES / name)
    bundle = load_bundle(POLICIES / name)
    layer_names = [layer.name for layer in bundle.manifest.policy]
    agent = PolicyAgent(bundle)
    runner = make_agent(opponent)
    game = load_scenario(scenario)
    checked = 0
    for seed in range(4):
        combat = game.new_combat(seed)
        view = DecisionView(combat)
        rng = random.Random(seed)
        while not combat.is_terminal():
            legal = combat.legal_actions()
            if combat.fighters[combat.current_fighter()].side is not Side.GEGNER:
                combat.apply(runner.act(view, legal, rng))
                continue
            obs, mask, enc = agent.observation(view)
            agent._step -= 1  # act() below observes this decision again
            x = np.concatenate(
                [
                    v1_observation(k.name, obs[k.name]).reshape(-1)
                    for k in bundle.manifest.observation
                ]
            )
            old = _v1_logits(tensors, layer_names, x)
            new = bundle.logits(obs)
            assert np.array_equal(new[actions], old)  # bit for bit
            assert not mask[np.setdiff1d(np.arange(mask.size), actions)].any()
            old_choice = int(actions[np.argmax(np.where(mask[actions], old, -np.inf))])
            action = agent.act(view, legal, rng)
            assert enc.legal[int(np.flatnonzero(enc.indices == old_choice)[0])] == action
            combat.apply(action)
            checked += 1
    assert checked > 50


def test_env_observations_are_encoding_1_with_zeros_inserted(tmp_path: Path) -> None:
    """The seeded env run of test_golden_digests: with the padded slots taken out, every
    observation, mask and reward hashes to the digest encoding 1 recorded, and every
    padded value is 0 (observation) or masked (action). The digest was recorded by
    encoding 1 before #15 changed defaults; the old readings (OLD_RULES) play its games,
    with the dice of then (the legacy stream; #16 replaced it by PCG32)."""
    from cwenv.envs.kampfrunde import KampfrundeEnv
    from cwenv.rules.dice import LEGACY_STREAM, dice_stream

    old_rules = tmp_path / "vor-r04.yaml"
    old_rules.write_text(OLD_RULES)
    env = KampfrundeEnv(scenario="feuergefecht", opponent="greedy", rules=old_rules)
    keep = v1_actions(env.session.layout)
    pad = np.setdiff1d(np.arange(env.session.layout.size), keep)
    with dice_stream(LEGACY_STREAM):
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=0)
        h = hashlib.sha256()
        for _ in range(300):
            mask = env.action_masks()
            for key in sorted(obs):
                old = v1_observation(key, obs[key])
                assert np.count_nonzero(obs[key]) == np.count_nonzero(old), key
                h.update(np.ascontiguousarray(old).tobytes())
            assert not mask[pad].any()
            h.update(mask[keep].tobytes())
            obs, reward, term, trunc, _ = env.step(rng.choice(np.flatnonzero(mask)))
            h.update(np.float64(reward).tobytes())
            if term or trunc:
                obs, _ = env.reset()
    assert h.hexdigest()[:32] == OLD_ENV_DIGEST


# -- checkpoints ------------------------------------------------------------------------------


def test_a_checkpoint_of_encoding_1_is_not_resumed() -> None:
    from agents.training.checkpoint import CheckpointError
    from agents.training.restore import _check_encoding

    ckpt: Any = SimpleNamespace(path=Path("runs/x/checkpoints/step_1"), state=SimpleNamespace())
    ckpt.state.encoding = None
    ckpt.state.network = "mlp"  # CheckpointState's default: an MLP run's checkpoint
    with pytest.raises(CheckpointError, match=r"encoding 1 .* cannot be resumed"):
        _check_encoding(ckpt)
