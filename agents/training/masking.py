"""MaskablePPO's masked categorical without underflowing exponentials.

sb3-contrib masks an illegal action by setting its logit to −1e8. Every softmax,
log-sum-exp and their gradients then take ``exp`` of numbers far below float32's smallest
normal (about −87), and on this CPU torch's vectorised ``exp`` falls back to a path 30–110×
slower for them (measured in ``benchmarks/NOTES.md``): with a 5,953-way action head nearly
every logit is masked, and the update spent most of its time there.

:class:`FiniteMaskCategorical` puts a masked logit :data:`MASK_GAP` below the row's best
legal logit instead. A masked action's probability is then at most e^−60 ≈ 9e−27 (all of
them together below 6e−23, under float32's resolution next to the legal actions'), the
legal actions' probabilities, log-probabilities and the entropy are the same to float32
precision, and no exponential underflows. Gradients flow to the legal logits only, as with
sb3-contrib's constant. Actions are drawn by Gumbel-max (the same distribution, one
uniform per action), which over 5,953 actions costs a quarter of ``torch.multinomial``.
"""

from __future__ import annotations

from typing import Any

import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
    MaybeMasks,
)
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from torch.distributions import Categorical

MASK_GAP = 60.0
"""How far below the best legal logit a masked logit is set: e^−60 is negligible, and even
after normalisation over 6,324 actions (−60 − ln 6324 ≈ −69) exp stays a normal float32."""


_NO_SHAPE = th.Size()


def _bool_masks(masks: MaybeMasks, logits: th.Tensor) -> th.Tensor:
    return th.as_tensor(masks, dtype=th.bool, device=logits.device).reshape(logits.shape)


def finite_masked(logits: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """``logits`` with each masked entry at its row's best legal logit − MASK_GAP."""
    neg_inf = th.tensor(float("-inf"), dtype=logits.dtype, device=logits.device)
    best = th.where(masks, logits, neg_inf).amax(dim=-1, keepdim=True)
    # A row with no legal action at all becomes uniform, as with sb3-contrib (not NaN).
    best = th.where(th.isneginf(best), th.zeros_like(best), best)
    floor = (best - MASK_GAP).detach()  # a constant, as sb3-contrib's −1e8
    return th.where(masks, logits, floor)


class FiniteMaskCategorical(MaskableCategorical):
    """:class:`MaskableCategorical` with masked logits at (best legal logit − MASK_GAP)."""

    def apply_masking(self, masks: MaybeMasks) -> None:
        if masks is None:
            super().apply_masking(None)
            return
        original = self._original_logits
        self.masks = _bool_masks(masks, original)
        logits = finite_masked(original, self.masks)
        self.__dict__.pop("probs", None)  # as sb3-contrib: no stale probs on re-init
        # The logits were validated (no NaN) when the distribution was made; the masked ones
        # derive from them, so the re-init skips the check and keeps the setting after it.
        validate = self._validate_args
        Categorical.__init__(self, logits=logits, validate_args=False)
        self._validate_args = validate

    @classmethod
    def of(cls, logits: th.Tensor, masks: MaybeMasks) -> FiniteMaskCategorical:
        """The distribution of ``logits`` under ``masks``, normalised from finite logits
        only: the constructor then :meth:`apply_masking` would first normalise the raw
        logits, whose padding (the scorer's −1e8) takes the slow ``exp`` path."""
        if masks is None:
            return cls(logits=logits)
        bool_masks = _bool_masks(masks, logits)
        dist = cls(logits=finite_masked(logits, bool_masks), validate_args=False)
        dist.masks = bool_masks  # the masked entropy, as after apply_masking
        return dist

    def sample(self, sample_shape: th.Size | list[int] | tuple[int, ...] = _NO_SHAPE) -> th.Tensor:
        """Gumbel-max: argmax(logits + G) with G = −ln(−ln U), an exact draw from the same
        distribution and cheaper than ``torch.multinomial`` over thousands of actions.
        U is kept at least float32's smallest normal, so G ≥ −4.5 while a masked action,
        MASK_GAP below the best legal one, gets at most G ≤ 16.7: it never wins. (A
        ``sample_shape`` falls back to torch's sampler, where a masked action has a chance
        below 6e−23; MaskablePPO never asks for one.) The draws use torch's random stream
        differently from ``multinomial``: a seeded run no longer repeats one made before
        this sampler, though both draw from the same distribution."""
        if th.Size(sample_shape) != _NO_SHAPE:
            drawn: th.Tensor = super().sample(sample_shape)  # type: ignore[no-untyped-call]
            return drawn
        logits = self.logits
        u = th.rand_like(logits).clamp_(min=th.finfo(logits.dtype).tiny)
        return th.argmax(logits - th.log(-th.log(u)), dim=-1)


class FiniteMaskCategoricalDistribution(MaskableCategoricalDistribution):
    def proba_distribution(self, action_logits: th.Tensor) -> FiniteMaskCategoricalDistribution:
        self.distribution = FiniteMaskCategorical(logits=action_logits.view(-1, self.action_dim))
        return self


class FiniteMaskPolicy(MaskableMultiInputActorCriticPolicy):
    """sb3-contrib's ``MultiInputPolicy`` with :class:`FiniteMaskCategorical` (same layers,
    same parameters: bundles and checkpoints are interchangeable)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not isinstance(self.action_space, spaces.Discrete):
            raise TypeError(
                f"FiniteMaskPolicy needs a Discrete action space, not {self.action_space}"
            )
        self.action_dist = FiniteMaskCategoricalDistribution(int(self.action_space.n))
