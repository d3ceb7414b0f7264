"""Encoding 2's behaviour cloning: the teacher's games on the run's pool (issue #18).

A candidate scorer trained from scratch learns slowly and may learn to stall (study
``experiments/rl-spiegelduell-scorer``); the encoding-1 MLP of ``rl-spiegelduell-nsc``
reached 80.5 % only from a clone of the Schütze. The ``imitation`` section of a training
config (:class:`~agents.training.config.Imitation`) does that for the scorer: this module
plays the teacher doctrines in the learner's seat of the run's own env
(:class:`~agents.training.pool.PoolEnv` over the pool, which the held-out check has
cleared before the run starts) against the imitation opponents, and records at each of
the learner's decisions the env's observation, the number of legal candidates and the
index of the teacher's action among them (candidate ``i`` is ``legal_actions()[i]``, so
the teacher's action is its own row), with the run's discounted return from there.
:mod:`agents.training.imitation_fit` fits the scorer to it. Numpy only (no torch).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.training.config import Imitation, League, LeagueMember, TrainingConfig
from agents.training.league import LeagueOpponent
from agents.training.pool import Fight, PoolEnv, load_ref, pool_of
from cwenv.agent import Agent, DecisionView, play_out
from cwenv.agent_registry import make_agent
from cwenv.engine.actions import Action
from cwenv.envs.encoding2 import CANDIDATE_KEYS  # stored for the legal candidates only
from cwenv.envs.errors import EncodingError
from cwenv.model.types import Side
from cwenv.runner.seeds import game_seed, side_rngs

TRIAL_SEED = 7_919
"""Offset of the trial games' seeds (``select: best``) from the recorded games' seed."""


class ImitationError(ValueError):
    """A teacher that cannot be cloned (an action outside the legal list, no decision)."""


@dataclass
class Demos:
    """The teacher's decisions: compact observations (candidate rows cut to the legal
    ones), the candidate index it chose, the discounted return, which game, and whether
    the choice is cloned (``wins_only`` keeps a lost game's decisions for the value head
    alone: a critic fitted to won games only would start PPO over-optimistic)."""

    obs: list[dict[str, np.ndarray]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    cloned: list[bool] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.actions)

    def legal_counts(self, rows: np.ndarray) -> np.ndarray:
        return np.array([len(self.obs[i]["candidate_mask"]) for i in rows])

    def batch(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The observations of ``rows`` padded to their largest legal count (padding is
        masked: the scorer never scores it)."""
        width = int(self.legal_counts(rows).max())
        out: dict[str, np.ndarray] = {}
        for key, first in self.obs[rows[0]].items():
            if key in CANDIDATE_KEYS:
                arr = np.zeros((len(rows), width, *first.shape[1:]), dtype=np.float32)
                for j, i in enumerate(rows):
                    value = self.obs[i][key]
                    arr[j, : len(value)] = value
                out[key] = arr
            else:
                out[key] = np.stack([self.obs[i][key] for i in rows])
        return out


def opponent_league(cfg: TrainingConfig) -> League:
    """The imitation games' opponents: its own, else the run's league members (no
    self-play: there is no snapshot of the learner yet)."""
    imit = _imitation(cfg)
    members = imit.opponents if imit.opponents is not None else cfg.league.members
    return League(members=list(members), self_play=0.0)


def _imitation(cfg: TrainingConfig) -> Imitation:
    if cfg.imitation is None:
        raise ImitationError("the config has no imitation section")
    return cfg.imitation


class TeacherChoice:
    """Which teacher plays a game: drawn by weight, or per fight and seat the one that wins
    most of ``trials`` paired games against the imitation opponents (ties: the first
    listed), found once per fight on seeds of its own."""

    def __init__(self, cfg: TrainingConfig) -> None:
        self.cfg = cfg
        self.imit = _imitation(cfg)
        self.best: dict[Fight, str] = {}
        self.trial_wins: dict[str, dict[str, int]] = {}

    def pick(self, fight: Fight, rng: random.Random) -> str:
        teachers = self.imit.teachers
        if self.imit.select == "drawn" or len(teachers) == 1:
            return rng.choices(teachers, weights=[t.weight for t in teachers])[0].agent
        if fight not in self.best:
            self.best[fight] = self._trial(fight, teachers)
        return self.best[fight]

    def _trial(self, fight: Fight, teachers: list[LeagueMember]) -> str:
        game = load_ref(fight.ref, self.cfg.rules)
        side = Side.GEGNER if fight.side == "gegner" else Side.RUNNER
        members = opponent_league(self.cfg).members
        pick = random.Random(self.imit.seed + TRIAL_SEED)
        opponents = [
            pick.choices(members, weights=[m.weight for m in members])[0].agent
            for _ in range(self.imit.trials)
        ]
        wins: dict[str, int] = {}
        for t in teachers:
            won = 0
            for j, opponent in enumerate(opponents):
                seed = game_seed(self.imit.seed + TRIAL_SEED, j)
                combat = game.new_combat(seed)
                mine, other = make_agent(t.agent), make_agent(opponent)
                play_out(combat, {int(s): mine if s is side else other for s in Side},
                         side_rngs(seed))  # fmt: skip
                won += combat.outcome is not None and combat.outcome.winner is side
            wins[t.agent] = won
        self.trial_wins[f"{fight.ref}:{fight.side}"] = wins
        return max(wins, key=lambda name: wins[name])  # the first of equals


