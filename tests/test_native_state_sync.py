"""The native state kept across decisions (issue #16, src/sync.cpp, cwenv/engine/sync_core.py):
at every decision of seeded random-play games of the differential test's mixed pool
(shipped, generated and hand-built fights, every rule variant), the Kampfrunde state the
core brought up to date from the events equals a fresh import of the whole combat, field
by field; each combat is imported whole once; a clone gets its own import; an event kind
the table lacks or a direct edit imports anew instead of keeping a stale state; a
difference planted in one event's update is caught."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from enum import Enum

import pytest

from tests.native_maps import reference

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv import _core
from cwenv.engine import events as ev, offers_core
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.engine.sync_core import SYNC_EVENTS
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import MummSpend, Side, WeaponKind
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.rules.options import NscAtZero
from tests.helpers import fighter, find, init_dice, make_game, scripted

GAMES = 48
"""Games 0-47 of the mixed pool: every source of the pool, all rule variants."""
STEPS = 300


def _kampf(c: Combat) -> _core.Kampf:
    compiled = offers_core.kampf_of(_core, c)
    assert compiled is not None, "the core cannot take this game"
    return compiled.kampf


def _play(index: int) -> tuple[int, int]:
    """Plays game ``index`` under the native engine, comparing the kept state with a fresh
    import at every decision (an AssertionError names the first differing field, the
    game, seed and step); at step 40 a clone plays on a few steps first. Returns the
    decisions compared and the events the core applied."""
    case = cases.case_of(index, "mixed")
    c = reference(case.game("native"), case.seed)
    rng = random.Random(case.seed)
    kampf = _kampf(c)
    before = kampf.sync_counts
    compared = 0

    def check(combat: Combat, step: int, who: str) -> None:
        diff = kampf.sync_check(combat)
        assert diff == "", (
            f"{who} of game {index} ({case.label}, seed {case.seed}) at step {step}: "
            f"{diff}; last events {combat.events[-3:]}"
        )

    for step in range(STEPS):
        if c.outcome is not None:
            break
        check(c, step, "the combat")
        compared += 1
        if step == 40:  # the clone's own state, then the original's again
            twin = c.clone()
            for k in range(5):
                if twin.outcome is not None:
                    break
                check(twin, step + k, "a clone")
                legal = twin.legal_actions()
                twin.apply(legal[rng.randrange(len(legal))])
            check(c, step, "the combat after its clone")
        legal = c.legal_actions()
        c.apply(legal[rng.randrange(len(legal))])
    after = kampf.sync_counts
    assert after[4] == before[4], f"game {index}: an event the table lacks ({after[5]})"
    return compared, after[1] - before[1]


def test_the_state_kept_from_the_events_is_a_fresh_import_at_every_decision() -> None:
    compared = applied = 0
    with engine_as("native"):
        for index in range(GAMES):
            done, events = _play(index)
            compared += done
            applied += events
    assert compared >= 10_000, compared  # 12,720 at the time of writing
    assert applied >= compared, applied  # most of the state came from the events


def test_one_whole_import_per_combat() -> None:
    """The point of it: a combat played on is imported once, not at every call."""
    with engine_as("native"):
        case = cases.case_of(3, "mixed")
        c = reference(case.game("native"), case.seed)
        kampf = _kampf(c)
        rng = random.Random(case.seed)
        c.apply(c.legal_actions()[0])  # set up until then (imported at every call)
        full = kampf.sync_counts[3]
        for _ in range(200):
            if c.outcome is not None:
                break
            legal = c.legal_actions()
            c.apply(legal[rng.randrange(len(legal))])
        syncs, events, _, whole, *_ = kampf.sync_counts
        assert whole - full <= 1, kampf.sync_counts
        assert syncs > 50 and events > 50, kampf.sync_counts


def test_two_combats_played_in_turn_keep_their_own_states() -> None:
    """One game's Kampf serves two combats played alternately (a vector env) by swapping
    their kept states: each imported whole once, both equal a fresh import throughout."""
    with engine_as("native"):
        case = cases.case_of(5, "mixed")
        game = case.game("native")
        fights = [reference(game, case.seed), reference(game, case.seed + 1)]
        kampf = _kampf(fights[0])
        rng = random.Random(case.seed)
        for c in fights:
            c.apply(c.legal_actions()[0])
        _, _, _, whole, _, _, swaps = kampf.sync_counts
        for step in range(120):
            for c in fights:
                if c.outcome is None:
                    assert kampf.sync_check(c) == "", f"fight {fights.index(c)} step {step}"
                    legal = c.legal_actions()
                    c.apply(legal[rng.randrange(len(legal))])
        assert kampf.sync_counts[3] - whole <= 2, kampf.sync_counts
        assert kampf.sync_counts[6] - swaps > 100, kampf.sync_counts


def test_a_planted_difference_in_one_event_update_is_caught(
    fault: Callable[[str], None],
) -> None:
    fault("sync_lp")  # an LPChanged leaves the fighter its LP before the change
    with engine_as("native"), pytest.raises(AssertionError, match=r"fighter \d+ lp: "):
        for index in range(GAMES):
            _play(index)


def test_a_planted_difference_in_an_acted_update_is_caught(
    fault: Callable[[str], None],
) -> None:
    fault("sync_aim")  # an AIM sets one aim stack fewer
    with engine_as("native"), pytest.raises(AssertionError, match=r"fighter \d+ aim_stacks: "):
        for index in range(GAMES):
            _play(index)


def test_every_event_class_is_in_the_table() -> None:
    """A new event class must get its entry in src/sync.cpp (or it imports whole)."""
    classes = {cls for cls in ev.Event.__subclasses__() if getattr(ev, cls.__name__, None) is cls}
    assert classes == set(SYNC_EVENTS)
    assert len(SYNC_EVENTS) == len(set(SYNC_EVENTS))


@dataclass(frozen=True, slots=True)
class _Unlisted(ev.Event):
    fighter: int


def _started() -> tuple[Combat, _core.Kampf]:
    """A combat played one step (before its first apply it is imported at every call)."""
    case = cases.case_of(0, "mixed")
    c = reference(case.game("native"), case.seed)
    c.apply(c.legal_actions()[0])
    kampf = _kampf(c)
    assert kampf.sync_check(c) == ""
    return c, kampf


def test_a_combat_is_imported_whole_until_its_first_apply() -> None:
    """Set-up edits after new_combat (tests, a GM's situation) need no refresh_legal."""
    with engine_as("native"):
        case = cases.case_of(0, "mixed")
        c = reference(case.game("native"), case.seed)
        kampf = _kampf(c)
        assert kampf.sync_check(c) == ""
        c.fighters[1].mumm += 1
        assert kampf.sync_check(c) == ""


def test_an_event_the_table_lacks_imports_the_whole_combat() -> None:
    with engine_as("native"):
        c, kampf = _started()
        unknown, whole = kampf.sync_counts[4], kampf.sync_counts[3]
        c.fighters[0].lp -= 3  # what the unlisted event stands for
        c.emit(_Unlisted(0))
        assert kampf.sync_check(c) == ""
        assert kampf.sync_counts[4] == unknown + 1
        assert kampf.sync_counts[3] == whole + 1
        assert kampf.sync_counts[5] == "_Unlisted"


def test_a_direct_edit_is_seen_after_refresh_legal() -> None:
    """Combat.refresh_legal (the documented call after editing fighters) drops the kept
    state; an edit without it and without an event is not seen (the contract)."""
    with engine_as("native"):
        c, kampf = _started()
        c.fighters[1].lp -= 2
        assert (
            kampf.sync_check(c)
            == "fighter 1 lp: " + f"{c.fighters[1].lp + 2} != {c.fighters[1].lp}"
        )
        c.fighters[1].lp -= 1
        c.refresh_legal()
        assert kampf.sync_check(c) == ""


def _drawn(game: Game, index: int) -> Game:
    """``game`` under every boolean and enum rule option drawn at random: no rule variant
    of configs/rules sets most of them (nsc_at_zero, nsc_mumm, kampfunfaehig_prone…)."""
    rng = random.Random(f"sync-readings:{index}")
    drawn: dict[str, object] = {}
    for f in fields(game.options):
        value = getattr(game.options, f.name)
        if isinstance(value, bool):
            drawn[f.name] = rng.random() < 0.5
        elif isinstance(value, Enum):
            drawn[f.name] = rng.choice(list(type(value)))
    return replace(game, options=replace(game.options, **drawn))


def test_the_kept_state_holds_under_drawn_readings() -> None:
    """300 mixed-pool games under drawn rule readings (~70,000 decisions): the kept state
    is a fresh import at every decision. Found: an NSC's DEATH prompt, asked before the
    event that marks it down (nsc_at_zero dead, nsc_mumm). Every kind of Acted and every
    status of a StatusChanged, which the core applies from their fields, are among them,
    and the climbs, falls, forced moves and table rows it no longer re-reads."""
    compared = 0
    acts: set[ev.Act] = set()
    statuses: set[ev.Status] = set()
    kinds: set[type[ev.Event]] = set()
    with engine_as("native"):
        for index in range(300):
            case = cases.case_of(index, "mixed")
            c = reference(_drawn(case.game("native"), index), case.seed)
            kampf, rng = _kampf(c), random.Random(case.seed)
            for step in range(STEPS):
                if c.outcome is not None:
                    break
                legal = c.legal_actions()
                diff = kampf.sync_check(c)
                assert diff == "", f"game {index} ({case.label}) step {step}: {diff}"
                compared += 1
                c.apply(legal[rng.randrange(len(legal))])
            acts |= {e.act for e in c.events if isinstance(e, ev.Acted)}
            statuses |= {e.status for e in c.events if isinstance(e, ev.StatusChanged)}
            kinds |= {type(e) for e in c.events}
    assert compared > 50_000
    assert acts == set(ev.Act), set(ev.Act) - acts
    # Random play seldom heals a downed fighter who is not dying: the next test wakes one
    assert statuses | {ev.Status.AWAKE} == set(ev.Status), set(ev.Status) - statuses
    assert {ev.ClimbedPart, ev.Fell, ev.ForcedMove, ev.TableRolled} <= kinds, kinds


def test_the_core_applies_the_acts_in_their_order() -> None:
    """src/sync.hpp ActKind and StatusKind are cwenv.engine.events.Act and Status, member
    by member; a game handing the core another order is refused, never applied with the
    wrong meanings."""
    assert tuple(act.name for act in ev.Act) == _core.ACT_NAMES
    c, kampf = _started()
    spend = MummSpend.ZUSAETZLICHE_AKTION
    names = [act.name for act in ev.Act]
    names[0], names[1] = names[1], names[0]
    statuses = [status.name for status in ev.Status]
    rules = (False, False, False, 0, 0, True, False)
    with pytest.raises(ValueError, match="kActNames"):
        kampf.sync_tables(list(SYNC_EVENTS), {}, rules, spend, names, statuses)
    assert tuple(status.name for status in ev.Status) == _core.STATUS_NAMES
    with pytest.raises(ValueError, match="kStatusNames"):
        kampf.sync_tables(
            list(SYNC_EVENTS), {}, rules, spend, [a.name for a in ev.Act], statuses[::-1]
        )
    assert kampf.sync_check(c) == ""  # refused before anything changed


def test_a_fighter_healed_awake_is_kept_standing_without_a_re_read() -> None:
    """D08, X29: healing a fighter down at 0 LP who is not dying wakes it (LPChanged, then
    StatusChanged AWAKE); the kept state applies both from their fields, re-reading no
    fighter and importing nothing, and equals a fresh import."""
    from cwenv.engine.damage import heal

    with engine_as("native"):
        case = cases.case_of(0, "mixed")
        c = reference(case.game("native"), case.seed)
        f = next(g for g in c.fighters if g.idx != c.current_fighter())
        f.lp, f.down = 0, True  # set up before the first apply: imported whole
        c.apply(c.legal_actions()[0])
        kampf = _kampf(c)
        assert kampf.sync_check(c) == ""
        before = kampf.sync_counts
        heal(c, f, 3, "Medkit")
        assert not f.down and c.events[-1] == ev.StatusChanged(f.idx, ev.Status.AWAKE)
        assert kampf.sync_check(c) == ""
        after = kampf.sync_counts
        assert after[1] - before[1] == 2  # both events applied
        assert (after[2], after[3]) == (before[2], before[3])  # no re-read, no import


def test_an_nsc_asked_to_die_is_seen_down() -> None:
    """D07, X11, X44: a blow takes an NSC with Mumm to 0 LP under nsc_at_zero dead; its
    DEATH prompt comes before any event says it is down, and the kept state knows it."""
    blade = WeaponSpec("Klinge", WeaponKind.MELEE, bonus=1)
    attacker = fighter("Angreifer", kampfkunst=16, reflexe=12, weapons=(blade,))
    game = make_game(
        [(attacker, (1, 1)), (fighter("Ziel", Side.GEGNER, lp=20, mumm=2), (2, 1))],
        nsc_at_zero=NscAtZero.DEAD, nsc_mumm=True,
    )  # fmt: skip
    with engine_as("native"):
        c = scripted(game, [*init_dice(game), 3, 4, 9, 9, *[5] * 20])
        kampf = _kampf(c)
        c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
        while c.decision is not None and c.decision.kind is not DecisionKind.DEATH:
            assert kampf.sync_check(c) == ""
            no_defence = c.decision.kind is DecisionKind.DEFEND
            c.apply(find(c, ActionKind.NO_DEFENCE) if no_defence else c.legal_actions()[-1])
        assert c.decision is not None and c.fighters[1].down
        assert kampf.sync_check(c) == ""
