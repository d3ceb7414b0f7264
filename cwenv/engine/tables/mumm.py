"""The Mumm spends (M01–M09), one record each: its rule, the choice that buys it and when.

The cost and German name come with the enum member (``cwenv.model.types.MummSpend``);
what a spend does is the procedure at the moment it is offered (``checks.CheckFrame`` for
M01–M03 and M09, ``damage`` for M04 and M06, ``conditions`` for M05 and M08, ``turn`` for
M07). Its price (:func:`mumm_price`) and tactic tag (restricted play) are read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.tables import rule_table
from cwenv.model.types import MummSpend


@dataclass(frozen=True, slots=True)
class MummSpendRule:
    """One Mumm spend. ``kind``: the choice that buys it, None for M05, which is paid
    with ``mumm=1`` on a reaction's choice; ``offered``: the decisions that offer it."""

    spend: MummSpend
    rule: str
    kind: ActionKind | None
    offered: tuple[DecisionKind, ...]
    when: str

    @property
    def cost(self) -> int:
        return self.spend.cost

    @property
    def label(self) -> str:
        return self.spend.label

    @property
    def tactic(self) -> str:
        """Its tactic tag for restricted play: the rule ID."""
        return self.rule


_D = DecisionKind
_REACTIONS = (_D.DEFEND, _D.NIEDERWERFEN, _D.BLOCKADE, _D.STURZ)
_PROMPTS = tuple(d for d in DecisionKind if d is not _D.ORDER)

MUMM_SPENDS: Mapping[MummSpend, MummSpendRule] = rule_table(
    MummSpend,
    (
        MummSpendRule(
            MummSpend.PATZER_ABWENDEN,
            "M01",
            ActionKind.POST_AVERT,
            (_D.POST_CHECK,),
            "after a check that is a Patzer",
        ),
        MummSpendRule(
            MummSpend.PROBE_VERBESSERN,
            "M02",
            ActionKind.PRE_IMPROVE,
            (_D.PRE_CHECK,),
            "before a check",
        ),
        MummSpendRule(
            MummSpend.PROBE_WIEDERHOLEN,
            "M03",
            ActionKind.POST_REROLL,
            (_D.POST_CHECK,),
            "after a check that is no Patzer",
        ),
        MummSpendRule(
            MummSpend.TOD_ABWENDEN, "M04", ActionKind.AVERT_DEATH, (_D.DEATH,), "when dying"
        ),
        MummSpendRule(
            MummSpend.ZUSAETZLICHE_REAKTION,
            "M05",
            None,
            _REACTIONS,
            "for a reaction when none is left this round",
        ),
        MummSpendRule(
            MummSpend.TREFFER_WEGSTECKEN,
            "M06",
            ActionKind.HALVE_DAMAGE,
            (_D.DAMAGE,),
            "when taking damage",
        ),
        MummSpendRule(
            MummSpend.ZUSAETZLICHE_AKTION,
            "M07",
            ActionKind.MUMM_EXTRA_ACTION,
            (_D.TURN,),
            "in the own turn once the Handlung is used, once per round",
        ),
        MummSpendRule(
            MummSpend.ZUSTAND_ABSCHUETTELN,
            "M08",
            ActionKind.MUMM_SHAKE,
            _PROMPTS,
            "in the own turn, or at any own decision under X38 'sofort'",
        ),
        MummSpendRule(
            MummSpend.GROSSER_WURF,
            "M09",
            ActionKind.PRE_GROSSER_WURF,
            (_D.PRE_CHECK,),
            "before a check",
        ),
        # one entry per member; a new member's goes above (docs/extending.md)
    ),
    key=lambda rule: rule.spend,
    where="MUMM_SPENDS (cwenv/engine/tables/mumm.py)",
)
"""Every Mumm spend's rule (M01–M09)."""

SPEND_OF_KIND: Mapping[ActionKind, MummSpend] = {
    r.kind: r.spend for r in MUMM_SPENDS.values() if r.kind is not None
}
"""The spend each buying choice pays for."""

EXTRA_REACTION = MUMM_SPENDS[MummSpend.ZUSAETZLICHE_REAKTION]
"""M05: paid with ``mumm=1`` on a reaction's choice."""


def mumm_price(action: Action) -> int:
    """The Mumm an action costs (M01–M09): its spend, or M05 for a reaction paid with Mumm."""
    spend = SPEND_OF_KIND.get(action.kind)
    if spend is not None:
        return spend.cost
    return EXTRA_REACTION.cost if action.mumm else 0
