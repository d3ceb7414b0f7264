"""Building the core's combat (issue #16, src/combat.hpp ``NativeCombat``): what it reads of
a game beyond the legality's description — the round flow's rule options, each fighter's
initiative values and step tables, the victory conditions at the round's end, the exits —
and the rules of :mod:`cwenv.engine.native.strike`, handed to ``_core.CoreCombat`` together with
the combat before its first round, whose state the core imports.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cwenv.battlemap import los
from cwenv.battlemap.paths_core import GEOMETRIES
from cwenv.engine.native.events import EventMaker
from cwenv.engine.native.strike import UnportedStrike, strike_args, zehrend_kinds
from cwenv.engine.offers_core import Compiled, kampf_of, step_table
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
    from cwenv.engine.game import Game
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


@dataclass(frozen=True)
class Prepared:
    """What the core's combat reads of a game beside the start's state: the same for every
    seed, so made once per game (every seed's start is the roster at its positions, since
    :func:`refusal` turns away carried fights)."""

    strike: dict[str, Any] | str  # StrikeRules' arguments, or why the core cannot take them
    setup: list[tuple[int, int, int]]
    moves: list[tuple[Any, int, Any, int]]
    rules: tuple[Any, ...]
    survive: list[tuple[int, int]]
    exits: bytes
    kinds: list[str]
    items: list[list[Any]]
    maker: EventMaker


_PREPARED: dict[int, tuple[weakref.ref[Game], Any, Prepared]] = {}
"""Per live Game (by id, its weak reference checked) and core, as offers_core's kampf_of."""


def prepared(core: ModuleType, compiled: Compiled, start: Combat) -> Prepared:
    """``start``'s game as :func:`core_combat` hands it over, built on first use."""
    game = start.game
    hit = _PREPARED.get(id(game))
    if hit is not None and hit[0]() is game and hit[1] is core:
        return hit[2]
    try:
        strike: dict[str, Any] | str = strike_args(game)
    except UnportedStrike as err:
        strike = str(err)
    o = game.options
    moves = []
    for f in start.fighters:
        free = step_table(core, compiled, start, f, False)
        limited = step_table(core, compiled, start, f, True)
        moves.append((free[0], free[1], limited[0], limited[1]))
    bm = game.battlemap
    made = Prepared(
        strike=strike,
        setup=[
            (f.grundwert, f.spec.skill(Skill.REFLEXE), f.spec.initiative_bonus_total)
            for f in start.fighters
        ],
        moves=moves,
        rules=(
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
        ),
        survive=[
            (int(v.side), v.rounds)
            for v in game.victory
            if VICTORIES[v.kind].at_round_end is _survived
        ],
        exits=bytes(1 if cell in bm.exits else 0 for cell in range(bm.size)),
        kinds=zehrend_kinds(game),
        items=[[*spec.items, *spec.backpack] for spec in game.roster],
        maker=EventMaker(game),
    )
    if hit is None:
        weakref.finalize(game, _PREPARED.pop, id(game), None)
    _PREPARED[id(game)] = (weakref.ref(game), core, made)
    return made


def core_combat(core: ModuleType, start: Combat) -> tuple[Any, EventMaker]:
    """The core's combat of ``start`` (before its first round): its state imported, its
    dice the same stream; with the maker of its events. Raises :class:`Unported` naming
    what it cannot take."""
    why = refusal(start)
    if why is not None:
        raise Unported(why)
    compiled = kampf_of(core, start)
    prompts = prompts_of(start)
    if compiled is None or prompts is None:
        raise Unported("a game the core cannot take")
    prep = prepared(core, compiled, start)
    if isinstance(prep.strike, str):
        raise Unported(prep.strike)
    dice = start.dice
    if not isinstance(dice, SeededDice):  # refusal() said so; the type checker reads it here
        raise Unported("dice other than SeededDice")
    try:
        combat = core.CoreCombat(
            compiled.kampf,
            prompts,
            start,
            prep.setup,
            prep.moves,
            prep.rules,
            prep.survive,
            prep.exits,
            **prep.strike,
            state=dice.state,
            inc=dice.inc,
        )
    except core.Unported as err:
        raise Unported(str(err)) from err
    combat.mirrored(prep.kinds, prep.items)
    return combat, prep.maker
