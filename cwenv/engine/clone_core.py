"""A clone's native kept state (issue #16, docs/native.md "The state kept in C++"): under
the native engine ``Combat.clone()`` gives the clone a copy of its original's kept state
(its ``_core_token``, src/sync_clone.cpp), so the clone's first native call applies the
events since, as the original's would, instead of importing the whole combat — what a
search pays for every clone it plays on. Where the core refuses the token (another game's
Kampf, a state made stale or left part-way by an exception) the clone has none and
imports whole on first use, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from cwenv.battlemap import los

if TYPE_CHECKING:
    from cwenv.engine.offers_core import Compiled
    from cwenv.engine.state import Combat


_COPY = [True]
"""Whether a clone copies its original's kept state (:func:`copy_on_clone`)."""


_KAMPF_OF: list[Callable[[ModuleType, Combat], Compiled | None] | None] = [None]
"""offers_core.kampf_of, once imported (an import statement per clone costs ~2 µs)."""


def copy_on_clone(on: bool) -> None:
    """Copy the kept state on clone (the default), or leave every clone to import whole on
    first use (``on=False``: the benchmark's twin, benchmarks/clone.py)."""
    _COPY[0] = on


def copy_kept(original: Combat, twin: Combat) -> None:
    """Give ``twin`` (a fresh clone of ``original``) a copy of ``original``'s kept state."""
    token = original.__dict__.get("_core_token")
    core = los._core
    if token is None or core is None or not _COPY[0]:  # never synced, or the reference
        return
    kampf_of = _KAMPF_OF[0]
    if kampf_of is None:  # offers_core imports the engine's modules, state.py among them
        from cwenv.engine import offers_core

        kampf_of = _KAMPF_OF[0] = offers_core.kampf_of
    compiled = kampf_of(core, original)
    copied = None if compiled is None else compiled.kampf.clone_state(token)
    if copied is not None:
        twin.__dict__["_core_token"] = copied
