"""The scorer's training cuts the candidate axis to what a batch uses
(agents/training/scorer_batch.py): the values, log-probabilities, entropies and gradients
must be those of sb3-contrib's masked categorical over all K candidates, and a minibatch
must hold every candidate its samples can take."""

from __future__ import annotations

import numpy as np
import pytest

th = pytest.importorskip("torch")

from gymnasium import spaces  # noqa: E402
from sb3_contrib.common.maskable.buffers import MaskableDictRolloutBuffer  # noqa: E402
from sb3_contrib.common.maskable.distributions import MaskableCategorical  # noqa: E402

from agents.training.scorer_batch import CandidateRolloutBuffer  # noqa: E402
from agents.training.scorer_policy import ScorerPolicy  # noqa: E402
from cwenv.content import load_scenario  # noqa: E402
from cwenv.envs.encoding2 import CANDIDATE_KEYS, Session2  # noqa: E402
from cwenv.envs.env2 import observation_space2  # noqa: E402

K = 256


def _decisions(n: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """``n`` encoded decisions of strassenschlacht (legal counts from a handful to
    hundreds) and a legal action of each."""
    s = Session2(load_scenario("strassenschlacht"), k=K)
    c = s.game.new_combat(11)
    rng = np.random.default_rng(0)
    obs, actions = [], []
    while len(obs) < n:
        enc = s.encode(c)
        i = int(rng.integers(len(enc.legal)))
        obs.append(enc.obs)
        actions.append(i)
        c.apply(enc.legal[i])
    return {k: np.stack([o[k] for o in obs]) for k in obs[0]}, np.array(actions)


def _policy() -> ScorerPolicy:
    th.manual_seed(0)
    policy = ScorerPolicy(observation_space2(K), spaces.Discrete(K), lambda _: 3e-4)
    for p in policy.parameters():
        th.nn.init.normal_(p, std=0.1)
    return policy


def test_cut_batch_gives_sb3_contribs_values_log_probs_entropy_and_gradients() -> None:
    batch, actions = _decisions(24)
    counts = batch["candidate_mask"].sum(1)
    assert counts.max() < K and counts.min() < counts.max()  # padding to cut, rows that differ
    obs = {k: th.as_tensor(v) for k, v in batch.items()}
    masks = batch["candidate_mask"] > 0
    acts = th.as_tensor(actions)
    policy = _policy()

    values, log_prob, entropy = policy.evaluate_actions(obs, acts, action_masks=masks)
    (log_prob.mean() + 0.01 * entropy.mean() + values.mean()).backward()
    ours = [p.grad.clone() for p in policy.parameters()]
    policy.zero_grad()

    logits, ref_values = policy.scorer(obs)  # all K columns, sb3-contrib's distribution
    assert logits.shape[1] == K
    dist = MaskableCategorical(logits=logits, masks=th.as_tensor(masks))
    ref_lp, ref_ent = dist.log_prob(acts), dist.entropy()
    (ref_lp.mean() + 0.01 * ref_ent.mean() + ref_values.mean()).backward()
    theirs = [p.grad.clone() for p in policy.parameters()]

    assert th.allclose(values[:, 0], ref_values, rtol=0, atol=1e-6)
    assert th.allclose(log_prob, ref_lp, rtol=0, atol=1e-5)
    assert th.allclose(entropy, ref_ent, rtol=0, atol=1e-5)
    for a, b in zip(ours, theirs, strict=True):
        assert th.allclose(a, b, rtol=1e-4, atol=1e-6)


def test_actions_drawn_from_a_cut_batch_are_legal() -> None:
    batch, _ = _decisions(16)
    obs = {k: th.as_tensor(v) for k, v in batch.items()}
    masks = batch["candidate_mask"] > 0
    th.manual_seed(1)
    with th.no_grad():
        for _ in range(20):
            actions, _, _ = _policy().forward(obs, action_masks=masks)
            assert masks[np.arange(len(masks)), actions.numpy()].all()


def _filled(cls: type, batch: dict[str, np.ndarray], actions: np.ndarray) -> object:
    n_envs = 2
    steps = len(actions) // n_envs
    buf = cls(steps, observation_space2(K), spaces.Discrete(K), n_envs=n_envs)
    for t in range(steps):
        rows = slice(t * n_envs, (t + 1) * n_envs)
        buf.add(
            {k: v[rows] for k, v in batch.items()},
            actions[rows, None],
            np.zeros(n_envs, dtype=np.float32),
            np.ones(n_envs, dtype=np.float32) * (t == 0),
            th.zeros(n_envs),
            th.zeros(n_envs),
            action_masks=batch["candidate_mask"][rows] > 0,
        )
    buf.compute_returns_and_advantage(th.zeros(n_envs), np.zeros(n_envs))
    return buf


def test_minibatch_keeps_exactly_the_columns_its_samples_use() -> None:
    batch, actions = _decisions(24)
    ours = _filled(CandidateRolloutBuffer, batch, actions)
    theirs = _filled(MaskableDictRolloutBuffer, batch, actions)
    np.random.seed(3)
    got = list(ours.get(8))  # type: ignore[attr-defined]
    np.random.seed(3)
    ref = list(theirs.get(8))  # type: ignore[attr-defined]
    assert len(got) == len(ref) == 3
    for a, b in zip(got, ref, strict=True):
        n = int(b.observations["candidate_mask"].sum(1).max())
        assert a.action_masks.shape == (8, n)  # the largest legal count, no more, no less
        assert th.equal(a.action_masks, b.action_masks[:, :n])
        assert not b.action_masks[:, n:].any()
        for key, full in b.observations.items():
            cut = a.observations[key]
            if key in CANDIDATE_KEYS:
                assert th.equal(cut, full[:, :n])
            else:
                assert th.equal(cut, full)
        assert th.equal(a.actions, b.actions) and th.equal(a.returns, b.returns)
