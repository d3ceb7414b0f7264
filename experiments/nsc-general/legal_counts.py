"""How many legal actions a decision of the training pool has (issue #18, encoding 2's K).

Plays the fights of ``configs/training/nsc-general.yaml``'s pool on the native engine: every
shipped scenario (the held-out ones reported apart) and generated seeds from 0 upwards,
under doctrine play (greedy, stuermer, schuetze, taktiker; the same doctrine both sides)
and random play (uniform over the legal actions, which wanders further over the map).
For every decision it counts the legal actions; it reports p50/p99/max per source and
agent, where each maximum happened (fight, game seed, decision, decider) and how that
decision's actions split over the action kinds, and each fight's largest count (the
``fight_max`` table; tests/test_scorer_agent.py checks the pool config's K against its
largest entry).
Run from the repository root:
``python experiments/nsc-general/legal_counts.py --minutes 12 --out legal_counts.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content.generate import generate_game
from cwenv.engine.game import Game
from cwenv.envs.game_encoder import resolve_game

SHIPPED = sorted(p.stem for p in Path("configs/scenarios").glob("*.yaml"))
HELD_OUT = ("boss", "feuergefecht", "hinterhalt", "strassenschlacht")
AGENTS = ("greedy", "stuermer", "schuetze", "taktiker", "random")
PCTS = (50, 99, 100)


class Tally:
    """The legal counts of one (source, agent) and where its largest one happened."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self.best: dict[str, object] = {"legal": -1}

    def add(self, n: int, where: dict[str, object]) -> None:
        self.counts[n] += 1
        if n > int(self.best["legal"]):  # type: ignore[call-overload]
            self.best = {"legal": n, **where}

    def summary(self) -> dict[str, object]:
        values = np.repeat(np.array(list(self.counts)), list(self.counts.values()))
        pct = {f"p{p}": float(np.percentile(values, p)) for p in PCTS} if values.size else {}
        return {"decisions": int(values.size), **pct, "max_at": self.best}


def play(game: Game, agent: str, seed: int, tally: Tally, fight: str) -> int:
    """One game of ``game`` with ``agent`` on both sides; every decision is tallied."""
    c = game.new_combat(seed)
    view = DecisionView(c)
    players = {int(f.side): make_agent(agent) for f in c.fighters}  # Side values
    rng = random.Random(seed)
    step = top = 0
    while not c.is_terminal():
        legal = c.legal_actions()
        d = c.decision
        assert d is not None
        n = len(legal)
        top = max(top, n)
        if n > int(tally.best["legal"]):  # type: ignore[call-overload]
            kinds = Counter(a.kind.name for a in legal)
            f = c.fighters[d.fighter]
            where = {"fight": fight, "game_seed": seed, "step": step, "decision": d.kind.name,
                     "decider": game.names[d.fighter], "movement": f.spec.movement,
                     "fighters": len(game.roster), "map": [c.bm.width, c.bm.height]}  # fmt: skip
            tally.add(n, {**where, "kinds": dict(kinds.most_common())})
        else:
            tally.counts[n] += 1
        side = int(c.fighters[d.fighter].side)
        c.apply(players[side].act(view, legal, rng))
        step += 1
    return top


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=12.0, help="budget for generated seeds")
    ap.add_argument("--shipped-games", type=int, default=3, help="games per scenario and agent")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    tallies: dict[str, dict[str, Tally]] = {}
    fight_max: dict[str, int] = {}

    def tally(source: str, agent: str) -> Tally:
        return tallies.setdefault(source, {}).setdefault(agent, Tally())

    for name in SHIPPED:
        game = resolve_game(name, None)
        source = "shipped-held-out" if name in HELD_OUT else "shipped-training"
        for agent in AGENTS:
            for g in range(args.shipped_games):
                top = play(game, agent, g, tally(source, agent), name)
                fight_max[name] = max(fight_max.get(name, 0), top)
        print(f"{name}: {fight_max[name]}", file=sys.stderr, flush=True)
    deadline = time.monotonic() + 60 * args.minutes
    seed = 0
    while time.monotonic() < deadline:
        game = resolve_game(generate_game(seed), None)
        # One game per seed, the agent rotating with the seed: more fights, all agents.
        agent = AGENTS[seed % len(AGENTS)]
        ref = f"generated:{seed}"
        fight_max[ref] = play(game, agent, seed, tally("generated", agent), ref)
        seed += 1
    report: dict[str, object] = {
        "generated_seeds": seed,
    }
    for source, by_agent in tallies.items():
        every = Tally()
        for t in by_agent.values():
            every.counts.update(t.counts)
            if int(t.best["legal"]) > int(every.best["legal"]):  # type: ignore[call-overload]
                every.best = t.best
        report[source] = {"all": every.summary(), **{a: t.summary() for a, t in by_agent.items()}}
    report["fight_max"] = fight_max
    text = json.dumps(report, indent=1)
    print(text[: text.index('"fight_max"')])
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
