"""The Probenwert and the attack plan in the core (issue #16, src/attack_plan.cpp,
cwenv/engine/plan_core.py): at the decisions of seeded random-play games of the
differential test's mixed pool, the core's ``check_parts`` gives every fighter's parts for
every check value and sort of check as the reference does (source and value, in order),
and its ``plan_attack`` the reference's plan — parts, cover, targets of an area attack,
Zielen's QS, the Probenwert without living cover and the attacker's own parts — for
every weapon, hack, Kampfmanöver and Blockadeangriff of the decider on every fighter on
the map, and of every fighter every few decisions; both are asked of the state the core
keeps from the events, so the focus (H09), the cyberware's armour and a prone target's
bonus (R06, X23) are kept right too. A difference planted in the core is caught."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from tests.native_maps import reference

pytest.importorskip("cwenv._core", reason="the native core is not built")

from cwenv import _core
from cwenv.engine import plan_core
from cwenv.engine.attack_plan import plan_attack, reference_plan
from cwenv.engine.checks import check_parts
from cwenv.engine.game import Game
from cwenv.engine.offers_core import kampf_of
from cwenv.engine.parts import PartKind
from cwenv.engine.state import Combat
from cwenv.model.types import AttackMode, CheckValue, Maneuver, WeaponKind
from cwenv.native import cases
from cwenv.native.differential import engine_as
from cwenv.rules.readings import AreaCover, BehinderungScope, ProneBonusUntil

GAMES = 24
"""Games 0-23 of the mixed pool: every source, most rule variants."""
STEPS = 160
ALL_EVERY = 6
"""Every attacker's plans every this many decisions (the decider's at every one)."""


def _game(index: int) -> Game:
    """Game ``index`` of the mixed pool; every odd one under drawn readings of what the
    plan reads (the rule variants of configs/rules leave most of them at the default)."""
    game = cases.case_of(index, "mixed").game("native")
    if index % 2 == 0:
        return game
    rng = random.Random(f"native-plan:{index}")
    checks = [v for v in CheckValue if rng.random() < 0.5]
    options = replace(
        game.options,
        niederwerfen_vs_melee=rng.random() < 0.5,
        niederwerfen_penalty_until=rng.choice(list(ProneBonusUntil)),
        area_cover=rng.choice(list(AreaCover)),
        behinderung_scope=rng.choice(list(BehinderungScope)),
        mental_checks=frozenset(checks),
        zielen_bonus=rng.choice((1, 2, 3)),
        zielen_qs_bonus=rng.choice((0, 1, 2)),
        entwaffnen_nsc_penalty=rng.choice((1, 2, 3)),
    )
    return replace(game, options=options)


def _attacks(c: Combat, a: int) -> Iterator[tuple[AttackMode, int]]:
    """Every (mode, index) plan_attack takes of fighter ``a``."""
    f = c.fighters[a]
    for wi, w in enumerate(f.weapons):
        yield AttackMode.WEAPON, wi
        if w.kind is WeaponKind.MELEE:
            yield AttackMode.BLOCKADE, wi
    for hi in range(len(f.spec.hacks)):
        yield AttackMode.HACK, hi
    for m in Maneuver:
        yield AttackMode.MANEUVER, int(m)


def _compare(index: int) -> Counter[str]:
    """Plays game ``index`` under the native engine, comparing at every decision; returns
    what was compared and which kept fields were seen set."""
    case = cases.case_of(index, "mixed")
    c = reference(_game(index), case.seed)
    compiled = kampf_of(_core, c)
    assert compiled is not None, f"game {index}: the core did not take it"
    rng = random.Random(case.seed)
    seen: Counter[str] = Counter()
    for step in range(STEPS):
        if c.outcome is not None or c.decision is None:
            break
        where = f"game {index} ({case.label}, seed {case.seed}) step {step}"
        on_map = [f for f in c.fighters if f.on_map]
        for f in on_map:
            seen["focus"] += f.focus_bonus != 0
            seen["armour"] += f.armour_bonus != 0
            seen["prone_bonus"] += f.prone_bonus
        if step % ALL_EVERY == 0:
            for f in on_map:
                for check in CheckValue:
                    for flags in range(8):
                        a, r, d = bool(flags & 1), bool(flags & 2), bool(flags & 4)
                        want = check_parts(c, f, check, attack=a, reaction=r, defence=d)
                        got = plan_core.native_check_parts(_core, compiled, c, f, check, a, r, d)
                        assert got == want, f"{where}: {f.name} {check.name} {flags}"
                        seen["checks"] += 1
        attackers = on_map if step % ALL_EVERY == 0 else [c.fighters[c.decision.fighter]]
        for a in attackers:
            for t in on_map:
                if t is a:
                    continue
                for mode, i in _attacks(c, a.idx):
                    want = reference_plan(c, a, t, mode, i)
                    got = plan_attack(c, a, t, mode, i)
                    assert got == want, f"{where}: {a.name} -> {t.name} {mode.name} {i}"
                    seen["plans"] += 1
                    seen["area"] += len(want.targets) > 1
                    seen["living"] += want.cover.living
                    seen["prone_target"] += any(
                        s.kind is PartKind.PRONE_TARGET for s, _ in want.parts
                    )
        legal = c.legal_actions()
        c.apply(legal[rng.randrange(len(legal))])
    return seen


def test_the_core_plans_every_attack_as_the_reference() -> None:
    with engine_as("native"):
        seen: Counter[str] = Counter()
        for index in range(GAMES):
            seen += _compare(index)
    # what random play must have reached for the comparison to mean something
    reached = (
        "checks",
        "plans",
        "area",
        "living",
        "prone_target",
        "prone_bonus",
        "focus",
        "armour",
    )
    for what in reached:
        assert seen[what] > 0, (what, seen)


def test_plan_attack_under_the_reference_engine_is_the_reference() -> None:
    with engine_as("python"):
        case = cases.case_of(0, "mixed")
        c = reference(case.game("python"), case.seed)
        a, t = c.fighters[0], c.fighters[-1]
        assert plan_core.plan_from_core(c, a, t, AttackMode.WEAPON, 0) is None
        assert plan_attack(c, a, t, AttackMode.WEAPON, 0) == reference_plan(
            c, a, t, AttackMode.WEAPON, 0
        )


@contextmanager
def _planted(name: str) -> Iterator[None]:
    _core._fault(name)
    try:
        yield
    finally:
        _core._faults_off()


def test_a_planted_plan_difference_is_caught() -> None:
    """The fault plan_prone gives a prone target's -2 (R06) behind half cover too: the
    comparison above fails on it."""
    with engine_as("native"), _planted("plan_prone"), pytest.raises(AssertionError):
        for index in range(GAMES):
            _compare(index)


def test_bad_questions_get_clear_errors() -> None:
    with engine_as("native"):
        case = cases.case_of(0, "mixed")
        c = reference(case.game("native"), case.seed)
        compiled = kampf_of(_core, c)
        assert compiled is not None
        kampf = compiled.kampf
        with pytest.raises(IndexError, match="no fighter"):
            _core.plan_attack(kampf, c, 0, 99, 0, 0)
        with pytest.raises(IndexError, match="no such weapon"):
            _core.plan_attack(kampf, c, 0, 1, 0, 99)
        with pytest.raises(IndexError, match="no attack mode"):
            _core.plan_attack(kampf, c, 0, 1, 7, 0)
        with pytest.raises(IndexError, match="no check value"):
            _core.check_parts(kampf, c, 0, 14, False, False, False)