def play_teacher(env: PoolEnv, obs: dict[str, Any], teacher: Agent, rng: random.Random) -> tuple[
    list[dict[str, np.ndarray]], list[int], list[float], str
]:  # fmt: skip
    """One episode of ``env`` (reset already, to ``obs``) with ``teacher`` deciding: the compact
    observations, the chosen candidate indices, the rewards and the winner's label. A
    decision above K is several steps of the env (:mod:`cwenv.envs.stages`), each recorded:
    the group of the teacher's action in a stage, at last the action itself."""
    obs_rows: list[dict[str, np.ndarray]] = []
    chosen: list[int] = []
    rewards: list[float] = []
    view = DecisionView(env.combat)
    stage = 0
    action: Action | None = None
    while True:
        n = int(np.count_nonzero(obs["candidate_mask"]))
        if stage < 2:  # a later stage shows the decision the teacher chose in stage 1
            legal = env.combat.legal_actions()
            if n != len(legal) and n != env.k:
                raise ImitationError(f"{n} candidates for {len(legal)} legal actions")
            action = teacher.act(view, legal, rng)
            if action not in legal:
                who = getattr(teacher, "name", type(teacher).__name__)
                raise ImitationError(f"teacher {who} chose {action}, not a legal action")
        if action is None:
            raise ImitationError("a later stage of a decision came before its stage 1")
        index = env.row_of(action)
        obs_rows.append({k: v[:n].copy() if k in CANDIDATE_KEYS else v.copy()
                         for k, v in obs.items()})  # fmt: skip
        chosen.append(index)
        obs, reward, terminated, truncated, info = env.step(index)
        rewards.append(float(reward))
        stage = int(info.get("stage", 0))
        if terminated or truncated:
            return obs_rows, chosen, rewards, str(info.get("winner", "none")).lower()


def _one_game(env: PoolEnv, g: int, choice: TeacherChoice) -> tuple[Fight, str, Any]:
    """Game ``g`` of the imitation: its fight, teacher and :func:`play_teacher`'s record."""
    seed = choice.imit.seed
    name: str | None = None
    try:
        obs = env.reset(seed=seed if g == 0 else None)[0]
        fight = env.fight
        if fight is None:
            raise ImitationError("the pool env drew no fight")
        rng = random.Random(game_seed(seed, g))
        name = choice.pick(fight, rng)
        return fight, name, play_teacher(env, obs, make_agent(name), rng)
    except (EncodingError, ImitationError) as exc:  # name the fight: the message cannot
        where = "" if env.fight is None else f" on {env.fight.ref} ({env.fight.side})"
        by = "" if name is None else f", teacher {name}"
        raise ImitationError(f"imitation game {g}{where}{by}: {exc}") from exc


def discounted(rewards: list[float], gamma: float) -> list[float]:
    out: list[float] = []
    total = 0.0
    for r in reversed(rewards):
        total = r + gamma * total
        out.append(total)
    return out[::-1]


def collect(cfg: TrainingConfig, progress: Any = None) -> tuple[Demos, dict[str, Any]]:
    """Play the imitation's games and record the teacher's decisions (and a summary:
    games, decisions, the teachers' games and wins, the trial wins of ``select: best``)."""
    imit = _imitation(cfg)
    env = PoolEnv(
        pool_of(cfg), opponent=LeagueOpponent(opponent_league(cfg)), rules=cfg.rules,
        reward=cfg.reward, max_steps=cfg.max_steps, k=cfg.scorer.k,
    )  # fmt: skip
    choice = TeacherChoice(cfg)
    demos = Demos()
    played: dict[str, list[int]] = {}
    gamma = cfg.hyperparams.gamma
    try:
        for g in range(imit.games):
            fight, name, (rows, chosen, rewards, winner) = _one_game(env, g, choice)
            won = winner == fight.side
            tally = played.setdefault(name, [0, 0])
            tally[0], tally[1] = tally[0] + 1, tally[1] + int(won)
            demos.obs += rows
            demos.actions += chosen
            demos.returns += discounted(rewards, gamma)
            demos.games += [g] * len(chosen)
            demos.cloned += [won or not imit.wins_only] * len(chosen)
            if progress is not None and (g + 1) % max(1, imit.games // 10) == 0:
                progress(f"imitation: {g + 1}/{imit.games} games, {sum(demos.cloned)} decisions")
    finally:
        env.close()
    if not any(demos.cloned):
        raise ImitationError(f"{imit.games} games recorded no decision (wins_only: none won?)")
    stats = {
        "games": imit.games,
        "recorded_games": len({g for g, c in zip(demos.games, demos.cloned, strict=True) if c}),
        "decisions": sum(demos.cloned),
        "value_only_decisions": len(demos) - sum(demos.cloned),
        "teachers": {k: {"games": v[0], "wins": v[1]} for k, v in played.items()},
        "trial_wins": choice.trial_wins,
    }
    return demos, stats
