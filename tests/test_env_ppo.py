"""The MaskablePPO example of ``docs/env.md`` runs as written, with a tiny budget, and
``predict`` is always given the action mask (issue #4)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "env.md"


def _example() -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- example: maskable-ppo -->\n```python\n(.*?)```", text, re.S)
    assert match, "docs/env.md lost its MaskablePPO example"
    return match.group(1)


def test_docs_example_is_short() -> None:
    lines = [line for line in _example().splitlines() if line.strip()]
    assert len(lines) <= 16


def test_maskable_ppo_example_runs_and_always_passes_the_mask(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny nets: OpenMP threads only wait on each other (on a busy
    # 2-core runner a 5953-way logsumexp took 16 ms with 2 threads, 0.05 ms with 1)
    calls: list[bool] = []
    original = sb3_contrib.MaskablePPO.predict

    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        masks = kwargs.get("action_masks")
        calls.append(masks is not None)
        assert masks is not None, "MaskablePPO.predict called without action_masks"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sb3_contrib.MaskablePPO, "predict", checked)
    try:
        exec(compile(_example(), str(DOC), "exec"), {"__name__": "docs_example"})
    finally:
        torch.set_num_threads(threads)
    assert calls and all(calls)
    assert capsys.readouterr().out.strip() in ("Runner", "Gegner", "draw", "truncated")
