"""Rules as data (issue #14 item 1): one frozen record per member, checked at import.

Adding members needs a fresh interpreter (``tests/test_extending_guide.py``); here the
tables are checked as they stand, and :func:`rule_table` on a small enum of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import IntEnum
from typing import Any, NamedTuple

import pytest

from cwenv.engine.actions import DECISIONS_OF, HANDLUNG_KINDS, Action, ActionKind, DecisionKind
from cwenv.engine.tables import RuleTableError, rule_table
from cwenv.engine.tables.conditions import CONDITIONS, MALUS_ORDER, SHAKEABLE, CheckSort
from cwenv.engine.tables.handlungen import HANDLUNGEN, HandlungRule
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.engine.tables.mumm import MUMM_SPENDS, mumm_price
from cwenv.engine.tactics import TACTICS, tactic_tags
from cwenv.model.types import CheckValue, Condition, Maneuver, MummSpend
from cwenv.rules.checklist import CHECKLIST
from cwenv.rules.coverage import _ids
from cwenv.rules.options import DEFAULT_OPTIONS
from tests.helpers import open_map


class Colour(IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


class Paint(NamedTuple):
    colour: Colour
    name: str


def test_a_member_without_an_entry_is_named() -> None:
    with pytest.raises(RuleTableError, match=r"PAINTS \(here\): no entry for GREEN, BLUE"):
        rule_table(
            Colour, [Paint(Colour.RED, "rot")], key=lambda p: p.colour, where="PAINTS (here)"
        )


def test_a_member_with_two_entries_is_named() -> None:
    paints = [Paint(c, c.name) for c in Colour] + [Paint(Colour.RED, "noch mal rot")]
    with pytest.raises(RuleTableError, match="more than one entry for RED"):
        rule_table(Colour, paints, key=lambda p: p.colour, where="PAINTS")


def test_a_table_is_read_only_and_in_listed_order() -> None:
    paints = [Paint(Colour.BLUE, "blau"), Paint(Colour.RED, "rot"), Paint(Colour.GREEN, "grün")]
    table = rule_table(Colour, paints, key=lambda p: p.colour, where="PAINTS")
    assert list(table) == [Colour.BLUE, Colour.RED, Colour.GREEN]
    with pytest.raises(TypeError):
        table[Colour.RED] = paints[0]  # type: ignore[index]


@pytest.mark.parametrize(
    ("table", "members"),
    [
        (CONDITIONS, set(Condition)),
        (MANEUVERS, set(Maneuver)),
        (MUMM_SPENDS, set(MummSpend)),
        (HANDLUNGEN, set(HANDLUNG_KINDS)),
    ],
    ids=["conditions", "maneuvers", "mumm", "handlungen"],
)
def test_every_member_has_exactly_one_frozen_record(
    table: Mapping[Any, Any], members: set[Any]
) -> None:
    assert set(table) == members
    for record in table.values():
        rule: str = record.rule
        assert _ids(rule) <= set(CHECKLIST) and _ids(rule), record  # cites its checklist ID
        assert dataclasses.is_dataclass(record)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, "rule", "X99")  # noqa: B010 - a frozen field


def test_a_handlung_needs_a_start_or_a_check_with_an_outcome() -> None:
    with pytest.raises(RuleTableError, match="HANDLUNGEN entry ATTACK"):
        HandlungRule(ActionKind.ATTACK, "H01")


def test_the_condition_maluses_come_from_the_table() -> None:
    """Z01, Z03, Z04, Z05, Z07: the record says which checks a condition's −2 hits."""
    sort = CheckSort(CheckValue.HACKING, mental=False, attack=True, reaction=False, defence=False)
    hit = {
        r.condition for r in MALUS_ORDER if r.malus is not None and r.malus(DEFAULT_OPTIONS, sort)
    }
    assert hit == {Condition.ANGESCHLAGEN, Condition.VERWIRRT, Condition.ENTMUTIGT}
    assert [r.condition for r in MALUS_ORDER] == [
        Condition.ANGESCHLAGEN,
        Condition.VERWIRRT,
        Condition.ENTMUTIGT,
        Condition.EINGESCHRAENKT,
        Condition.NIEDERGEWORFEN,
    ]


def test_shake_checks_and_substitutes_come_from_the_table() -> None:
    """H12 and the Z chain: Eingeschränkt's check is X's option, Sterbend has none."""
    assert SHAKEABLE == (
        Condition.ANGESCHLAGEN,
        Condition.EINGESCHRAENKT,
        Condition.ENTMUTIGT,
        Condition.VERWIRRT,
    )
    rule = CONDITIONS[Condition.EINGESCHRAENKT]
    assert rule.shake_check is not None
    assert rule.shake_check(DEFAULT_OPTIONS) == CheckValue(
        DEFAULT_OPTIONS.eingeschraenkt_check.value
    )
    assert CONDITIONS[Condition.STERBEND].substitute is None
    assert not CONDITIONS[Condition.STERBEND].mumm_shake
    assert CONDITIONS[Condition.NIEDERGEWORFEN].substitute is Condition.EINGESCHRAENKT


def test_manoeuvre_modifiers_and_tactic_tags() -> None:
    """K01, K03: −2; every manoeuvre and every spend has its tactic tag and description."""
    assert {m: r.modifier for m, r in MANEUVERS.items() if r.modifier} == {
        Maneuver.ENTWAFFNEN: -2,
        Maneuver.MITZERREN: -2,
    }
    for m, r in MANEUVERS.items():
        assert TACTICS[r.tactic] == f"Kampfmanöver {m.label} ({r.rule})"
        bm = open_map()
        assert tactic_tags(bm, Action(ActionKind.MANEUVER, 0, 1, arg=int(m))) == (m.name,)
    for spend, paid in MUMM_SPENDS.items():
        assert TACTICS[paid.tactic] == spend.label
        if paid.kind is not None:
            assert mumm_price(Action(paid.kind, 0)) == spend.cost
    assert mumm_price(Action(ActionKind.DEFEND, 0, 1, arg=12, mumm=1)) == 1  # M05


def test_every_action_kind_answers_a_decision() -> None:
    assert set(DECISIONS_OF) == set(ActionKind)
    assert all(DECISIONS_OF[k] == {DecisionKind.TURN} for k in HANDLUNG_KINDS)
    assert DecisionKind.ORDER not in DECISIONS_OF[ActionKind.MUMM_SHAKE]
