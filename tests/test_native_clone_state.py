"""A clone copies its original's native kept state (issue #16, src/sync_clone.cpp,
cwenv/engine/clone_core.py): clones taken at many decisions of seeded shipped games, under
both initiative systems, then played on with other choices than their original's, give the
same legal lists and events as the Python reference's clones doing the same; the kept
state of the original and of every clone equals a fresh import throughout, and no clone
imports the whole combat; where the core refuses the original's token (none yet, a
forgotten generation, another Kampf's, a sync that raised part-way) the clone imports
whole on first use, as before, and is right too."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

import pytest

from tests.native_maps import reference

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv import _core
from cwenv.engine import events as ev, offers_core
from cwenv.engine.actions import DecisionKind
from cwenv.engine.payloads import AttackPrompt
from cwenv.engine.state import Combat
from cwenv.native import cases
from cwenv.native.differential import engine_as

ENGINES = ("python", "native")
GAMES = (37, 39, 21, 28, 57)
"""Shipped games: feuergefecht under the default rules and under passes (I10-I13), duell
under passes, eskorte under the default rules, hinterhalt under passes."""
STEPS = 300
CLONE_EVERY = 7
CLONE_STEPS = 6

T = TypeVar("T")


def _under(engine: str, call: Callable[[], T]) -> T:
    with engine_as(engine):
        return call()


def _kampf(c: Combat) -> _core.Kampf:
    compiled = offers_core.kampf_of(_core, c)
    assert compiled is not None, "the core cannot take this game"
    return compiled.kampf


def _step(pair: dict[str, Combat], rng: random.Random, where: str) -> bool:
    """One random legal choice in both engines' combats: the legal lists and the new
    events must be equal. False once the combat has ended."""
    if pair["python"].outcome is not None:
        assert pair["native"].outcome == pair["python"].outcome, where
        return False
    legal = {e: _under(e, lambda e=e: list(pair[e].legal_actions())) for e in ENGINES}
    assert legal["python"] == legal["native"], f"{where}: the legal actions differ"
    i = rng.randrange(len(legal["python"]))
    seen = len(pair["python"].events)
    for e in ENGINES:
        _under(e, lambda e=e: pair[e].apply(legal[e][i]))
    assert pair["python"].events[seen:] == pair["native"].events[seen:], (
        f"{where}: the events differ"
    )
    return True


def _clone(pair: dict[str, Combat]) -> dict[str, Combat]:
    return {e: _under(e, pair[e].clone) for e in ENGINES}


def _play(index: int, check_original: bool = True) -> tuple[int, int]:
    """Game ``index`` of the shipped pool in both engines; at every CLONE_EVERY-th decision
    a clone of each plays CLONE_STEPS decisions of its own random choice (and at every
    other clone a clone of the clone, too), the original then playing on. Returns the
    clones taken and the clone decisions compared."""
    case = cases.case_of(index, "shipped")
    games = {e: case.game(e) for e in ENGINES}
    pair = {e: _under(e, lambda e=e: reference(games[e], case.seed)) for e in ENGINES}
    rng = random.Random(case.seed)
    label = f"game {index} ({case.source}, {case.rules}, seed {case.seed})"
    _step(pair, rng, f"{label} step 0")
    kampf = _kampf(pair["native"])
    clones = compared = 0

    def check(c: Combat, where: str) -> None:
        diff = _under("native", lambda: kampf.sync_check(c))
        assert diff == "", f"{where}: {diff}"

    check(pair["native"], f"{label} step 1")  # its one whole import, if none yet
    whole = kampf.sync_counts[3]

    for step in range(1, STEPS):
        where = f"{label} step {step}"
        if check_original:
            check(pair["native"], where)
        if step % CLONE_EVERY == 0:
            twin = _clone(pair)
            assert "_core_token" in twin["native"].__dict__, f"{where}: no kept state copied"
            clones += 1
            branch = random.Random(f"{case.seed}:{step}")  # not the original's choices
            for k in range(CLONE_STEPS):
                if k == 3 and clones % 2:  # a clone of a clone
                    twin = _clone(twin)
                    clones += 1
                check(twin["native"], f"{where}, clone step {k}")
                if not _step(twin, branch, f"{where}, clone step {k}"):
                    break
                compared += 1
            check(twin["native"], f"{where}, clone step {CLONE_STEPS}")
        if not _step(pair, rng, where):
            break
    if check_original:
        check(pair["native"], f"{label} at the end")
    assert kampf.sync_counts[3] == whole, f"{label}: a clone imported whole"
    return clones, compared


def test_clones_played_on_agree_with_the_reference_and_keep_their_state() -> None:
    clones = compared = 0
    for index in GAMES:
        assert cases.case_of(index, "shipped").source in {
            "feuergefecht", "duell", "eskorte", "hinterhalt",
        }  # fmt: skip
        taken, done = _play(index)
        clones += taken
        compared += done
    rules = {cases.case_of(i, "shipped").rules for i in GAMES}
    assert {"passes", "default"} <= rules, rules  # both initiative systems
    assert clones >= 60 and compared >= 200, (clones, compared)


def test_a_planted_difference_in_one_event_update_is_caught_in_a_clone(
    fault: Callable[[str], None],
) -> None:
    fault("sync_lp")  # an LPChanged leaves the fighter its LP before the change
    with pytest.raises(AssertionError, match=r"clone step \d+: fighter \d+ lp: "):
        for index in GAMES:
            _play(index, check_original=False)


def test_a_clone_between_an_aimed_shot_and_its_roll_keeps_polling_the_aim() -> None:
    """X03: a shot spends its aim when planned, after the target's NIEDERWERFEN prompt;
    the kept state polls the attacker's aim from its AttackDeclared to its roll (the
    ``attacking`` bits), so a clone taken at that prompt must poll it too. Shipped game 6
    reaches such a prompt at step 147 by the random play of the test above."""
    with engine_as("native"):
        case = cases.case_of(6, "shipped")
        c = reference(case.game("native"), case.seed)
        rng = random.Random(case.seed)
        for _ in range(147):
            legal = c.legal_actions()
            c.apply(legal[rng.randrange(len(legal))])
        kampf = _kampf(c)
        assert kampf.sync_check(c) == ""  # synced at the prompt: the attacker's bit set
        d = c.decision
        assert d is not None and d.kind is DecisionKind.NIEDERWERFEN
        assert isinstance(d.payload, AttackPrompt)
        attacker = d.payload.attack.attacker
        assert c.fighters[attacker].aim_stacks > 0
        for choice in range(len(d.actions)):  # dropping prone or not, the aim is spent
            twin = c.clone()
            twin.apply(twin.legal_actions()[choice])
            assert kampf.sync_check(twin) == "", choice
            assert twin.fighters[attacker].aim_stacks == 0


def _started(index: int = 37) -> tuple[Combat, _core.Kampf]:
    """A native combat a few decisions in, its state kept."""
    with engine_as("native"):
        case = cases.case_of(index, "shipped")
        c = reference(case.game("native"), case.seed)
        rng = random.Random(case.seed)
        for _ in range(12):
            legal = c.legal_actions()
            c.apply(legal[rng.randrange(len(legal))])
        kampf = _kampf(c)
        assert kampf.sync_check(c) == "" and "_core_token" in c.__dict__
    return c, kampf


def _imports_whole_and_is_right(twin: Combat, kampf: _core.Kampf) -> None:
    """``twin`` has no kept state: its first use imports the whole combat, and its state
    is kept from then on."""
    assert "_core_token" not in twin.__dict__
    whole = kampf.sync_counts[3]
    with engine_as("native"):
        assert kampf.sync_check(twin) == ""
        assert kampf.sync_counts[3] == whole + 1
        twin.apply(twin.legal_actions()[0])
        assert kampf.sync_check(twin) == ""


def test_a_clone_before_the_first_apply_imports_whole() -> None:
    with engine_as("native"):
        case = cases.case_of(37, "shipped")
        c = reference(case.game("native"), case.seed)
        c.legal_actions()  # imported, not kept: set-up edits may follow
        twin = c.clone()
    _imports_whole_and_is_right(twin, _kampf(c))


def test_a_clone_after_a_sync_raised_part_way_imports_whole() -> None:
    """A sync that raised left some events applied and some not (a round of ammunition, a
    Mumm spend are not idempotent): the original's token is abandoned, and its clone must
    not copy it."""
    c, kampf = _started()
    bad = ev.LPChanged(fighter="x", before=1, after=0, cause="")  # type: ignore[arg-type]
    c.emit(bad)
    with engine_as("native"), pytest.raises(TypeError):
        kampf.sync_check(c)
    c.events.remove(bad)
    with engine_as("native"):
        twin = c.clone()
    _imports_whole_and_is_right(twin, kampf)


def test_a_clone_of_a_forgotten_generation_imports_whole() -> None:
    c, kampf = _started()
    kampf.sync_on = True  # switching forgets every kept state (a fresh generation)
    with engine_as("native"):
        twin = c.clone()
    _imports_whole_and_is_right(twin, kampf)


def test_another_kampfs_token_is_refused() -> None:
    c, kampf = _started(37)
    other, other_kampf = _started(28)  # another game: its own Kampf
    assert other_kampf is not kampf and "_core_token" in other.__dict__
    token = c.__dict__["_core_token"]
    assert other_kampf.clone_state(token) is None
    assert isinstance(kampf.clone_state(token), _core.KampfState)
    assert kampf.clone_state(object()) is None  # type: ignore[arg-type]


def test_the_reference_engine_clones_without_a_kept_state() -> None:
    with engine_as("python"):
        case = cases.case_of(37, "shipped")
        c = reference(case.game("python"), case.seed)
        c.apply(c.legal_actions()[0])
        twin = c.clone()
        assert "_core_token" not in c.__dict__ and "_core_token" not in twin.__dict__
        assert twin.legal_actions() == c.legal_actions()
