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
weights. Padding is not computed: the entity rows past the batch's last present one are
cut off (:func:`active`; masked rows add zeros to sums and to maxima of non-negative
numbers, so no value changes), and only the legal candidates are scored, packed into one
list for the whole batch; every other slot gets :data:`PADDED_LOGIT`. A K of 512 then
costs what the legal actions cost (a batch of feuergefecht decisions: ~28 on average).
:mod:`agents.training.scorer_policy` is the torch twin (identical formulas; a test checks
the logits agree within 1e-5). Importing this module imports neither torch nor gymnasium.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

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


PADDED_LOGIT = -1e8
"""The logit of a candidate slot past every legal one (sb3-contrib masks with the same)."""


def active(mask: F32) -> int:
    """The rows a batch uses: up to its last non-zero one in ``mask`` (at least 1)."""
    used = np.flatnonzero(np.asarray(mask).reshape(-1, mask.shape[-1]).any(axis=0))
    return int(used[-1]) + 1 if len(used) else 1


def _blocks(w: F32, d: ScorerDims) -> list[F32]:
    """cand.0's weight split by its input blocks: candidate, kind, target, vs, state."""
    widths = (d.candidate, d.kinds, d.hidden, d.vs_hidden, d.hidden)
    edges = np.cumsum((0, *widths))
    return [w[:, a:b] for a, b in pairwise(edges)]


def _relu(x: F32) -> F32:
    return np.maximum(x, 0.0)


def _lin(p: dict[str, F32], name: str, x: F32) -> F32:
    return x @ p[f"{name}.weight"].T + p[f"{name}.bias"]


def forward(p: dict[str, F32], obs: dict[str, F32], d: ScorerDims) -> tuple[F32, F32]:
    """(logits B×K, values B) for a batch of observations (leading axis B)."""
    k_all = obs["candidates"].shape[1]
    en = active(obs["entity_mask"])
    ents, emask = obs["entities"][:, :en], obs["entity_mask"][:, :en]
    e = _relu(_lin(p, "ent.1", _relu(_lin(p, "ent.0", ents))))  # B×E×H
    m3 = emask[..., None]
    mean = (e * m3).sum(axis=1) / np.maximum(emask.sum(axis=1, keepdims=True), 1.0)
    mx = (e * m3).max(axis=1)  # e ≥ 0, and the decider's row is always present
    mp = _relu(_lin(p, "map.0", obs["map"].reshape(len(ents), -1)))
    g = _relu(_lin(p, "state.0", np.concatenate([obs["global"], mean, mx, mp], axis=1)))
    value = _lin(p, "value.1", _relu(_lin(p, "value.0", g)))[:, 0]
    # cand.0 on x = [candidates, onehot(kind), t, s, g] is computed by its column blocks:
    # the one-hot picks a column, the target's and the state's parts are multiplied once
    # per entity row and once per observation instead of once per candidate.
    wc, wk, wt, ws, wg = _blocks(p["cand.0.weight"], d)
    bi, ci = np.nonzero(obs["candidate_mask"] > 0)  # the legal candidates, packed
    target = obs["candidate_target"][bi, ci].astype(np.int64)  # N, −1 = none
    t = (e @ wt.T)[bi, np.maximum(target, 0)] * (target >= 0)[:, None]  # N×C
    ve = e @ p["vs.ent.weight"].T  # B×E×S
    vs = _relu(_lin(p, "vs.0", obs["candidate_vs"][bi, ci, :en]) + ve[bi])  # N×E×S
    s = (vs * emask[bi][..., None]).max(axis=1)  # N×S
    kinds = wk.T[obs["candidate_kind"][bi, ci].astype(np.int64)]  # N×C
    x0 = obs["candidates"][bi, ci] @ wc.T + kinds + t + s @ ws.T
    x0 = x0 + (g @ wg.T + p["cand.0.bias"])[bi]
    h = _relu(_lin(p, "cand.1", _relu(x0)))
    logits = np.full((len(ents), k_all), PADDED_LOGIT, dtype=np.float32)
    logits[bi, ci] = _lin(p, "cand.2", h)[:, 0]
    return logits, value.astype(np.float32)


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
