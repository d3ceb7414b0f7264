"""The candidate-scoring network of encoding 2 (issue #18), run with numpy only.

One network for every scenario: its weights do not depend on the map, the number of
fighters, K or the rule enums (only on the feature widths of the encoding record). For a
decision it computes (shapes for one observation; ``E`` entity rows, ``K`` candidates)::

    e   = relu(relu(entities·We1ᵀ+b)·We2ᵀ+b)                 E×H    per entity row
    pool= [masked mean of e, masked max of e]                2H     over present rows
    m   = relu(flat(map)·Wmᵀ+b)                              H
    g   = relu([global, pool, m]·Wgᵀ+b)                      H      the state
    v   = relu(g·Wv1ᵀ+b)·Wv2ᵀ+b                              1      the value
    t   = e[candidate_target]  (0 for −1)                    K×H    the target's row
    s   = max_r mask_r·relu(vs[:, r]·Wsᵀ + b + e_r·Weᵀ)      K×S    standpoint vs each row
    x   = [candidates, onehot(candidate_kind), t, s, g]      K×(Fc+A+H+S+H)
    logit = (relu(relu(x·Wc1ᵀ+b)·Wc2ᵀ+b))·Wc3ᵀ+b             K      one score per candidate

The same MLP scores every candidate, so a fight with 3 or 400 legal actions runs the same
weights. :mod:`agents.training.scorer_policy` is the torch twin (identical formulas; a
test checks the logits agree within 1e-5). Importing this module imports neither torch
nor gymnasium.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]


@dataclass(frozen=True)
class ScorerDims:
    """Input widths (from the encoding record) and hidden sizes of the network."""

    entity: int
    global_: int
    map_: int  # channels · side · side, flattened
    candidate: int
    kinds: int
    vs: int
    hidden: int = 64
    vs_hidden: int = 16
    cand_hidden: int = 64

    @property
    def cand_in(self) -> int:
        return self.candidate + self.kinds + self.hidden + self.vs_hidden + self.hidden


def param_shapes(d: ScorerDims) -> dict[str, tuple[int, ...]]:
    """Every tensor of the network by name (``<layer>.weight`` is out × in)."""
    h, s, c = d.hidden, d.vs_hidden, d.cand_hidden
    layers = {
        "ent.0": (h, d.entity),
        "ent.1": (h, h),
        "map.0": (h, d.map_),
        "state.0": (h, d.global_ + 3 * h),
        "value.0": (h, h),
        "value.1": (1, h),
        "vs.0": (s, d.vs),
        "cand.0": (c, d.cand_in),
        "cand.1": (c, c),
        "cand.2": (1, c),
    }
    out: dict[str, tuple[int, ...]] = {}
    for name, shape in layers.items():
        out[f"{name}.weight"] = shape
        out[f"{name}.bias"] = (shape[0],)
    out["vs.ent.weight"] = (s, h)  # no bias: vs.0's bias is the one
    return out


def dims_of(shapes: dict[str, tuple[int, ...]], **hidden: int) -> ScorerDims:
    """ScorerDims for an observation of encoding 2 (``shapes`` as ``shapes2()``)."""
    from_map = int(np.prod(shapes["map"]))
    return ScorerDims(
        entity=shapes["entities"][-1],
        global_=shapes["global"][0],
        map_=from_map,
        candidate=shapes["candidates"][-1],
        kinds=hidden.pop("kinds", 64),
        vs=shapes["candidate_vs"][-1],
        **hidden,
    )


def _relu(x: F32) -> F32:
    return np.maximum(x, 0.0)


def _lin(p: dict[str, F32], name: str, x: F32) -> F32:
    return x @ p[f"{name}.weight"].T + p[f"{name}.bias"]


def forward(p: dict[str, F32], obs: dict[str, F32], d: ScorerDims) -> tuple[F32, F32]:
    """(logits B×K, values B) for a batch of observations (leading axis B)."""
    ents, emask = obs["entities"], obs["entity_mask"]
    e = _relu(_lin(p, "ent.1", _relu(_lin(p, "ent.0", ents))))  # B×E×H
    m3 = emask[..., None]
    mean = (e * m3).sum(axis=1) / np.maximum(emask.sum(axis=1, keepdims=True), 1.0)
    mx = (e * m3).max(axis=1)  # e ≥ 0, and the decider's row is always present
    mp = _relu(_lin(p, "map.0", obs["map"].reshape(len(ents), -1)))
    g = _relu(_lin(p, "state.0", np.concatenate([obs["global"], mean, mx, mp], axis=1)))
    value = _lin(p, "value.1", _relu(_lin(p, "value.0", g)))[:, 0]
    target = obs["candidate_target"].astype(np.int64)  # B×K, −1 = none
    b_idx = np.arange(len(ents))[:, None]
    t = e[b_idx, np.maximum(target, 0)] * (target >= 0)[..., None]  # B×K×H
    ve = e @ p["vs.ent.weight"].T  # B×E×S
    vs = _relu(_lin(p, "vs.0", obs["candidate_vs"]) + ve[:, None])  # B×K×E×S
    s = (vs * emask[:, None, :, None]).max(axis=2)  # B×K×S
    kinds = np.eye(d.kinds, dtype=np.float32)[obs["candidate_kind"].astype(np.int64)]
    k = obs["candidates"].shape[1]
    gk = np.broadcast_to(g[:, None], (len(ents), k, g.shape[1]))
    x = np.concatenate([obs["candidates"], kinds, t, s, gk], axis=2)
    h = _relu(_lin(p, "cand.1", _relu(_lin(p, "cand.0", x))))
    logits = _lin(p, "cand.2", h)[..., 0]
    return logits.astype(np.float32), value.astype(np.float32)


def batched(obs: dict[str, F32]) -> dict[str, F32]:
    """One observation as a batch of one."""
    return {key: np.asarray(v, dtype=np.float32)[None] for key, v in obs.items()}


def masked_probabilities(logits: F32, mask: NDArray[np.bool_]) -> F32:
    """Softmax over the legal candidates only (0 elsewhere)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max()
    e = np.exp(z)
    out: F32 = (e / e.sum()).astype(np.float32)
    return out
