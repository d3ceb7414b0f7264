"""docs/rules.md is generated from the code and stays true (issue #2)."""

from __future__ import annotations

from pathlib import Path

from cwenv.rules.checklist import CHECKLIST
from cwenv.rules.coverage import REPO_ROOT, render, scan
from cwenv.rules.options import option_table


def test_every_combat_rule_is_implemented_and_tested() -> None:
    assert scan().missing() == []


def test_every_x_question_that_touches_combat_has_an_option() -> None:
    covered = {row.x for row in option_table()}
    open_questions = {k for k in CHECKLIST if k.startswith("X")} - {"X47"}
    assert open_questions <= covered, sorted(open_questions - covered)


def test_rules_doc_is_up_to_date() -> None:
    committed = (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == render(scan()), "docs/rules.md is stale: run `cwenv rules doc`"


def test_checklist_copy_matches_the_shared_checklist_when_present() -> None:
    shared = Path(REPO_ROOT).parent / "shared" / "rules" / "CHECKLIST.md"
    if not shared.exists():  # CI clones the repository alone
        return
    text = shared.read_text(encoding="utf-8")
    for rule in CHECKLIST:
        assert f"**{rule}**" in text
