"""Encoding 2's env steps/s and what its encoder costs (issue #18), in the ``env`` section.

``cwenv/Kampfrunde2-v0`` (K = 512, the NSC side) with random masked actions against the
``random`` opponent, so the figure is the engine and the encoder (under the native engine
the entity rows, global row, map and candidate standpoints are the core's, issue #16;
``:python`` is the same env under ``CWENV_ENGINE=python``, and ``:entities:ENGINE``,
``:candidates:ENGINE`` the two encoders per call). The same env with the encoders as first
written (:mod:`tests.encoding2_reference`: the candidates one action at a time, the coarse
map cell by cell; the same bytes, tests/test_encoding2_identical.py) is measured in the same
run, so the ratio of the two is the encoder's speed-up here today. All run after a warm-up,
with the exact odds' cache filled: a new attack/defence pair's odds are measured apart
(``odds:attack_pair``, against the plain Fraction enumeration they replaced,
tests/test_odds_counts.py).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from benchmarks.core import Figure, Settings, clock, rate
from cwenv.battlemap import los
from cwenv.native.differential import engine_as

SCENARIOS = ("duell", "feuergefecht")
PARTS = {"entities": "entity rows, global row and map", "candidates": "candidate rows"}
WARM_UP = 200  # steps before timing: the odds cache, the cover rows, the move searches


def _stepper(scenario: str, kind: str, engine: str, seed: int) -> Callable[[int], int]:
    """``steps(n)``: n random masked steps of a fresh env under ``engine`` (``kind``
    "plain": the plain encoders; "python-encoder": the native encoder switched off;
    "python-previews": the native encoder with the attack previews in Python).

    Each plays its own seed: on the same fight the one timed second would find the map's
    sight lines and the odds the first one met already cached."""
    import numpy as np

    from cwenv.envs.env2 import KampfrundeEnv2

    env = KampfrundeEnv2(scenario=scenario, opponent="random")
    session: Any = env.session  # a Session2: the env plays encoding 2
    if kind == "python-encoder":
        session.entities.native.enabled = session.candidates.native.enabled = False
    if kind == "python-previews":
        session.candidates.native.previews_enabled = False
    if kind == "plain":
        from tests.encoding2_reference import PlainCandidateEncoder, PlainEntityEncoder

        session.candidates = PlainCandidateEncoder(session.tables, session.k)
        session.entities = PlainEntityEncoder(session.tables, session.slots, session.k)
    rng = np.random.default_rng(seed)
    with engine_as(engine):
        env.reset(seed=seed)

    def steps(n: int) -> int:
        with engine_as(engine):
            return play(n)

    def play(n: int) -> int:
        for _ in range(n):
            action = rng.choice(np.flatnonzero(env.action_masks()))
            _, _, term, trunc, _ = env.step(action)
            if term or trunc:
                env.reset()
        return n

    return steps


def env2_steps(s: Settings) -> Iterator[Figure]:
    """``env2:<scenario>:random`` steps/s with the fast and the plain encoders, and the
    fast env under the Python engine; the entity encoder per call under both."""
    chosen = los.engine()
    for name in SCENARIOS[:1] if s.quick else SCENARIOS:
        steppers = {
            kind: _stepper(name, kind, "python" if kind == "python" else chosen, seed)
            for seed, kind in enumerate(
                ("fast", "plain", "python", "python-encoder", "python-previews")
            )
        }
        found: dict[str, list[float]] = {kind: [] for kind in steppers}
        for steps in steppers.values():
            steps(2 if s.quick else WARM_UP)
        for _ in range(s.repeats):  # alternating samples: all see the same load
            for kind, steps in steppers.items():
                found[kind] += rate(partial(steps, 20), s.seconds, 1)
        fast, old = found["fast"], found["plain"]
        ratio = statistics.median(fast) / max(statistics.median(old), 1e-9)
        yield Figure(
            f"env2:{name}:random",
            "steps/s",
            fast,
            note=f"(encoding 2, opponent random; {ratio:.2f}× the plain encoders)",
            extra={"speedup": ratio},
        )
        yield Figure(
            f"env2:{name}:random:plain",
            "steps/s",
            old,
            note="(the same with the encoders as first written)",
        )
        yield Figure(
            f"env2:{name}:random:python",
            "steps/s",
            found["python"],
            note="(the fast env under CWENV_ENGINE=python: the Python engine and encoder)",
        )
        yield Figure(
            f"env2:{name}:random:python-encoder",
            "steps/s",
            found["python-encoder"],
            note="(the fast env, the native engine with the Python encoder)",
        )
        yield Figure(
            f"env2:{name}:random:python-previews",
            "steps/s",
            found["python-previews"],
            note="(the fast env, the native encoder with the attack previews in Python)",
        )
        yield from _encoder_calls(name, 30 if s.quick else 1_000)
    yield from _odds(s)


def _encoder_calls(scenario: str, steps: int) -> Iterator[Figure]:
    """The entity and the candidate encoder per call, native and Python, on the same
    decisions of one random game under the native engine (each call after the other, so
    both meet the state the env would: the Python cover cache as warm as in the env)."""
    import random

    from cwenv.envs.candidates import CandidateEncoder
    from cwenv.envs.encoding2 import Session2
    from cwenv.envs.entities import entity_rows

    session = Session2(scenario)
    reference = CandidateEncoder(session.tables, session.k)
    reference.native.enabled = False
    odds_in_python = CandidateEncoder(session.tables, session.k)
    odds_in_python.native.previews_enabled = False
    spent = {f"{part}:{engine}": 0.0 for part in PARTS for engine in ("native", "python")}
    spent["candidates:python-previews"] = 0.0
    encoders = {
        "entities:native": session.entities.encode,
        "entities:python": session.entities.encode_reference,
        "candidates:native": session.candidates.encode,
        "candidates:python": reference.encode,
        "candidates:python-previews": odds_in_python.encode,
    }
    with engine_as("native"):
        c = session.game.new_combat(7)
        rng = random.Random(7)
        for step in range(steps):
            if c.is_terminal():
                c = session.game.new_combat(7 + step)
            legal, me = c.legal_actions(), c.decision.fighter
            rows = entity_rows(session.slots, me)
            for engine in ("native", "python", "python-previews")[:: 1 if step % 2 else -1]:
                for part in PARTS:
                    name = f"{part}:{engine}"
                    if name not in encoders:
                        continue
                    args = (c, me, legal) if part == "entities" else (c, me, rows, legal)
                    start = clock()
                    encoders[name](*args)  # type: ignore[operator]
                    spent[name] += clock() - start
            c.apply(legal[rng.randrange(len(legal))])
    for name, seconds in spent.items():
        yield Figure(
            f"env2:{scenario}:{name}",
            "µs/call",
            [seconds / steps * 1e6],
            note=f"(encoding 2's {PARTS[name.split(':')[0]]}, per decision)",
        )


def _odds(s: Settings) -> Iterator[Figure]:
    """New attack/defence pairs per second: ``attack_odds`` (integer counts over outcome
    classes) against the plain Fraction enumeration of all 10,000 roll pairs."""
    from cwenv.rules import odds
    from cwenv.rules.options import DEFAULT_OPTIONS
    from tests.test_odds_counts import plain_attack_odds

    pairs = [(a, d) for a in range(6, 20, 3) for d in range(4, 18, 3)]
    if s.quick:
        pairs = pairs[:2]

    def fast() -> int:
        odds.attack_odds.cache_clear()  # every pair new, as the first time a fight meets it
        odds._classes.cache_clear()
        for a, d in pairs:
            odds.attack_odds(a, d, DEFAULT_OPTIONS)
        return len(pairs)

    def plain() -> int:
        for a, d in pairs:
            plain_attack_odds(a, d, DEFAULT_OPTIONS)
        return len(pairs)

    try:
        new, old = rate(fast, s.seconds, s.repeats), rate(plain, s.seconds, s.repeats)
    finally:
        odds.attack_odds.cache_clear()
    ratio = statistics.median(new) / max(statistics.median(old), 1e-9)
    yield Figure(
        "odds:attack_pair",
        "pairs/s",
        new,
        note=f"(exact attack_odds of a new attack/defence pair; {ratio:.0f}× the plain "
        "Fraction enumeration)",
        extra={"plain_pairs_per_s": statistics.median(old), "speedup": ratio},
    )
