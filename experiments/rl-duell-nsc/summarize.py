"""Tables of an NSC-policy study from its `cwenv simulate --json` files.

File names: ``R-<runner agent>_N-<nsc agent>.json`` (``N-policy`` for the shipped policy).
Run from the repository root: ``python experiments/rl-duell-nsc/summarize.py [RUNNERS…]``;
``--results DIR`` reads another study's folder (rl-spiegelduell-nsc uses it).

Three tables: every (Runner, NSC) record; the policy minus the best NSC doctrine in the
same seat (two proportions, Newcombe); and head to head, the policy's wins minus the
Runner's in the same games (the mean per-game score, +1 win, −1 loss, 0 draw, with a
normal 95 % interval) — the fair reading only where the seats are alike.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from cwenv.runner.win_rates import wilson_interval
from cwenv.stress.comparisons import compare_unpaired

HERE = Path(__file__).resolve().parent
DOCTRINES = ("stuermer", "taktiker", "schuetze")
RESULTS = HERE / "results"


def load(runner: str, nsc: str) -> dict[str, object] | None:
    path = RESULTS / f"R-{runner}_N-{nsc}.json"
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
    print()
    print("| Runner | NSC policy wins − Runner wins, same games [95 %] | games |")
    print("|---|---|---:|")
    for runner in runners:
        policy = load(runner, "policy")
        if policy is None:
            continue
        wins, n = gegner(policy)
        sides = policy["sides"]
        assert isinstance(sides, dict)
        losses = int(sides["RUNNER"]["wins"])
        mean = (wins - losses) / n
        var = ((wins + losses) / n - mean**2) * n / max(n - 1, 1)
        half = 1.96 * math.sqrt(var / n)
        print(
            f"| {runner} | **{100 * mean:+.1f} pp** [{100 * (mean - half):+.1f}, "
            f"{100 * (mean + half):+.1f}] | {n} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runners", nargs="*")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args()
    RESULTS = args.results
    main(args.runners or ["stuermer", "taktiker", "schuetze", "random", "mcts"])
