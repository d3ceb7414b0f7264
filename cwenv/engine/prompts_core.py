"""The native prompts' Python side (docs/native.md "The prompts"): per game a
``_core.Prompts`` beside its ``_core.Kampf`` (offers_core.py), with the rule options the
prompts read and tables/checks.py's CHECK_PURPOSES evaluated under the game's options.

Every reading of an option the core tells apart is named to it by what it is
(:data:`SHAKE_TIMINGS`, :data:`MELEE_DEFENCES`, :data:`ACTIONBONUS_MODES`); a reading the
core does not know raises :class:`~cwenv.engine.offers_core.UnportedRuleError` when the game
is compiled, and that game's prompts stay with the reference (cwenv/engine/prompts.py).
"""

from __future__ import annotations

import weakref
from types import ModuleType
from typing import TYPE_CHECKING

from cwenv.battlemap import los

if TYPE_CHECKING:
    from cwenv._core import Prompts
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.rules.options import RuleOptions


def _readings() -> tuple[dict[object, int], dict[object, int], dict[object, int]]:
    from cwenv.rules.readings import ActionBonusMode, MeleeDefence, ShakeTiming

    return (
        {ShakeTiming.ANY_DECISION: 1, ShakeTiming.OWN_TURN: 0},
        {MeleeDefence.AUSWEICHEN_OR_KAMPFKUNST: 1, MeleeDefence.AUSWEICHEN: 0},
        {ActionBonusMode.DECLARED_ONCE_PER_ROUND: 1, ActionBonusMode.NONE: 0},
    )


SHAKE_TIMINGS, MELEE_DEFENCES, ACTIONBONUS_MODES = _readings()
"""X38 mumm_shake_timing, X21 melee_defence and X14 actionbonus as the core reads them
(1: any decision, Ausweichen or Kampfkunst, declared once per round)."""


def _known(table: dict[object, int], reading: object, option: str) -> int:
    from cwenv.engine.offers_core import UnportedRuleError

    known = table.get(reading)
    if known is None:
        raise UnportedRuleError(f"{option}: the core knows no reading {reading!r}")
    return known


def rules_row(o: RuleOptions) -> list[int]:
    """What src/prompts.hpp PromptRules reads, in its order."""
    from cwenv.engine.tables.checks import CHECK_PURPOSES
    from cwenv.model.types import CheckValue, MummSpend

    rules = CHECK_PURPOSES.items()
    return [
        MummSpend.PROBE_VERBESSERN.cost,
        MummSpend.GROSSER_WURF.cost,
        MummSpend.PATZER_ABWENDEN.cost,
        MummSpend.PROBE_WIEDERHOLEN.cost,
        MummSpend.ZUSAETZLICHE_REAKTION.cost,
        o.mumm_improve_per_check,
        int(o.mumm_improve_then_grosser_wurf),
        _known(ACTIONBONUS_MODES, o.actionbonus, "actionbonus"),
        int(o.nsc_actionbonus),
        int(o.futile_spends),
        int(o.mumm_avert_after_reroll),
        o.mumm_rerolls_per_check,
        int(o.mumm_keep_first_on_patzer),
        _known(SHAKE_TIMINGS, o.mumm_shake_timing, "mumm_shake_timing"),
        int(o.mumm_reaction_while_benommen),
        int(o.maneuver_reaction_cost == 0),
        _known(MELEE_DEFENCES, o.melee_defence, "melee_defence"),
        int(CheckValue.AUSWEICHEN),
        int(CheckValue.KAMPFKUNST),
        int(CheckValue.FIREWALL),
        sum(1 << purpose for purpose, rule in rules if rule.patzer(o)),
        sum(1 << purpose for purpose, rule in rules if rule.graded),
    ]


def compile_prompts(core: ModuleType, c: Combat) -> Prompts | None:
    """The core's prompts of ``c``'s game; None where it cannot take the game."""
    from cwenv.engine.actions import Action, ActionKind
    from cwenv.engine.movement import FIRE_ZEHREND
    from cwenv.engine.offers_core import UnportedRuleError, kampf_of
    from cwenv.engine.parts import PartKind

    compiled = kampf_of(core, c)
    if compiled is None:
        return None
    try:
        rules = rules_row(c.options)
    except UnportedRuleError:
        return None
    prompts: Prompts = core.Prompts(
        compiled.kampf,
        rules,
        int(PartKind.CONDITION),
        int(PartKind.ACTIONBONUS),
        Action,
        list(ActionKind),
        FIRE_ZEHREND,
    )
    return prompts


_PROMPTS: dict[int, tuple[weakref.ref[Game], ModuleType, Prompts | None]] = {}
"""Per live Game (by id, its weak reference checked): the core and its Prompts, None where
the core cannot take the game (the reference answers)."""


def prompts_of(c: Combat) -> Prompts | None:
    """The core's prompts of ``c``'s game under the native engine, built on first use;
    None under the reference engine, where the core cannot take the game, or where the
    combat's options are not its game's."""
    core = los._core
    game = c.game
    if core is None or c.options is not game.options:
        return None
    hit = _PROMPTS.get(id(game))
    if hit is not None and hit[0]() is game and hit[1] is core:
        return hit[2]
    prompts = compile_prompts(core, c)
    if hit is None:
        weakref.finalize(game, _PROMPTS.pop, id(game), None)
    _PROMPTS[id(game)] = (weakref.ref(game), core, prompts)
    return prompts
