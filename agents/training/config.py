"""Training configuration: one YAML file per run, RL-Zoo style (defaults plus overrides).

A file in ``configs/training/`` names the scenario, the controlled side, the reward, the
league of opponents, the evaluation schedule and any MaskablePPO hyperparameters that
differ from :class:`Hyperparams`' defaults. The resolved configuration (every default
filled in) is saved beside the run's results.

The models are strict (no ``'4'`` → 4, no ``yes`` → true) and every number has a range, so
that a mistake is reported with its file, line and field before torch is imported;
:func:`load_training_config` also resolves every name the file refers to (scenario, rule
variant, reward, league and evaluation agents, ``init_policy``) without playing a game
(:mod:`agents.training.preflight`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cwenv.content.errors import Origin, validate
from cwenv.yamlio import ConfigError, read_yaml_file

MAX_TIMESTEPS = 10**12
MAX_TORCH_THREADS = 256
"""A sane cap (not ``os.cpu_count()``: a config must mean the same on every machine)."""

_STRICT = ConfigDict(extra="forbid", strict=True)

Finite = Annotated[float, Field(allow_inf_nan=False)]
Width = Annotated[int, Field(ge=1, le=4096)]


class Hyperparams(BaseModel):
    """MaskablePPO settings; the defaults held up on this machine (8 envs, batch 256)."""

    model_config = _STRICT

    learning_rate: Finite = Field(3e-4, gt=0, le=1)
    n_steps: int = Field(256, ge=1, le=1 << 20)  # per env and rollout
    batch_size: int = Field(256, ge=1)  # at most n_steps * n_envs (checked below)
    n_epochs: int = Field(4, ge=1, le=1000)
    gamma: Finite = Field(0.99, gt=0, le=1)
    gae_lambda: Finite = Field(0.95, gt=0, le=1)
    clip_range: Finite = Field(0.2, gt=0)
    ent_coef: Finite = Field(0.01, ge=0)
    vf_coef: Finite = Field(0.5, ge=0)
    max_grad_norm: Finite = Field(0.5, gt=0)
    net_arch: list[Width] = Field(default_factory=lambda: [128, 128], min_length=1, max_length=4)
    activation: Literal["tanh", "relu"] = "tanh"


DEFAULT_HYPERPARAMS: dict[str, Any] = Hyperparams().model_dump()
"""The defaults as a plain dict (kept for callers that merge settings themselves)."""


class LeagueMember(BaseModel):
    """An opponent and how often it is drawn for an episode."""

    model_config = _STRICT

    agent: str = Field(min_length=1)  # an agent spec: a name, a configs/agents file, policy:PATH
    weight: Finite = Field(1.0, gt=0, le=1e6)


class League(BaseModel):
    """Opponents drawn per episode: scripted and search agents, and frozen snapshots of the
    learner itself (self-play) so the policy does not overfit one scripted opponent.
    Snapshots live in memory only; a resumed run collects new ones."""

    model_config = _STRICT

    members: list[LeagueMember] = Field(
        default_factory=lambda: [LeagueMember(agent="greedy", weight=1.0)],
        min_length=1,
        max_length=100,
    )
    self_play: Finite = Field(0.0, ge=0, le=1)  # share of episodes against a snapshot
    snapshot_every: int = Field(50_000, gt=0, le=MAX_TIMESTEPS)  # timesteps between snapshots
    max_snapshots: int = Field(5, ge=1, le=100)


class Evaluation(BaseModel):
    model_config = _STRICT

    every: int = Field(25_000, gt=0, le=MAX_TIMESTEPS)  # timesteps between evaluations
    games: int = Field(40, gt=0, le=100_000)  # games per opponent
    opponents: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=lambda: ["random", "greedy"], min_length=1, max_length=100
    )
    # Encoding 2: the fights evaluated, played in turn on the pool's sides (empty: the
    # pool's first four scenarios, else its first four generated seeds).
    scenarios: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(
        default_factory=list, max_length=100
    )


class Generated(BaseModel):
    """Generated scenarios ``generated:first`` … ``generated:first+count-1``
    (:func:`cwenv.content.generate.generate_game`)."""

    model_config = _STRICT

    first: int = Field(0, ge=0, lt=2**31)
    count: int = Field(gt=0, le=2**31)

    @model_validator(mode="after")
    def _seeds_exist(self) -> Generated:
        if self.stop > 2**31:  # generated:SEED stops at 2³¹−1; a draw past it would crash
            raise ValueError(f"first + count is {self.stop}; the last seed is 2147483647")
        return self

    @property
    def stop(self) -> int:
        return self.first + self.count

    def overlaps(self, other: Generated) -> bool:
        return self.first < other.stop and other.first < self.stop

    def label(self) -> str:
        return f"generated:{self.first}…{self.stop - 1}"


SideName = Literal["gegner", "runner"]
SIDES: tuple[SideName, ...] = ("gegner", "runner")
ScenarioRef = Annotated[str, Field(min_length=1, max_length=500)]
"""A scenario name, a YAML path, or ``generated:SEED`` (:mod:`agents.training.pool`)."""


class Pool(BaseModel):
    """Encoding 2: the fights a run trains on. Every episode draws a scenario — a generated
    one with probability ``generated_share`` when both kinds are given — and a side."""

    model_config = _STRICT

    scenarios: list[ScenarioRef] = Field(default_factory=list, max_length=1000)
    generated: Generated | None = None
    generated_share: Finite = Field(0.5, ge=0, le=1)
    sides: list[SideName] = Field(default_factory=lambda: list(SIDES), min_length=1, max_length=2)


class HeldOut(BaseModel):
    """Encoding 2: fights no run may train on (the held-out evaluation of issue #18); a
    pool that names one is refused before the run starts, and the bundle records them."""

    model_config = _STRICT

    scenarios: list[ScenarioRef] = Field(
        default_factory=lambda: ["feuergefecht", "strassenschlacht", "boss", "hinterhalt"],
        max_length=1000,
    )
    generated: Generated | None = Field(
        default_factory=lambda: Generated(first=1_000_000, count=200)
    )


class Imitation(BaseModel):
    """Encoding 2: behaviour cloning before PPO (:mod:`agents.training.imitation`). A fresh
    run first plays ``games`` games of its pool with a teacher in the learner's seat against
    ``opponents``, fits the scorer's actor to the teacher's choices (cross-entropy) and its
    value head to the returns, and saves that as checkpoint 0, from which PPO continues."""

    model_config = _STRICT

    teachers: list[LeagueMember] = Field(min_length=1, max_length=100)
    # best: per fight and seat the teacher winning most of ``trials`` games each (cached
    # per fight); drawn: a teacher drawn by weight every game
    select: Literal["drawn", "best"] = "drawn"
    trials: int = Field(10, ge=1, le=10_000)
    opponents: list[LeagueMember] | None = Field(None, min_length=1, max_length=100)
    games: int = Field(gt=0, le=1_000_000)
    wins_only: bool = False  # clone only the games the teacher won (all train the value)
    held_aside: Finite = Field(0.1, ge=0, lt=1)  # share of games kept for the agreement
    epochs: int = Field(6, ge=1, le=1000)
    batch_size: int = Field(256, ge=1, le=65_536)
    learning_rate: Finite = Field(1e-3, gt=0, le=1)
    value_coef: Finite = Field(0.5, ge=0, le=1e3)  # 0: the actor alone
    seed: int = Field(600_000, ge=0, lt=2**31)


class ScorerNet(BaseModel):
    """Encoding 2: the candidate scorer's sizes (:mod:`agents.policy.scorer`) and K."""

    model_config = _STRICT

    k: int = Field(512, ge=2, le=4096)  # candidates per decision (the env's Discrete(K))
    hidden: Width = 64
    vs_hidden: Width = 16
    cand_hidden: Width = 64


class TrainingConfig(BaseModel):
    """One training run (``cwenv train FILE``)."""

    model_config = _STRICT

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=100)
    description: str = ""
    scenario: str = Field("feuergefecht", min_length=1)
    side: Literal["gegner", "runner"] = "gegner"
    rules: str | None = None
    reward: str | None = None  # configs/rewards/<name>.yaml or a path; None: the default
    seed: int = Field(0, ge=0, lt=2**31)  # numpy and torch seeds; env rank seeds seed*1000+i
    total_timesteps: int = Field(gt=0, le=MAX_TIMESTEPS)
    n_envs: int = Field(8, ge=1, le=64)
    vec_env: Literal["dummy", "subproc"] = "dummy"
    torch_threads: int = Field(1, ge=1, le=MAX_TORCH_THREADS)
    checkpoint_every: int = Field(50_000, gt=0, le=MAX_TIMESTEPS)
    max_steps: int = Field(3000, gt=0, le=10**7)  # the env's safety cap per episode
    # The MOVE/SCHWIERIG and DRAG_TO windows (checked against the scenario before a run
    # starts); a small scenario trains faster with a smaller action space.
    move_radius: int = Field(24, ge=1, le=63)
    drag_radius: int = Field(8, ge=1, le=63)
    # A policy bundle (agents/policies/NAME) whose actor starts a fresh run: a safe warm
    # start from safetensors, never from another run's pickled checkpoint.
    init_policy: str | None = Field(None, min_length=1)
    hyperparams: Hyperparams = Field(default_factory=Hyperparams)
    # 1: the MLP on cwenv/Kampfrunde-v0 (one scenario and side); 2: the candidate scorer
    # on cwenv/Kampfrunde2-v0 over a pool of scenarios and sides (issue #18).
    encoding: Literal[1, 2] = 1
    pool: Pool | None = None
    held_out: HeldOut = Field(default_factory=HeldOut)
    scorer: ScorerNet = Field(default_factory=ScorerNet)
    imitation: Imitation | None = None
    league: League = Field(default_factory=League)
    evaluation: Evaluation = Field(default_factory=Evaluation)

    def resolved_hyperparams(self) -> dict[str, Any]:
        """MaskablePPO's settings (the candidate scorer has no net_arch or activation)."""
        if self.encoding == 2:
            return self.hyperparams.model_dump(exclude=set(_MLP_HYPER))
        return self.hyperparams.model_dump()

    def resolved(self) -> dict[str, Any]:
        """Every field of this run's encoding with its default filled in, as plain
        YAML/JSON values (the other encoding's fields left out, so the file reads back)."""
        if self.encoding == 2:
            exclude: dict[str, Any] = {name: True for name in _MLP_ONLY}
            exclude["hyperparams"] = set(_MLP_HYPER)
            if self.pool is not None:  # the pool names the fights and sides
                exclude.update(scenario=True, side=True)
            return self.model_dump(mode="json", exclude=exclude)
        return self.model_dump(
            mode="json",
            exclude={**{name: True for name in (*_SCORER_ONLY, "encoding")},
                     "evaluation": {"scenarios"}},
        )  # fmt: skip


