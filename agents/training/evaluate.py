"""Evaluate a learner against fixed opponents, with the numpy policy that would ship."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.policy.bundle import Manifest, PolicyBundle
from agents.policy.compat import current_encoding_fields
from agents.training.export import observation_keys, policy_layers
from cwenv.agent import Agent, play_out
from cwenv.agent_registry import make_agent
from cwenv.engine.game import Game
from cwenv.model.types import Side
from cwenv.runner.seeds import game_seed, side_rngs
from cwenv.runner.win_rates import wilson_interval

EVAL_SEED = 90_210


class EvaluationError(RuntimeError):
    """An evaluation game ended without an outcome (play_out stopped early)."""


def in_memory_bundle(
    model: Any, *, scenario: str, side: str, move_radius: int, drag_radius: int
) -> PolicyBundle:
    """The current actor as a numpy bundle (no file): snapshots and evaluation use it."""
    layers, tensors = policy_layers(model.policy)
    manifest = Manifest(
        algorithm="MaskablePPO",
        **current_encoding_fields(move_radius, drag_radius),
        action_size=int(model.policy.action_space.n),
        observation=observation_keys(model.policy),
        policy=layers,
        scenario=scenario,
        side=side,
        training={"move_radius": move_radius, "drag_radius": drag_radius},
        weights_sha256="0" * 64,
    )
    return PolicyBundle(manifest, tensors, Path("<memory>"))


@dataclass(frozen=True, slots=True)
class EvalResult:
    opponent: str
    games: int
    wins: int
    draws: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def evaluate(agent: Agent, game: Game, side: Side, opponent: str, games: int) -> EvalResult:
    """``games`` seeded games of ``agent`` (playing ``side``) against ``opponent``."""
    return evaluate_fights(agent, [(game, side)], opponent, games)


def evaluate_fights(
    agent: Agent, fights: list[tuple[Game, Side]], opponent: str, games: int
) -> EvalResult:
    """``games`` seeded games of ``agent`` against ``opponent``, game *i* on fight
    ``i mod len(fights)`` (a game and the side the agent plays)."""
    wins = draws = 0
    for i in range(games):
        game, side = fights[i % len(fights)]
        seed = game_seed(EVAL_SEED, i)
        combat = game.new_combat(seed)
        other = make_agent(opponent)
        agents = {int(s): (agent if s is side else other) for s in Side}
        play_out(combat, agents, side_rngs(seed))
        outcome = combat.outcome
        if outcome is None:
            raise EvaluationError(f"evaluation game {i} against {opponent} did not finish")
        if outcome.winner is side:
            wins += 1
        elif outcome.winner is None:
            draws += 1
    return EvalResult(opponent, games, wins, draws)


def append_curve(path: Path, timesteps: int, results: list[EvalResult]) -> None:
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if new:
            writer.writerow(
                [
                    "timesteps",
                    "opponent",
                    "games",
                    "wins",
                    "draws",
                    "win_rate",
                    "ci95_low",
                    "ci95_high",
                ]
            )
        for r in results:
            low, high = wilson_interval(r.wins, r.games)
            writer.writerow(
                [
                    timesteps,
                    r.opponent,
                    r.games,
                    r.wins,
                    r.draws,
                    f"{r.win_rate:.4f}",
                    f"{low:.4f}",
                    f"{high:.4f}",
                ]
            )


def plot_curve(csv_path: Path, png_path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows: dict[str, list[tuple[int, float, float, float]]] = {}
    with csv_path.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            rows.setdefault(row["opponent"], []).append(
                (
                    int(row["timesteps"]),
                    float(row["win_rate"]),
                    float(row["ci95_low"]),
                    float(row["ci95_high"]),
                )
            )
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, points in sorted(rows.items()):
        xs = [p[0] for p in points]
        ax.plot(xs, [p[1] for p in points], "o-", label=name)
        ax.fill_between(xs, [p[2] for p in points], [p[3] for p in points], alpha=0.15)
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win rate (95 % Wilson)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    tmp = png_path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    tmp.replace(png_path)
