"""Module seams from the review (issue #14 item 7): the engine helpers' CombatView, modules
under ~400 lines, rule options declared by checklist section."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

import agents
import cwenv
from agents.board import Board
from cwenv.agent import DecisionView
from cwenv.engine.attack_plan import area_targets, defence_values, plan_attack
from cwenv.engine.checks import check_parts, mumm_problem
from cwenv.engine.conditions import react_problem, reaction_choices, reaction_problem
from cwenv.engine.cover import cover_against, living_cover
from cwenv.engine.damage import armour_after_mode
from cwenv.engine.state import Combat
from cwenv.engine.view import CombatView
from cwenv.model.types import Side
from cwenv.rules.coverage import REPO_ROOT
from cwenv.rules.dice import SeededDice
from cwenv.rules.options import SECTIONS, RuleOptions, option_table
from tests.helpers import fighter, make_game

MAX_LINES = 400
"""The project's bound on a module (docs: keep modules under ~400 lines)."""

PACKAGES = (Path(cwenv.__file__).parent, Path(agents.__file__).parent)

HELPERS = (
    check_parts,
    mumm_problem,
    react_problem,
    reaction_problem,
    reaction_choices,
    cover_against,
    living_cover,
    armour_after_mode,
    defence_values,
    area_targets,
    plan_attack,
)
"""The pure rule helpers agents call with a Board."""


def test_no_module_is_longer_than_400_lines() -> None:
    long = {
        str(path.relative_to(REPO_ROOT)): n
        for root in PACKAGES
        for path in sorted(root.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these along a real seam: {long}"


@pytest.mark.parametrize("helper", HELPERS, ids=lambda h: h.__name__)
def test_the_pure_helpers_take_a_combat_view(helper: typing.Callable[..., object]) -> None:
    # the engine's modules postpone annotations, so the annotation is the name mypy checks
    assert inspect.signature(helper).parameters["c"].annotation == CombatView.__name__


def test_the_combat_view_is_what_a_board_and_a_combat_both_carry() -> None:
    members = {
        name
        for name, value in inspect.getmembers(CombatView)
        if isinstance(value, property) and not name.startswith("_")
    }
    assert members == {"options", "bm", "opaque", "occupant", "fighters"}
    game = make_game(
        [(fighter("Runner"), (1, 1)), (fighter("Wache", Side.GEGNER), (6, 2))],
        rows=["........", "...+....", "........"],
    )
    combat = Combat(game, SeededDice(1))
    board = Board(DecisionView(combat))
    # the helpers read the same values from both (a board copies the combat's at the decision)
    assert board.options is combat.options and board.bm is combat.bm
    assert board.opaque == combat.opaque and board.occupant == combat.occupant
    assert list(board.fighters) == list(combat.fighters)
    runner, wache = combat.fighters
    for view in (board, combat):
        assert cover_against(view, runner, wache, ranged=True) == cover_against(
            combat, runner, wache, ranged=True
        )


def test_no_agent_casts_itself_to_a_combat() -> None:
    casts = []
    for path in sorted(Path(agents.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "cast":
                casts.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not [c for c in casts if "Combat" in c], casts


def test_board_has_no_combat_alias() -> None:
    assert not hasattr(Board, "combat")


def test_every_rule_option_is_declared_in_exactly_one_section() -> None:
    declared = [name for section in SECTIONS for name in section.__annotations__]
    declared = [n for n in declared if n not in ("SECTION", "TITLE", "__slots__")]
    assert sorted(declared) == sorted(f.name for f in dataclasses.fields(RuleOptions))
    assert len(declared) == len(set(declared))
    assert [row.name for row in option_table()] == declared  # fields run in section order
    assert [s.SECTION for s in SECTIONS] == list("PMIHBRAKCDZ")  # the checklist's order


def test_rule_options_stay_one_frozen_slotted_dataclass() -> None:
    options = RuleOptions()
    assert not hasattr(options, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.nsc_mumm = False  # type: ignore[misc]
    assert dataclasses.replace(options, nsc_mumm=False).nsc_mumm is False


def test_the_rules_doc_lists_each_option_under_its_section() -> None:
    text = (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for section in SECTIONS:
        heading = f"### {section.SECTION} — {section.TITLE}"
        assert heading in text, heading
        block = text.split(heading, 1)[1].split("\n### ", 1)[0]
        for row in option_table():
            if row.section == section.SECTION:
                assert f"`{row.name}`" in block, (section.SECTION, row.name)
