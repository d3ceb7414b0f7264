"""``python -m cwenv.native.differential``: the differential test over many games (docs/
native.md "The differential test"). Games ``--start`` .. ``--start + --games - 1`` of the
pool, in order; with ``--jobs`` > 1 they are played in worker processes and their results
still read in game order, so the first divergence reported is the same for any ``--jobs``.
Exits 0 when the engines agree on every game, 1 at the first divergence (printed with its
replay command), 2 when the native core is not built.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from functools import partial

from cwenv.native.cases import POOLS, case_of
from cwenv.native.differential import (
    Divergence,
    DivergenceError,
    NativeCoreMissingError,
    Play,
    Tally,
    play_case,
    require_core,
)


def play_game(index: int, pool: str, play: Play) -> Tally | Divergence:
    """Game ``index`` of ``pool``: its tally, or its first divergence (a worker's answer)."""
    try:
        return play_case(case_of(index, pool), pool, play)
    except DivergenceError as exc:
        return exc.divergence


def run(
    indices: Sequence[int], pool: str, play: Play, jobs: int = 1
) -> Iterator[Tally | Divergence]:
    """Each game's answer in game order (played in ``jobs`` processes)."""
    one = partial(play_game, pool=pool, play=play)
    if jobs <= 1:
        yield from map(one, indices)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as workers:
        yield from workers.imap(one, indices)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m cwenv.native.differential",
        description="Play seeded games of random legal play under the Python reference and "
        "the native core in lockstep; stop at the first difference.",
    )
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--start", type=int, default=0, help="the first game's number")
    p.add_argument("--game", type=int, help="replay this one game (as --start G --games 1)")
    p.add_argument("--pool", choices=POOLS, default="shipped", help="which games (shipped)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--bias", type=float, default=0.0, help="extra weight of moves and attacks")
    p.add_argument("--encode-every", type=int, default=10, help="compare encodings every n steps")
    p.add_argument("--max-steps", type=int, default=0, help="end each game early (0: never)")
    p.add_argument("--every", type=int, default=100, help="print progress every n games")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.game is not None:
        args.start, args.games = args.game, 1
    if args.games < 1 or args.start < 0 or args.jobs < 1 or args.encode_every < 0:
        print("--games and --jobs must be at least 1, --start and --encode-every >= 0")
        return 2
    try:
        require_core()
    except NativeCoreMissingError as exc:
        print(exc, file=sys.stderr)
        return 2
    play = Play(args.bias, args.encode_every, args.max_steps)
    total = Tally()
    began = time.monotonic()
    indices = range(args.start, args.start + args.games)
    for answer in run(indices, args.pool, play, args.jobs):
        if isinstance(answer, Divergence):
            print(_figures(total, time.monotonic() - began))
            print(answer.describe())
            return 1
        total.add(answer)
        if total.games % args.every == 0 and total.games < args.games:
            print(_figures(total, time.monotonic() - began), flush=True)
    print(_figures(total, time.monotonic() - began))
    print(f"no divergence in games {args.start}..{args.start + args.games - 1} of {args.pool}")
    return 0


def _figures(t: Tally, seconds: float) -> str:
    sources = ", ".join(f"{k} {v}" for k, v in sorted(t.by_source.items()))
    return (
        f"{t.games} games, {t.steps} steps (legal lists and events compared), {t.events} "
        f"events, {t.encoded} encoded steps; {seconds:.0f} s ({sources})"
    )
