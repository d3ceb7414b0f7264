"""The README's test command prints its pass count (issue #19, item 0)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_test_command_prints_the_pass_count() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`python -m pytest([^`]*)`", readme)
    assert found is not None, "README names no pytest command"
    args = found.group(1).split()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest" in ci
    # Run the README's command on one small test file: pyproject's addopts apply as in CI.
    out = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider", "tests/test_probe.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-2000:]
    assert re.search(r"\b\d+ passed\b", out.stdout), out.stdout[-2000:]
