"""Shared pieces of the benchmarks: the measured figure and the timing loop."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Figure:
    """One measured rate: ``value`` units per second (median of ``samples``)."""

    name: str
    unit: str
    samples: list[float]
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> float:
        return statistics.median(self.samples)


def rate(work: Callable[[], int], seconds: float, repeats: int) -> list[float]:
    """Run ``work`` (which returns how many units it did) for ``seconds`` per sample."""
    samples = []
    for _ in range(repeats):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            done += work()
        samples.append(done / (time.perf_counter() - start))
    return samples
