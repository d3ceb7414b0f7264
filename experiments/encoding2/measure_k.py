"""The largest legal-action count a decision reaches (issue #18, encoding 2's K).

Random play (uniform over the legal actions, fixed seeds) on every shipped scenario and on
generated scenarios; prints the maximum per source, the overall maximum and the
distribution of the legal count over all decisions (percentiles and a histogram in bins of
64) and of the per-seed maxima of the generated scenarios. Run:
``python -m experiments.encoding2.measure_k --generated 500 --games 2 --out k.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from cwenv.content import load_scenario
from cwenv.content.generate import generate_game
from cwenv.engine.game import Game

SHIPPED = sorted(p.stem for p in Path("configs/scenarios").glob("*.yaml"))
BIN = 64
PERCENTILES = (50, 90, 99, 99.9, 100)


def max_legal(
    game: Game, games: int, seed: int, cap: int = 4000, counts: Counter[int] | None = None
) -> tuple[int, int]:
    """(largest legal count, decisions seen) over ``games`` random games of ``game``;
    every decision's legal count is added to ``counts`` when given."""
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
            if counts is not None:
                counts[len(legal)] += 1
            c.apply(rng.choice(legal))
    return best, seen


def distribution(counts: Counter[int]) -> dict[str, object]:
    """Percentiles and a histogram (bins of :data:`BIN`) of a count -> frequency table."""
    values = np.repeat(np.array(list(counts), dtype=np.int64), list(counts.values()))
    hist: Counter[str] = Counter()
    for n, f in sorted(counts.items()):
        lo = n // BIN * BIN
        hist[f"{lo}-{lo + BIN - 1}"] += f
    return {
        "decisions": int(values.size),
        "percentiles": {str(p): float(np.percentile(values, p)) for p in PERCENTILES},
        "histogram": dict(hist),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--generated", type=int, default=500)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--shipped-games", type=int, default=20)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    shipped: dict[str, int] = {}
    shipped_counts: Counter[int] = Counter()
    for name in SHIPPED:
        shipped[name], _ = max_legal(
            load_scenario(name), args.shipped_games, 1, counts=shipped_counts
        )
        print(name, shipped[name], flush=True)
    gen_counts: Counter[int] = Counter()
    seed_max: Counter[int] = Counter()
    gen_best, gen_seed = 0, -1
    for seed in range(args.generated):
        best, _ = max_legal(generate_game(seed), args.games, seed, counts=gen_counts)
        seed_max[best] += 1
        if best > gen_best:
            gen_best, gen_seed = best, seed
            print(f"generated seed {seed}: {best}", flush=True)
    report = {
        "shipped": shipped,
        "shipped_games": args.shipped_games,
        "shipped_decisions": distribution(shipped_counts),
        "generated_seeds": args.generated,
        "generated_games": args.games,
        "generated_max": gen_best,
        "generated_argmax_seed": gen_seed,
        "generated_decisions": distribution(gen_counts),
        "generated_seed_max": distribution(seed_max),
        "overall_max": max([*shipped.values(), gen_best]),
    }
    print(json.dumps(report, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
