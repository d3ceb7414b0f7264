"""Play seeded games between two agent specs on a scenario, alternating sides.

``python -m agents.measure stuermer random --scenario duell --games 200`` prints each
agent's wins with a Wilson 95 % interval, split by side, and how often each agent chose
each kind of turn action. Game ``i`` uses dice seed ``seed + i // 2``; the first agent plays
the Runner side in even games and the Gegner side (and any neutrals) in odd ones, so every
dice seed is played from both sides. Deliberately small: the tournament runner replaces it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from cwenv.agent import Agent, DecisionView
from cwenv.engine.actions import DecisionKind
from cwenv.model.types import Side
from cwenv.runner.win_rates import Z95, wilson_interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a win rate (95 % by default)."""
    return wilson_interval(wins, games, z)


@dataclass
class GameRecord:
    """One game: who won (0 = first agent, 1 = second, None = draw), the first agent's side,
    each agent's turn-action counts, and the combat's own ``action:<KIND>`` counters."""

    seed: int
    a_side: int
    winner: int | None
    rounds: int
    actions: tuple[Counter[str], Counter[str]]
    counters: dict[str, int]


@dataclass
class MatchResult:
    a: str
    b: str
    scenario: str
    games: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0

    def wins(self, who: int, side: int | None = None) -> int:
        return sum(1 for g in self.games if g.winner == who and (side is None or g.a_side == side))

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.winner is None)

    def actions(self, who: int) -> Counter[str]:
        total: Counter[str] = Counter()
        for g in self.games:
            total.update(g.actions[who])
        return total


_AGENTS: dict[str, Agent] = {}


def _agent(spec: str) -> Agent:
    from cwenv.agent_registry import make_agent

    if spec not in _AGENTS:
        _AGENTS[spec] = make_agent(spec)
    return _AGENTS[spec]


def play_game(
    scenario: str, a: str, b: str, seed: int, a_side: int, rules: str | None = None
) -> GameRecord:
    """Play one game; ``a_side`` is the Side value the first agent plays."""
    from cwenv.content import load_scenario

    game = load_scenario(scenario, rules=rules)
    combat = game.new_combat(seed)
    agents = {s: _agent(a) if s == a_side else _agent(b) for s in (0, 1)}
    agents[int(Side.NEUTRAL)] = agents[int(Side.GEGNER)]
    rngs = {s: random.Random(seed * 1000 + s) for s in agents}
    who = {s: 0 if s == a_side else 1 for s in (0, 1)}
    who[int(Side.NEUTRAL)] = who[int(Side.GEGNER)]
    counts: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    view = DecisionView(combat)
    steps = 0
    while not combat.is_terminal():
        decision = combat.decision
        if decision is None or steps > 200_000:
            raise RuntimeError(f"game {scenario}/{seed} did not end")
        side = int(combat.fighters[decision.fighter].side)
        legal = combat.legal_actions()
        action = agents[side].act(view, legal, rngs[side])
        if decision.kind is DecisionKind.TURN:
            counts[who[side]][action.kind.name] += 1
        elif len(legal) > 1:
            counts[who[side]]["prompt:" + action.kind.name] += 1
        combat.apply(action)
        steps += 1
    outcome = combat.outcome
    winner: int | None = None
    if outcome is not None and outcome.winner is not None:
        w = int(outcome.winner)
        winner = 0 if w == a_side else 1
    rounds = outcome.rounds if outcome is not None else 0
    counters = {k: v for k, v in combat.counters.items() if k.startswith("action:")}
    return GameRecord(seed, a_side, winner, rounds, counts, counters)


def _job(args: tuple[str, str, str, int, int, str | None]) -> GameRecord:
    return play_game(*args)


def match(
    a: str,
    b: str,
    scenario: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    rules: str | None = None,
    progress: bool = False,
) -> MatchResult:
    """Play ``games`` games of ``a`` against ``b`` (see the module text)."""
    plan = [
        (scenario, a, b, seed + i // 2, int(Side.RUNNER) if i % 2 == 0 else int(Side.GEGNER), rules)
        for i in range(games)
    ]
    start = time.perf_counter()
    records: list[GameRecord] = []

    def note(r: GameRecord) -> None:
        records.append(r)
        if progress:
            wins = sum(1 for g in records if g.winner == 0)
            print(f"game {len(records)}/{games}: {a} {wins} wins", file=sys.stderr, flush=True)

    if jobs > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            for r in pool.imap(_job, plan, chunksize=1):
                note(r)
    else:
        for p in plan:
            note(_job(p))
    return MatchResult(a, b, scenario, records, time.perf_counter() - start)


def report(result: MatchResult) -> str:
    """A plain-text summary: wins with Wilson intervals, by side, and action-type shares."""
    n = len(result.games)
    lines = [
        f"{result.scenario}: {result.a} vs {result.b}, {n} games "
        f"(dice seeds {min(g.seed for g in result.games)}..{max(g.seed for g in result.games)},"
        f" sides alternating), {result.seconds:.1f} s"
    ]
    for who, name in ((0, result.a), (1, result.b)):
        k = result.wins(who)
        lo, hi = wilson(k, n)
        runner = sum(1 for g in result.games if g.winner == who and (g.a_side == 0) == (who == 0))
        runner_games = sum(1 for g in result.games if (g.a_side == 0) == (who == 0))
        lines.append(
            f"  {name:<12} wins {k:>4} / {n} = {100 * k / n:5.1f} %  "
            f"Wilson 95 % [{100 * lo:5.1f}, {100 * hi:5.1f}]  "
            f"(as Runner {runner}/{runner_games}, as Gegner {k - runner}/{n - runner_games})"
        )
    lines.append(f"  draws        {result.draws:>4}")
    rounds = [g.rounds for g in result.games]
    lines.append(f"  mean rounds  {sum(rounds) / max(len(rounds), 1):.1f}")
    ca, cb = result.actions(0), result.actions(1)
    for title, prompt in (
        ("turn actions (share of own TURN decisions)", False),
        ("prompt answers (count)", True),
    ):
        lines.append(f"  {title}:")
        keys = [k for k in set(ca) | set(cb) if k.startswith("prompt:") == prompt]
        ta = max(sum(ca[k] for k in keys), 1)
        tb = max(sum(cb[k] for k in keys), 1)
        for kind in sorted(keys, key=lambda k: (-(ca[k] / ta + cb[k] / tb), k)):
            if prompt:
                a_text, b_text = f"{ca[kind]:>6}", f"{cb[kind]:>6}"
            else:
                a_text, b_text = f"{100 * ca[kind] / ta:5.1f} %", f"{100 * cb[kind] / tb:5.1f} %"
            label = kind.removeprefix("prompt:")
            lines.append(f"    {label:<18} {result.a}: {a_text}   {result.b}: {b_text}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.measure", description=__doc__)
    parser.add_argument("a", help="first agent spec")
    parser.add_argument("b", help="second agent spec")
    parser.add_argument("--scenario", default="duell")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rules", default=None)
    parser.add_argument("--progress", action="store_true", help="one line per game on stderr")
    args = parser.parse_args(argv)
    result = match(
        args.a, args.b, args.scenario, args.games, args.seed, args.jobs, args.rules, args.progress
    )
    print(report(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
