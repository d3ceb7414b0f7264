"""The native state kept across decisions (issue #16, docs/native.md "The state kept in
C++"): the tables with which a ``_core.Kampf`` brings its Kampfrunde state up to date from
the frozen events every ``apply`` appends (:mod:`cwenv.engine.events`, src/sync.cpp),
instead of importing the whole combat before every native call.

:data:`SYNC_EVENTS` names every event class in the order of src/sync.hpp ``EventKind``;
an event of a class not listed there makes the core import the whole combat again (and
count it), never keep a stale state. A condition's ``on_gain``
(:data:`~cwenv.engine.tables.conditions.CONDITIONS`) is named to the core by what it does
to the state the core holds (:data:`ON_GAIN`); one it does not know makes the core re-read
the fighter who gained the condition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cwenv.engine import events as ev
from cwenv.engine.tables.conditions import CONDITIONS, _benommen_gained, _let_go
from cwenv.model.types import Condition, MummSpend
from cwenv.rules.readings import ProneBonusUntil

if TYPE_CHECKING:
    from cwenv._core import Kampf
    from cwenv.rules.options import RuleOptions

SYNC_EVENTS: tuple[type[ev.Event], ...] = (
    ev.RoundStarted,
    ev.InitiativeRolled,
    ev.TurnStarted,
    ev.TurnEnded,
    ev.Moved,
    ev.CheckRolled,
    ev.MummSpent,
    ev.ResultKept,
    ev.ReactionUsed,
    ev.AttackDeclared,
    ev.AttackFailed,
    ev.AttackRedirected,
    ev.DefenceDeclined,
    ev.AttackDefended,
    ev.Hit,
    ev.TableRolled,
    ev.DamageRolled,
    ev.DamageHalved,
    ev.LPChanged,
    ev.ConditionGained,
    ev.ConditionLost,
    ev.StatusChanged,
    ev.Acted,
    ev.ForcedMove,
    ev.ClimbedPart,
    ev.Fell,
    ev.RoundEnded,
    ev.CombatEnded,
)
"""Every event class, in src/sync.hpp ``EventKind`` order."""

LETS_GO = "lets_go"
ON_GAIN: dict[object, str] = {
    _let_go: LETS_GO,  # B03, X40: a climber loses its hold
    _benommen_gained: LETS_GO,  # B03, X40; X24's reactions are not in the core's state
}
"""The on_gain functions of CONDITIONS by what they change of the core's state."""


def _gain_bits() -> tuple[int, int]:
    """(conditions whose gain lets a climber go, conditions whose gain the core re-reads)."""
    lets_go = reread = 0
    for cond, rule in CONDITIONS.items():
        if rule.on_gain is None:
            continue
        if ON_GAIN.get(rule.on_gain) == LETS_GO:
            lets_go |= 1 << cond
        else:
            reread |= 1 << cond
    return lets_go, reread


_KEEP = [True]
"""Whether newly compiled games keep the state (:func:`keep_state`)."""


def keep_state(on: bool) -> None:
    """Keep the state from the events (the default), or import the whole combat at every
    native call (``on=False``: the benchmarks' twin, benchmarks/sync.py)."""
    from cwenv.engine.offers_core import _KAMPF

    _KEEP[0] = on
    for _, _, compiled in _KAMPF.values():
        if compiled is not None:
            compiled.kampf.sync_on = on


def sync_tables(kampf: Kampf, options: RuleOptions) -> None:
    """Hand ``kampf`` the event table's data: from then on it keeps one combat's state."""
    kampf.sync_on = _KEEP[0]
    lets_go, reread = _gain_bits()
    kampf.sync_tables(
        list(SYNC_EVENTS),
        {cond.label: int(cond) for cond in Condition},
        (
            options.zielen_lost_on_move,
            options.zielen_lost_on_hit,
            options.zielen_lost_at_round_end,
            lets_go,
            reread,
            options.kampfunfaehig_prone,
            options.niederwerfen_penalty_until is ProneBonusUntil.OWN_NEXT_TURN,
        ),
        MummSpend.ZUSAETZLICHE_AKTION,
        [act.name for act in ev.Act],
        [status.name for status in ev.Status],
    )
