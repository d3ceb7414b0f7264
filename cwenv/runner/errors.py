"""The runner's one error type: a message that names what is wrong, for the CLI to print."""

from __future__ import annotations


class RunnerError(Exception):
    """A run cannot proceed: unknown agent or scenario, a failed game, a bad database."""


class GameFailedError(RunnerError):
    """A game raised inside a worker; the message names the game and the cause."""
