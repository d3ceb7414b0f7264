"""The native TURN legality (issue #16, src/legality.cpp, src/turn_moves.cpp,
src/turn.cpp, cwenv/engine/offers_core.py): at every TURN decision of seeded random-play
games of the differential test's mixed pool (shipped, generated and hand-built fights,
every rule variant, X43/X48/X49 readings), the core lists the same Handlungen as
offers.py's reference, in the same order, and the same whole TURN list as turn.py's
reference (Mumm shakes, movement with its searches' inputs assembled in C++, partial
climbs, the Handlungen, M07 and the end of the turn), with the same routes; a difference
planted in the core is caught; the rule tables the core receives are Python's, entry by
entry, and an entry the core does not know leaves the game to the reference."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv import _core
from cwenv.battlemap import los
from cwenv.battlemap.paths import Reach
from cwenv.engine import offers, offers_core
from cwenv.engine.actions import HANDLUNG_KINDS, ActionKind, DecisionKind
from cwenv.engine.state import Combat
from cwenv.engine.tables.conditions import CONDITIONS, SHAKEABLE
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.engine.turn import reference_turn_actions, turn_of
from cwenv.model.types import Maneuver
from cwenv.native import cases
from cwenv.native.differential import engine_as

GAMES = 60
"""Games 0-59 of the mixed pool: every source at least once, all 11 rule variants."""
STEPS = 250
CLIMB = "partial climb"
"""Counted among the kinds seen: a SCHWIERIG choice of climbing.py's climb_actions."""
HANDLUNG_SEEN = frozenset(HANDLUNG_KINDS - {ActionKind.SCHWIERIG, ActionKind.MUMM_PROBE})
"""Counted from the Handlungen lists already."""


def _compare(index: int) -> tuple[int, Counter[ActionKind | str]]:
    """Plays game ``index`` of the mixed pool under the native engine; at every TURN
    decision asserts the core's Handlungen are the reference's. Returns the decisions
    compared and the kinds of Handlung seen."""
    case = cases.case_of(index, "mixed")
    game = case.game("native")
    c = game.new_combat(case.seed)
    rng = random.Random(case.seed)
    seen: Counter[ActionKind | str] = Counter()
    compared = 0
    for step in range(STEPS):
        if c.outcome is not None:
            break
        d = c.decision
        if d is not None and d.kind is DecisionKind.TURN:
            f = c.fighters[d.fighter]
            native = offers_core.native_handlung_actions(_core, c, f)
            reference = offers.reference_handlung_actions(c, f)
            assert native == reference, (
                f"game {index} ({case.label}, seed {case.seed}) step {step}, fighter "
                f"{f.idx} {f.name}: native {native} != reference {reference}"
            )
            seen.update(a.kind for a in reference)
            seen.update(_compare_turn(c, f.idx, f"game {index} ({case.label}) step {step}"))
            compared += 1
        legal = c.legal_actions()
        c.apply(legal[rng.randrange(len(legal))])
    return compared, seen


def _routes(reach: Reach) -> list[object]:
    return [reach.route(cell) for cell in reach.dests]


def _compare_turn(c: Combat, fighter: int, where: str) -> list[ActionKind | str]:
    """The core's whole TURN list and searches against turn.py's reference (whose search
    is the native one, tests/test_native_paths.py, on move_search's inputs, and whose
    Handlungen were just compared): the same list, order included, the same routes."""
    f = c.fighters[fighter]
    turn = turn_of(c, fighter)
    reference = reference_turn_actions(c, fighter)
    free, hard = turn.routes, turn.hard_routes
    native = offers_core.native_turn_actions(c, f, turn)
    assert native == reference, f"{where}: turn_actions {native} != {reference}"
    assert _routes(turn.routes) == _routes(free), f"{where}: routes"
    assert _routes(turn.hard_routes) == _routes(hard), f"{where}: difficult routes"
    climbs = [a for a in native if a.kind is ActionKind.SCHWIERIG and a.cell not in hard]
    return [a.kind for a in native if a.kind not in HANDLUNG_SEEN] + [CLIMB] * len(climbs)


def _games(count: int) -> tuple[int, Counter[ActionKind | str]]:
    total, seen = 0, Counter[ActionKind | str]()
    with engine_as("native"):
        for i in range(count):
            compared, kinds = _compare(i)
            total += compared
            seen += kinds
    return total, seen


