"""Building the core's combat (issue #16, src/combat.hpp ``NativeCombat``): what it reads of
a game beyond the legality's description — the round flow's rule options, each fighter's
initiative values and step tables, the victory conditions at the round's end, the exits —
and the rules of :mod:`cwenv.engine.native.strike`, handed to ``_core.CoreCombat`` together with
the combat before its first round, whose state the core imports.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from cwenv.battlemap import los
from cwenv.battlemap.paths_core import GEOMETRIES
from cwenv.engine.native.strike import UnportedStrike, strike_args, zehrend_kinds
from cwenv.engine.offers_core import kampf_of, step_table
from cwenv.engine.prompts_core import prompts_of
from cwenv.engine.victory import VICTORIES, _escapes_by_exit, _survived
from cwenv.model.types import Skill
from cwenv.rules.dice import SeededDice
from cwenv.rules.readings import (
    InitiativeSystem,
    ProneBonusUntil,
    ReactionBasis,
    Surprise,
    TieOrder,
)

if TYPE_CHECKING:
    from cwenv.engine.state import Combat

TIE_ORDERS = {TieOrder.ROSTER: 0, TieOrder.RANDOM: 1, TieOrder.SIDE_CHOOSES: 2}
"""X16's readings as src/combat.hpp numbers them."""
REACTION_BASES = {
    ReactionBasis.ROLLED_INITIATIVE: 0,
    ReactionBasis.GRUNDWERT: 1,
    ReactionBasis.REFLEXE: 2,
}
"""X01's readings as src/combat.hpp numbers them."""


class Unported(NotImplementedError):
    """A fight the core cannot run (the core's ``_core.Unported``, or a game or start it
    does not take); the reference plays it."""


def core_module() -> ModuleType:
    core = los._core
    if core is None:
        raise Unported("the native combat needs the native engine (CWENV_ENGINE=native)")
    return core


def refusal(start: Combat) -> str | None:
    """Why the core cannot run the fight that ``start`` (before its first round) begins;
    None when it can."""
    if start.game.carried:
        return "a later fight of a job (M10 carry)"
    if any(f.zehrend or f.zone_zehrend for f in start.fighters):
        return "a fighter starts with Zehrend"
    if not isinstance(start.dice, SeededDice):
        return "dice other than SeededDice (table, scripted or the legacy stream)"
    return None


def core_combat(core: ModuleType, start: Combat) -> Any:
    """The core's combat of ``start``: its state imported, its dice the same stream.
    Raises :class:`Unported` naming what it cannot take."""
    why = refusal(start)
    if why is not None:
        raise Unported(why)
    game = start.game
    compiled = kampf_of(core, start)
    prompts = prompts_of(start)
    if compiled is None or prompts is None:
        raise Unported("a game the core cannot take")
    try:
        strike = strike_args(game)
    except UnportedStrike as err:
        raise Unported(str(err)) from err
    o = game.options
    setup = [
        (f.grundwert, f.spec.skill(Skill.REFLEXE), f.spec.initiative_bonus_total)
        for f in start.fighters
    ]
    moves = []
    for f in start.fighters:
        free = step_table(core, compiled, start, f, False)
        limited = step_table(core, compiled, start, f, True)
        moves.append((free[0], free[1], limited[0], limited[1]))
    rules = (
        o.initiative is InitiativeSystem.PASSES,
        TIE_ORDERS[o.tie_order],
        REACTION_BASES[o.reactions_basis],
        o.passes_count_initiative_bonus,
        o.niederwerfen_penalty_until is ProneBonusUntil.OWN_NEXT_TURN,
        o.zielen_lost_on_move,
        o.zielen_lost_at_round_end,
        GEOMETRIES[o.blockade_geometry],
        game.round_limit if game.round_limit is not None else -1,
        game.decision_cap,
        any(VICTORIES[v.kind].escapes is _escapes_by_exit for v in game.victory),
        o.surprise is not Surprise.NONE and bool(game.ambushed),
    )
    survive = [
        (int(v.side), v.rounds) for v in game.victory if VICTORIES[v.kind].at_round_end is _survived
    ]
    bm = game.battlemap
    exits = bytes(1 if cell in bm.exits else 0 for cell in range(bm.size))
    dice = start.dice
    if not isinstance(dice, SeededDice):  # refusal() said so; the type checker reads it here
        raise Unported("dice other than SeededDice")
    try:
        combat = core.CoreCombat(
            compiled.kampf,
            prompts,
            start,
            setup,
            moves,
            rules,
            survive,
            exits,
            **strike,
            state=dice.state,
            inc=dice.inc,
        )
    except core.Unported as err:
        raise Unported(str(err)) from err
    combat.mirrored(zehrend_kinds(game), [[*spec.items, *spec.backpack] for spec in game.roster])
    return combat
