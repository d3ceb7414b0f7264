"""A rich progress bar on stderr (stdout stays clean for ``--json``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class ProgressHandle:
    """``start(total, done)`` once, then ``advance()`` per finished game; no-op if disabled."""

    def __init__(self, progress: Progress | None, label: str) -> None:
        self._progress = progress
        self._label = label
        self._task: TaskID | None = None

    def start(self, total: int, done: int = 0) -> None:
        if self._progress is not None:
            self._task = self._progress.add_task(self._label, total=total, completed=done)

    def advance(self) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task)


@contextmanager
def progress_bar(label: str, enabled: bool = True) -> Iterator[ProgressHandle]:
    if not enabled:
        yield ProgressHandle(None, label)
        return
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
    with progress:
        yield ProgressHandle(progress, label)
