"""Encoding 2's fast encoder computes exactly what the straightforward one did (issue #18).

The candidate encoder shares per-decision work between candidates and computes their
columns with numpy, and the coarse map keeps each standpoint's terrain blocks;
:mod:`tests.encoding2_reference` keeps the encoders as first written (one action at a time,
the map cell by cell). Over seeded random play on shipped and generated scenarios and under
rule variants, every decision's observation of the decider, and the view of a fighter not
deciding, must be the same bytes (not merely equal floats: −0.0 and 0.0 differ).
"""

from __future__ import annotations

import random

import pytest

from cwenv.content.generate import generate_game
from cwenv.envs.encoding2 import Session2
from cwenv.envs.entities import entity_rows
from tests.encoding2_reference import PlainCandidateEncoder, PlainEntityEncoder

CASES = [
    # (scenario or generated seed, rules, seed, decisions)
    ("duell", None, 1, 150),
    ("feuergefecht", None, 2, 200),
    ("strassenschlacht", None, 3, 100),
    ("boss", None, 4, 100),
    ("hinterhalt", None, 5, 100),
    (216, None, 216, 80),  # the most legal actions of generated seeds 0-499
    (11, None, 11, 80),
    ("feuergefecht", "differenz-roh", 6, 80),
    ("duell", "volltreffer-wurf", 7, 80),
]
ENTITY_KEYS = ("entities", "entity_mask", "global", "map")
KEYS = ("candidates", "candidate_kind", "candidate_target", "candidate_vs", "candidate_mask")


@pytest.mark.parametrize("case", CASES, ids=lambda k: "-".join(map(str, k)))
def test_observation_arrays_equal_the_plain_encoders(
    case: tuple[str | int, str | None, int, int],
) -> None:
    scenario, rules, seed, decisions = case
    session = Session2(generate_game(scenario) if isinstance(scenario, int) else scenario, rules)
    plain = PlainCandidateEncoder(session.tables, session.k)
    plain_entities = PlainEntityEncoder(session.tables, session.slots, session.k)
    c = session.game.new_combat(seed)
    rng = random.Random(seed)
    compared = 0
    for n in range(decisions):
        if c.is_terminal():
            c = session.game.new_combat(seed + n)
        enc = session.encode(c)
        views = [(enc.fighter, enc.legal, enc.obs)]
        other = rng.randrange(len(c.fighters))
        if other != enc.fighter:  # the env's view of the side not deciding
            views.append((other, [], session.observe_decider(c, other, [])))
        for viewer, legal, obs in views:
            rows = entity_rows(session.slots, viewer)
            expected = dict(zip(KEYS, plain.encode(c, viewer, rows, legal), strict=True))
            ents = plain_entities.encode(c, viewer, legal)
            expected.update(zip(ENTITY_KEYS, ents, strict=True))
            for key in ENTITY_KEYS + KEYS:
                assert obs[key].tobytes() == expected[key].tobytes(), (n, viewer, key)
            compared += 1
        c.apply(enc.legal[rng.randrange(len(enc.legal))])
    assert compared > decisions
