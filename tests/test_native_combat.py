"""The native combat (issue #16, src/combat.hpp, cwenv/engine/native/combat.py) in lockstep with
the reference: seeded games of the differential test's pools (every shipped scenario,
generated fights, hand-built ones; every rule variant, so both initiative systems and
every tie order) played by random choices among what the native frames carry out — the
moves, weapon attacks, Zielen, Aufstehen, drawing, M07, M08 in the turn, the end of the
turn, the choice of who acts, and every answer to a prompt but M08 there (the Probe's
Mumm spends, dropping prone, the defences, Blockadeangriffe, M06, M04). After every
choice both have the same events (typed and frozen, compared by value), the same pending
decision and the same legal list, order included, and the same outcome; where the rules
reach what the native frames do not run yet (another Handlung, a Zehrend, a Fehltritt, a
danger zone, an exit, a climber, the ambush), the core says so, naming the rule, and its
events up to there are the reference's."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.fighter import FighterState
from cwenv.engine.native.combat import PROMPTS, TURN_CHOICES, NativeCombat, Unported, playable
from cwenv.engine.state import Combat, IllegalActionError
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.rules.dice import seeded

STEPS = 5000


def _lockstep(index: int, pool: str) -> Counter[str]:
    """Plays game ``index`` of ``pool`` in both; asserts they agree at every step."""
    case = cases.case_of(index, pool)
    game = case.game("native")
    where = f"game {index} of {pool} ({case.label}, seed {case.seed})"
    ref = Combat(game, seeded(case.seed))  # the reference, whatever new_combat starts
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
        if nat.events != ref.events:
            first = next(
                (i for i, (n, r) in enumerate(zip(nat.events, ref.events, strict=False)) if n != r),
                min(len(nat.events), len(ref.events)),
            )
            got, want = nat.events[first : first + 1], ref.events[first : first + 1]
            raise AssertionError(f"{at}: event {first}: native {got} != reference {want}")
        assert nat.outcome == ref.outcome, at
        _same_mirror(ref, nat, at)
        if ref.outcome is not None:
            seen["ended"] += 1
            return seen + _told(nat.events)
        d, n = ref.decision, nat.decision
        assert d is not None and n is not None, at
        assert n == d, f"{at}: native {n} != reference {d}"  # its choices and payload too
        legal = ref.legal_actions()
        assert nat.legal_actions() == legal, at
        seen[d.kind.name] += 1
        action = rng.choice(playable(d.kind, legal))
        seen[f"chose {action.kind.name}"] += 1
        if action.kind is ActionKind.MUMM_SHAKE and d.kind is not DecisionKind.TURN:
            seen["M08 at a prompt"] += 1
        before = len(ref.events)
        ref.apply(action)
        nat.apply(action)
        assert len(nat.events) >= before, at
        seen["steps"] += 1
    seen["cut"] += 1
    return seen + _told(nat.events)


MIRRORED = tuple(slot for slot in FighterState.__slots__ if slot not in ("spec", "weapons"))
"""Every FighterState field the core keeps (the stat block and its weapons are shared)."""


def _same_mirror(ref: Combat, nat: Combat, at: str) -> None:
    """The native combat's Python state is the reference's: every fighter's every field,
    the occupants, the doors, the round, the queue, the counters and the running frames
    (a turn's numbers, each frame's description)."""
    for r, n in zip(ref.fighters, nat.fighters, strict=True):
        for slot in MIRRORED:
            want, got = getattr(r, slot), getattr(n, slot)
            assert got == want and type(got) is type(want), (
                f"{at}: fighter {r.idx} {slot}: native {got!r} != reference {want!r}"
            )
    assert nat.occupant == ref.occupant, at
    assert (nat.opaque, nat.solid) == (ref.opaque, ref.solid), at
    assert (nat.round, nat.forced, nat.turn_fighter) == (ref.round, ref.forced, ref.turn_fighter), (
        at
    )
    assert nat.queue == ref.queue, at
    assert list(nat.counters.items()) == list(ref.counters.items()), at  # the order too
    assert [f.describe() for f in nat.stack_frames()] == [
        f.describe() for f in ref.stack_frames()
    ], at
    rt, nt = ref.turn_frame(), nat.turn_frame()
    assert (rt is None) == (nt is None), at
    if rt is not None and nt is not None:
        for field in (
            "fighter",
            "slot",
            "handlungen",
            "grants",
            "sprint_bonus",
            "moved",
            "parity",
            "benommen",
        ):
            assert getattr(nt, field) == getattr(rt, field), f"{at}: turn {field}"


def _told(events: list[ev.Event]) -> Counter[str]:
    """What the events tell, by kind: each class, a Zehrend gained, ended or ticking, a
    Patzer's and a Volltreffer's row."""
    told: Counter[str] = Counter(f"event {type(e).__name__}" for e in events)
    for e in events:
        if isinstance(e, ev.ConditionGained | ev.ConditionLost) and "ehrend (" in e.condition:
            told[f"{type(e).__name__} zehrend"] += 1
        if isinstance(e, ev.LPChanged) and e.cause.startswith("Zehrend"):
            told["zehrend damage"] += 1
        if isinstance(e, ev.TableRolled):
            told[f"row {e.row}"] += 1
        if isinstance(e, ev.StatusChanged):
            told[f"status {e.status.name}"] += 1
        if isinstance(e, ev.Acted):
            told[f"act {e.act.name}"] += 1
    return told


def test_the_native_combat_plays_as_the_reference() -> None:
    with engine_as("native"):
        seen: Counter[str] = Counter()
        for index in range(99):  # one whole cycle of the shipped pool's (scenario, variant)
            seen += _lockstep(index, "shipped")
        for index in range(60):  # generated and hand-built fights, drawn readings
            seen += _lockstep(index, "mixed")
        for index in range(40):  # every boolean and enum reading drawn per game
            seen += _lockstep(index, "drawn")
        seen += _lockstep(125, "mixed")  # a fall outside the faller's turn: STURZ (R05)
    assert seen["steps"] > 100_000, seen
    assert seen["ORDER"] > 0, seen  # X16: the side picks who acts
    for kind in PROMPTS:  # every ported prompt asked, and answered every way
        assert seen[kind.name] > 0, (kind, seen)
    for kind in (
        *TURN_CHOICES - {ActionKind.MUMM_PROBE},  # always the only choice, taken unasked
        ActionKind.PRE_ACTIONBONUS,
        ActionKind.PRE_IMPROVE,
        ActionKind.PRE_GROSSER_WURF,
        ActionKind.POST_REROLL,
        ActionKind.POST_AVERT,
        ActionKind.KEEP_FIRST,
        ActionKind.DEFEND,
        ActionKind.NO_DEFENCE,
        ActionKind.DROP_PRONE,
        ActionKind.BLOCKADE_ATTACK,
        ActionKind.HALVE_DAMAGE,
        ActionKind.AVERT_DEATH,
        ActionKind.ACCEPT_DEATH,
        ActionKind.DRAG_TO,
        ActionKind.DRAG_STOP,
    ):
        assert seen[f"chose {kind.name}"] > 0, (kind, seen)
    assert seen["ended"] == 200, seen  # every fight to its verdict
    assert seen["M08 at a prompt"] > 0, seen  # X38: the prompt asked again
    for told in (
        "event ForcedMove",  # A08 Fehltritt
        "event Fell",  # B05 over an edge
        "ConditionGained zehrend",  # Z08, A07 Tiefe Wunde, D03
        "ConditionLost zehrend",
        "zehrend damage",
        "row Tiefe Wunde",
        "row Zerschmetterter Leib",
        "row Überdehnt",
        "status DEAD",
        "status STABILISED",  # D08's Volltreffer
        "status SURPRISED",  # X45
        "status ESCAPED",  # REACH_EXIT
        "act HELP",  # P08: a helper's success
        "act FROM_BACKPACK",  # H06
        "act FREE_WEAPON",  # A08
        "act FAILED",  # H07: a difficult step's check failed
        "event ClimbedPart",  # B03, X40: part of a high ledge
        "act LOSE_WEAPON",  # K01 on a Runner
        "act DISARMED",  # K01 on an NSC
        "row Waffe blockiert",
    ):
        assert seen[told] > 0, (told, seen)


def test_a_planted_difference_is_caught(fault: Callable[[str], None]) -> None:
    fault("strike_armour")  # the native DamageFrame reads one point of armour less
    with engine_as("native"), pytest.raises(AssertionError, match="DamageRolled") as failure:
        for index in range(10):
            _lockstep(index, "shipped")
    assert "seed" in str(failure.value), failure.value


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
