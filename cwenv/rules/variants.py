"""Rule variants: YAML files in ``configs/rules/`` that override :class:`RuleOptions` fields.

A variant file looks like::

    name: passes
    description: Online combat rules' initiative passes.
    base: default          # optional: another variant to start from
    options:
      initiative: passes
      tie_order: random

An unknown field or a wrong value is a :class:`ConfigError` naming the file, the line, the
field and the allowed values; every problem in the file is reported at once.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any

from cwenv.rules.options import DEFAULT_OPTIONS, RuleOptions
from cwenv.suggest import did_you_mean
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument, read_yaml_file

CONFIG_ROOT = Path(__file__).resolve().parents[2] / "configs"
RULES_DIR = CONFIG_ROOT / "rules"

_HINTS = typing.get_type_hints(RuleOptions)
_FIELDS = {f.name: f for f in dataclasses.fields(RuleOptions)}
_TOP_KEYS = ("name", "description", "base", "options")
MAX_BASE_CHAIN = 16
"""Longest chain of variants built on each other with ``base:``."""


def _enum_choices(enum_type: type[Enum]) -> list[str]:
    if issubclass(enum_type, IntEnum):
        return [m.name.lower() for m in enum_type]
    return [str(m.value) for m in enum_type]


def _parse_enum(enum_type: type[Enum], raw: Any) -> Enum:
    if isinstance(raw, str):
        key = raw.strip().lower()
        by_value = not issubclass(enum_type, IntEnum)  # IntEnums are named, never numbered
        for member in enum_type:
            if key == member.name.lower() or (by_value and key == str(member.value).lower()):
                return member
            label = getattr(member, "label", None)
            if isinstance(label, str) and label.lower() == key:
                return member
    raise ValueError(f"got {raw!r}; allowed: {', '.join(_enum_choices(enum_type))}")


def _convert(name: str, raw: Any) -> Any:
    """Convert one YAML value to the type of option ``name``; ValueError says what is allowed."""
    hint = _HINTS[name]
    origin = typing.get_origin(hint)
    if hint is bool:
        if not isinstance(raw, bool):
            raise ValueError(f"got {raw!r}; allowed: true, false")
        return raw
    if hint is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"got {raw!r}; allowed: an integer")
        if (
            name
            in (
                "zielen_max_stacks",
                "mumm_improve_per_check",
                "mumm_rerolls_per_check",
                "sprint_total_multiplier",
                "default_bewegung",
            )
            and raw < 1
        ):
            raise ValueError(f"got {raw}; allowed: an integer >= 1")
        if (
            name
            in (
                "zielen_qs_bonus",
                "escalation_steps",
                "maneuver_reaction_cost",
                "entwaffnen_nsc_penalty",
            )
            and raw < 0
        ):
            raise ValueError(f"got {raw}; allowed: an integer >= 0")
        return raw
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _parse_enum(hint, raw)
    if origin is frozenset:
        (inner,) = typing.get_args(hint)
        if not isinstance(raw, list):
            raise ValueError(f"got {raw!r}; allowed: a list of {', '.join(_enum_choices(inner))}")
        return frozenset(_parse_enum(inner, item) for item in raw)
    if origin is tuple:  # zehrend_checks: a mapping from Zehrend type to skill
        if not isinstance(raw, dict) or not all(isinstance(k, str) for k in raw):
            raise ValueError(f"got {raw!r}; allowed: a mapping of Zehrend type to skill name")
        from cwenv.model.types import Skill

        return tuple((k, typing.cast(Skill, _parse_enum(Skill, v))) for k, v in raw.items())
    raise TypeError(f"option {name} has an unsupported type {hint!r}")  # pragma: no cover


def options_from_mapping(
    values: Mapping[Any, Any],
    doc: YamlDocument | None = None,
    base: RuleOptions = DEFAULT_OPTIONS,
    prefix: tuple[str | int, ...] = ("options",),
) -> RuleOptions:
    """Apply ``values`` to ``base``; collect every problem into one :class:`ConfigError`."""
    issues: list[ConfigIssue] = []
    source = doc.source if doc is not None else "<options>"
    changes: dict[str, Any] = {}
    for key, raw in values.items():
        path = (*prefix, key)
        line = doc.line(path) if doc is not None else None
        if key not in _FIELDS:
            allowed = ", ".join(sorted(_FIELDS))
            hint = did_you_mean(key, _FIELDS)
            issues.append(
                ConfigIssue(source, line, path, f"unknown option{hint}; allowed: {allowed}")
            )
            continue
        try:
            changes[key] = _convert(key, raw)
        except ValueError as exc:
            issues.append(ConfigIssue(source, line, path, str(exc)))
    if issues:
        raise ConfigError(issues)
    return dataclasses.replace(base, **changes)


def resolve_variant_path(spec: str | Path, relative_to: Path | None = None) -> Path:
    """A variant name (``passes``) in ``configs/rules/`` or a path to a YAML file; a relative
    path in a ``base:`` field is taken from the referring file's folder."""
    p = Path(spec)
    if relative_to is not None and not p.is_absolute() and (relative_to / p).exists():
        p = relative_to / p
    if p.is_dir():
        raise ConfigError([ConfigIssue(str(spec), None, (), "is a directory, not a variant file")])
    if p.suffix in (".yaml", ".yml"):
        return p
    if p.exists():
        raise ConfigError(
            [ConfigIssue(str(spec), None, (), "is not a rule variant file (.yaml or .yml)")]
        )
    candidate = RULES_DIR / f"{spec}.yaml"
    if not candidate.exists():
        names = sorted(q.stem for q in RULES_DIR.glob("*.yaml"))
        hint = did_you_mean(str(spec), names)
        raise ConfigError(
            [
                ConfigIssue(
                    str(spec),
                    None,
                    (),
                    f"no rule variant of that name{hint}; known: {', '.join(names) or '(none)'}",
                )
            ]
        )
    return candidate


