"""The finite action mask of training (agents/training/masking.py) must be sb3-contrib's
masked categorical to float32 precision: same log-probabilities, entropy and gradients,
masked actions never drawn. Only its speed differs (benchmarks/NOTES.md)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from sb3_contrib.common.maskable.distributions import MaskableCategorical  # noqa: E402

from agents.training.masking import MASK_GAP, FiniteMaskCategorical, FiniteMaskPolicy  # noqa: E402


def _batch(seed: int, rows: int = 32, n: int = 5953) -> tuple[object, object, object]:
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(rows, n, generator=g) * 4).requires_grad_(True)
    masks = torch.rand(rows, n, generator=g) < 0.01
    masks[:, 7] = True  # every row has a legal action
    legal = torch.multinomial(masks.float(), 1, generator=g).squeeze(1)
    return logits, masks, legal


def _loss_and_grad(cls: type, logits, masks, legal):  # type: ignore[no-untyped-def]
    logits.grad = None
    d = cls(logits=logits, masks=masks)
    loss = -(d.log_prob(legal).mean() + 0.01 * d.entropy().mean())
    loss.backward()
    return d, logits.grad.clone()


@pytest.mark.parametrize("seed", [0, 1])
def test_same_log_probs_entropy_and_gradients_as_sb3_contrib(seed: int) -> None:
    logits, masks, legal = _batch(seed)
    ours, g_ours = _loss_and_grad(FiniteMaskCategorical, logits, masks, legal)
    theirs, g_theirs = _loss_and_grad(MaskableCategorical, logits, masks, legal)
    assert torch.allclose(ours.log_prob(legal), theirs.log_prob(legal), rtol=0, atol=1e-6)
    assert torch.allclose(ours.entropy(), theirs.entropy(), rtol=0, atol=1e-5)
    assert torch.allclose(g_ours, g_theirs, rtol=0, atol=1e-9)
    probs = ours.probs.detach()
    assert float(probs[~masks].max()) <= float(np.exp(-MASK_GAP))
    assert torch.allclose(probs.sum(-1), torch.ones(len(probs)), atol=1e-5)


def test_masked_actions_are_never_sampled() -> None:
    logits, masks, _ = _batch(2, rows=64)
    d = FiniteMaskCategorical(logits=logits.detach(), masks=masks)
    torch.manual_seed(0)
    draws = torch.stack([d.sample() for _ in range(50)])
    assert bool(masks.gather(1, draws.T).all())


def test_policy_uses_the_finite_mask() -> None:
    from sb3_contrib import MaskablePPO

    from cwenv.envs.kampfrunde import KampfrundeEnv

    model = MaskablePPO(FiniteMaskPolicy, KampfrundeEnv(scenario="duell"), n_steps=8, seed=0)
    env = model.get_env()
    obs = env.reset()
    masks = np.stack(env.env_method("action_masks"))
    obs_t, _ = model.policy.obs_to_tensor(obs)
    dist = model.policy.get_distribution(obs_t, action_masks=masks)
    assert isinstance(dist.distribution, FiniteMaskCategorical)
    action, _ = model.predict(obs, action_masks=masks)
    assert masks[0, int(action[0])]


def test_gumbel_draws_follow_the_exact_probabilities() -> None:
    """Frequencies of 200,000 draws (fixed seed) against the exact softmax over the legal
    actions, within 5 standard errors each; masked actions never drawn."""
    logits = torch.tensor([[0.0, 1.0, 2.0, -1.0, 3.0, 0.5]]).expand(200_000, 6)
    masks = torch.tensor([[True, True, True, True, False, True]]).expand(200_000, 6)
    exact = torch.softmax(torch.tensor([0.0, 1.0, 2.0, -1.0, 0.5]), -1)
    torch.manual_seed(0)
    draws = FiniteMaskCategorical(logits=logits, masks=masks).sample()
    counts = torch.bincount(draws, minlength=6).double() / len(draws)
    assert counts[4] == 0.0
    freq = counts[[0, 1, 2, 3, 5]]
    se = torch.sqrt(exact * (1 - exact) / len(draws)).double()
    assert bool(((freq - exact.double()).abs() <= 5 * se).all()), (freq, exact)


def test_a_row_without_legal_actions_is_uniform_as_in_sb3_contrib() -> None:
    logits = torch.randn(2, 5)
    masks = torch.tensor([[False] * 5, [True, False, True, False, False]])
    ours = FiniteMaskCategorical(logits=logits, masks=masks)
    theirs = MaskableCategorical(logits=logits, masks=masks)
    assert not bool(torch.isnan(ours.logits).any())
    assert torch.allclose(ours.probs, theirs.probs, atol=1e-6)
