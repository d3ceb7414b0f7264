"""The Probenwert and the attack plan under the native engine (issue #16, src/attack_plan.hpp).

The core works out :func:`cwenv.engine.checks.check_parts` and
:func:`cwenv.engine.attack_plan.plan_attack` on the state it keeps from the events; this
module hands it, once per game, what those read beyond the legality's description: every
check value and Behinderung of each stat block, each weapon's and hack's check, modifier
and Durchdringung, the cyberware's armour and focus (H09), the Kampfmanöver's modifiers
(:data:`~cwenv.engine.tables.maneuvers.MANEUVERS`), and the condition table's maluses
evaluated for every sort of check under the game's options (:data:`MALUS_ORDER`, each
entry's ``malus`` asked once per check value and attack/reaction/defence), so the rule
stays in its table. It turns the core's ``(PartKind, ref, value)`` triples back into the
typed parts of :mod:`cwenv.engine.parts`. The Python functions stay the statement of the
rules; ``tests/test_native_plan.py`` checks both give the same plan at every decision of
seeded random-play games.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from cwenv.battlemap import los
from cwenv.engine.cover import Cover
from cwenv.engine.parts import (
    ACTIONBONUS,
    AIM,
    BEHINDERUNG,
    CONDITION_SOURCES,
    COVER_SOURCES,
    DISARMED,
    FOCUS,
    HELP,
    MANEUVER_SOURCES,
    MUMM,
    PRONE_TARGET,
    RANGE,
    VALUE_SOURCES,
    Part,
    PartKind,
    Source,
    hack_source,
    weapon_source,
)
from cwenv.engine.tables.conditions import CONDITION_PENALTY, MALUS_ORDER, CheckSort
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.model.specs import UNARMED, AbilityKind, FighterSpec
from cwenv.model.types import AttackMode, CheckValue, CoverLevel, Maneuver
from cwenv.rules.options import AreaCover, BehinderungScope

if TYPE_CHECKING:
    from cwenv._core import Kampf
    from cwenv.engine.attack_plan import AttackPlan
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.game import Game
    from cwenv.engine.offers_core import Compiled
    from cwenv.rules.options import RuleOptions

_CYBER = {AbilityKind.ARMOUR: 1, AbilityKind.FOCUS: 2}
"""What the kept state applies of a cyberware use (src/kampf.hpp kCyberArmour, kCyberFocus);
healing and shaking come as their own events (0)."""

_PRONE_TARGET_MALUS = 2  # attack_plan.py PRONE_TARGET_MALUS (R06), not imported: a cycle


def _sorts(options: RuleOptions) -> list[list[tuple[int, bool]]]:
    """Per check value and (attack, reaction, defence) as bits: which MALUS_ORDER entries'
    maluses apply (Z01-Z07) and whether Behinderung does (A01, X42), as check_parts asks."""
    rows = []
    for check in CheckValue:
        mental = check in options.mental_checks
        row = []
        for flags in range(8):
            attack, reaction, defence = bool(flags & 1), bool(flags & 2), bool(flags & 4)
            sort = CheckSort(check, mental, attack, reaction, defence)
            malus = sum(
                1 << i
                for i, rule in enumerate(MALUS_ORDER)
                if rule.malus is not None and rule.malus(options, sort)
            )
            behinderung = attack or (
                not mental and options.behinderung_scope is BehinderungScope.ALL_PHYSICAL
            )
            row.append((malus, behinderung))
        rows.append(row)
    return rows


def _spec_row(spec: FighterSpec) -> tuple[Any, ...]:
    cyber = [
        (0, 0) if w.ability is None else (_CYBER.get(w.ability.kind, 0), w.ability.amount)
        for w in spec.cyberware
    ]
    return (
        [spec.value(check) for check in CheckValue],
        spec.behinderung,
        [(int(w.skill.value), w.attack_modifier, w.durchdringung) for w in spec.all_weapons],
        [(int(CheckValue.HACKING), h.modifier, h.durchdringung) for h in spec.hacks],
        cyber,
    )


def attack_tables(core: ModuleType, kampf: Kampf, game: Game) -> None:
    """Hand ``kampf`` what its check_parts and plan_attack read of ``game``."""
    o = game.options
    core.attack_tables(
        kampf,
        [int(rule.condition) for rule in MALUS_ORDER],
        _sorts(o),
        [_spec_row(spec) for spec in game.roster],
        (int(UNARMED.skill.value), UNARMED.attack_modifier, UNARMED.durchdringung),
        [MANEUVERS[m].modifier for m in Maneuver],
        (
            o.niederwerfen_vs_melee,
            o.area_cover is AreaCover.ALL_AREA_ATTACKS,
            o.zielen_bonus,
            o.zielen_qs_bonus,
            o.entwaffnen_nsc_penalty,
            _PRONE_TARGET_MALUS,
            CONDITION_PENALTY,
        ),
    )


_STATIC: dict[tuple[int, int], Source] = {
    **{(PartKind.VALUE, int(v)): s for v, s in VALUE_SOURCES.items()},
    **{(PartKind.CONDITION, int(c)): s for c, s in CONDITION_SOURCES.items()},
    **{(PartKind.MANEUVER, int(m)): s for m, s in MANEUVER_SOURCES.items()},
    **{(s.kind, int(level)): s for (level, _), s in COVER_SOURCES.items()},
    **{
        (s.kind, s.ref): s
        for s in (BEHINDERUNG, FOCUS, RANGE, PRONE_TARGET, AIM, DISARMED, MUMM, ACTIONBONUS, HELP)
    },
}
"""The sources that do not depend on the content, by (PartKind, ref)."""


def typed_parts(spec: FighterSpec, triples: tuple[tuple[int, int, int], ...]) -> tuple[Part, ...]:
    """The typed parts of the core's ``(PartKind, ref, value)`` triples of a fighter of
    ``spec`` (a weapon's or hack's source named by the content)."""
    out = []
    for kind, ref, value in triples:
        source = _STATIC.get((kind, ref))
        if source is None:
            if kind == PartKind.WEAPON:
                source = weapon_source(ref, spec.all_weapons[ref].name)
            else:
                source = hack_source(ref, spec.hacks[ref].name)
        out.append((source, value))
    return tuple(out)


def _typed(compiled: Compiled, a: FighterState, triples: tuple[Any, ...]) -> tuple[Part, ...]:
    """The typed parts of the core's triples, made once per game and fighter."""
    key = (a.idx, triples)
    hit = compiled.parts.get(key)
    if hit is None:
        if len(compiled.parts) > 50_000:
            compiled.parts.clear()
        hit = compiled.parts[key] = typed_parts(a.spec, triples)
    return hit


