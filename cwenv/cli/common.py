"""Small helpers shared by the long-running commands (tournament, stress)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import typer


def split_names(text: str) -> tuple[str, ...]:
    """``"a, b,,c"`` → ``("a", "b", "c")``: a comma-separated CLI list."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def interrupt_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """A signal handler that turns SIGTERM into Ctrl-C, so a killed run stops like an
    interrupted one (finished games are kept and the run resumes)."""
    raise KeyboardInterrupt


@contextmanager
def resumable_run() -> Iterator[None]:
    """The body of a resumable run: SIGTERM stops it as Ctrl-C does, and either ends the
    command with exit code 130 and a note that the same command resumes."""
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, interrupt_on_sigterm) if in_main else None
    try:
        yield
    except KeyboardInterrupt:
        typer.echo(
            "interrupted; finished games are saved — run the same command to resume", err=True
        )
        raise typer.Exit(130) from None
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)
