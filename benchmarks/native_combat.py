"""``python -m benchmarks.native_combat``: the native combat (``cwenv.engine.native.combat``,
src/combat.hpp) against the reference ``Combat``, both under the native engine, in one run
(CPU time; figures to benchmarks/NOTES.md by hand).

The play is what the native combat runs today (``cwenv.engine.native.combat.playable``: moves,
weapon attacks, Zielen, Aufstehen, drawing, M07, M08 in the turn, the end of the turn, the
choice of who acts and every prompt's answer but M08), chosen at random once per game of
the shipped pool (every scenario under every rule variant) up to its end or the first rule
it does not run; both then replay the same choices, each decision asking the legal list
and applying one. ``decisions/s`` per engine, samples
alternating; and the plan of an attack per call (``plan_attack`` from the core against
``reference_plan``) on a mid-fight state.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit
from typing import Any

from cwenv.engine.actions import Action
from cwenv.engine.native.combat import NativeCombat, Unported, playable
from cwenv.native import cases
from cwenv.native.differential import engine_as


def scripts(games: int) -> list[tuple[Any, int, list[Action]]]:
    """Per game that starts natively: the game, its seed and the choices both replay."""
    out = []
    for i in range(games):
        case = cases.case_of(i, "shipped")
        game = case.game("native")
        try:
            nat = NativeCombat(game, case.seed)
        except Unported:
            continue
        ref = game.new_combat(case.seed)
        rng = random.Random(case.seed)
        picks: list[Action] = []
        while ref.outcome is None and len(picks) < 5000:
            decision = ref.decision
            if decision is None:
                break
            a = rng.choice(playable(decision.kind, ref.legal_actions()))
            try:
                nat.apply(a)
            except Unported:
                break
            ref.apply(a)
            picks.append(a)
        out.append((game, case.seed, picks))
    return out


def decisions_per_second(kind: str, games: list[tuple[Any, int, list[Action]]]) -> float:
    n = 0
    start = time.process_time()
    for game, seed, picks in games:
        c: Any = game.new_combat(seed) if kind == "reference" else NativeCombat(game, seed)
        for a in picks:
            c.legal_actions()
            c.apply(a)
            n += 1
    return n / max(time.process_time() - start, 1e-9)


def plan_per_call() -> dict[str, float]:
    """µs per plan_attack, the core's and the reference's, 30 decisions into a fight."""
    from cwenv.engine.attack_plan import plan_attack, reference_plan
    from cwenv.model.types import AttackMode

    case = cases.case_of(2, "mixed")
    c = case.game("native").new_combat(case.seed)
    rng = random.Random(1)
    for _ in range(30):
        legal = c.legal_actions()
        c.apply(legal[rng.randrange(len(legal))])
    a, t = c.fighters[0], c.fighters[-1]
    n = 20_000
    return {
        "core": timeit.timeit(lambda: plan_attack(c, a, t, AttackMode.WEAPON, 0), number=n)
        / n
        * 1e6,
        "reference": timeit.timeit(lambda: reference_plan(c, a, t, AttackMode.WEAPON, 0), number=n)
        / n
        * 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.native_combat", description=__doc__)
    parser.add_argument("--games", type=int, default=99, help="games of the shipped pool")
    parser.add_argument("--repeats", type=int, default=3, help="samples per engine")
    args = parser.parse_args(argv)
    with engine_as("native"):
        games = scripts(args.games)
        steps = sum(len(p) for _, _, p in games)
        print(f"{steps} decisions in {len(games)} games")
        rates: dict[str, list[float]] = {"reference": [], "native": []}
        for _ in range(args.repeats):
            for kind in rates:
                rates[kind].append(decisions_per_second(kind, games))
        ref, nat = (statistics.median(rates[k]) for k in ("reference", "native"))
        print(f"decisions/s: reference {ref:,.0f}, native {nat:,.0f} ({nat / ref:.2f}x)")
        plan = plan_per_call()
        print(f"plan_attack: core {plan['core']:.2f} us, reference {plan['reference']:.2f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
