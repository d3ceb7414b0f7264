"""Training configuration: one YAML file per run, RL-Zoo style (defaults plus overrides).

A file in ``configs/training/`` names the scenario, the controlled side, the reward, the
league of opponents, the evaluation schedule and any MaskablePPO hyperparameters that
differ from :data:`DEFAULT_HYPERPARAMS`. The resolved configuration (every default filled
in) is saved beside the run's results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cwenv.yamlio import ConfigError, read_yaml_file

DEFAULT_HYPERPARAMS: dict[str, Any] = {
    "learning_rate": 3e-4,
    "n_steps": 256,
    "batch_size": 256,
    "n_epochs": 4,
    "gamma": 0.99,
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "max_grad_norm": 0.5,
    "net_arch": [128, 128],
    "activation": "tanh",
}
"""MaskablePPO settings that held up on this machine: 8 envs in one process, batch 256."""

HYPERPARAM_TYPES = {
    "learning_rate": float,
    "n_steps": int,
    "batch_size": int,
    "n_epochs": int,
    "gamma": float,
    "gae_lambda": float,
    "clip_range": float,
    "ent_coef": float,
    "vf_coef": float,
    "max_grad_norm": float,
    "net_arch": list,
    "activation": str,
}


class LeagueMember(BaseModel):
    """An opponent and how often it is drawn for an episode."""

    model_config = ConfigDict(extra="forbid")

    agent: str  # an agent spec: a name, a configs/agents file, or policy:PATH
    weight: float = Field(1.0, gt=0)


class League(BaseModel):
    """Opponents drawn per episode: scripted and search agents, and frozen snapshots of the
    learner itself (self-play) so the policy does not overfit one scripted opponent."""

    model_config = ConfigDict(extra="forbid")

    members: list[LeagueMember] = Field(
        default_factory=lambda: [LeagueMember(agent="greedy", weight=1.0)]
    )
    self_play: float = Field(0.0, ge=0, le=1)  # share of episodes against a snapshot
    snapshot_every: int = Field(50_000, gt=0)  # timesteps between frozen snapshots
    max_snapshots: int = Field(5, ge=1)


class Evaluation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    every: int = Field(25_000, gt=0)  # timesteps between evaluations
    games: int = Field(40, gt=0)  # games per opponent
    opponents: list[str] = Field(default_factory=lambda: ["random", "greedy"])


class TrainingConfig(BaseModel):
    """One training run (``cwenv train FILE``)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    description: str = ""
    scenario: str = "feuergefecht"
    side: Literal["gegner", "runner"] = "gegner"
    rules: str | None = None
    reward: str | None = None  # configs/rewards/<name>.yaml or a path; None: the default
    seed: int = 0
    total_timesteps: int = Field(gt=0)
    n_envs: int = Field(8, ge=1, le=64)
    vec_env: Literal["dummy", "subproc"] = "dummy"
    torch_threads: int = Field(1, ge=1)
    checkpoint_every: int = Field(50_000, gt=0)
    max_steps: int = Field(3000, gt=0)  # the env's safety cap per episode
    # The MOVE/SCHWIERIG and DRAG_TO windows (the env checks them against the scenario);
    # a small scenario trains faster with a smaller action space.
    move_radius: int = Field(24, ge=1, le=63)
    drag_radius: int = Field(8, ge=1, le=63)
    # A policy bundle (agents/policies/NAME) whose actor starts a fresh run: a safe warm
    # start from safetensors, never from another run's pickled checkpoint.
    init_policy: str | None = None
    hyperparams: dict[str, Any] = Field(default_factory=dict)
    league: League = Field(default_factory=lambda: League())
    evaluation: Evaluation = Field(default_factory=lambda: Evaluation())

    @model_validator(mode="after")
    def _known_hyperparams(self) -> TrainingConfig:
        for key, value in self.hyperparams.items():
            if key not in HYPERPARAM_TYPES:
                raise ValueError(
                    f"unknown hyperparameter {key!r}; allowed: "
                    f"{', '.join(sorted(HYPERPARAM_TYPES))}"
                )
            want = HYPERPARAM_TYPES[key]
            ok = isinstance(value, want) or (want is float and isinstance(value, int))
            if not ok or isinstance(value, bool):
                raise ValueError(f"hyperparameter {key!r} must be {want.__name__}")
        if self.hyperparams.get("activation", "tanh") not in ("tanh", "relu"):
            raise ValueError("activation must be tanh or relu")
        return self

    def resolved_hyperparams(self) -> dict[str, Any]:
        return {**DEFAULT_HYPERPARAMS, **self.hyperparams}


def load_training_config(path: str | Path) -> TrainingConfig:
    """Read and validate a training file; errors name the file, line and field."""
    doc = read_yaml_file(path)
    try:
        return TrainingConfig.model_validate(doc.data)
    except ValidationError as exc:
        raise ConfigError([doc.issue(tuple(e["loc"]), e["msg"]) for e in exc.errors()]) from None
