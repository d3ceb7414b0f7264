"""The field of a rule option: its default with the X-question it answers and why.

Every option of :class:`~cwenv.rules.options.RuleOptions` is declared with
:func:`documented`; ``docs/rules.md`` (``cwenv rules doc``), ``cwenv rules options`` and the
readings ``cwenv stress variants`` generates are all made from this metadata.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, ClassVar


def documented(default: Any, x: str, why: str, alternatives: str) -> Any:
    """A rule-option field with the X-question it answers (``metadata["x"]``), why the
    default is read so (``why``) and the other readings (``alternatives``)."""
    meta = {"x": x, "why": why, "alternatives": alternatives}
    if isinstance(default, frozenset | dict | tuple):
        return field(default_factory=lambda: default, metadata=meta)
    return field(default=default, metadata=meta)


class Section:
    """A checklist section's options: a frozen dataclass base of
    :class:`~cwenv.rules.options.RuleOptions`, named by the section's letter and title."""

    __slots__ = ()  # RuleOptions, slotted, holds the values; a section alone is never built
    SECTION: ClassVar[str]
    TITLE: ClassVar[str]
