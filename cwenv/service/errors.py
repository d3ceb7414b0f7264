"""The service's client errors: a status, a code and the issues, each naming its field.

Every error a client can cause ends here as a 4xx with one JSON shape::

    {"error": "invalid_content", "message": "...",
     "issues": [{"field": "situation.fighters.Mara.at", "line": 4, "message": "...",
                 "allowed": ["..."]}]}

Nothing here imports the web framework, so the fight logic raises these without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cwenv.yamlio import ConfigError


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem with a request: the field (dotted path), what is wrong, and where the
    field takes a fixed set of values, those values."""

    field: str
    message: str
    line: int | None = None
    allowed: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"field": self.field, "message": self.message}
        if self.line is not None:
            out["line"] = self.line
        if self.allowed:
            out["allowed"] = list(self.allowed)
        return out


@dataclass(eq=False)
class ServiceError(ValueError):
    """A request the service refuses; ``status`` is the HTTP status (always 4xx)."""

    status: int
    code: str
    message: str
    issues: Sequence[Issue] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def as_json(self) -> dict[str, object]:
        return {
            "error": self.code,
            "message": self.message,
            "issues": [i.as_json() for i in self.issues],
        }


def bad_field(field_name: str, message: str, allowed: Sequence[str] = ()) -> ServiceError:
    """A 422 about one field of the request."""
    return ServiceError(
        422,
        "invalid_request",
        f"{field_name}: {message}",
        (Issue(field_name, message, None, tuple(allowed)),),
    )


def from_config_error(exc: ConfigError, sources: dict[str, str]) -> ServiceError:
    """A content error (the same issues the CLI prints) as a 422. ``sources`` maps the
    files the request's texts were read from to the request fields that carried them, so
    an issue names ``situation.fighters.Mara.at``, not a temporary file."""
    issues: list[Issue] = []
    for issue in exc.issues:
        path = ".".join(str(p) for p in issue.path)
        owner = sources.get(issue.file)
        if owner is not None:
            name = f"{owner}.{path}" if path else owner
            issues.append(Issue(name, issue.message, issue.line))
        else:  # a shipped file the request named (a scenario's weapon, a rule variant)
            where = issue.file if issue.line is None else f"{issue.file}:{issue.line}"
            issues.append(Issue(path or "(top level)", f"{where}: {issue.message}"))
    message = "; ".join(f"{i.field}: {i.message}" for i in issues) or "invalid content"
    return ServiceError(422, "invalid_content", message, tuple(issues))