def native_check_parts(
    core: ModuleType,
    compiled: Compiled,
    c: Any,
    f: FighterState,
    check: CheckValue,
    attack: bool,
    reaction: bool,
    defence: bool,
) -> list[Part] | None:
    """check_parts from the core; None where the combat is not its game's."""
    got = core.check_parts(compiled.kampf, c, f.idx, int(check), attack, reaction, defence)
    return None if got is None else list(_typed(compiled, f, got))


def native_plan(
    core: ModuleType,
    compiled: Compiled,
    c: Any,
    a: FighterState,
    t: FighterState,
    mode: AttackMode,
    index: int,
) -> AttackPlan | None:
    """plan_attack from the core; None where the combat is not its game's."""
    got = core.plan_attack(compiled.kampf, c, a.idx, t.idx, int(mode), index)
    if got is None:
        return None
    parts, covered, ranged, targets, aim_qs, no_cover, own = got
    cover = compiled.covers.get(covered)
    if cover is None:
        level, living, coverer, terrain = covered
        cover = Cover(CoverLevel(level), living, coverer, CoverLevel(terrain))
        compiled.covers[covered] = cover
    plan_class: type[AttackPlan] = _PLAN[0] if _PLAN else _load()[2]
    return plan_class(_typed(compiled, a, parts), cover, ranged, targets, aim_qs, no_cover, own)


_USE_NATIVE = [True]


def use_native(on: bool) -> None:
    """Plan attacks in the core under the native engine (the default), or by the reference
    (the benchmarks compare the two in one process)."""
    _USE_NATIVE[0] = on


_LIVE: list[Any] = []
"""The Combat class, offers_core.kampf_of and AttackPlan, imported on first use (they
import the engine's modules, attack_plan.py among them)."""


def _load() -> list[Any]:
    if not _LIVE:
        from cwenv.engine.attack_plan import AttackPlan
        from cwenv.engine.offers_core import kampf_of
        from cwenv.engine.state import Combat

        _LIVE.extend((Combat, kampf_of, AttackPlan))
        _PLAN.append(AttackPlan)
    return _LIVE


_PLAN: list[Any] = []


def plan_from_core(
    c: Any, a: FighterState, t: FighterState, mode: AttackMode, index: int
) -> AttackPlan | None:
    """plan_attack by the core under the native engine, for a live combat (the engine's
    attacks, the previews); None where the reference must answer (the reference engine,
    another view such as an agent's board, a game the core cannot take)."""
    core = los._core
    if core is None or not _USE_NATIVE[0]:
        return None
    combat_class, kampf_of, _ = _LIVE or _load()
    if type(c) is not combat_class:
        return None
    compiled = kampf_of(core, c)
    if compiled is None:
        return None
    return native_plan(core, compiled, c, a, t, mode, index)
