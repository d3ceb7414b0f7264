"""Encoding 2's candidate axis cut to what a batch uses (issue #18: the scorer's frames/s).

An encoding-2 observation pads its candidates to K (512 by default) so that MaskablePPO
sees a fixed ``Discrete(K)``. The legal candidates come first (candidate ``i`` is
``legal_actions()[i]``), so in a batch every column from the largest legal count on is
padding in every sample: the scorer gives it ``PADDED_LOGIT``, the mask excludes it and
its probability is 0. Cutting those columns before the minibatch is copied, before the
network and before the distribution is normalised gives the same values, log-probabilities
and entropies (to float32 rounding) and the same distribution of actions, while the
minibatch copy and the softmax no longer grow with K (``benchmarks/NOTES.md``).
:class:`~agents.training.scorer_policy.ScorerPolicy` cuts what it is given;
:class:`CandidateRolloutBuffer` cuts before it copies a minibatch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.buffers import (
    MaskableDictRolloutBuffer,
    MaskableDictRolloutBufferSamples,
)

from cwenv.envs.encoding2 import CANDIDATE_KEYS


def extent(used: np.ndarray[Any, Any] | th.Tensor) -> int:
    """Columns up to the last one any row of the (batch × K) ``used`` marks (at least 1)."""
    if isinstance(used, th.Tensor):
        hits: Any = th.nonzero(used.reshape(-1, used.shape[-1]).any(0))[:, 0]
    else:
        hits = np.flatnonzero(used.reshape(-1, used.shape[-1]).any(0))
    return int(hits[-1]) + 1 if len(hits) else 1


def batch_extent(candidate_mask: Any, action_masks: Any = None) -> int:
    """The columns a batch uses: its candidate mask's and its action masks' extent."""
    n = extent(candidate_mask > 0)
    if action_masks is not None:
        masks = action_masks if isinstance(action_masks, th.Tensor) else np.asarray(action_masks)
        n = max(n, extent(masks.reshape(candidate_mask.shape) > 0))
    return n


def cut(obs: dict[str, Any], n: int) -> dict[str, Any]:
    """``obs`` with the candidate keys cut to their first ``n`` columns (views, no copy)."""
    return {key: v[:, :n] if key in CANDIDATE_KEYS else v for key, v in obs.items()}


class CandidateRolloutBuffer(MaskableDictRolloutBuffer):
    """MaskablePPO's dict rollout buffer, whose minibatches keep only the candidate columns
    their samples use; the gathered arrays are fresh, so they become tensors uncopied."""

    def _get_samples(  # type: ignore[override]
        self, batch_inds: np.ndarray[Any, Any], env: Any = None
    ) -> MaskableDictRolloutBufferSamples:
        masks = self.action_masks[batch_inds]
        n = batch_extent(self.observations["candidate_mask"][batch_inds], masks)

        def tensor(a: np.ndarray[Any, Any]) -> th.Tensor:
            return th.as_tensor(a, device=self.device)

        return MaskableDictRolloutBufferSamples(
            observations={
                key: tensor(obs[batch_inds, :n] if key in CANDIDATE_KEYS else obs[batch_inds])
                for key, obs in self.observations.items()
            },
            actions=tensor(self.actions[batch_inds]),
            old_values=tensor(self.values[batch_inds].flatten()),
            old_log_prob=tensor(self.log_probs[batch_inds].flatten()),
            advantages=tensor(self.advantages[batch_inds].flatten()),
            returns=tensor(self.returns[batch_inds].flatten()),
            action_masks=tensor(masks[:, :n]),
        )
