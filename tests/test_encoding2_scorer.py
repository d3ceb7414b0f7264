"""The candidate scorer (issue #18): numpy and torch agree; bundles refuse other encodings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.policy.bundle import EncodingMismatchError
from agents.policy.manifest import manifest_digest
from agents.policy.scorer import batched, forward
from agents.policy.scorer_bundle import load_scorer_bundle, write_scorer_bundle
from cwenv.content import load_scenario
from cwenv.envs.encoding2 import Session2

th = pytest.importorskip("torch")
from agents.training.scorer_policy import (  # noqa: E402
    CandidateScorer,
    dims_of_space,
    export_tensors,
)
from cwenv.envs.env2 import KampfrundeEnv2, observation_space2  # noqa: E402


def _observations(name: str, n: int) -> list[dict[str, np.ndarray]]:
    s = Session2(load_scenario(name))
    c = s.game.new_combat(3)
    out = []
    for _ in range(n):
        enc = s.encode(c)
        out.append(enc.obs)
        c.apply(enc.legal[-1])
    return out


def _scorer(seed: int = 0) -> CandidateScorer:
    th.manual_seed(seed)
    sc = CandidateScorer(dims_of_space(observation_space2()))
    for p in sc.parameters():
        th.nn.init.normal_(p, std=0.1)
    return sc


@pytest.mark.parametrize("name", ["duell", "strassenschlacht"])
def test_numpy_and_torch_give_the_same_logits(name: str) -> None:
    sc = _scorer()
    tensors = export_tensors(sc)
    obs = _observations(name, 6)
    batch = {k: np.stack([o[k] for o in obs]) for k in obs[0]}
    with th.no_grad():
        tl, tv = sc({k: th.as_tensor(v) for k, v in batch.items()})
    nl, nv = forward(tensors, batch, sc.d)
    mask = batch["candidate_mask"] > 0
    assert np.abs(tl.numpy()[mask] - nl[mask]).max() < 1e-5
    assert np.abs(tv.numpy() - nv).max() < 1e-5


def test_network_size_does_not_depend_on_scenario_or_k() -> None:
    small = dims_of_space(observation_space2(64))
    assert small == dims_of_space(observation_space2(512))
    sc = _scorer()
    tensors = export_tensors(sc)
    for name in ("duell", "strassenschlacht"):  # 2 and 12 fighters, one set of weights
        obs = _observations(name, 1)[0]
        logits, _ = forward(tensors, batched(obs), sc.d)
        assert np.isfinite(logits).all()


def test_bundle_round_trip_plays_the_same_choice(tmp_path: Path) -> None:
    sc = _scorer(1)
    write_scorer_bundle(tmp_path, export_tensors(sc), scenario="duell", side="gegner")
    bundle = load_scorer_bundle(tmp_path)
    obs = _observations("feuergefecht", 1)[0]
    mask = obs["candidate_mask"] > 0
    with th.no_grad():
        tl, _ = sc({k: th.as_tensor(v[None]) for k, v in obs.items()})
    expected = int(np.argmax(np.where(mask, tl.numpy()[0], -np.inf)))
    assert bundle.choose(obs, mask) == expected


def _rewrite(path: Path, edit: dict[str, object]) -> None:
    m = path / "manifest.json"
    data = json.loads(m.read_text())
    data.update(edit)
    data["manifest_sha256"] = manifest_digest(data)
    m.write_text(json.dumps(data))


def test_bundle_of_the_padded_grid_encoding_is_refused_by_name(tmp_path: Path) -> None:
    write_scorer_bundle(tmp_path, export_tensors(_scorer()), scenario="duell", side="gegner")
    _rewrite(tmp_path, {"observation_encoding": 2, "action_encoding": 2})
    with pytest.raises(EncodingMismatchError, match="padded grid encoding"):
        load_scorer_bundle(tmp_path)


def test_bundle_with_other_features_is_refused_naming_them(tmp_path: Path) -> None:
    from cwenv.envs.encoding import fingerprint

    write_scorer_bundle(tmp_path, export_tensors(_scorer()), scenario="duell", side="gegner")
    data = json.loads((tmp_path / "manifest.json").read_text())
    record = data["encoding"]
    for key in record["observation"]:
        if key["key"] == "candidates":
            key["features"][-1] = "probenwert/20"  # a feature renamed since training
    record["fingerprint"] = fingerprint(record)
    _rewrite(tmp_path, {"encoding": record})
    with pytest.raises(EncodingMismatchError, match="probenwert/20"):
        load_scorer_bundle(tmp_path)


def test_scorer_policy_trains_with_maskable_ppo() -> None:
    from sb3_contrib import MaskablePPO

    from agents.training.scorer_policy import ScorerPolicy

    env = KampfrundeEnv2("duell", opponent="random", k=128)
    model = MaskablePPO(ScorerPolicy, env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    before = export_tensors(model.policy.scorer)["cand.0.weight"].copy()
    model.learn(total_timesteps=64)
    assert not np.allclose(before, export_tensors(model.policy.scorer)["cand.0.weight"])


def test_padding_is_not_computed_and_changes_no_legal_score() -> None:
    """Decisions scored alone and batched together (K = 512 and 1024, legal counts that
    differ) give every legal candidate the same score, numpy and torch; every other slot
    gets PADDED_LOGIT (only the legal candidates are computed)."""
    from agents.policy.scorer import PADDED_LOGIT

    sc = _scorer(2)
    tensors = export_tensors(sc)
    game = load_scenario("strassenschlacht")
    wide, narrow = Session2(game, k=1024), Session2(game, k=512)
    c = game.new_combat(4)
    obs_w, obs_n = [], []
    for _ in range(5):
        obs_w.append(wide.encode(c).obs)
        enc = narrow.encode(c)
        obs_n.append(enc.obs)
        c.apply(enc.legal[0])
    for obs in (obs_w, obs_n):
        batch = {k: np.stack([o[k] for o in obs]) for k in obs[0]}
        mask = batch["candidate_mask"] > 0
        alone = [forward(tensors, batched(o), sc.d)[0][0] for o in obs]
        together, _ = forward(tensors, batch, sc.d)
        with th.no_grad():
            torch_logits, _ = sc({k: th.as_tensor(v) for k, v in batch.items()})
        assert (together[~mask] == PADDED_LOGIT).all() and (
            torch_logits.numpy()[~mask] == PADDED_LOGIT
        ).all()
        for i, row in enumerate(alone):
            n = int(mask[i].sum())
            np.testing.assert_allclose(row[:n], together[i, :n], rtol=0, atol=2e-6)
            np.testing.assert_allclose(row[:n], torch_logits.numpy()[i, :n], rtol=0, atol=1e-5)
