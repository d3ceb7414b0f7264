"""No ``assert`` statements in the packages (issue #19, item 5): ``python -O`` strips them,
and a failed one is a bare traceback. Invariants raise :class:`InvariantError` instead."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_assert_statements_in_cwenv_or_agents() -> None:
    found = []
    for package in ("cwenv", "agents"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}"
                for node in ast.walk(tree)
                if isinstance(node, ast.Assert)
            ]
    assert found == []
