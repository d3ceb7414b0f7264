"""Held-out evaluation of an NSC agent against the best doctrine, seat by seat (issue #18).

**Question.** Does an agent (the general policy ``scorer:…``, or a search agent) beat the
best scripted doctrine of each held-out fight in the same seat, on the same dice?

**Method** (the issue's "done when", paired games on the same seeds):

1. *Selection* on seeds of its own (``game_seed(SELECT_SEED, i)``): in every fight, each
   doctrine plays each doctrine (``--doctrines``; ``--select`` games a pair, every game
   counts for both seats). The best doctrine of a seat has the highest mean win rate in
   that seat over the opponents; ties go to the earlier doctrine of the list.
2. *Evaluation* on other seeds (``game_seed(EVAL_SEED, i)``): in each seat, the agent and
   the seat's best doctrine each play ``--eval`` games against the other seat's best
   doctrine, game *i* on the same dice seed for both (neutral fighters, where a fight has
   any, are played by ``greedy`` in every game, so a pair differs only in the seat
   evaluated). A win counts 1, a draw or loss 0.
3. *Numbers.* Per fight and seat: both win rates, their difference with Newcombe's 95 %
   interval and the exact McNemar p (:func:`cwenv.stress.comparisons.compare_paired`).
   Groups: each shipped fight, and the generated fights pooled. Per seat, the headline is
   the mean of the group differences, its 95 % interval from the groups' standard errors
   (independent groups). The issue's bar: headline ≥ +15 pp (≥ +10 pp for search, with
   ``--bar 0.10``) with the lower bound above 0, and no shipped fight more than 3 pp worse.

The held-out fights default to the policy's manifest (``trained_on.held_out`` of a scorer
bundle trained with ``cwenv train``), else to issue #18's set: ``feuergefecht``,
``strassenschlacht``, ``boss``, ``hinterhalt`` and generated seeds 1,000,000…1,000,199. A
``generated:SEED`` (or ``generated:FIRST…LAST``) among the held-out scenarios (or in
``--shipped``) is a generated fight: played with the generated fights' game counts and
pooled with them, not a shipped group of its own.

Every game is appended to ``OUT/games.jsonl`` as it finishes (flushed and synced), so a
killed run resumes where it stopped with the same command; ``OUT/config.json`` holds the
resolved settings (a resume with other settings is refused), ``OUT/summary.json`` and
``OUT/summary.md`` the numbers. Agents decide with fixed budgets, never wall-clock time,
so every game replays.

Run::

    python experiments/nsc-general/heldout.py --agent scorer:agents/policies/nsc-general \\
        --out experiments/nsc-general/heldout --jobs 2
    python experiments/nsc-general/heldout.py --agent mcts --shipped feuergefecht \\
        strassenschlacht --generated 0 --eval 200 --bar 0.10 --out …/mcts
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

SELECT_SEED, EVAL_SEED = 71_000, 83_000
SEATS = ("gegner", "runner")
NEUTRAL_AGENT = "greedy"
HELD_SHIPPED = ("feuergefecht", "strassenschlacht", "boss", "hinterhalt")
HELD_GENERATED = (1_000_000, 200)


@dataclass(frozen=True)
class Settings:
    """Everything that decides the games (saved as ``config.json``)."""

    agent: str
    shipped: tuple[str, ...]
    generated: tuple[int, int]  # first seed, count
    doctrines: tuple[str, ...] = ("stuermer", "schuetze", "taktiker", "greedy")
    select_shipped: int = 50
    select_generated: int = 4
    eval_shipped: int = 500
    eval_generated: int = 20
    bar: float = 0.15
    # a bundle agent's weights digest: results of a bundle retrained at the same path are
    # other settings, never mixed with the new one's games
    agent_weights: str = ""
    # generated seeds held out one by one (``generated:SEED`` among the held-out scenarios),
    # played and pooled as the range's; those inside the range count once
    seeds: tuple[int, ...] = ()

    def fights(self) -> list[str]:
        first, count = self.generated
        extra = [x for x in dict.fromkeys(self.seeds) if not first <= x < first + count]
        seeds = [*range(first, first + count), *extra]
        return [*self.shipped, *(f"generated:{x}" for x in seeds)]

    def record(self) -> dict[str, Any]:
        """The settings as ``config.json`` holds them (``seeds`` only when there are any,
        so a results folder made before it existed still resumes)."""
        out = asdict(self)
        if not self.seeds:
            del out["seeds"]
        return out

    def n(self, stage: str, ref: str) -> int:
        gen = ref.startswith("generated:")
        if stage == "select":
            return self.select_generated if gen else self.select_shipped
        return self.eval_generated if gen else self.eval_shipped


@dataclass(frozen=True)
class Game:
    """One game to play: a fight, who plays each seat, and which seed."""

    stage: str  # "select" or "eval"
    ref: str
    gegner: str
    runner: str
    index: int

    @property
    def key(self) -> str:
        return f"{self.stage}|{self.ref}|{self.gegner}|{self.runner}|{self.index}"

    @property
    def seed(self) -> int:
        from cwenv.runner.seeds import game_seed

        return game_seed(SELECT_SEED if self.stage == "select" else EVAL_SEED, self.index)


# -- playing ------------------------------------------------------------------------------------

_GAMES: dict[str, Any] = {}


def play(game: Game) -> dict[str, Any]:
    """Play ``game``; its record (winner's side name or None, decisions)."""
    import warnings

    from agents.policy.agent import PolicyMismatchWarning
    from agents.training.pool import load_ref
    from cwenv.agent import play_out
    from cwenv.agent_registry import make_agent
    from cwenv.model.types import Side
    from cwenv.runner.seeds import side_rngs

    if game.ref not in _GAMES:
        _GAMES[game.ref] = load_ref(game.ref)
    combat = _GAMES[game.ref].new_combat(game.seed)
    agents = {
        int(Side.GEGNER): make_agent(game.gegner),
        int(Side.RUNNER): make_agent(game.runner),
        int(Side.NEUTRAL): make_agent(NEUTRAL_AGENT),
    }
    with warnings.catch_warnings():  # held-out on purpose: the bundle warns by design
        warnings.simplefilter("ignore", PolicyMismatchWarning)
        play_out(combat, agents, side_rngs(game.seed))
    outcome = combat.outcome
    winner = None if outcome is None or outcome.winner is None else outcome.winner.label.lower()
    return {"key": game.key, "winner": winner, "decisions": len(combat.history)}


def run_games(games: list[Game], path: Path, jobs: int) -> dict[str, dict[str, Any]]:
    """Every record of ``games``, playing those ``path`` lacks and appending them."""
    _drop_cut_line(path)
    done = read_records(path)
    # the agent evaluated may be a seat's best doctrine itself: the same game, played once
    todo = list({g.key: g for g in games if g.key not in done}.values())
    with path.open("a", encoding="utf-8") as out:
        for record in _imap(play, todo, jobs):
            out.write(json.dumps(record, sort_keys=True) + "\n")
            out.flush()
            os.fsync(out.fileno())
            done[record["key"]] = record
    return done


def _imap(fn: Any, items: list[Game], jobs: int) -> Iterator[dict[str, Any]]:
    if jobs <= 1:
        yield from map(fn, items)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(fn, items, chunksize=4)


def _drop_cut_line(path: Path) -> None:
    """Remove a last line a kill left without its newline (its game is played again)."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """The records of a games file; a last line cut by a kill is dropped."""
    out: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # the line a kill cut short; the game is played again
        out[record["key"]] = record
    return out


# -- the two stages -----------------------------------------------------------------------------


def selection_games(s: Settings) -> list[Game]:
    return [
        Game("select", ref, g, r, i)
        for ref in s.fights()
        for g in s.doctrines
        for r in s.doctrines
        for i in range(s.n("select", ref))
    ]


def seat_rate(
    s: Settings, records: dict[str, dict[str, Any]], ref: str, seat: str, doctrine: str
) -> float:
    """``doctrine``'s mean win rate in ``seat`` of ``ref`` over the selection opponents."""
    n = s.n("select", ref)
    wins = 0
    for other in s.doctrines:
        g, r = (doctrine, other) if seat == "gegner" else (other, doctrine)
        keys = (Game("select", ref, g, r, i).key for i in range(n))
        wins += sum(records[key]["winner"] == seat for key in keys)
    return wins / (n * len(s.doctrines))


def best_doctrines(s: Settings, records: dict[str, dict[str, Any]]) -> dict[str, dict[str, str]]:
    """Per fight, the best doctrine of each seat (``max`` keeps the first of ties)."""
    best: dict[str, dict[str, str]] = {}
    for ref in s.fights():
        best[ref] = {}
        for seat in SEATS:
            rates = [seat_rate(s, records, ref, seat, d) for d in s.doctrines]
            best[ref][seat] = s.doctrines[rates.index(max(rates))]
    return best


def evaluation_games(s: Settings, best: dict[str, dict[str, str]]) -> list[Game]:
    games = []
    for ref in s.fights():
        for seat, other in (("gegner", "runner"), ("runner", "gegner")):
            opponent = best[ref][other]
            for player in (s.agent, best[ref][seat]):
                g, r = (player, opponent) if seat == "gegner" else (opponent, player)
                games += [Game("eval", ref, g, r, i) for i in range(s.n("eval", ref))]
    return games


# -- numbers ------------------------------------------------------------------------------------


@dataclass
class Row:
    """One fight (or the pooled generated fights) in one seat."""

    group: str
    seat: str
    doctrine: str  # the seat's best doctrine ("various" for the pooled fights)
    opponent: str
    games: int
    agent_rate: float
    doctrine_rate: float
    diff: float
    low: float
    high: float
    p_value: float
    se: float = field(default=0.0)


def outcomes(
    s: Settings, best: dict[str, dict[str, str]], records: dict[str, dict[str, Any]],
    refs: Iterable[str], seat: str,
) -> tuple[list[bool], list[bool]]:  # fmt: skip
    """The agent's and the best doctrine's wins in ``seat``, paired game by game."""
    other = "runner" if seat == "gegner" else "gegner"
    mine: list[bool] = []
    theirs: list[bool] = []
    for ref in refs:
        opponent = best[ref][other]
        for player, out in ((s.agent, mine), (best[ref][seat], theirs)):
            g, r = (player, opponent) if seat == "gegner" else (opponent, player)
            out += [
                records[Game("eval", ref, g, r, i).key]["winner"] == seat
                for i in range(s.n("eval", ref))
            ]
    return mine, theirs


def row(group: str, seat: str, doctrine: str, opponent: str, a: list[bool], d: list[bool]) -> Row:
    from cwenv.stress.comparisons import compare_paired
    from cwenv.stress.outcomes import paired_mean_difference

    cmp = compare_paired(d, a)  # rate_b − rate_a: the agent minus the doctrine
    _, low, _, _ = paired_mean_difference([float(x) for x in d], [float(x) for x in a])
    se = (cmp.diff - low) / 1.959963984540054 if len(a) > 1 else 0.0
    return Row(group, seat, doctrine, opponent, len(a), cmp.rate_b, cmp.rate_a, cmp.diff,
               cmp.low, cmp.high, cmp.p_value, se)  # fmt: skip


def summarize(
    s: Settings, best: dict[str, dict[str, str]], records: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    rows: list[Row] = []
    verdict: dict[str, Any] = {}
    generated = [ref for ref in s.fights() if ref.startswith("generated:")]
    for seat in SEATS:
        other = "runner" if seat == "gegner" else "gegner"
        seat_rows = []
        for ref in s.shipped:
            a, d = outcomes(s, best, records, [ref], seat)
            seat_rows.append(row(ref, seat, best[ref][seat], best[ref][other], a, d))
        if generated:
            a, d = outcomes(s, best, records, generated, seat)
            seat_rows.append(row(f"generated ({len(generated)})", seat, "various", "various", a, d))
        mean = sum(r.diff for r in seat_rows) / len(seat_rows)
        se = math.sqrt(sum(r.se**2 for r in seat_rows)) / len(seat_rows)
        low, high = mean - 1.959963984540054 * se, mean + 1.959963984540054 * se
        worst = min((r.diff for r in seat_rows if not r.group.startswith("generated")),
                    default=0.0)  # fmt: skip
        verdict[seat] = {
            "mean_diff": mean, "low": low, "high": high, "worst_shipped": worst,
            "passes": mean >= s.bar and low > 0 and worst >= -0.03,
        }  # fmt: skip
        rows += seat_rows
    return {"settings": asdict(s), "best": best, "rows": [asdict(r) for r in rows],
            "verdict": verdict}  # fmt: skip


def markdown(summary: dict[str, Any]) -> str:
    s = summary["settings"]
    lines = [
        f"# Held-out evaluation of `{s['agent']}`", "",
        "| fight | seat | best doctrine | vs | games | agent | doctrine | diff [95 %] | p |",
        "|---|---|---|---|---:|---:|---:|---|---:|",
    ]  # fmt: skip
    for r in summary["rows"]:
        lines.append(
            f"| {r['group']} | {r['seat']} | {r['doctrine']} | {r['opponent']} | {r['games']} "
            f"| {r['agent_rate']:.1%} | {r['doctrine_rate']:.1%} | {r['diff']:+.1%} "
            f"[{r['low']:+.1%}, {r['high']:+.1%}] | {r['p_value']:.2g} |"
        )
    lines += ["", f"Bar: mean difference ≥ {s['bar']:+.0%}, lower bound > 0, no shipped fight "
              "below −3 pp.", ""]  # fmt: skip
    for seat, v in summary["verdict"].items():
        lines.append(
            f"* **{seat}**: mean {v['mean_diff']:+.1%} [{v['low']:+.1%}, {v['high']:+.1%}], "
            f"worst shipped {v['worst_shipped']:+.1%}: "
            f"{'passes' if v['passes'] else 'does not pass'}"
        )
    return "\n".join(lines) + "\n"


# -- command line -------------------------------------------------------------------------------


GENERATED_REF = re.compile(r"^generated:(\d{1,10})(?:(?:…|\.\.\.?|-)(\d{1,10}))?$")
"""``generated:SEED``, or a range ``generated:FIRST…LAST`` (as the training config labels one)."""


def split_generated(refs: Iterable[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``refs`` as the shipped scenarios and the generated seeds among them (each
    ``generated:SEED`` and every seed of a ``generated:FIRST…LAST``)."""
    shipped: list[str] = []
    seeds: list[int] = []
    for ref in refs:
        match = GENERATED_REF.match(ref)
        if match is None:
            shipped.append(ref)
            continue
        first = int(match.group(1))
        last = first if match.group(2) is None else int(match.group(2))
        seeds += range(first, last + 1)
    return tuple(shipped), tuple(seeds)


def held_out_of(agent: str) -> tuple[tuple[str, ...], tuple[int, int], tuple[int, ...]]:
    """The fights a scorer bundle's manifest says were held out, else issue #18's: the
    shipped scenarios, the generated range and the generated seeds held out one by one
    (``generated:SEED`` among the manifest's held-out scenarios, which are generated
    fights, not scenario names)."""
    if agent.startswith("scorer:"):
        from agents.policy.scorer_agent import cached_scorer

        pool = cached_scorer(agent.removeprefix("scorer:")).manifest.trained_on
        if pool is not None and pool.held_out:
            held = pool.held_out
            gen, names = held.get("generated"), held.get("scenarios")
            first_count = (0, 0)
            if isinstance(gen, dict):
                first, count = gen.get("first"), gen.get("count")
                if isinstance(first, int) and isinstance(count, int):
                    first_count = (first, count)
            listed = tuple(str(x) for x in names) if isinstance(names, list) else ()
            shipped, seeds = split_generated(listed)
            return shipped, first_count, seeds
    return HELD_SHIPPED, HELD_GENERATED, ()


def weights_of(agent: str) -> str:
    """The ``weights_sha256`` of a ``scorer:``/``policy:`` agent's bundle, else ""."""
    if agent.startswith("scorer:"):
        from agents.policy.scorer_bundle import load_scorer_bundle

        return load_scorer_bundle(agent.removeprefix("scorer:")).manifest.weights_sha256
    if agent.startswith("policy:"):
        from agents.policy.bundle import load_bundle

        return load_bundle(agent.removeprefix("policy:")).manifest.weights_sha256
    return ""


def parse(argv: list[str] | None) -> tuple[Settings, Path, int]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", required=True, help="the agent spec evaluated, e.g. scorer:PATH")
    ap.add_argument("--out", type=Path, required=True, help="results folder (resumable)")
    ap.add_argument(
        "--shipped", nargs="*",
        help="held-out fights (default: manifest); a generated:SEED here is a generated one",
    )  # fmt: skip
    ap.add_argument(
        "--generated", type=int, nargs="+", metavar="N",
        help="FIRST COUNT generated seeds, or 0 for none (default: manifest; replaces its "
        "generated fights)",
    )  # fmt: skip
    ap.add_argument("--doctrines", nargs="+", default=list(Settings.doctrines))
    ap.add_argument("--select", type=int, nargs=2, default=[50, 4], metavar=("SHIPPED", "GEN"))
    ap.add_argument("--eval", type=int, nargs=2, default=[500, 20], metavar=("SHIPPED", "GEN"))
    ap.add_argument("--bar", type=float, default=0.15, help="mean difference to reach")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    shipped, generated, seeds = held_out_of(args.agent)
    if args.shipped is not None:
        shipped, seeds = split_generated(args.shipped)
    if args.generated is not None:
        if args.shipped is None:  # the manifest's generated fights are replaced, not added to
            seeds = ()
        if args.generated == [0]:
            generated = (0, 0)
        elif len(args.generated) == 2 and args.generated[1] >= 0:
            generated = (args.generated[0], args.generated[1])
        else:
            ap.error("--generated: FIRST COUNT (COUNT ≥ 0), or 0 for none")
    for name, pair in (("--select", args.select), ("--eval", args.eval)):
        if min(pair) < 1:
            ap.error(f"{name}: games per fight must be at least 1, got {pair}")
    s = Settings(
        agent=args.agent, shipped=shipped, generated=generated, doctrines=tuple(args.doctrines),
        select_shipped=args.select[0], select_generated=args.select[1],
        eval_shipped=args.eval[0], eval_generated=args.eval[1], bar=args.bar,
        agent_weights=weights_of(args.agent), seeds=seeds,
    )  # fmt: skip
    if not s.fights():
        ap.error("no fight to evaluate: give --shipped or --generated")
    return s, args.out, max(1, args.jobs)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    s, out, jobs = parse(argv)
    out.mkdir(parents=True, exist_ok=True)
    config = out / "config.json"
    wanted = json.dumps(s.record(), indent=1, sort_keys=True) + "\n"
    if config.exists() and config.read_text(encoding="utf-8") != wanted:
        raise SystemExit(
            f"{config}: these results were made with other settings; use another --out"
        )
    config.write_text(wanted, encoding="utf-8")
    random.seed(0)  # nothing should draw from it; a stray draw stays reproducible
    games = out / "games.jsonl"
    records = run_games(selection_games(s), games, jobs)
    best = best_doctrines(s, records)
    records = run_games(evaluation_games(s, best), games, jobs)
    summary = summarize(s, best, records)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    (out / "summary.md").write_text(markdown(summary), encoding="utf-8")
    print(markdown(summary))
    return summary


if __name__ == "__main__":
    main()
