"""The native encoder (issue #16, src/encode2.hpp, cwenv/envs/encode_core.py): at every
decision of seeded random-play games of the differential test's mixed pool (shipped,
generated and hand-built fights under rule variants), the core writes the same bytes as
the Python encoder into every array it fills, for the decider and for a fighter not
deciding (not merely equal floats: −0.0 and 0.0 differ); a difference planted in the core
is caught; the Python engine never asks the core."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv import _core
from cwenv.envs import encode_core
from cwenv.envs.candidates import _ODDS as ODDS, CandidateEncoder
from cwenv.envs.encoding2 import CANDIDATE_KEYS, Session2
from cwenv.envs.entities import entity_rows
from cwenv.native import cases
from cwenv.native.differential import engine_as

GAMES = 24
"""Games 0-23 of the mixed pool: shipped, generated and hand-built fights, rule variants."""
STEPS = 120
ENTITY_KEYS = ("entities", "entity_mask", "global", "map")


def _differences(index: int) -> tuple[int, list[tuple[str, str]], int]:
    """Plays game ``index`` of the mixed pool under the native engine; at every decision
    compares the core's arrays with the Python encoder's. Returns the views compared,
    (key, line) per array that differs and the candidates the core previewed."""
    case = cases.case_of(index, "mixed")
    game = case.game("native")
    session = Session2(game)
    reference = CandidateEncoder(session.tables, session.k)
    reference.native.enabled = False  # the Python encoder
    c = game.new_combat(case.seed)
    rng = random.Random(case.seed)
    compared, found, previewed = 0, list[tuple[str, str]](), 0
    for step in range(STEPS):
        if c.outcome is not None or c.decision is None:
            break
        legal = c.legal_actions()
        other = rng.randrange(len(c.fighters))
        for viewer, offered in ((c.decision.fighter, legal), (other, [])):
            rows = entity_rows(session.slots, viewer)
            cands = session.candidates.native
            before = session.entities.native.answered, cands.answered, cands.previews_answered
            native = session.entities.encode(c, viewer, offered)
            native += session.candidates.encode(c, viewer, rows, offered)
            after = session.entities.native.answered, cands.answered, cands.previews_answered
            odds = sum(a.kind in ODDS for a in offered)  # previewed by the core, not Python
            assert after == (before[0] + 1, before[1] + bool(offered), before[2] + odds), case.label
            previewed += odds
            expected = session.entities.encode_reference(c, viewer, offered)
            expected += reference.encode(c, viewer, rows, offered)
            for key, a, b in zip(ENTITY_KEYS + CANDIDATE_KEYS, native, expected, strict=True):
                if a.tobytes() != b.tobytes():
                    at = np.argwhere(a != b)[:3].tolist()
                    found.append(
                        (key, f"game {index} ({case.label}) step {step} viewer {viewer} {key} {at}")
                    )
            compared += 1
        c.apply(legal[rng.randrange(len(legal))])
    return compared, found, previewed


def _games(count: int) -> tuple[int, list[tuple[str, str]], int]:
    total, found, previewed = 0, list[tuple[str, str]](), 0
    with engine_as("native"):
        for i in range(count):
            compared, diffs, odds = _differences(i)
            total += compared
            found += diffs
            previewed += odds
    return total, found, previewed


PLANTED = {
    "threat_edge": ("entities",),  # a threat at exactly its weapon's reach is missed
    # a standpoint next to a fighter counted 2 m away (and so its nearest enemy)
    "vs_distance": ("candidate_vs", "candidates"),
    # a ranged attack at exactly a range band's limit gets the next band's modifier
    "preview_range": ("candidates",),
}


@pytest.fixture(params=sorted(PLANTED))
def fault(request: pytest.FixtureRequest) -> Iterator[str]:
    _core._encode2_fault(request.param)
    yield request.param
    _core._encode2_fault("off")


def test_the_core_writes_the_python_encoders_bytes() -> None:
    compared, found, previewed = _games(GAMES)
    assert compared > 2_000
    assert previewed > 3_000, previewed  # the previews are the core's (3,468 when written)
    assert not found, "\n".join(line for _, line in found[:10])


def test_a_planted_difference_is_caught(fault: str) -> None:
    _, found, _ = _games(GAMES)
    assert found
    assert {key for key, _ in found} <= set(PLANTED[fault])


def test_the_python_engine_never_asks_the_core() -> None:
    with engine_as("python"):
        game = cases.case_of(0, "mixed").game("python")
        c = game.new_combat(1)
        assert encode_core.NativeEncoder(Session2(game).tables, 16).encoder(c) is None


def test_a_disarmed_attackers_previews_are_the_python_ones() -> None:
    """K01's −2 for a disarmed NSC, which random play rarely reaches: the decider made
    disarmed at every decision with attacks to preview, the core's candidate rows (its
    previews, not Python's) the Python encoder's bytes."""
    compared = 0
    with engine_as("native"):
        for index in range(6):
            case = cases.case_of(index, "mixed")
            game = case.game("native")
            session = Session2(game)
            reference = CandidateEncoder(session.tables, session.k)
            reference.native.enabled = False
            c = game.new_combat(case.seed)
            rng = random.Random(case.seed)
            for step in range(STEPS):
                if c.outcome is not None or c.decision is None:
                    break
                legal = c.legal_actions()
                odds = sum(a.kind in ODDS for a in legal)
                me = c.fighters[c.decision.fighter]
                if odds and not me.disarmed:
                    rows = entity_rows(session.slots, me.idx)
                    before = session.candidates.native.previews_answered
                    me.disarmed = True
                    c.refresh_legal()  # a direct edit: the core's kept state imports anew
                    try:
                        native = session.candidates.encode(c, me.idx, rows, legal)
                        expected = reference.encode(c, me.idx, rows, legal)
                    finally:
                        me.disarmed = False
                        c.refresh_legal()
                    assert session.candidates.native.previews_answered == before + odds
                    for a, b in zip(native, expected, strict=True):
                        assert a.tobytes() == b.tobytes(), f"game {index} step {step}"
                    compared += 1
                c.apply(legal[rng.randrange(len(legal))])
    assert compared > 100, compared


def test_a_native_combat_is_encoded_from_the_cores_own_state() -> None:
    """The encoder reads a native combat's state where the core keeps it (bind_kampf.cpp
    LoadKampf): it imports nothing from the mirror, so an env's steps turn none of the
    core's events into Python ones; the bytes are the reference's (the test above)."""
    from cwenv.envs.env2 import KampfrundeEnv2

    with engine_as("native"):
        env = KampfrundeEnv2(scenario="feuergefecht", opponent="random")
        env.reset(seed=3)
        c = env.combat
        rng = np.random.default_rng(3)
        for _ in range(40):
            _, _, term, trunc, _ = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            if term or trunc:
                break
        assert env.session.entities.native.answered >= 20
        assert c._told == [], "the env made Python events to encode a native combat"
        assert len(c._core.events_from(0)) > 50
