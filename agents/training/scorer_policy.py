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

from agents.policy.scorer import ScorerDims, param_shapes


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
        """(logits B×K, values B), as the numpy forward."""
        relu = th.relu
        ents, emask = obs["entities"], obs["entity_mask"]
        b = ents.shape[0]
        e = relu(self.lin("ent.1", relu(self.lin("ent.0", ents))))
        m3 = emask.unsqueeze(-1)
        mean = (e * m3).sum(1) / emask.sum(1, keepdim=True).clamp(min=1.0)
        mx = (e * m3).amax(1)
        mp = relu(self.lin("map.0", obs["map"].reshape(b, -1)))
        g = relu(self.lin("state.0", th.cat([obs["global"], mean, mx, mp], 1)))
        value = self.lin("value.1", relu(self.lin("value.0", g)))[:, 0]
        target = obs["candidate_target"].long()
        idx = target.clamp(min=0)
        t = th.gather(e, 1, idx.unsqueeze(-1).expand(-1, -1, e.shape[2]))
        t = t * (target >= 0).unsqueeze(-1).to(t.dtype)
        ve = e @ self.p("vs.ent.weight").T
        vs = relu(self.lin("vs.0", obs["candidate_vs"]) + ve.unsqueeze(1))
        s = (vs * emask[:, None, :, None]).amax(2)
        kinds = nn.functional.one_hot(obs["candidate_kind"].long(), self.d.kinds).to(e.dtype)
        k = obs["candidates"].shape[1]
        gk = g.unsqueeze(1).expand(-1, k, -1)
        x = th.cat([obs["candidates"], kinds, t, s, gk], 2)
        h = relu(self.lin("cand.1", relu(self.lin("cand.0", x))))
        return self.lin("cand.2", h)[..., 0], value


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

    def _run(self, obs: Any) -> tuple[th.Tensor, th.Tensor]:
        logits, value = self.scorer(self.extract_features(obs))
        return logits, value

    def _dist(self, logits: th.Tensor, action_masks: Any) -> MaskableDistribution:
        dist = self.action_dist.proba_distribution(action_logits=logits)
        if action_masks is not None:
            dist.apply_masking(action_masks)
        return dist

    def forward(
        self, obs: Any, deterministic: bool = False, action_masks: Any = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        logits, value = self._run(obs)
        dist = self._dist(logits, action_masks)
        actions = dist.get_actions(deterministic=deterministic)
        return actions, value.unsqueeze(-1), dist.log_prob(actions)

    def evaluate_actions(
        self, obs: Any, actions: th.Tensor, action_masks: Any = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        logits, value = self._run(obs)
        dist = self._dist(logits, action_masks)
        return value.unsqueeze(-1), dist.log_prob(actions), dist.entropy()

    def get_distribution(self, obs: Any, action_masks: Any = None) -> MaskableDistribution:
        return self._dist(self._run(obs)[0], action_masks)

    def predict_values(self, obs: Any) -> th.Tensor:
        return self._run(obs)[1].unsqueeze(-1)