_MLP_ONLY = ("move_radius", "drag_radius")
_MLP_HYPER = ("net_arch", "activation")
_SCORER_ONLY = ("pool", "held_out", "scorer", "imitation")


def _encoding_issues(cfg: TrainingConfig, where: Origin) -> list[Any]:
    """Fields that belong to the other encoding's network, set explicitly."""
    if cfg.encoding == 1:
        wrong: list[tuple[str, ...]] = [
            (name,) for name in _SCORER_ONLY if name in cfg.model_fields_set
        ]
        if cfg.evaluation.scenarios:  # encoding 1 evaluates on its one scenario
            wrong.append(("evaluation", "scenarios"))
        return [
            where.issue(path, "only for encoding 2 (the candidate scorer); set encoding: 2")
            for path in wrong
        ]
    issues = [
        where.issue((name,), "only for encoding 1 (the MLP's action window); not with encoding: 2")
        for name in _MLP_ONLY
        if name in cfg.model_fields_set
    ]
    issues += [
        where.issue(("hyperparams", name), "the MLP's; the candidate scorer's sizes are scorer.*")
        for name in _MLP_HYPER
        if name in cfg.hyperparams.model_fields_set
    ]
    if cfg.imitation is not None and cfg.init_policy is not None:
        issues.append(
            where.issue(("imitation",), "init_policy starts the scorer already; choose one")
        )
    pool = cfg.pool
    if pool is not None:
        if not pool.scenarios and pool.generated is None:
            issues.append(where.issue(("pool",), "names no fight: give scenarios or generated"))
        issues += [
            where.issue((name,), f"not used with a pool (pool.{name}s says what to train on)")
            for name in ("scenario", "side")
            if name in cfg.model_fields_set
        ]
    return issues


