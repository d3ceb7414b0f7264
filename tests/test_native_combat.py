"""The native combat (issue #16, src/combat.hpp, cwenv/native/combat.py) in lockstep with
the reference: seeded games of the differential test's pools (every shipped scenario,
generated fights, hand-built ones; every rule variant, so both initiative systems and
every tie order) played by random choices among the moves, the end of the turn and the
choice of who acts. After every choice both have the same events (typed and frozen,
compared by value), the same pending decision and the same legal list, order included,
and the same outcome; where the rules reach what the native frames do not run yet (an
attack, a Blockadeangriff on the way, a danger zone, an exit, a climber, the ambush), the
core says so, naming the rule, and its events up to there are the reference's."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.state import IllegalActionError
from cwenv.native import cases
from cwenv.native.combat import NativeCombat, Unported
from cwenv.native.differential import engine_as

PLAYED = {ActionKind.MOVE, ActionKind.END_TURN, ActionKind.CHOOSE_ACTOR}
"""The choices the native frames carry out so far."""
STEPS = 5000


def _lockstep(index: int, pool: str) -> Counter[str]:
    """Plays game ``index`` of ``pool`` in both; asserts they agree at every step."""
    case = cases.case_of(index, pool)
    game = case.game("native")
    where = f"game {index} of {pool} ({case.label}, seed {case.seed})"
    ref = game.new_combat(case.seed)
    seen: Counter[str] = Counter()
    try:
        nat = NativeCombat(game, case.seed)
    except Unported as err:  # e.g. the ambush's checks in round 1: named, not run
        assert str(err), where
        seen[f"stop: {err}"] += 1
        return seen
    rng = random.Random(case.seed)
    for step in range(STEPS):
        at = f"{where} step {step}"
        assert nat.events == ref.events, at
        assert nat.outcome == ref.outcome, at
        if ref.outcome is not None:
            seen["ended"] += 1
            return seen
        d, n = ref.decision, nat.decision
        assert d is not None and n is not None, at
        assert (n.kind, n.fighter) == (d.kind, d.fighter), at
        legal = ref.legal_actions()
        assert nat.legal_actions() == legal, at
        playable = [a for a in legal if a.kind in PLAYED]
        if d.kind is DecisionKind.TURN:
            seen["turn decisions"] += 1
        else:
            seen["order decisions"] += 1
        action = rng.choice(playable)
        before = len(ref.events)
        ref.apply(action)
        try:
            nat.apply(action)
        except Unported as err:
            # nothing of the rule not ported was applied: the events so far are the
            # reference's, and the rule is named
            assert len(nat.events) >= before and nat_prefix(ref.events, nat.events), at
            seen[f"stop: {err}"] += 1
            return seen
        seen["steps"] += 1
    seen["cut"] += 1
    return seen


def nat_prefix(ref: list[object], nat: list[object]) -> bool:
    """``nat`` is a prefix of ``ref``."""
    return ref[: len(nat)] == nat


def test_the_native_combat_plays_as_the_reference() -> None:
    with engine_as("native"):
        seen: Counter[str] = Counter()
        for index in range(99):  # one whole cycle of the shipped pool's (scenario, variant)
            seen += _lockstep(index, "shipped")
        for index in range(60):  # generated and hand-built fights, drawn readings
            seen += _lockstep(index, "mixed")
    assert seen["steps"] > 2000, seen
    assert seen["order decisions"] > 0, seen  # X16: the side picks who acts
    assert seen["ended"] + seen["cut"] > 0, seen  # some play to an end or to the step cap


def test_an_illegal_choice_is_refused_and_changes_nothing() -> None:
    with engine_as("native"):
        case = cases.case_of(0, "shipped")
        nat = NativeCombat(case.game("native"), case.seed)
        events = list(nat.events)
        legal = nat.legal_actions()
        wrong = legal[0]._replace(actor=legal[0].actor + 1)
        assert wrong not in legal
        with pytest.raises(IllegalActionError, match="illegal action"):
            nat.apply(wrong)
        assert nat.events == events and nat.legal_actions() == legal


def test_the_native_combat_needs_the_native_engine() -> None:
    with engine_as("python"):
        case = cases.case_of(0, "shipped")
        with pytest.raises(Unported, match="native engine"):
            NativeCombat(case.game("python"), case.seed)
