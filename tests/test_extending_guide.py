"""docs/extending.md works as written (issue #14 item 1).

The guide's patch — its ``<!-- patch: FILE after|before: "LINE" -->`` code blocks, read
from the markdown so guide and test cannot drift — is applied to a copy of the package in
a temporary folder; a fresh interpreter (an enum cannot grow at run time) then plays the
guide's example and shows the new Zustand and Kampfmanöver offered, resolved and
narrated. A member without its table entry, or without its German name, fails at import
with a message naming it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "extending.md"
TABLE_FILES = ("cwenv/engine/tables/conditions.py", "cwenv/engine/tables/maneuvers.py")

_PATCH = re.compile(
    r'<!-- patch: (?P<file>\S+) (?P<where>after|before): "(?P<anchor>(?:[^"\\]|\\.)*)" -->\n'
    r"```python\n(?P<code>.*?)```",
    re.S,
)
_RUN = re.compile(r"<!-- run: example -->\n```python\n(?P<code>.*?)```", re.S)
_PRINTS = re.compile(r"It prints.*?```text\n(?P<text>.*?)```", re.S)


class Patch(NamedTuple):
    file: str
    where: str
    anchor: str
    code: str


def guide_patches(section: str = "") -> list[Patch]:
    """The patch blocks of the guide, or of its section whose heading starts ``section``."""
    text = GUIDE.read_text(encoding="utf-8")
    if section:
        text = next(part for part in text.split("\n## ") if part.startswith(section))
    return [
        Patch(m["file"], m["where"], json.loads(f'"{m["anchor"]}"'), m["code"])
        for m in _PATCH.finditer(text)
    ]


def apply(root: Path, patches: list[Patch]) -> None:
    """Insert each block after (or before) the one line of its file containing the anchor."""
    for p in patches:
        path = root / p.file
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        hits = [i for i, line in enumerate(lines) if p.anchor in line]
        assert len(hits) == 1, f"{p.file}: the anchor {p.anchor!r} is on {len(hits)} lines"
        at = hits[0] + (1 if p.where == "after" else 0)
        lines[at:at] = [p.code]
        path.write_text("".join(lines), encoding="utf-8")


def copy_package(tmp: Path) -> Path:
    shutil.copytree(REPO / "cwenv", tmp / "cwenv", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp


def run(root: Path, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter that imports the copied package, not the checkout.

    An editable install's import hook (scikit-build-core's redirecting finder) would send
    ``import cwenv`` to the checkout whatever the working folder, so it is taken out first;
    the copy has no compiled core, so it runs the Python reference engine."""
    here = (
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path\n"
        "                    if type(f).__name__ != 'ScikitBuildRedirectingFinder']\n"
        "import cwenv, pathlib\n"
        f"if not pathlib.Path(cwenv.__file__).is_relative_to({str(root)!r}):\n"
        "    raise SystemExit('imported ' + cwenv.__file__ + ', not the copy')\n"
    )
    return subprocess.run(
        [sys.executable, "-c", here + code],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CWENV_ENGINE": "python", "PYTHONPATH": str(root)},
    )


def test_the_guide_patches_types_and_the_two_tables_only() -> None:
    """A new Zustand and a new Kampfmanöver touch two source files each."""
    patches = guide_patches()
    assert {p.file for p in patches} == {"cwenv/model/types.py", *TABLE_FILES}
    sections = (("1. A new Zustand", TABLE_FILES[0]), ("2. A new Kampf", TABLE_FILES[1]))
    for section, table in sections:
        assert {p.file for p in guide_patches(section)} == {"cwenv/model/types.py", table}
    assert _RUN.search(GUIDE.read_text(encoding="utf-8")), "the guide's example is missing"


def test_the_example_offers_resolves_and_narrates_the_new_entries(tmp_path: Path) -> None:
    root = copy_package(tmp_path)
    apply(root, guide_patches())
    text = GUIDE.read_text(encoding="utf-8")
    example = _RUN.search(text)
    assert example is not None
    done = run(root, example["code"])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "offered: True" in out  # Blenden in the turn's legal actions
    assert "geblendet: True" in out  # the manoeuvre's effect: the new condition
    assert "('geblendet', -2)" in out  # its malus in a Fernkampf Probenwert
    assert "shake offered: True" in out  # its H12 Handlung
    assert "Kira greift Wache an: Kampfmanöver mit Blenden" in out
    assert "Wache ist geblendet" in out
    assert "Wache: geblendet abschütteln: Reflexe 10 = 10" in out
    printed = _PRINTS.search(text)
    assert printed is not None
    for line in printed["text"].splitlines():
        if line and line != "…":
            assert line in out.splitlines(), f"the guide says it prints {line!r}:\n{out}"


@pytest.mark.parametrize(
    ("kept", "message"),
    [
        (
            ("    GEBLENDET = 7", '    Condition.GEBLENDET: "geblendet",'),
            "CONDITIONS (cwenv/engine/tables/conditions.py): no entry for GEBLENDET",
        ),
        (
            ("    BLENDEN = 5", '    Maneuver.BLENDEN: "Blenden",'),
            "MANEUVERS (cwenv/engine/tables/maneuvers.py): no entry for BLENDEN",
        ),
        (
            ("    GEBLENDET = 7",),
            "Condition without a German name in cwenv/model/types.py: GEBLENDET",
        ),
    ],
)
def test_a_member_without_its_entry_fails_at_import_naming_it(
    tmp_path: Path, kept: tuple[str, ...], message: str
) -> None:
    root = copy_package(tmp_path)
    apply(root, [p for p in guide_patches() if p.code.strip() in {k.strip() for k in kept}])
    done = run(root, "import cwenv.engine.turn\n")  # the turn reads both tables
    assert done.returncode != 0
    assert message in done.stderr, done.stderr
