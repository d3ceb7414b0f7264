"""Optional dependencies, checked before any work starts.

A plain ``pip install -e .`` has no openskill, Ray, matplotlib or gymnasium. A command that
needs one says which extra to install *before* it plays a game or writes a file — not after
an hour of games, when the ratings are computed.
"""

from __future__ import annotations

import importlib

EXTRAS: dict[str, tuple[str, str]] = {
    "ratings": ("openskill.models", "ratings need openskill"),
    "ray": ("ray", "the ray backend needs Ray"),
    "plots": ("matplotlib", "charts and maps need matplotlib"),
    "env": ("gymnasium", "the Gymnasium environment needs gymnasium"),
    "rl": ("sb3_contrib", "training needs stable-baselines3, sb3-contrib and torch"),
}
"""extra → (module to import, what needs it)."""


class MissingExtraError(RuntimeError):
    """An optional dependency is not installed; the message names the extra to install."""


def require(*extras: str) -> None:
    """Import the module of every extra named, or raise one :class:`MissingExtraError`
    naming every extra that is missing and the ``pip install`` command."""
    missing: list[tuple[str, str]] = []
    for extra in extras:
        module, why = EXTRAS[extra]
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append((extra, why))
    if missing:
        names = ",".join(extra for extra, _ in missing)
        reasons = "; ".join(f"{why} (not installed)" for _, why in missing)
        raise MissingExtraError(f"{reasons}: pip install 'cwenv[{names}]'")
