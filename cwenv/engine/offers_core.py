"""The native TURN legality's Python side (docs/native.md "The Kampfrunde state"): a Game
compiled once into the core's description (``_core.Kampf``, src/kampf.hpp), and the calls
that hand it a combat: the Handlungen (offers.py) and a whole TURN decision's choices
with the searches they came from (turn.py).

The compiled description carries what legality reads of every stat block, the rule
options, and the data of two rule tables: the Kampfmanöver's size limits
(:data:`~cwenv.engine.tables.maneuvers.MANEUVERS`, K01–K05) and the conditions a Handlung
shakes off (:data:`~cwenv.engine.tables.conditions.SHAKEABLE` and each one's
``shake_limit``, H12, Z01). Each limit function is named to the core by what it is
(:data:`MANEUVER_LIMITS`, :data:`SHAKE_LIMITS`); an entry whose function the core does
not know leaves the game to the Python reference, so a table change never diverges
silently (tests/test_native_legality.py checks every entry is known).
"""

from __future__ import annotations

import weakref
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cwenv.battlemap import los
from cwenv.battlemap.los import _native_lines
from cwenv.battlemap.paths import NO_REACH, NativeReach
from cwenv.battlemap.paths_core import GEOMETRIES, native_moves
from cwenv.battlemap.steps import has_difficult_terrain
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.movement import FIRE_ZEHREND, profile_for
from cwenv.engine.plan_core import attack_tables
from cwenv.engine.sync_core import sync_tables
from cwenv.engine.tables.conditions import CONDITIONS, SHAKEABLE, _angeschlagen_shake_limit
from cwenv.engine.tables.maneuvers import (
    MANEUVERS,
    _entwaffnen_limit,
    _festsetzen_limit,
    up_to_own_size,
)
from cwenv.model.specs import FighterSpec, ItemKind
from cwenv.model.types import Condition, Maneuver, MummSpend, WeaponKind
from cwenv.rules.readings import (
    BenommenReactions,
    LivingCoverStacking,
    ProneMovement,
    ZehrendShake,
)

if TYPE_CHECKING:
    from cwenv._core import Kampf, Moves
    from cwenv.engine.fighter import FighterState
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.engine.turn import TurnFrame
    from cwenv.rules.options import RuleOptions

MANEUVER_LIMITS: dict[object, int] = {
    _entwaffnen_limit: 0,  # K01: an armed humanoid (src/kampf.hpp ManeuverLimit)
    _festsetzen_limit: 1,  # K02: up to one size larger
    up_to_own_size: 2,  # K03-K05
}
"""The size-limit functions of MANEUVERS as the core numbers them."""

SHAKE_LIMITS: dict[object, int] = {None: 0, _angeschlagen_shake_limit: 1}
"""The shake limits of CONDITIONS as the core numbers them (Z01: more than half the LP)."""


class UnportedRuleError(ValueError):
    """A rule table entry whose function the native core does not know."""


def _spec_row(spec: FighterSpec) -> tuple[Any, ...]:
    weapons = [
        (
            w.kind is WeaponKind.RANGED,
            w.reach,
            [(b.max_m, b.modifier) for b in w.ranges],
            w.area_radius,
            w.magazine,
            w.nachladen,
        )
        for w in spec.all_weapons
    ]
    hacks = [(h.range_m, h.area_radius, h.upload) for h in spec.hacks]
    cyber = [ware.ability is not None for ware in spec.cyberware]
    return (
        spec.lp, int(spec.size), spec.humanoid, spec.movement, len(spec.weapons), weapons, hacks,
        cyber,
    )  # fmt: skip


def _options_row(o: RuleOptions) -> tuple[Any, ...]:
    return (
        o.friendly_fire,
        o.zielen_max_stacks,
        o.stabilise_needs_adjacent,
        o.helfen_in_combat,
        o.nsc_may_help,
        o.living_cover_prone_counts,
        int(o.living_cover_neutral),
        o.living_cover_stacking is LivingCoverStacking.STRONGER_BY_ONE,
        o.prone_three_quarter_to_full,
        o.angeschlagen_shake_below_half,
        o.prone_movement is ProneMovement.NONE,
        o.benommen_reactions is BenommenReactions.KEPT,
        o.climb_over_actions,
        o.nsc_mumm,
        o.mumm_verbrennen,
        o.move_with_forfeited_handlung,
        ZEHREND_SHAKES[o.zehrend_mumm_shake],
        o.living_cover_melee,
    )


ZEHREND_SHAKES = {
    ZehrendShake.REAPPLIED: 0,
    ZehrendShake.REFUSED_IN_ZONE: 1,
    ZehrendShake.NEVER: 2,
}
"""X55's readings as the core numbers them (src/kampf.hpp Options.zehrend_shake)."""


def _turn_row(game: Game) -> tuple[int, int, int, bool]:
    """M08's and M07's costs, the conditions Mumm may end (the mumm_shake of each
    CONDITIONS entry, a bit set) and whether the map has difficult terrain (X48)."""
    shakeable = sum(1 << cond for cond, rule in CONDITIONS.items() if rule.mumm_shake)
    return (
        MummSpend.ZUSTAND_ABSCHUETTELN.cost,
        MummSpend.ZUSAETZLICHE_AKTION.cost,
        shakeable,
        has_difficult_terrain(game.battlemap, game.options.hurdles),
    )


