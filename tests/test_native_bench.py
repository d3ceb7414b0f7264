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