def parse_training_config(where: Origin, data: Any) -> TrainingConfig:
    """Validate a training document's data; issues are placed by ``where``."""
    cfg = validate(TrainingConfig, where, data)
    mixed = _encoding_issues(cfg, where)
    if mixed:
        raise ConfigError(mixed)
    hyper = cfg.hyperparams
    rollout = hyper.n_steps * cfg.n_envs
    if rollout < 2:
        raise ConfigError(
            [where.issue(("hyperparams", "n_steps"), "n_steps * n_envs must be at least 2")]
        )
    if hyper.batch_size > rollout:
        raise ConfigError(
            [
                where.issue(
                    ("hyperparams", "batch_size"),
                    f"{hyper.batch_size} is larger than a rollout (n_steps {hyper.n_steps} "
                    f"* n_envs {cfg.n_envs} = {rollout}); allowed: 1..{rollout}",
                )
            ]
        )
    return cfg


def load_training_config(path: str | Path, *, resolve: bool = True) -> TrainingConfig:
    """Read and validate a training file; errors name the file, line and field.

    With ``resolve`` (the default) every name the file refers to is looked up too
    (:func:`agents.training.preflight.check_references`): a run that would fail on its
    first episode fails here, before torch is imported."""
    doc = read_yaml_file(path)
    cfg = parse_training_config(Origin(doc), doc.data)
    if resolve:
        from agents.training.preflight import check_references

        check_references(cfg, Origin(doc))
    return cfg
