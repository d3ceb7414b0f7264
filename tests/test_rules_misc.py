"""Skills (P09), Mumm regeneration (M10, X37), attacking and hacking as Handlungen (H01, H10)."""

from __future__ import annotations

import pytest

from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.parts import labelled
from cwenv.model.specs import UNARMED, HackSpec
from cwenv.model.types import ArmourMode, CheckValue, Side, Skill
from cwenv.rules.options import DEFAULT_OPTIONS, MummRegen, RuleOptions, regenerate_session_mumm
from tests.helpers import KNIFE, PISTOL, events_of, fighter, find, init_dice, make_game, scripted


def test_p09_twelve_skills_and_their_attack_roles() -> None:
    """P09: the twelve Fertigkeiten; Fernkampf for ranged, Kampfkunst for melee and unarmed,
    Hacking for hacks; Ausweichen falls under Reflexe (X21)."""
    assert [s.label for s in Skill] == [
        "Coolness",
        "Connections",
        "Datamining",
        "Fernkampf",
        "Hacking",
        "Kampfkunst",
        "Infiltration",
        "Operations",
        "Reflexe",
        "Technik",
        "Unbeugsamkeit",
        "Wahrnehmung",
    ]
    assert PISTOL.skill is Skill.FERNKAMPF and KNIFE.skill is Skill.KAMPFKUNST
    assert UNARMED.skill is Skill.KAMPFKUNST
    spec = fighter("Kira", reflexe=13)
    assert spec.value(CheckValue.AUSWEICHEN) == 13
    assert Skill.from_label("unbeugsamkeit") is Skill.UNBEUGSAMKEIT
    with pytest.raises(ValueError, match="allowed: Coolness"):
        Skill.from_label("Magie")


@pytest.mark.parametrize(
    ("mode", "current", "maximum", "after"),
    [
        (MummRegen.ADD_HALF_MAX, 1, 5, 3),  # M10, X37: + floor(5 / 2)
        (MummRegen.ADD_HALF_MAX, 4, 5, 5),  # capped at the maximum
        (MummRegen.RESTORE_TO_HALF, 1, 5, 2),
        (MummRegen.RESTORE_TO_HALF, 4, 5, 4),
    ],
)
def test_m10_x37_half_mumm_at_a_new_session(
    mode: MummRegen, current: int, maximum: int, after: int
) -> None:
    options = RuleOptions(mumm_session_regen=mode)
    assert regenerate_session_mumm(current, maximum, options) == after
    assert regenerate_session_mumm(0, 4, DEFAULT_OPTIONS) == 2


def test_h01_an_attack_is_the_handlung() -> None:
    """H01/H00: attacking uses the one Handlung; movement remains, a second attack not."""
    game = make_game(
        [
            (fighter("Kira", reflexe=12, kampfkunst=14, weapons=(KNIFE,)), (1, 1)),
            (fighter("Wache", Side.GEGNER, lp=50), (2, 1)),
        ]
    )
    c = scripted(game, init_dice(game) + [8, 9] + [5] * 40)  # a miss
    c.apply(find(c, ActionKind.ATTACK, target=1, arg=0))
    kinds = {a.kind for a in c.legal_actions()}
    assert ActionKind.ATTACK not in kinds and ActionKind.MOVE in kinds


def test_h10_a_hack_is_defended_with_the_firewall_and_deals_direct_damage() -> None:
    """H10, A03, R03, D02: Hacking against Firewall; hacks ignore armour."""
    zap = HackSpec("Synapsenbrand", range_m=20)
    assert zap.armour_mode is ArmourMode.DIREKT
    game = make_game(
        [
            (fighter("Nix", reflexe=12, hacking=14, hacks=(zap,)), (1, 1)),
            (fighter("Wache", Side.GEGNER, firewall=9, ruestung=4, lp=40), (6, 1)),
        ]
    )
    c = scripted(game, init_dice(game) + [3, 4, 6, 6, 7, 5] + [5] * 40)
    c.apply(find(c, ActionKind.HACK, target=1, arg=0))
    c.apply(find(c, ActionKind.STAY_UP))
    assert c.decision is not None and c.decision.kind is DecisionKind.DEFEND
    defend = find(c, ActionKind.DEFEND)
    assert defend.arg == int(CheckValue.FIREWALL)
    c.apply(defend)
    firewall = events_of(c, ev.CheckRolled)[-1]
    assert labelled(firewall.parts)[0] == ("Firewall", 9) and not firewall.success  # 12 > 9
    damage = events_of(c, ev.DamageRolled)[-1]
    assert damage.armour == 0 and damage.total == 7 + 5
