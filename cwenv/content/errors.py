"""Turn pydantic validation errors into :class:`~cwenv.yamlio.ConfigIssue` items.

Every issue names the file, the line (from :meth:`YamlDocument.line`), the field path and
what was expected. Pydantic's locations contain union tags and validator names that are
not part of the YAML document; they are removed before the line is looked up.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, get_args, get_origin

from pydantic import BaseModel, ValidationError

from cwenv.suggest import did_you_mean
from cwenv.yamlio import ConfigError, ConfigIssue, Location, YamlDocument

M = TypeVar("M", bound=BaseModel)

UNION_TAGS = frozenset({"ref", "inline", "eliminate", "survive", "reach_exit", "protect_vip"})
"""Tags of the tagged unions in the content models; never field names."""


class IssueList(list[ConfigIssue]):
    """Collects issues; :meth:`raise_if_any` raises them together."""

    def extend_from(self, error: ConfigError) -> None:
        self.extend(error.issues)

    def raise_if_any(self) -> None:
        """Raise every issue (duplicates once, in order of discovery)."""
        if self:
            raise ConfigError(list(dict.fromkeys(self)))


def clean_location(loc: Iterable[str | int]) -> Location:
    """A pydantic location without union tags and validator names."""
    return tuple(
        p
        for p in loc
        if not (
            isinstance(p, str)
            and (p in UNION_TAGS or p == "[key]" or p.startswith(("function-", "json-")))
        )
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unwrap(tp: Any) -> list[Any]:
    """The candidate types behind Annotated, Optional and unions."""
    origin = get_origin(tp)
    if origin is typing.Annotated:
        return _unwrap(get_args(tp)[0])
    if origin is typing.Union or origin is types.UnionType:
        out: list[Any] = []
        for arg in get_args(tp):
            out.extend(_unwrap(arg))
        return out
    return [tp]


def fields_at(model: type[BaseModel], path: Sequence[str | int]) -> list[str] | None:
    """Field names of the model found by walking ``path`` from ``model`` (None if unknown)."""
    current: list[Any] = [model]
    for part in path:
        following: list[Any] = []
        for tp in current:
            if isinstance(tp, type) and issubclass(tp, BaseModel):
                info = tp.model_fields.get(str(part))
                if info is not None:
                    following.extend(_unwrap(info.annotation))
            elif get_origin(tp) is list and isinstance(part, int):
                following.extend(_unwrap(get_args(tp)[0]))
            elif get_origin(tp) is dict:
                following.extend(_unwrap(get_args(tp)[1]))
        current = following
    for tp in current:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return list(tp.model_fields)
    return None


def _message(model: type[BaseModel], err: Any, loc: Location) -> str:
    kind = err["type"]
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        allowed = fields_at(model, loc[:-1])
        hint = did_you_mean(loc[-1], allowed or ())
        return f"unknown field{hint}" + (f"; allowed: {', '.join(allowed)}" if allowed else "")
    msg = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    if kind.startswith(("value_error", "assertion_error")):
        return msg
    if "input" in err:
        msg = f"{msg}; got {_short(err['input'])}"
    return msg


class Where(Protocol):
    """Something that can place a message at a field path (a document, a merged value)."""

    def issue(self, path: Sequence[str | int], message: str) -> ConfigIssue: ...


@dataclass(frozen=True)
class Origin:
    """A value at ``prefix`` inside ``doc``: issues for its paths land on the right lines."""

    doc: YamlDocument
    prefix: Location = ()

    def issue(self, path: Sequence[str | int], message: str) -> ConfigIssue:
        return self.doc.issue((*self.prefix, *path), message)


class UnknownReference(LookupError):
    """A reference to a content file that does not exist."""

    def __init__(self, kind: str, name: str, known: Sequence[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(known)
        listed = ", ".join(self.known) if self.known else "(none)"
        hint = did_you_mean(name, self.known)
        super().__init__(f"unknown {kind} {name!r}{hint}; known: {listed}")


def issues_from(exc: ValidationError, model: type[BaseModel], where: Where) -> list[ConfigIssue]:
    """One issue per pydantic error, placed by ``where``."""
    out = []
    seen: set[tuple[Location, str]] = set()
    for err in exc.errors(include_url=False):
        loc = clean_location(err["loc"])
        message = _message(model, err, loc)
        if (loc, message) in seen:
            continue
        seen.add((loc, message))
        out.append(where.issue(loc, message))
    return out


def validate(model: type[M], where: Origin, data: Any) -> M:
    """Validate ``data`` (found at ``where``) or raise a :class:`ConfigError`."""
    if data is None:
        what = "the file is empty" if not where.prefix else "the value is empty"
        raise ConfigError([where.issue((), f"{what}; expected a mapping of fields")])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(issues_from(exc, model, where)) from None
