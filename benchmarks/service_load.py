"""A load run against ``cwenv serve`` from a second process (issue #17, section 1).

The service runs in its own process on a loopback port, as ``cwenv serve`` runs it (the
same app, settings and uvicorn call). This process sends "what would this NSC do?"
(``GET /v1/fights/{id}/advice``) from several client threads, one fight per thread, each
fight a few decisions into a seeded ``feuergefecht``, bounded by a request count and a
wall-clock limit. Every answer is checked (status 200, the fields a client reads, the
same answer for the same fight: the advisor is deterministic); any failure is an error.
Requests/s and latency percentiles are wall-clock figures of this client. Run::

    python -m benchmarks.service_load [--threads 2] [--requests 200] [--seconds 60]
                                      [--agents taktiker,mcts] [--mcts-budget 8]

and copy the table into benchmarks/NOTES.md. ``--mcts-budget N`` cuts MCTS's iterations
the way ``cwenv advise --budget N`` does (the service itself has no budget parameter, so
the server process is then ``cwenv serve``'s app with that one agent maker changed);
``--mcts-budget 0`` runs the real ``cwenv serve`` command with the shipped budgets.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

ADVICE_FIELDS = ("agent", "fighter", "score_kind", "recommended", "alternatives", "step")
OPTION_FIELDS = ("id", "action", "label", "score", "reason")


@dataclass
class LoadResult:
    agent: str
    threads: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    def per_second(self) -> float:
        return self.requests / self.wall if self.wall > 0 else 0.0

    def percentile(self, q: float) -> float:
        """The q-quantile of the latencies (nearest rank), in seconds."""
        ordered = sorted(self.latencies)
        if not ordered:
            return 0.0
        rank = max(0, min(len(ordered) - 1, int(q * len(ordered) + 0.999999) - 1))
        return ordered[rank]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(port: int, mcts_budget: int, extra: tuple[str, ...] = ()) -> list[str]:
    if mcts_budget <= 0:
        serve = [sys.executable, "-m", "cwenv.cli.main", "serve", "--port", str(port), "--no-db"]
        return [*serve, *extra]
    return [sys.executable, "-m", "benchmarks.service_load", "--serve", str(port),
            "--mcts-budget", str(mcts_budget)]  # fmt: skip


@contextmanager
def running_service(
    mcts_budget: int = 0, extra: tuple[str, ...] = (), start_timeout: float = 60.0
) -> Iterator[str]:
    """The service in a second process on a free loopback port; its base URL. ``extra``:
    more ``cwenv serve`` options (without a budget only)."""
    port = free_port()
    proc = subprocess.Popen(
        server_command(port, mcts_budget, extra),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the service exited ({proc.returncode}): {err[-2000:]}")
            try:
                if httpx.get(base + "/v1", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not answer within the start timeout")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def make_fights(base: str, count: int, steps: int = 2) -> list[str]:
    """``count`` seeded feuergefecht fights, each ``steps`` greedy decisions in."""
    ids = []
    with httpx.Client(base_url=base, timeout=120) as http:
        for seed in range(count):
            r = http.post("/v1/fights", json={"scenario": "feuergefecht", "seed": seed})
            r.raise_for_status()
            fid = r.json()["id"]
            for step in range(steps):
                body = {"agent": "greedy", "expect_step": step}
                http.post(f"/v1/fights/{fid}/actions", json=body).raise_for_status()
            ids.append(fid)
    return ids


def check_advice(got: dict[str, Any]) -> str | None:
    """What is wrong with an advice answer, None if a client can use it."""
    missing = [k for k in ADVICE_FIELDS if k not in got]
    if missing:
        return f"advice lacks {missing}"
    for option in [got["recommended"], *got["alternatives"]]:
        lacking = [k for k in OPTION_FIELDS if k not in option]
        if lacking:
            return f"option lacks {lacking}"
    if not isinstance(got["recommended"]["id"], int):
        return "the recommendation has no id among the legal actions"
    return None


def load_run(
    base: str, fights: list[str], agent: str, requests: int, seconds: float, top: int = 3
) -> LoadResult:
    """``requests`` advice requests in all (fewer if ``seconds`` run out), one thread per
    fight; every answer checked, and each fight's answers compared with its first."""
    result = LoadResult(agent, len(fights))
    lock = threading.Lock()
    left = [requests]
    stop_at = time.monotonic() + seconds

    def client(fid: str) -> None:
        with httpx.Client(base_url=base, timeout=max(seconds, 30.0)) as http:
            while time.monotonic() < stop_at:
                with lock:
                    if left[0] <= 0:
                        return
                    left[0] -= 1
                t0 = time.perf_counter()
                try:
                    r = http.get(f"/v1/fights/{fid}/advice", params={"agent": agent, "top": top})
                except httpx.HTTPError as exc:
                    with lock:
                        result.errors.append(f"{fid}: {type(exc).__name__}: {exc}")
                    continue
                took = time.perf_counter() - t0
                problem = None if r.status_code == 200 else f"status {r.status_code}: {r.text}"
                got = r.json() if problem is None else {}
                problem = problem or check_advice(got)
                with lock:
                    result.latencies.append(took)
                    first = result.answers.setdefault(fid, got)
                    if problem is None and got != first:
                        problem = "a different answer for the same fight and step"
                    if problem is not None:
                        result.errors.append(f"{fid}: {problem}")

    workers = [threading.Thread(target=client, args=(fid,)) for fid in fights]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    result.wall = time.perf_counter() - t0
    return result


def serve_with_budget(port: int, budget: int) -> None:
    """``cwenv serve --no-db`` on ``port`` whose MCTS agents search ``budget`` iterations."""
    import uvicorn

    from cwenv.agent import Agent
    from cwenv.cli.advise import with_budget
    from cwenv.cli.serve import agent_maker, settings_of
    from cwenv.engine.game import Game
    from cwenv.service.app import create_app

    def maker(spec: str, game: Game) -> Agent:
        agent = agent_maker(spec, game)
        return with_budget(agent, budget) if spec.startswith("mcts") else agent

    settings = settings_of("127.0.0.1", port, None, [], [], None, 64, 1_000_000)
    uvicorn.run(create_app(settings, maker), host="127.0.0.1", port=port, log_level="warning")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--requests", type=int, default=200, help="per agent, at most")
    ap.add_argument("--seconds", type=float, default=60.0, help="per agent, at most")
    ap.add_argument("--agents", default="taktiker,mcts")
    ap.add_argument("--mcts-budget", type=int, default=8)
    ap.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve is not None:
        serve_with_budget(args.serve, args.mcts_budget)
        return 0
    load = os.getloadavg()[0]
    failed = False
    with running_service(args.mcts_budget) as base:
        fights = make_fights(base, args.threads)
        print(f"{args.threads} client threads, load average {load:.2f} at the start")
        print("| agent | requests | errors | requests/s | p50 ms | p99 ms |")
        print("|---|---:|---:|---:|---:|---:|")
        for spec in args.agents.split(","):
            r = load_run(base, fights, spec, args.requests, args.seconds)
            name = f"`{spec}` (budget {args.mcts_budget})" if spec.startswith("mcts") else spec
            print(
                f"| {name} | {r.requests} | {len(r.errors)} | {r.per_second():.2f} "
                f"| {r.percentile(0.5) * 1000:.0f} | {r.percentile(0.99) * 1000:.0f} |",
                flush=True,
            )
            for e in r.errors[:5]:
                print("  error:", e)
            failed = failed or bool(r.errors)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
