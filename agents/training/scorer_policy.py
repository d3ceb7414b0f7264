"""The candidate scorer in torch, as a MaskablePPO policy class (issue #18, encoding 2).

:class:`CandidateScorer` computes exactly :func:`agents.policy.scorer.forward` (the same
tensors by name, the same formulas; ``tests/test_encoding2_scorer.py`` checks the logits
within 1e-5). :class:`ScorerPolicy` plugs it into sb3-contrib's MaskablePPO for
``cwenv/Kampfrunde2-v0``: the logits of the K candidates are the action distribution's,
the value head is the critic. :func:`export_tensors` gives the numpy bundle's tensors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from agents.policy.scorer import PADDED_LOGIT, ScorerDims, param_shapes
from agents.training.masking import FiniteMaskCategorical
from agents.training.scorer_batch import batch_extent, cut


class CandidateScorer(nn.Module):
    def __init__(self, d: ScorerDims) -> None:
        super().__init__()
        self.d = d
        self.params = nn.ParameterDict()
        for name, shape in param_shapes(d).items():
            t = th.zeros(shape)
            if name.endswith("weight"):
                nn.init.orthogonal_(t, gain=0.01 if name.startswith("cand.2") else np.sqrt(2))
            # ParameterDict keys may not contain dots
            self.params[name.replace(".", "__")] = nn.Parameter(t)

    def p(self, name: str) -> th.Tensor:
        param: th.Tensor = self.params[name.replace(".", "__")]
        return param

    def lin(self, name: str, x: th.Tensor) -> th.Tensor:
        return x @ self.p(f"{name}.weight").T + self.p(f"{name}.bias")

    def forward(self, obs: dict[str, th.Tensor]) -> tuple[th.Tensor, th.Tensor]:
        """(logits B×K, values B), as the numpy forward (legal candidates packed the
        same way)."""
        relu = th.relu
        k_all = obs["candidates"].shape[1]
        en = _extent(obs["entity_mask"])
        ents, emask = obs["entities"][:, :en], obs["entity_mask"][:, :en]
        b = ents.shape[0]
        e = relu(self.lin("ent.1", relu(self.lin("ent.0", ents))))
        m3 = emask.unsqueeze(-1)
        mean = (e * m3).sum(1) / emask.sum(1, keepdim=True).clamp(min=1.0)
        mx = (e * m3).amax(1)
        mp = relu(self.lin("map.0", obs["map"].reshape(b, -1)))
        g = relu(self.lin("state.0", th.cat([obs["global"], mean, mx, mp], 1)))
        value = self.lin("value.1", relu(self.lin("value.0", g)))[:, 0]
        d = self.d
        wc, wk, wt, ws, wg = th.split(
            self.p("cand.0.weight"), [d.candidate, d.kinds, d.hidden, d.vs_hidden, d.hidden], 1
        )  # the numpy forward's column blocks of cand.0
        bi, ci = th.nonzero(obs["candidate_mask"] > 0, as_tuple=True)  # packed
        target = obs["candidate_target"][bi, ci].long()
        et = e @ wt.T
        t = et[bi, target.clamp(min=0)] * (target >= 0).unsqueeze(-1).to(et.dtype)
        ve = e @ self.p("vs.ent.weight").T
        vs = relu(self.lin("vs.0", obs["candidate_vs"][bi, ci, :en]) + ve[bi])
        s = (vs * emask[bi].unsqueeze(-1)).amax(1)
        kinds = wk.T[obs["candidate_kind"][bi, ci].long()]
        x0 = obs["candidates"][bi, ci] @ wc.T + kinds + t + s @ ws.T
        x0 = x0 + (g @ wg.T + self.p("cand.0.bias"))[bi]
        h = relu(self.lin("cand.1", relu(x0)))
        logits = e.new_full((b, k_all), PADDED_LOGIT)
        return logits.index_put((bi, ci), self.lin("cand.2", h)[:, 0]), value


def _extent(mask: th.Tensor) -> int:
    """Rows up to the batch's last non-zero one (at least 1), as the numpy ``active``."""
    used = th.nonzero(mask.reshape(-1, mask.shape[-1]).any(0))
    return int(used[-1, 0]) + 1 if len(used) else 1


