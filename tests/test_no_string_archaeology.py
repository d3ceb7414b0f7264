"""German lives only in presentation (issue #14 item 2): no code outside the narration,
the menus and the input formats compares German text.

Agents once rebuilt what a prompt was about by matching German strings in the event log
(``e.kind == "Hack"``, ``e.what == "Verteidigung"``), the results store matched
``"wieder bei Bewusstsein"`` and the engine its own part labels (``label == "Fokus"``).
The situation is the decision's payload now and the fields code reads are enums and ids;
this test reads the source so that such comparisons cannot come back.
"""

from __future__ import annotations

import ast
from enum import Enum
from pathlib import Path

import pytest

import cwenv
from cwenv.engine import actions, events, parts, payloads
from cwenv.model import types

ROOT = Path(cwenv.__file__).resolve().parent.parent

PRESENTATION = {
    "cwenv/engine/narration.py",  # the German narration
    "cwenv/play/menu.py",  # the terminal game's menus
    "cwenv/play/tui.py",
}
"""Modules whose job is German text."""
INPUT_FORMATS = ("cwenv/content/",)
"""The YAML loaders read the content files' own (German) keywords: that is the file format."""

TEXT_FIELDS = {
    "what",
    "status",
    "means",
    "purpose",
    "cause",
    "reason",
    "condition",
    "how",
    "detail",
    "row",
    "table",
    "spend",
    "factor",
    "instead_of",
    "label",
}
"""Event fields and names that hold (or once held) German text."""


def _vocabulary() -> frozenset[str]:
    """Every German name the code base gives its terms: the labels of every enum member of
    the rules, decisions, events and parts, as written (``Runner`` is a label, the config
    word ``runner`` and the member name ``RUNNER`` are not)."""
    words: set[str] = set()
    for module in (types, actions, events, parts, payloads):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Enum):
                for member in value:
                    label = getattr(member, "label", None)
                    if isinstance(label, str):
                        words.add(label)
    for source in parts.VALUE_SOURCES.values():
        words.add(source.label)
    words |= {p.label for p in vars(parts).values() if isinstance(p, parts.Source)}
    return frozenset(words)


VOCABULARY = _vocabulary()


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [s for elt in node.elts for s in _strings(elt)]
    return []


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _german(text: str) -> bool:
    return (not text.isascii()) or text in VOCABULARY or text.split(" (")[0] in VOCABULARY


def findings(source: str, where: str) -> list[str]:
    """Every comparison in ``source`` against German text (see the module docstring)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            consts = [s for side in sides for s in _strings(side)]
            names = {_name(side) for side in sides}
            if (
                any(_german(s) for s in consts)
                or (consts and names & TEXT_FIELDS)
                or "means" in names  # a display name: the event's ``index`` is the id
            ):
                out.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("startswith", "endswith")
            and (
                _name(node.func.value) in TEXT_FIELDS - {"label"}
                or any(_german(s) for arg in node.args for s in _strings(arg))
            )
        ):
            out.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return out


def _checked_files() -> list[Path]:
    files = []
    for package in ("cwenv", "agents"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in PRESENTATION or rel.startswith(INPUT_FORMATS):
                continue
            files.append(path)
    return files


def test_no_code_compares_german_text() -> None:
    found = [
        hit
        for path in _checked_files()
        for hit in findings(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    ]
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        'if e.kind == "Hack": pass',
        'if e.what == "Verteidigung": pass',
        "if w.name == e.means: pass",
        'ok = any(label == "Zielen" for label, _ in parts)',
        "ok = event.status.startswith(_KNOCKOUT)",
        'ok = event.status == "wieder bei Bewusstsein"',
        'ok = e.table == "Volltreffer"',
        'ok = text in ("kampfunfähig", "tot")',
    ],
)
def test_the_archaeology_that_was_deleted_would_be_found(line: str) -> None:
    """The comparisons agents/context.py, cw_record.py, replay.py and checks.py made."""
    assert findings(line, "x.py")


@pytest.mark.parametrize(
    "line",
    [
        'if kind == "relu": pass',
        'if action.dtype.kind in "iu": pass',
        'if r.winner == "RUNNER": pass',
        'if cfg.side == "gegner": pass',
        'ok = label.startswith("fighter:")',
        "if e.status is Status.AWAKE: pass",
    ],
)
def test_ordinary_comparisons_pass(line: str) -> None:
    assert not findings(line, "x.py")


def test_agents_read_no_event_log() -> None:
    """No agent learns what a prompt is about from the log: agents/ never names an event
    type (the prompt's payload says it)."""
    hits = []
    for path in sorted((ROOT / "agents").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in ("CheckRolled", "AttackDeclared", "ReactionUsed", "DamageRolled"):
            if name in text:
                hits.append(f"{path.relative_to(ROOT)}: {name}")
    assert hits == []
