"""The import graph of ``cwenv`` (issue #14 item 3): no ``agents`` below the CLI, and every
layer imports only the layers below it, as listed in ``cwenv/__init__.py``.

Every import counts: module level, inside functions, under ``TYPE_CHECKING``, relative, and
``importlib.import_module("…")`` / ``__import__("…")`` with a literal name.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import cwenv

PACKAGE = Path(cwenv.__file__).resolve().parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("cwenv", "cwenv.yamlio", "cwenv.suggest", "cwenv.invariants", "cwenv.extras", "cwenv.hashing"),
    ("cwenv.ruleset",),
    ("cwenv.model",),
    ("cwenv.rules",),
    ("cwenv.battlemap",),
    ("cwenv.engine",),
    ("cwenv.agent",),
    ("cwenv.agent_registry",),
    ("cwenv.content",),
    ("cwenv.rulesets",),
    ("cwenv.envs", "cwenv.runner", "cwenv.play"),
    ("cwenv.stress", "cwenv.service", "cwenv.native"),
    ("cwenv.cli",),
)
"""Lowest first; the units on one line are peers that must not import each other."""

RANK = {unit: rank for rank, line in enumerate(LAYERS) for unit in line}
TOP = "cwenv.cli"
"""The one layer that may import ``agents`` (concrete agents and training)."""


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # what it imports (a module, or module.name for ``from m import name``)
    where: str  # file:line

    def __str__(self) -> str:
        return f"{self.where}: {self.module} imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, where: str, is_package: bool = False) -> list[Import]:
    """Every import in ``source`` (module ``module``), wherever it stands."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []

    def add(target: str, node: ast.AST) -> None:
        found.append(Import(module, target, f"{where}:{getattr(node, 'lineno', 0)}"))

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the importing module's package upwards
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            add(base, node)
            for alias in node.names:
                add(f"{base}.{alias.name}", node)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if (
                name in ("import_module", "__import__")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                add(first.value, node)
    return found


def all_imports() -> list[Import]:
    out: list[Import] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path, PACKAGE)
        where = str(path.relative_to(PACKAGE.parent))
        text = path.read_text(encoding="utf-8")
        out += imports_of(text, module, where, is_package=path.name == "__init__.py")
    return out


def unit_of(name: str) -> str | None:
    """The layer unit a ``cwenv`` module (or ``module.name``) belongs to: the longest unit
    that is a dotted prefix of it; None outside ``cwenv``."""
    units = [unit for unit in RANK if name == unit or name.startswith(unit + ".")]
    return max(units, key=len, default=None)


def agents_imports(imports: list[Import]) -> list[Import]:
    """Imports of the top-level ``agents`` package from outside the CLI."""
    return [i for i in imports if i.target.split(".")[0] == "agents" and unit_of(i.module) != TOP]


def layer_violations(imports: list[Import]) -> list[Import]:
    """Imports of a layer above the importer's own, or of a peer on the same line."""
    bad = []
    for i in imports:
        here, there = unit_of(i.module), unit_of(i.target)
        if here is None or there is None or here == there:
            continue
        if RANK[there] >= RANK[here]:
            bad.append(i)
    return bad


# -- the checker finds what it must ------------------------------------------------------


def test_the_walker_sees_every_kind_of_import() -> None:
    source = (
        "import agents.greedy\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from agents.base import Agent\n"
        "def f():\n"
        "    from agents.training.train import train\n"
        "    import importlib\n"
        "    importlib.import_module('agents.registry')\n"
        "    __import__('agents.mcts')\n"
        "from .. import content\n"
    )
    found = imports_of(source, "cwenv.runner.task", "x.py")
    targets = {i.target for i in found}
    assert {
        "agents.greedy",
        "agents.base.Agent",
        "agents.training.train.train",
        "agents.registry",
        "agents.mcts",
        "cwenv.content",
    } <= targets
    assert len(agents_imports(found)) >= 5
    assert [str(i) for i in layer_violations(found)] == []  # runner may import content
    upward = imports_of("from cwenv.runner.task import play_combat\n", "cwenv.engine.x", "y.py")
    assert [i.target for i in layer_violations(upward)] == [
        "cwenv.runner.task",
        "cwenv.runner.task.play_combat",
    ]
    peer = imports_of("from cwenv.play.menu import label\n", "cwenv.runner.report", "z.py")
    assert layer_violations(peer)  # peers on one line do not import each other
    inside_cli = imports_of("import agents.registry\n", "cwenv.cli.agents", "c.py")
    assert agents_imports(inside_cli) == []


def test_real_imports_are_found() -> None:
    imports = all_imports()
    # a function-level import and a module-level one of the same file
    assert any(
        i.module == "cwenv.rulesets.cw_record" and i.target == "cwenv.engine.events"
        for i in imports
    )
    assert any(
        i.module == "cwenv.cli.stress_tactics" and i.target.startswith("agents.") for i in imports
    )


# -- the rules -------------------------------------------------------------------------


def test_nothing_below_the_cli_imports_agents() -> None:
    assert [str(i) for i in agents_imports(all_imports())] == []


def test_no_text_below_the_cli_says_from_agents_or_import_agents() -> None:
    """The issue's check: ``grep -rn "from agents\\|import agents" cwenv --exclude-dir=cli``."""
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "cli" in path.relative_to(PACKAGE).parts[:1]:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"from agents|import agents", line):
                hits.append(f"{path.relative_to(PACKAGE.parent)}:{n}: {line.strip()}")
    assert hits == []


def test_every_layer_imports_only_the_layers_below() -> None:
    assert [str(i) for i in layer_violations(all_imports())] == []


def test_every_module_belongs_to_a_layer() -> None:
    """A new subpackage or top-level module must be placed in :data:`LAYERS`."""
    unplaced = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path, PACKAGE)
        if unit_of(module) == "cwenv" and module != "cwenv":
            unplaced.append(module)
    assert unplaced == []


def test_the_documented_order_is_the_checked_one() -> None:
    """The list in ``cwenv/__init__.py`` names the same layers in the same order."""
    doc = cwenv.__doc__ or ""
    lines = []
    for line in doc.splitlines():
        match = re.match(r"^    ([a-z_][a-z_ ]*?)(?:\s{2,}|$)", line)
        if match:
            lines.append(tuple(match.group(1).split()))
    expected = [
        tuple(u.removeprefix("cwenv.") if u != "cwenv" else u for u in line) for line in LAYERS
    ]
    assert lines == expected
