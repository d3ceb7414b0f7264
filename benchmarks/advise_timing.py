"""How long each agent takes for one advised decision on this machine (issue #20).

``cwenv advise``'s default agent is the strongest whose median decision time is under a
second. This measures that time: the TURN decisions with a choice in the shipped
situations and in the first turns of one seeded game of each scenario named (both sides
played by the Taktiker up to there), each decided once by each agent with ``act`` (the
search budget as configured, no wall-clock cap), CPU time of this process. Run::

    python -m benchmarks.advise_timing [--per-scenario 6] [--agents greedy,taktiker,...]

and copy the table into docs/advise.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine.actions import DecisionKind
from cwenv.engine.state import Combat
from cwenv.play.advise import load_table_file

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ("greedy", "stuermer", "schuetze", "taktiker", "lookahead", "mcts")
SCENARIOS = ("duell", "feuergefecht", "dach")


def states(per_scenario: int) -> list[tuple[str, Combat]]:
    out: list[tuple[str, Combat]] = []
    for path in sorted((ROOT / "configs" / "situations").glob("*.yaml")):
        out.append((path.stem, load_table_file(path).combat))
    driver = make_agent("taktiker")
    for name in SCENARIOS:
        c = load_scenario(name).new_combat(0)
        found = 0
        while c.decision is not None and found < per_scenario:
            legal = c.legal_actions()
            if c.decision.kind is DecisionKind.TURN and len(legal) > 1:
                out.append((f"{name}#{len(c.history)}", c.clone()))
                found += 1
            c.apply(driver.act(DecisionView(c), legal, random.Random(len(c.history))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-scenario", type=int, default=6)
    ap.add_argument("--agents", default=",".join(AGENTS))
    args = ap.parse_args()
    found = states(args.per_scenario)
    print(f"{len(found)} decisions")
    print("| agent | median s | mean s | max s |")
    print("|---|---:|---:|---:|")
    for spec in args.agents.split(","):
        agent = make_agent(spec)
        times = []
        for _, c in found:
            prepare = getattr(agent, "prepare", None)
            if callable(prepare):
                prepare(c.game)
            t0 = time.process_time()
            agent.act(DecisionView(c), c.legal_actions(), random.Random(0))
            times.append(time.process_time() - t0)
        print(
            f"| `{spec}` | {statistics.median(times):.2f} | {statistics.fmean(times):.2f} "
            f"| {max(times):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
