"""docs/rules.md is generated from the code and stays true (issue #2); the in-repo checklist
is well formed and agrees with the shared one where that exists (issue #15)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cwenv.rules.checklist import CHECKLIST, FIRST_ADDITION, PROJECT_ADDITIONS, SHARED
from cwenv.rules.coverage import REPO_ROOT, render, scan
from cwenv.rules.options import option_table

SHARED_FILE = Path(REPO_ROOT).parent / "shared" / "rules" / "CHECKLIST.md"


def test_every_combat_rule_is_implemented_and_tested() -> None:
    assert scan().missing() == []


def test_every_x_question_that_touches_combat_has_an_option() -> None:
    covered = {row.x for row in option_table()}
    open_questions = {k for k in CHECKLIST if k.startswith("X")} - {"X47"}
    assert open_questions <= covered, sorted(open_questions - covered)


def test_rules_doc_is_up_to_date() -> None:
    committed = (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == render(scan()), "docs/rules.md is stale: run `cwenv rules doc`"


def test_the_in_repo_checklist_numbers_each_section_without_gaps() -> None:
    """Every section runs 01, 02, … with no gap or stray ID (H and I have their own
    starts), and the project's additions continue the X list from X48 on with a summary each."""
    by_section: dict[str, list[int]] = {}
    for rule, summary in CHECKLIST.items():
        assert re.fullmatch(r"[A-Z]\d\d", rule), rule
        assert summary.strip(), rule
        if rule in PROJECT_ADDITIONS:
            continue
        by_section.setdefault(rule[0], []).append(int(rule[1:]))
    for section, numbers in by_section.items():
        start = min(numbers)
        if section == "I":  # two initiative systems: I01.. and I10..
            continue
        assert sorted(numbers) == list(range(start, start + len(numbers))), section
    assert all(int(k[1:]) >= FIRST_ADDITION for k in PROJECT_ADDITIONS)
    assert all(k.startswith("X") for k in PROJECT_ADDITIONS)
    assert not set(PROJECT_ADDITIONS) & set(SHARED)
    assert max(int(k[1:]) for k in SHARED if k.startswith("X")) == FIRST_ADDITION - 1


def test_the_in_repo_checklist_matches_the_shared_one() -> None:
    """Both directions: each shared ID is copied, and each copied ID is the shared file's or
    a project addition (the shared file is never edited)."""
    if not SHARED_FILE.exists():
        pytest.skip(f"{SHARED_FILE} is absent (a clean clone); the in-repo copy is tested above")
    text = SHARED_FILE.read_text(encoding="utf-8")
    shared_ids = set(re.findall(r"\*\*([A-Z]\d\d)\*\*", text))
    assert shared_ids == set(SHARED)
    assert not shared_ids & set(PROJECT_ADDITIONS)