def test_every_turn_decision_lists_the_reference_handlungen() -> None:
    compared, seen = _games(GAMES)
    assert compared > 10_000, compared  # 11,444 at the time of writing
    # The sample reaches every kind of Handlung the mixed pool's fighters can take.
    wanted = {
        ActionKind.ATTACK,
        ActionKind.MANEUVER,
        ActionKind.ZIELEN,
        ActionKind.SPRINT,
        ActionKind.AUFSTEHEN,
        ActionKind.DOOR,
        ActionKind.DRAW,
        ActionKind.PICK_UP,
        ActionKind.RELOAD,
        ActionKind.SHAKE,
        ActionKind.STABILISE,
        ActionKind.FREE_WEAPON,
        ActionKind.HELFEN,
        ActionKind.USE_ITEM,
        ActionKind.UPLOAD,
        ActionKind.HACK,
        ActionKind.RUCKSACK,
        ActionKind.CYBERWARE,
        ActionKind.MOVE,
        ActionKind.SCHWIERIG,
        ActionKind.END_TURN,
        ActionKind.MUMM_EXTRA_ACTION,
        ActionKind.MUMM_SHAKE,
    }  # fmt: skip  (MUMM_PROBE alone is forced, no decision: the differential test sees it)
    assert wanted <= set(seen), sorted(k.name for k in wanted - set(seen))
    assert seen[CLIMB] >= 20, seen[CLIMB]  # 32 partial climbs at the time of writing


def test_a_planted_difference_is_caught(fault: Callable[[str], None]) -> None:
    fault("melee_reach_edge")  # a melee strike at exactly its reach is refused
    with pytest.raises(AssertionError, match=r"native \[.*\] != reference") as failure:
        _games(GAMES)
    assert "ATTACK" in str(failure.value), failure.value


def test_a_planted_difference_in_the_movement_inputs_is_caught(
    fault: Callable[[str], None],
) -> None:
    fault("guard_reach")  # every Blockade guard reaches a metre further
    with pytest.raises(AssertionError, match=r"step \d+: routes") as failure:
        _games(GAMES)
    assert "provocations=" in str(failure.value), failure.value


def test_a_planted_difference_in_the_turn_tail_is_caught(fault: Callable[[str], None]) -> None:
    fault("extra_action_twice")  # M07 offered again after it was taken this round
    with pytest.raises(AssertionError, match=r"turn_actions \[") as failure:
        _games(GAMES)
    assert "MUMM_EXTRA_ACTION" in str(failure.value), failure.value


def test_the_differential_test_catches_the_planted_difference(
    fault: Callable[[str], None],
) -> None:
    fault("melee_reach_edge")
    from cwenv.native.differential import DivergenceError, Play, play_case

    with pytest.raises(DivergenceError) as failure:
        for i in range(10):
            play_case(cases.case_of(i, "mixed"), "mixed", Play(encode_every=0, max_steps=200))
    assert "legal" in failure.value.divergence.what, failure.value.divergence.describe()


def test_the_core_receives_the_rule_tables_entry_by_entry() -> None:
    limits, shakes = offers_core.table_rows()
    assert limits == [offers_core.MANEUVER_LIMITS[MANEUVERS[m].limit] for m in Maneuver]
    assert shakes == [
        (int(cond), offers_core.SHAKE_LIMITS[CONDITIONS[cond].shake_limit]) for cond in SHAKEABLE
    ]


def test_a_table_entry_unknown_to_the_core_leaves_the_game_to_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = replace(cases.case_of(0, "mixed").game("native"))  # a Game not compiled yet
    rule = MANEUVERS[Maneuver.FESTSETZEN]
    monkeypatch.setattr(offers_core, "MANEUVER_LIMITS", {
        k: v for k, v in offers_core.MANEUVER_LIMITS.items() if k is not rule.limit
    })  # fmt: skip
    with pytest.raises(offers_core.UnportedRuleError, match="FESTSETZEN"):
        offers_core.table_rows()
    c = game.new_combat(1)
    with engine_as("native"):
        assert offers_core.native_handlung_actions(_core, c, c.fighters[0]) is None
        assert offers.handlung_actions(c, c.fighters[0]) == offers.reference_handlung_actions(
            c, c.fighters[0]
        )


def test_a_combat_with_other_options_than_its_game_is_left_to_the_reference() -> None:
    game = cases.case_of(0, "mixed").game("native")
    c = game.new_combat(1)
    c.options = replace(c.options, friendly_fire=not c.options.friendly_fire)
    assert offers_core.native_handlung_actions(_core, c, c.fighters[0]) is None


def test_the_python_engine_never_asks_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the core was asked under CWENV_ENGINE=python")

    monkeypatch.setattr(offers, "native_handlung_actions", refuse)
    with engine_as("python"):
        c = cases.case_of(0, "mixed").game("python").new_combat(1)
        assert los.engine() == "python"
        assert offers.handlung_actions(c, c.fighters[0]) == offers.reference_handlung_actions(
            c, c.fighters[0]
        )
