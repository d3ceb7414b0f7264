"""Small helpers shared by the long-running commands (tournament, stress)."""

from __future__ import annotations

from types import FrameType


def split_names(text: str) -> tuple[str, ...]:
    """``"a, b,,c"`` → ``("a", "b", "c")``: a comma-separated CLI list."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def interrupt_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """A signal handler that turns SIGTERM into Ctrl-C, so a killed run stops like an
    interrupted one (finished games are kept and the run resumes)."""
    raise KeyboardInterrupt