def export_tensors(scorer: CandidateScorer) -> dict[str, np.ndarray]:
    """The scorer's tensors by their bundle names (float32 numpy)."""
    return {
        name: scorer.p(name).detach().cpu().numpy().astype(np.float32)
        for name in param_shapes(scorer.d)
    }


class _PassThrough(BaseFeaturesExtractor):
    """The scorer reads the observation dict itself."""

    def __init__(self, observation_space: spaces.Dict) -> None:
        super().__init__(observation_space, features_dim=1)

    def forward(self, observations: Any) -> Any:
        return observations


def dims_of_space(space: spaces.Dict, **hidden: int) -> ScorerDims:
    from agents.policy.scorer import dims_of

    shapes = {key: tuple(box.shape or ()) for key, box in space.spaces.items()}
    return dims_of(shapes, **hidden)


class ScorerPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy: the candidate scorer's logits and value. ``scorer_kwargs``
    sets ``hidden``, ``vs_hidden``, ``cand_hidden`` (defaults 64, 16, 64)."""

    def __init__(self, *args: Any, scorer_kwargs: dict[str, int] | None = None, **kwargs: Any):
        self.scorer_kwargs = dict(scorer_kwargs or {})
        kwargs["features_extractor_class"] = _PassThrough
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        space = self.observation_space
        if not isinstance(space, spaces.Dict):
            raise TypeError("ScorerPolicy needs the Dict observation of encoding 2")
        self.scorer = CandidateScorer(dims_of_space(space, **self.scorer_kwargs))
        self.optimizer = self.optimizer_class(  # type: ignore[call-arg]
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["scorer_kwargs"] = self.scorer_kwargs
        return data

    def _run(self, obs: Any, action_masks: Any) -> tuple[th.Tensor, th.Tensor, Any]:
        """(logits, values, masks) over the candidate columns the batch uses
        (:mod:`agents.training.scorer_batch`): the rest are padding in every sample."""
        obs = self.extract_features(obs)
        n = batch_extent(obs["candidate_mask"], action_masks)
        if action_masks is not None:
            width = obs["candidate_mask"].shape[1]  # K, or fewer from CandidateRolloutBuffer
            masks = th.as_tensor(action_masks, device=self.device).reshape(-1, width)
            action_masks = masks[:, :n]
        logits, value = self.scorer(cut(obs, n))
        return logits, value, action_masks

    def _dist(self, logits: th.Tensor, action_masks: Any) -> MaskableDistribution:
        # Built from finite logits at once (FiniteMaskCategorical.of): the scorer pads with
        # -1e8, which sb3-contrib's constructor would normalise on the slow exp path.
        self.action_dist.distribution = FiniteMaskCategorical.of(logits, action_masks)
        return self.action_dist

    def forward(
        self, obs: Any, deterministic: bool = False, action_masks: Any = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        logits, value, masks = self._run(obs, action_masks)
        dist = self._dist(logits, masks)
        actions = dist.get_actions(deterministic=deterministic)
        return actions, value.unsqueeze(-1), dist.log_prob(actions)

    def evaluate_actions(
        self, obs: Any, actions: th.Tensor, action_masks: Any = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        logits, value, masks = self._run(obs, action_masks)
        dist = self._dist(logits, masks)
        return value.unsqueeze(-1), dist.log_prob(actions), dist.entropy()

    def get_distribution(self, obs: Any, action_masks: Any = None) -> MaskableDistribution:
        logits, _, masks = self._run(obs, action_masks)
        return self._dist(logits, masks)

    def predict_values(self, obs: Any) -> th.Tensor:
        return self._run(obs, None)[1].unsqueeze(-1)
