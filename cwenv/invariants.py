"""Internal invariants as typed errors instead of ``assert`` (which ``python -O`` strips).

A broken invariant is a bug in cwenv, never bad input: :class:`InvariantError` says which
value was missing, so a report names the place without a debugger.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


class InvariantError(RuntimeError):
    """cwenv reached a state its own code rules out (a bug: please report it)."""


def present(value: T | None, what: str) -> T:
    """``value``, which the caller's stage guarantees is set; :class:`InvariantError` if not."""
    if value is None:
        raise InvariantError(f"internal error: {what} is not set")
    return value
