"""The largest legal-action count a decision reaches (issue #18, encoding 2's K).

Random play (uniform over the legal actions, fixed seeds) on every shipped scenario and on
generated scenarios; prints the maximum per source and the overall maximum. Run:
``python -m experiments.encoding2.measure_k --generated 300 --games 2``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from cwenv.content import load_scenario
from cwenv.content.generate import generate_game
from cwenv.engine.game import Game

SHIPPED = sorted(p.stem for p in Path("configs/scenarios").glob("*.yaml"))


def max_legal(game: Game, games: int, seed: int, cap: int = 4000) -> tuple[int, int]:
    """(largest legal count, decisions seen) over ``games`` random games of ``game``."""
    rng = random.Random(seed)
    best = seen = 0
    for g in range(games):
        c = game.new_combat(seed * 1000 + g)
        for _ in range(cap):
            if c.is_terminal():
                break
            legal = c.legal_actions()
            best = max(best, len(legal))
            seen += 1
            c.apply(rng.choice(legal))
    return best, seen


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--generated", type=int, default=300)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--shipped-games", type=int, default=20)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    rows: dict[str, int] = {}
    decisions = 0
    for name in SHIPPED:
        rows[name], n = max_legal(load_scenario(name), args.shipped_games, 1)
        decisions += n
        print(name, rows[name], flush=True)
    gen_best, gen_seed = 0, -1
    for seed in range(args.generated):
        best, n = max_legal(generate_game(seed), args.games, seed)
        decisions += n
        if best > gen_best:
            gen_best, gen_seed = best, seed
            print(f"generated seed {seed}: {best}", flush=True)
    rows["generated_max"] = gen_best
    report = {
        "shipped": {k: v for k, v in rows.items() if k in SHIPPED},
        "generated_seeds": args.generated,
        "generated_max": gen_best,
        "generated_argmax_seed": gen_seed,
        "decisions": decisions,
        "overall_max": max(rows.values()),
    }
    print(json.dumps(report, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