def load_rule_variant(spec: str | Path, _seen: tuple[Path, ...] = ()) -> RuleOptions:
    """Load a variant file (and its ``base`` chain) into a :class:`RuleOptions`."""
    path = resolve_variant_path(spec)
    seen = (*_seen, path.resolve())
    doc = read_yaml_file(path)
    data = doc.data
    if data is None:
        return DEFAULT_OPTIONS
    if not isinstance(data, dict):
        raise ConfigError([doc.issue((), "a rule variant must be a mapping")])
    issues = [
        doc.issue((key,), f"unknown field; allowed: {', '.join(_TOP_KEYS)}")
        for key in data
        if key not in _TOP_KEYS
    ]
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        issues.append(doc.issue(("options",), "must be a mapping of option names to values"))
        options = {}
    base = DEFAULT_OPTIONS
    base_name = data.get("base")
    if base_name not in (None, "default"):
        try:
            base_path = resolve_variant_path(str(base_name), path.parent)
        except ConfigError as exc:
            issues.append(doc.issue(("base",), f"{base_name!r}: {exc.issues[0].message}"))
        else:
            if base_path.resolve() in seen:
                issues.append(doc.issue(("base",), f"variants form a cycle via {base_name!r}"))
            elif len(seen) >= MAX_BASE_CHAIN:
                issues.append(
                    doc.issue(("base",), f"more than {MAX_BASE_CHAIN} variants built on each other")
                )
            else:
                base = load_rule_variant(base_path, seen)
    try:
        result = options_from_mapping(options, doc, base)
    except ConfigError as exc:
        issues.extend(exc.issues)
    if issues:
        raise ConfigError(issues)
    return result


def options_to_mapping(options: RuleOptions) -> dict[str, Any]:
    """The options as plain YAML-ready values (saved beside every run's results)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(RuleOptions):
        value = getattr(options, f.name)
        if isinstance(value, IntEnum):
            out[f.name] = value.name.lower()
        elif isinstance(value, Enum):
            out[f.name] = value.value
        elif isinstance(value, frozenset):
            out[f.name] = sorted(v.name.lower() for v in value)
        elif isinstance(value, tuple):
            out[f.name] = {k: v.name.lower() for k, v in value}
        else:
            out[f.name] = value
    return out
