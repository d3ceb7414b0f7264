"""Action.arg has one meaning per kind of action, read through its accessor (#14 item 7).

``Action.index`` had eight meanings (weapon, hack, item, backpack, cyberware slot, a
Maneuver, a Condition, a defence's CheckValue) and shadowed ``tuple.index``: code that read
it from the wrong kind, or a generic ``getattr(action, "index")``, got a bound method."""

from __future__ import annotations

import pytest

from cwenv.content import load_scenario
from cwenv.engine.actions import ARG_OF, Action, ActionArgError, ActionKind, ArgKind
from cwenv.engine.state import action_text
from cwenv.model.types import CheckValue, Condition, Maneuver

ACCESSORS = {
    ArgKind.WEAPON: "weapon",
    ArgKind.MANEUVER: "maneuver",
    ArgKind.HACK: "hack",
    ArgKind.ITEM: "item",
    ArgKind.BACKPACK: "backpack_slot",
    ArgKind.CYBERWARE: "cyberware",
    ArgKind.CONDITION: "condition",
    ArgKind.SKILL: "skill",
}


def test_every_kind_names_what_its_arg_is_and_only_its_accessor_reads_it() -> None:
    assert set(ARG_OF) == set(ActionKind)
    assert set(ACCESSORS) == set(ArgKind) - {ArgKind.NONE}
    for kind in ActionKind:
        action = Action(kind, 0, arg=1)
        for meaning, name in ACCESSORS.items():
            if ARG_OF[kind] is meaning:
                assert getattr(action, name) == 1
            else:
                with pytest.raises(ActionArgError, match=kind.name):
                    getattr(action, name)


def test_the_enum_accessors_give_the_domain_value() -> None:
    assert Action(ActionKind.MANEUVER, 0, 1, arg=3).maneuver is Maneuver.UMREISSEN
    assert Action(ActionKind.MUMM_SHAKE, 0, arg=int(Condition.BENOMMEN)).condition is (
        Condition.BENOMMEN
    )
    assert Action(ActionKind.DEFEND, 0, 1, arg=int(CheckValue.FIREWALL)).skill is (
        CheckValue.FIREWALL
    )


def test_the_legal_actions_of_a_fight_read_through_their_accessors() -> None:
    """Every action a real fight offers has its arg set exactly when its kind uses one."""
    c = load_scenario("feuergefecht").new_combat(5)
    seen: set[ActionKind] = set()
    while not c.is_terminal() and len(seen) < 8:
        for a in c.legal_actions():
            assert (a.arg >= 0) == (ARG_OF[a.kind] is not ArgKind.NONE), a
            seen.add(a.kind)
        c.apply(c.legal_actions()[0])
    assert "arg=0" in action_text(Action(ActionKind.ATTACK, 0, 1, arg=0))
