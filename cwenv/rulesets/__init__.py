"""Rulesets by name, and scenario specs to (ruleset, scenario).

A scenario spec is ``SCENARIO`` — a Corporate Wars scenario (name or YAML file), as ever —
or ``NAME:SCENARIO``: scenario ``SCENARIO`` of the ruleset registered as ``NAME``. Corporate
Wars is built in (``cw``, so ``cw:duell`` is ``duell``); every other ruleset comes from the
entry-point group ``cwenv.rulesets``, which a user's package fills in its
``pyproject.toml`` (``docs/rulesets.md``)::

    [project.entry-points."cwenv.rulesets"]
    dice = "my_package.dice:RULESET"

The entry point loads to an object implementing :class:`cwenv.ruleset.Ruleset` whose
``name`` is the entry point's name. Entry points are read only when a spec names a ruleset
other than Corporate Wars, so a broken plugin never stops a Corporate Wars run.
"""

from __future__ import annotations

import functools
import re
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from cwenv.ruleset import Ruleset
from cwenv.suggest import did_you_mean

GROUP = "cwenv.rulesets"
"""The entry-point group other rulesets are registered under."""

DEFAULT = "cw"
"""Corporate Wars: the ruleset of a scenario spec without a prefix."""

_REQUIRED = ("load", "new_state", "legal_actions", "apply", "record", "sides", "tactics")
_PREFIX = re.compile(r"^([a-z][a-z0-9_-]+):(.+)$")
"""``NAME:REST`` with a name of two or more characters (``C:\\x`` is a drive, not a name)."""


class UnknownRulesetError(ValueError):
    """No ruleset of that name is registered (the message lists the known ones)."""


class RulesetPluginError(UnknownRulesetError):
    """A registered ruleset cannot be loaded or is not a ruleset; the message names the
    entry point, so the broken package is found without a traceback."""


def default() -> Ruleset:
    """Corporate Wars, the ruleset of a spec without a prefix (imported on first use)."""
    from cwenv.rulesets.corporate_wars import RULESET

    return RULESET


@functools.cache
def _points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: (p.name, p.value)):
        found.setdefault(point.name, point)
    return found


def _load(point: EntryPoint) -> Ruleset:
    where = f"entry point {point.name!r} = {point.value!r} of group {GROUP!r}"
    try:
        ruleset = point.load()
    except Exception as exc:  # a broken third-party package: name it, keep the reason
        raise RulesetPluginError(
            f"ruleset plugin {where} cannot be loaded: {type(exc).__name__}: {exc}"
        ) from None
    missing = [m for m in _REQUIRED if not hasattr(ruleset, m)]
    if missing:
        raise RulesetPluginError(
            f"ruleset plugin {where} is not a ruleset: it has no {', '.join(missing)} "
            "(see docs/rulesets.md)"
        )
    if getattr(ruleset, "name", None) != point.name:
        raise RulesetPluginError(
            f"ruleset plugin {where} calls itself {getattr(ruleset, 'name', None)!r}; its "
            "name must be the entry point's"
        )
    return ruleset  # type: ignore[no-any-return]


def known() -> list[str]:
    """Every ruleset name: Corporate Wars and the registered ones."""
    return sorted({DEFAULT, *_points()})


@functools.cache
def get(name: str) -> Ruleset:
    """The ruleset called ``name``; :class:`UnknownRulesetError` with a "did you mean"."""
    if name == DEFAULT:
        return default()
    point = _points().get(name)
    if point is None:
        names = known()
        raise UnknownRulesetError(
            f"unknown ruleset {name!r}{did_you_mean(name, names)}; known: {', '.join(names)} "
            f"(other rulesets register under the entry-point group {GROUP!r})"
        )
    return _load(point)


def split(spec: str) -> tuple[Ruleset, str]:
    """``"dice:duel"`` → (the dice ruleset, ``"duel"``); ``"duell"`` and an existing file
    → (Corporate Wars, spec)."""
    match = _PREFIX.match(spec)
    if match is None or Path(spec).exists():
        return default(), spec
    name, rest = match.groups()
    try:
        return get(name), rest
    except RulesetPluginError:
        raise
    except UnknownRulesetError as exc:
        raise UnknownRulesetError(f"scenario {spec!r}: {exc}") from None


def ruleset_of(spec: str) -> Ruleset:
    """The ruleset a scenario spec belongs to."""
    return split(spec)[0]


def join(ruleset: Ruleset, scenario: str) -> str:
    """The spec of ``scenario`` of ``ruleset``: Corporate Wars' without a prefix (so its
    plans, ids and databases are what they always were)."""
    return scenario if ruleset.name == DEFAULT else f"{ruleset.name}:{scenario}"


def clear_cache() -> None:
    """Read the entry points again (tests that install a plugin on the fly)."""
    _points.cache_clear()
    get.cache_clear()
