"""Paired games of several NSC agents in one seat, seed by seed, one JSON line per seed.

Game i is played on game_seed(1, i) by the runner's own play_task, exactly as
``cwenv simulate SCENARIO --runners R --nscs N --seed 1`` plays it (the seeds of the
rl-spiegelduell-nsc study), once for every NSC agent, so a run stopped at any seed still
holds complete pairs. ``--summary`` reads such files (joined by game: the games every agent
played) and prints each agent's wins and the paired difference of every two agents
(Newcombe 95 %, exact McNemar):

    python experiments/rl-spiegelduell-scorer/paired.py spiegelduell schuetze 0 2000 \
        schuetze policy:agents/policies/spiegelduell-nsc scorer:agents/policies/spiegelduell-scorer
    python experiments/rl-spiegelduell-scorer/paired.py --summary FILE.jsonl [FILE.jsonl ...]
"""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction

from cwenv.runner.seeds import game_seed
from cwenv.runner.task import GameTask, play_task
from cwenv.stress.comparisons import Difference, compare_paired, compare_unpaired


def _paired(a: list[bool], b: list[bool]) -> Difference:
    """compare_paired, with the exact McNemar p in integers where its float division
    overflows (2.0**n for more than 1,023 discordant pairs)."""
    try:
        return compare_paired(a, b)
    except OverflowError:
        only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
        only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
        n, k = only_a + only_b, min(only_a, only_b)
        tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)
        d = compare_unpaired(sum(a), len(a), sum(b), len(b))
        return Difference(
            d.rate_a, d.rate_b, d.diff, d.low, d.high, float(min(Fraction(1), 2 * tail)), True
        )


def play(scenario: str, runner: str, first: int, last: int, nscs: list[str]) -> None:
    for i in range(first, last):
        line: dict[str, object] = {"game": i}
        for nsc in nscs:
            task = GameTask(str(i), scenario, runner, nsc, game_seed(1, i), None)
            record = play_task(task).record
            line[nsc] = getattr(record.winner, "name", record.winner)
        print(json.dumps(line), flush=True)


def summary(paths: list[str]) -> None:
    by_game: dict[int, dict[str, str]] = {}
    for path in paths:  # files of other agents on the same games join by game
        with open(path, encoding="utf-8") as handle:
            for text in handle:
                if text.strip():
                    row = json.loads(text)
                    by_game.setdefault(row.pop("game"), {}).update(row)
    names = {name for row in by_game.values() for name in row}
    rows = [{"game": i, **row} for i, row in sorted(by_game.items()) if set(row) == names]
    agents = [key for key in rows[0] if key != "game"]
    wins = {agent: [row[agent] == "GEGNER" for row in rows] for agent in agents}
    print(f"{len(rows)} paired games (games {rows[0]['game']}..{rows[-1]['game']})")
    for agent in agents:
        print(f"  {agent}: {sum(wins[agent])} wins = {sum(wins[agent]) / len(rows):.1%}")
    for later, agent in enumerate(agents):
        for other in agents[:later]:
            d = _paired(wins[other], wins[agent])  # diff = agent's rate - other's
            print(
                f"  {agent} - {other}: {d.diff * 100:+.1f} pp "
                f"[{d.low * 100:+.1f}, {d.high * 100:+.1f}], McNemar p = {d.p_value:.2g}"
            )


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    else:
        scenario, runner, first, last, *nscs = sys.argv[1:]
        play(scenario, runner, int(first), int(last), nscs)
