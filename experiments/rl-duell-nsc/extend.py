"""Games FIRST..LAST-1 of ``cwenv simulate SCENARIO --runners R --nscs N --seed 1``.

Game i is played on game_seed(1, i) by the runner's own play_task, exactly as simulate plays
it, so a simulate run of FIRST games plus this gives more games on the same seeds without
playing the first ones again (simulate always starts at game 0). One JSON line per 100 games
(running totals, so a stopped run still says how far it got), the totals last:

    python experiments/rl-duell-nsc/extend.py duell stuermer stuermer 500 2000
"""

from __future__ import annotations

import json
import sys

from cwenv.runner.seeds import game_seed
from cwenv.runner.task import GameTask, play_task


def main(scenario: str, runners: str, nscs: str, first: int, last: int) -> None:
    wins = {"RUNNER": 0, "GEGNER": 0}
    draws = 0
    rounds = 0
    for i in range(first, last):
        record = play_task(GameTask(str(i), scenario, runners, nscs, game_seed(1, i), None)).record
        winner = getattr(record.winner, "name", record.winner)
        if winner in wins:
            wins[winner] += 1
        else:
            draws += 1
        rounds += record.rounds
        if (i + 1 - first) % 100 == 0:
            line = {"partial": True, "first": first, "done_to": i + 1, "wins": wins, "draws": draws}
            print(json.dumps(line), flush=True)
    total = {
        "scenario": scenario,
        "runners": runners,
        "nscs": nscs,
        "first": first,
        "last": last,
        "wins": wins,
        "draws": draws,
        "mean_rounds": rounds / (last - first),
    }
    print(json.dumps(total))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
