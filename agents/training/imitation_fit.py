"""Behaviour cloning's fit: the candidate scorer learns the teacher's choices (torch).

:func:`imitate` is the imitation phase of a fresh ``encoding: 2`` run with an
``imitation`` section (``cwenv train``): it records the teacher's games
(:func:`agents.training.imitation.collect`), fits the model's scorer — the actor by
cross-entropy over the legal candidates, the value head to the discounted returns by
squared error times ``value_coef`` — and saves the result as checkpoint 0 with the
resolved config, so PPO continues from it in the same process and ``--resume`` from it
after a stop. The games of the last ``held_aside`` share are not trained on: the
teacher agreement on them (argmax of the scorer = the teacher's candidate) and its
chance level (the mean of 1/legal count) go to ``runs/NAME/imitation.json``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.policy.scorer_bundle import TrainedPool
from agents.training.checkpoint import Checkpoint, read_checkpoint, save_checkpoint
from agents.training.config import Imitation, TrainingConfig
from agents.training.imitation import Demos, ImitationError, collect
from agents.training.pool import pool_entry

IMITATION_JSON = "imitation.json"
Emit = Callable[[str], None]


def split(demos: Demos, held_aside: float) -> tuple[np.ndarray, np.ndarray]:
    """(trained rows, held-aside rows): the decisions of the last ``held_aside`` share of
    the recorded games are held aside (whole games: no decision's neighbour is trained on)."""
    games = sorted(set(demos.games))
    aside = set(games[len(games) - round(held_aside * len(games)) :])
    mark = np.array([g in aside for g in demos.games])
    rows = np.arange(len(demos))
    if mark.all():
        raise ImitationError("held_aside leaves no recorded game to train on")
    return rows[~mark], rows[mark]


def _tensors(demos: Demos, rows: np.ndarray) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(v) for k, v in demos.batch(rows).items()}


def agreement(scorer: Any, demos: Demos, rows: np.ndarray, batch_size: int) -> float:
    """The share of ``rows`` where the scorer's best candidate is the teacher's."""
    same = 0
    with torch.no_grad():
        for lo in range(0, len(rows), batch_size):
            part = rows[lo : lo + batch_size]
            logits, _ = scorer(_tensors(demos, part))
            best = logits.argmax(1).numpy()
            same += int((best == np.asarray(demos.actions)[part]).sum())
    return same / max(1, len(rows))


def fit(
    scorer: Any, demos: Demos, imit: Imitation, max_grad_norm: float, emit: Emit | None = None
) -> dict[str, Any]:
    """Train ``scorer`` on the trained rows for ``imit.epochs``; the per-epoch losses and
    agreements (trained and held-aside rows) and the held-aside chance level."""
    trained, aside = split(demos, imit.held_aside)
    cloned = np.asarray(demos.cloned, dtype=bool)
    clone_trained, clone_aside = trained[cloned[trained]], aside[cloned[aside]]
    if not len(clone_trained):
        raise ImitationError("held_aside leaves no cloned decision to train on")
    actions = torch.as_tensor(np.asarray(demos.actions), dtype=torch.long)
    is_cloned = torch.as_tensor(cloned)
    returns = torch.as_tensor(np.asarray(demos.returns, dtype=np.float32))
    optimizer = torch.optim.Adam(scorer.parameters(), lr=imit.learning_rate)
    rng = np.random.default_rng(imit.seed)
    epochs: list[dict[str, float | None]] = []
    for epoch in range(imit.epochs):
        order = trained[rng.permutation(len(trained))]
        ce_sum = value_sum = 0.0
        for lo in range(0, len(order), imit.batch_size):
            part = order[lo : lo + imit.batch_size]
            logits, value = scorer(_tensors(demos, part))
            index = torch.as_tensor(part)
            keep = is_cloned[index]  # a lost game under wins_only teaches the value only
            ce = (
                torch.nn.functional.cross_entropy(logits[keep], actions[index][keep])
                if bool(keep.any())
                else logits.sum() * 0.0
            )
            value_loss = torch.mean((value - returns[index]) ** 2)
            loss = ce + imit.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(scorer.parameters(), max_grad_norm)
            optimizer.step()
            ce_sum += float(ce.detach()) * int(keep.sum())
            value_sum += float(value_loss.detach()) * len(part)
        row: dict[str, float | None] = {
            "epoch": epoch,
            "cross_entropy": ce_sum / len(clone_trained),
            "value_loss": value_sum / len(trained),
            "held_aside_agreement": (
                agreement(scorer, demos, clone_aside, imit.batch_size) if len(clone_aside) else None
            ),
        }
        epochs.append(row)
        if emit is not None:
            emit(
                f"imitation epoch {epoch}: cross-entropy {row['cross_entropy']:.3f}, "
                f"held-aside agreement {row['held_aside_agreement']}"
            )
    chance = float(np.mean(1.0 / demos.legal_counts(clone_aside))) if len(clone_aside) else None
    return {
        "trained_decisions": len(trained),  # the value head's; the actor's: cloned_trained
        "cloned_trained_decisions": len(clone_trained),
        "held_aside_decisions": len(clone_aside),
        "trained_agreement": agreement(scorer, demos, clone_trained, imit.batch_size),
        "held_aside_agreement": epochs[-1]["held_aside_agreement"],
        "held_aside_chance": chance,
        "epochs": epochs,
    }


def imitate(model: Any, cfg: TrainingConfig, run: Path, emit: Emit | None = None) -> Checkpoint:
    """The imitation phase of a fresh run: clone, save checkpoint 0, return it."""
    imit = cfg.imitation
    if imit is None:
        raise ImitationError("the config has no imitation section")
    start = time.time()
    demos, stats = collect(cfg, emit)
    torch.manual_seed(cfg.seed)
    result = fit(model.policy.scorer, demos, imit, cfg.hyperparams.max_grad_norm, emit)
    summary = {**stats, **result, "seconds": round(time.time() - start, 1)}
    summary["config"] = imit.model_dump(mode="json")
    (run / IMITATION_JSON).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    # the decisions the fit trained on (not the held-aside ones) are frames the scorer was
    # trained on: the bundle's history counts them (on the run's own pool, which the
    # held-out check cleared)
    history = [TrainedPool.model_validate(pool_entry(cfg, result["trained_decisions"]))]
    return read_checkpoint(save_checkpoint(model, run, 0, cfg.resolved(), history))
