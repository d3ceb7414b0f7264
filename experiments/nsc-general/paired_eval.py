"""Paired games of several agents on a training run's evaluation fights (issue #18).

Game *i* against an opponent is the in-training evaluation's game *i*
(:func:`agents.training.evaluate.evaluate_fights`): fight *i* mod the number of
(reference, pool side) pairs of ``evaluation_fights(cfg)``, dice ``game_seed(EVAL_SEED, i)``;
every agent plays it in turn, so the rows pair. One JSON line per game and opponent
(``win``/``draw``/``loss`` per agent); ``--summary`` prints each agent's win rate (Wilson
95 %) per opponent and the paired difference of every two agents (Newcombe 95 %, exact
McNemar):

    python experiments/nsc-general/paired_eval.py configs/training/nsc-general.yaml 96 \
        greedy,taktiker scorer:A scorer:B > FILE.jsonl
    python experiments/nsc-general/paired_eval.py --summary FILE.jsonl
"""

from __future__ import annotations

import json
import sys
from itertools import combinations

from agents.training.config import load_training_config
from agents.training.evaluate import EVAL_SEED
from agents.training.pool import evaluation_fights
from cwenv.agent import play_out
from cwenv.agent_registry import make_agent
from cwenv.model.types import Side
from cwenv.runner.seeds import game_seed, side_rngs
from cwenv.runner.win_rates import wilson_interval
from cwenv.stress.comparisons import compare_paired


def play(config: str, games: int, opponents: list[str], agents: list[str]) -> None:
    fights, _ = evaluation_fights(load_training_config(config))
    for opponent in opponents:
        for i in range(games):
            game, side = fights[i % len(fights)]
            line: dict[str, object] = {"game": i, "opponent": opponent}
            for spec in agents:
                seed = game_seed(EVAL_SEED, i)
                combat = game.new_combat(seed)
                mine, other = make_agent(spec), make_agent(opponent)
                play_out(combat, {int(s): mine if s is side else other for s in Side},
                         side_rngs(seed))  # fmt: skip
                winner = combat.outcome.winner if combat.outcome is not None else None
                line[spec] = "draw" if winner is None else ("win" if winner is side else "loss")
            print(json.dumps(line), flush=True)


def summary(paths: list[str]) -> None:
    rows: dict[tuple[str, int], dict[str, str]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for text in handle:
                if text.strip():
                    row = json.loads(text)
                    rows.setdefault((row.pop("opponent"), row.pop("game")), {}).update(row)
    for opponent in sorted({o for o, _ in rows}):
        games = [r for (o, _), r in sorted(rows.items()) if o == opponent]
        agents = sorted(set.intersection(*(set(r) for r in games)))
        games = [r for r in games if all(a in r for a in agents)]
        for a in agents:
            wins = sum(r[a] == "win" for r in games)
            draws = sum(r[a] == "draw" for r in games)
            low, high = wilson_interval(wins, len(games))
            print(f"vs {opponent}: {a}: {wins}/{len(games)} = {wins / len(games):.1%} "
                  f"[{low:.1%}, {high:.1%}], {draws} draws")  # fmt: skip
        for a, b in combinations(agents, 2):
            d = compare_paired([r[a] == "win" for r in games], [r[b] == "win" for r in games])
            interval = f"[{d.low * 100:+.1f}, {d.high * 100:+.1f}]"
            print(f"vs {opponent}: {b} − {a}: {d.diff * 100:+.1f} pp {interval}, "
                  f"McNemar p {d.p_value:.2g}")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    else:
        play(sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:])
