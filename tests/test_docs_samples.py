"""Every terminal sample in ``docs/`` is what the tool prints today (issue #19, item 15).

A sample is a fenced block whose lines start with ``$ ``: ``$ cat FILE`` shows a file (the
lines below it are written to FILE in a scratch folder), ``$ cwenv …`` a command whose
output follows. The command runs in that folder (with ``configs`` linked to the shipped
library) and must print exactly the lines shown, in order; a line ending in ``…`` is a
prefix, and a line that is only ``…`` stands for any lines the sample leaves out.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))


@dataclass
class Step:
    command: list[str]
    shown: list[str] = field(default_factory=list)


@dataclass
class Sample:
    doc: str
    line: int
    steps: list[Step]

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


def samples() -> list[Sample]:
    found: list[Sample] = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ "):
                start, steps = i + 1, []
                i += 1
                while not lines[i].startswith("```"):
                    if lines[i].startswith("$ "):
                        steps.append(Step(shlex.split(lines[i][2:])))
                    else:
                        steps[-1].shown.append(lines[i])
                    i += 1
                found.append(Sample(doc.name, start + 1, steps))
            i += 1
    return found


def _matches(shown: list[str], printed: list[str]) -> str | None:
    """None if ``printed`` is what ``shown`` says, else the first difference."""
    j = 0
    skipping = False
    for want in shown:
        if want == "…":
            skipping = True
            continue
        while j < len(printed):
            got = printed[j]
            j += 1
            ok = got.startswith(want[:-1].rstrip()) if want.endswith("…") else got == want
            if ok:
                skipping = False
                break
            if not skipping:
                return f"expected {want!r}\n     got {got!r}"
        else:
            return f"expected {want!r}, but the output ended"
    if j < len(printed) and not skipping:
        return f"the sample stops before {printed[j]!r} (end it with a line '…')"
    return None


SAMPLES = samples()


def test_the_docs_have_runnable_samples() -> None:
    assert {s.doc for s in SAMPLES} >= {"play.md", "scenarios.md"}


@pytest.mark.parametrize("sample", SAMPLES, ids=str)
def test_doc_sample_is_what_the_tool_prints(sample: Sample, tmp_path: Path) -> None:
    (tmp_path / "configs").symlink_to(ROOT / "configs")
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"}
    for step in sample.steps:
        if step.command[0] == "cat":
            (tmp_path / step.command[1]).write_text("\n".join(step.shown) + "\n", "utf-8")
            continue
        assert step.command[0] == "cwenv", f"{sample}: only cat and cwenv run in samples"
        out = subprocess.run(
            [sys.executable, "-m", "cwenv.cli.main", *step.command[1:]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        printed = [re.sub(r"\s+$", "", line) for line in (out.stdout + out.stderr).splitlines()]
        problem = _matches(step.shown, printed)
        assert problem is None, f"{sample}: `{shlex.join(step.command)}`: {problem}"
