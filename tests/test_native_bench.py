"""``python -m benchmarks.native --quick`` measures both engines and checks they agree (no
timing assertions: only that every figure is there for both engines)."""

from __future__ import annotations

import pytest

from benchmarks.native import main
from cwenv.battlemap import los


def test_quick_native_benchmark_reports_both_engines(capsys: pytest.CaptureFixture[str]) -> None:
    chosen = los.engine()
    assert main(["--quick"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split() == ["figure", "native", "python", "native/python"]
    assert [row.split()[0] for row in rows[1:]] == [
        "los",
        "los_array",
        "los_cold",
        "paths",
        "legality",
        "turn",
        "prompts",
        "combat",
        "doctrine",
    ]
    assert all(row.split()[3].endswith("×") for row in rows[1:])
    assert los.engine() == chosen  # the benchmark hands back the engine it found


def test_clone_benchmark_reports_every_mode_and_restores_the_copy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m benchmarks.clone`` measures copied, imported and reference clones in one
    run and leaves clones copying their kept state (the default) afterwards."""
    pytest.importorskip("cwenv._core", reason="the native core is not built")
    from benchmarks.clone import main as clone_main
    from cwenv.engine import clone_core

    chosen = los.engine()
    assert clone_main(["--seconds", "0.05", "--repeats", "1", "--no-mcts"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[0] for row in rows] == ["clone", "clone+sync", "clone+apply"]
    assert all(" copied " in row and " import " in row and row.endswith("×") for row in rows)
    assert clone_core._COPY == [True] and los.engine() == chosen