def table_rows() -> tuple[list[int], list[tuple[int, int]]]:
    """The two rule tables as the core receives them: a limit per Maneuver (enum order)
    and (condition, limit) per SHAKEABLE entry; UnportedRuleError for an unknown function."""
    limits = []
    for m in Maneuver:
        limit = MANEUVER_LIMITS.get(MANEUVERS[m].limit)
        if limit is None:
            raise UnportedRuleError(f"{m.name}: the core knows no limit {MANEUVERS[m].limit!r}")
        limits.append(limit)
    shakes = []
    for cond in SHAKEABLE:
        shake = SHAKE_LIMITS.get(CONDITIONS[cond].shake_limit)
        if shake is None:
            raise UnportedRuleError(f"{cond.name}: the core knows no shake limit")
        shakes.append((int(cond), shake))
    return limits, shakes


def compile_game(core: ModuleType, game: Game) -> Kampf:
    """The core's description of ``game`` (its map's lines, stat blocks, options, tables)."""
    bm = game.battlemap
    lines = bm.edge_cache.get(core.Lines)
    if not isinstance(lines, core.Lines):
        lines = _native_lines(core, bm)
    limits, shakes = table_rows()
    kampf: Kampf = core.Kampf(
        lines,
        bm.width,
        bm.height,
        bytes(bm.terrain),
        list(bm.elevation),
        [_spec_row(spec) for spec in game.roster],
        _options_row(game.options),
        limits,
        shakes,
        _turn_row(game),
        list(game.roster),
        Action,
        list(ActionKind),
        ItemKind.HEAL,
        FIRE_ZEHREND,
    )
    sync_tables(kampf, game.options)
    attack_tables(core, kampf, game)
    return kampf


class Compiled:
    """A game as the core holds it, and the step tables its fighters' searches run on."""

    __slots__ = ("covers", "kampf", "moves", "parts")

    def __init__(self, kampf: Kampf) -> None:
        self.kampf = kampf
        # plan_core.py: the typed parts and covers made of the core's numbers, by them
        self.parts: dict[tuple[int, tuple[tuple[int, int, int], ...]], tuple[Any, ...]] = {}
        self.covers: dict[tuple[int, bool, int, int], Any] = {}
        # per (fighter, eingeschränkt): the step table and the MoveProfile's slow_cost
        self.moves: dict[tuple[int, bool], tuple[Moves, int]] = {}


_KAMPF: dict[int, tuple[weakref.ref[Game], ModuleType, Compiled | None]] = {}
"""Per live Game (by id, its weak reference checked): the core it was compiled for and its
description, None where the core cannot take it (the reference answers)."""


def kampf_of(core: ModuleType, c: Combat) -> Compiled | None:
    """The compiled description of ``c``'s game, built on first use; None where the core
    cannot take it, or the combat's options are not its game's."""
    game = c.game
    if c.options is not game.options:
        return None
    hit = _KAMPF.get(id(game))
    if hit is not None and hit[0]() is game and hit[1] is core:
        return hit[2]
    compiled: Compiled | None
    try:
        compiled = Compiled(compile_game(core, game))
    except ValueError:  # UnportedRuleError, or a stat block beyond the core's capacities
        compiled = None
    if hit is None:
        weakref.finalize(game, _KAMPF.pop, id(game), None)
    _KAMPF[id(game)] = (weakref.ref(game), core, compiled)
    return compiled


def native_handlung_actions(core: ModuleType, c: Combat, f: FighterState) -> list[Action] | None:
    """offers.py handlung_actions in the core; None where the reference must answer (the
    combat's options or a stat block are not its game's, or beyond the core's capacities)."""
    compiled = kampf_of(core, c)
    if compiled is None:
        return None
    return compiled.kampf.handlung_actions(c, f.idx)


def step_table(
    core: ModuleType, compiled: Compiled, c: Combat, f: FighterState, eingeschraenkt: bool
) -> tuple[Moves, int]:
    """``f``'s step table and its MoveProfile's slow_cost (movement.py move_profile, a pure
    function of these: kept per fighter and eingeschränkt)."""
    table = compiled.moves.get((f.idx, eingeschraenkt))
    if table is None:
        bm = c.bm
        profile = profile_for(c.options, f.spec.movement, eingeschraenkt)
        found = bm.edge_cache.get((core.Moves, profile))
        moves = found if isinstance(found, core.Moves) else native_moves(core, bm, profile)
        table = compiled.moves[f.idx, eingeschraenkt] = (moves, profile.slow_cost)
    return table


def native_turn_actions(c: Combat, f: FighterState, turn: TurnFrame) -> list[Action] | None:
    """turn.py turn_actions in the core (H00-H12, B01-B06, M07, M08, Z02): the legal
    choices, the searches kept on ``turn`` (``routes``, ``hard_routes``) as the reference
    keeps them; None under the reference engine or where the core cannot take the combat."""
    core = los._core
    if core is None:
        return None
    compiled = kampf_of(core, c)
    if compiled is None:
        return None
    eingeschraenkt = bool(f.conditions >> Condition.EINGESCHRAENKT & 1)
    table = step_table(core, compiled, c, f, eingeschraenkt)
    geometry = GEOMETRIES[c.options.blockade_geometry]
    answer = compiled.kampf.turn_actions(c, turn, f.idx, table[0], table[1], geometry)
    if answer is None:
        return None
    acts, free, hard = answer
    turn.routes = NO_REACH if free is None else NativeReach(f.pos, free, False)
    turn.hard_routes = NO_REACH if hard is None else NativeReach(f.pos, hard, True)
    return acts
