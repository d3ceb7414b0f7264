"""Tables of the duell-nsc study from the `cwenv simulate --json` files in results/.

File names: ``R-<runner agent>_N-<nsc agent>.json`` (``N-policy`` for the shipped policy).
Run from the repository root: ``python experiments/rl-duell-nsc/summarize.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cwenv.runner.stats import wilson_interval
from cwenv.stress.stats import compare_unpaired

HERE = Path(__file__).resolve().parent
DOCTRINES = ("stuermer", "taktiker", "schuetze")


def load(runner: str, nsc: str) -> dict[str, object] | None:
    path = HERE / "results" / f"R-{runner}_N-{nsc}.json"
    if not path.exists():
        return None
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def gegner(data: dict[str, object]) -> tuple[int, int]:
    sides = data["sides"]
    assert isinstance(sides, dict)
    games = data["games"]
    assert isinstance(games, int)
    return int(sides["GEGNER"]["wins"]), games


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def main(runners: list[str]) -> None:
    print("| Runner | NSC | games | NSC wins | win rate [Wilson 95 %] |")
    print("|---|---|---:|---:|---|")
    for runner in runners:
        for nsc in (*DOCTRINES, "policy"):
            data = load(runner, nsc)
            if data is None:
                continue
            wins, n = gegner(data)
            low, high = wilson_interval(wins, n)
            print(
                f"| {runner} | {nsc} | {n} | {wins} | "
                f"**{pct(wins / n)} %** [{pct(low)}, {pct(high)}] |"
            )
    print()
    print("| Runner | best doctrine (NSC) | policy − best doctrine [Newcombe 95 %] | p |")
    print("|---|---|---|---|")
    for runner in runners:
        policy = load(runner, "policy")
        doctrines = [(nsc, load(runner, nsc)) for nsc in DOCTRINES]
        scored = [(gegner(d), nsc) for nsc, d in doctrines if d is not None]
        if policy is None or not scored:
            continue
        (best_wins, best_n), best = max(scored, key=lambda s: s[0][0] / s[0][1])
        wins, n = gegner(policy)
        diff = compare_unpaired(best_wins, best_n, wins, n)
        print(
            f"| {runner} | {best} {pct(diff.rate_a)} % | **{diff.diff * 100:+.1f} pp** "
            f"[{diff.low * 100:+.1f}, {diff.high * 100:+.1f}] | {diff.p_value:.2g} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or ["stuermer", "taktiker", "schuetze", "random", "mcts"])
