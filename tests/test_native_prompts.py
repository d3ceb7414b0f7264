"""The native prompts' legality (issue #16, src/prompts.cpp, cwenv/engine/prompts.py,
cwenv/engine/prompts_core.py): at every decision but TURN of seeded random-play games of
the differential test's mixed pool, the core lists the same choices as the reference, in
the same order — a check's Mumm prompts before and after the roll and the choice of the
result that stands, dropping prone when targeted and the defences, the Blockadeangriffe,
catching a fall, and the Mumm shakes at every prompt; the kinds not ported keep their
Python choices; a difference planted in the core is caught; an option reading the core
does not know leaves the game to the reference."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest

from tests.native_maps import reference as reference_combat

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv.engine import prompts, prompts_core
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.conditions import reference_prompt_shakes
from cwenv.engine.game import Game
from cwenv.model.types import CheckValue
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.rules.readings import ActionBonusMode, BenommenReactions, MeleeDefence, ShakeTiming

GAMES = 60
"""Games 0-59 of the mixed pool: every source at least once, all 11 rule variants."""
STEPS = 250
K = DecisionKind


def _game(index: int) -> Game:
    """Game ``index`` of the mixed pool; every odd one under drawn readings of what the
    prompts read (no rule variant of configs/rules sets them)."""
    game = cases.case_of(index, "mixed").game("native")
    if index % 2 == 0:
        return game
    rng = random.Random(f"native-prompts:{index}")
    options = replace(
        game.options,
        actionbonus=rng.choice(list(ActionBonusMode)),
        nsc_actionbonus=rng.random() < 0.5,
        nsc_mumm=rng.random() < 0.8,
        futile_spends=rng.random() < 0.5,
        mumm_improve_per_check=rng.choice((1, 2)),
        mumm_improve_then_grosser_wurf=rng.random() < 0.5,
        mumm_rerolls_per_check=rng.choice((1, 2)),
        mumm_avert_after_reroll=rng.random() < 0.5,
        mumm_keep_first_on_patzer=rng.random() < 0.5,
        mumm_shake_timing=rng.choice(list(ShakeTiming)),
        mumm_reaction_while_benommen=rng.random() < 0.5,
        maneuver_reaction_cost=rng.choice((0, 1)),
        melee_defence=rng.choice(list(MeleeDefence)),
        benommen_reactions=rng.choice(list(BenommenReactions)),
    )
    return replace(game, options=options)


def _compare(index: int) -> Counter[object]:
    """Plays game ``index`` of the mixed pool under the native engine; at every decision
    but TURN asserts the core's answer is the reference's. Returns what was compared."""
    case = cases.case_of(index, "mixed")
    c = reference_combat(_game(index), case.seed)
    rng = random.Random(case.seed)
    seen: Counter[object] = Counter()
    again = False  # re-asked after an M08 shake at it: its choices may be the rest (X38)
    for step in range(STEPS):
        d = c.decision
        if c.outcome is not None or d is None:
            break
        legal = c.legal_actions()
        if d.kind is not K.TURN:
            where = f"game {index} ({case.label}, seed {case.seed}) step {step} {d.kind.name}"
            p = prompts_core.prompts_of(c)
            assert p is not None, f"{where}: the core did not take the game"
            shakes = reference_prompt_shakes(c, d.kind, d.fighter)
            native_shakes = p.shakes(c, d.kind is K.ORDER, d.fighter)
            assert native_shakes == shakes, f"{where}: shakes {native_shakes} != {shakes}"
            assert legal == c.restrict(d.fighter, [*shakes, *(d.actions or ())]), where
            seen[d.kind] += 1
            seen["shakes"] += bool(shakes)
            if d.kind in prompts.PORTED:
                native = prompts.asked_choices(c)
                reference = prompts.asked_choices(c, reference=True)
                assert native == reference, f"{where}: native {native} != reference {reference}"
                assert again or d.actions == reference, f"{where}: asked {d.actions}"
                seen.update((d.kind, a.kind, a.mumm) for a in reference)
                seen.update(
                    (K.DEFEND, CheckValue(a.arg)) for a in reference if a.kind is ActionKind.DEFEND
                )
        action = legal[rng.randrange(len(legal))]
        again = d.kind is not K.TURN and action.kind is ActionKind.MUMM_SHAKE
        c.apply(action)
    return seen


def _games(count: int) -> Counter[object]:
    seen: Counter[object] = Counter()
    with engine_as("native"):
        for i in range(count):
            seen += _compare(i)
    return seen


def test_every_prompt_lists_the_reference_choices() -> None:
    seen = _games(GAMES)
    assert sum(seen[k] for k in prompts.PORTED) > 2_000, seen  # 2,521 at the time of writing
    # The sample reaches every choice of every ported kind, paid both ways where a
    # reaction is paid (0: one of the round's, 1: Mumm, M05).
    wanted = [
        (K.PRE_CHECK, ActionKind.PRE_ACTIONBONUS, 0),
        (K.PRE_CHECK, ActionKind.PRE_IMPROVE, 0),
        (K.PRE_CHECK, ActionKind.PRE_GROSSER_WURF, 0),
        (K.PRE_CHECK, ActionKind.PRE_NONE, 0),
        (K.POST_CHECK, ActionKind.POST_AVERT, 0),
        (K.POST_CHECK, ActionKind.POST_REROLL, 0),
        (K.POST_CHECK, ActionKind.POST_ACCEPT, 0),
        (K.KEEP, ActionKind.KEEP_FIRST, 0),
        (K.KEEP, ActionKind.KEEP_SECOND, 0),
        (K.NIEDERWERFEN, ActionKind.DROP_PRONE, 0),
        (K.NIEDERWERFEN, ActionKind.DROP_PRONE, 1),
        (K.NIEDERWERFEN, ActionKind.STAY_UP, 0),
        (K.DEFEND, ActionKind.DEFEND, 0),
        (K.DEFEND, ActionKind.DEFEND, 1),
        (K.DEFEND, ActionKind.NO_DEFENCE, 0),
        (K.DEFEND, CheckValue.AUSWEICHEN),
        (K.DEFEND, CheckValue.KAMPFKUNST),
        (K.DEFEND, CheckValue.FIREWALL),
        (K.BLOCKADE, ActionKind.BLOCKADE_ATTACK, 0),
        (K.BLOCKADE, ActionKind.BLOCKADE_ATTACK, 1),
        (K.BLOCKADE, ActionKind.LET_PASS, 0),
    ]
    assert [w for w in wanted if not seen[w]] == [], seen
    assert seen["shakes"] > 10, seen  # prompts with an M08 shake among their choices
    assert {k for k in prompts.UNPORTED if seen[k]} >= {K.ORDER, K.DAMAGE, K.DRAG}, seen


def test_a_fall_outside_the_turn_is_offered_as_the_reference_offers_it() -> None:
    """STURZ (R05), which random play of the sample does not reach: a climber 3 m up is
    knocked off in the enemy's turn and asked to catch the fall; the core answers, as the
    reference, with the reaction and without."""
    from cwenv.model.types import Maneuver
    from tests.helpers import find
    from tests.test_rules_movement import at_high_ledge, end_turns_until

    with engine_as("native"):
        c = at_high_ledge([3, 4, 2, 2], enemy_at=(0, 2))
        c.apply(find(c, ActionKind.SCHWIERIG, cell=c.bm.index(1, 1)))
        end_turns_until(c, 1)
        c.apply(find(c, ActionKind.MANEUVER, target=0, arg=int(Maneuver.UMREISSEN)))
        while c.decision is not None and c.decision.kind is not K.STURZ:
            c.apply(c.legal_actions()[-1])  # no defence, no Mumm
        assert c.decision is not None and prompts_core.prompts_of(c) is not None
        native = prompts.asked_choices(c)
        assert native == prompts.asked_choices(c, reference=True) == c.decision.actions
        assert [a.kind for a in native] == [ActionKind.CATCH_FALL, ActionKind.NO_CATCH]


def test_every_decision_kind_is_ported_or_named_unported() -> None:
    assert prompts.PORTED.isdisjoint(prompts.UNPORTED)
    assert set(DecisionKind) - {K.TURN} == prompts.PORTED | prompts.UNPORTED


def test_a_planted_difference_is_caught(fault: Callable[[str], None]) -> None:
    fault("last_reaction")  # a fighter with no reactions left may still use one
    with pytest.raises(AssertionError, match=r"(NIEDERWERFEN|DEFEND): native \(") as failure:
        _games(GAMES)
    assert "mumm=" in str(failure.value) or "()" in str(failure.value), failure.value


def test_the_differential_test_catches_the_planted_difference(
    fault: Callable[[str], None],
) -> None:
    fault("last_reaction")  # game 3 of the mixed pool at step 11 when written
    from cwenv.native.differential import DivergenceError, Play, play_case

    with pytest.raises(DivergenceError) as failure:
        for i in range(10):
            play_case(cases.case_of(i, "mixed"), "mixed", Play(encode_every=0, max_steps=200))
    assert "legal" in failure.value.divergence.what, failure.value.divergence.describe()


def test_an_option_reading_unknown_to_the_core_leaves_the_game_to_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = replace(cases.case_of(0, "mixed").game("native"))  # a Game not compiled yet
    monkeypatch.setattr(prompts_core, "SHAKE_TIMINGS", {ShakeTiming.OWN_TURN: 0})
    with pytest.raises(ValueError, match="mumm_shake_timing"):
        prompts_core.rules_row(game.options)
    c = reference_combat(game, 1)
    with engine_as("native"):
        assert prompts_core.prompts_of(c) is None
        seen = 0
        while c.outcome is None and seen < 20:
            d = c.decision
            assert d is not None
            legal = c.legal_actions()
            if d.kind is not K.TURN:
                shakes = reference_prompt_shakes(c, d.kind, d.fighter)
                assert legal == [*shakes, *(d.actions or ())]
                seen += 1
            c.apply(legal[-1])


def test_the_python_engine_never_asks_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the core was asked under CWENV_ENGINE=python")

    monkeypatch.setattr(prompts_core, "compile_prompts", refuse)
    with engine_as("python"):
        c = reference_combat(cases.case_of(0, "mixed").game("python"), 1)
        assert prompts_core.prompts_of(c) is None
        for _ in range(50):
            if c.outcome is not None:
                break
            c.apply(c.legal_actions()[0])
