"""Shared pieces of the benchmarks: settings, the measured figure and the timing loop.

Time is the CPU time of this process (``time.process_time``), not the wall clock: the
benchmark machine is shared, and CPU seconds are what a busy neighbour disturbs least.
The Gymnasium references are measured with the same clock in the same run, so the ratios
to them are the figures to compare across runs.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

clock = time.process_time
"""The benchmark clock: CPU seconds of this process (all its threads)."""


@dataclass(frozen=True)
class Settings:
    """How long and how often to measure; ``quick`` shrinks every section to a smoke test."""

    seconds: float = 2.0
    repeats: int = 3
    out: Path = Path(".")
    quick: bool = False
    decisions: int = 1_000_000  # the memory section's RSS run (native; the reference a tenth)


@dataclass
class Figure:
    """One measured quantity: ``value`` in ``unit`` (median of ``samples``)."""

    name: str
    unit: str
    samples: list[float]
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> float:
        return statistics.median(self.samples)


def rate(work: Callable[[], int], seconds: float, repeats: int) -> list[float]:
    """Run ``work`` (which returns how many units it did) for ``seconds`` per sample, at
    least once per sample; units per CPU second."""
    samples = []
    for _ in range(repeats):
        done = 0
        start = clock()
        while True:
            done += work()
            elapsed = clock() - start
            if elapsed >= seconds:
                break
        samples.append(done / max(elapsed, 1e-9))
    return samples
