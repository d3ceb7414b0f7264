"""Rules as data: one frozen record per member of each closed list of the rules.

=====================  ==========================  ===================================
table                  keyed by                    module
=====================  ==========================  ===================================
``CONDITIONS``         :class:`Condition` (Z)      :mod:`cwenv.engine.tables.conditions`
``MANEUVERS``          :class:`Maneuver` (K)       :mod:`cwenv.engine.tables.maneuvers`
``MUMM_SPENDS``        :class:`MummSpend` (M)      :mod:`cwenv.engine.tables.mumm`
``HANDLUNGEN``         :class:`ActionKind` (H)     :mod:`cwenv.engine.tables.handlungen`
``CHECK_PURPOSES``     :class:`CheckPurpose` (P)   :mod:`cwenv.engine.tables.checks`
=====================  ==========================  ===================================

Every table is built by :func:`rule_table`, which refuses at import a member without an
entry or with two, naming it: a rule lives in its one entry, and the code that applies it
reads the table, so there is no if-chain whose last branch would silently treat a new
member like an old one. ``docs/extending.md`` walks through adding a member.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from types import MappingProxyType
from typing import TypeVar

E = TypeVar("E", bound=Enum)
R = TypeVar("R")


class RuleTableError(ImportError):
    """A rule table does not have exactly one entry for every member of its list."""


def rule_table(
    members: Iterable[E],
    records: Iterable[R],
    key: Callable[[R], E],
    where: str,
) -> Mapping[E, R]:
    """The read-only table ``member → record`` in the order the records are listed.

    Raises :class:`RuleTableError` naming every member of ``members`` that has no record
    and every member that has more than one; ``where`` names the table in the message.
    """
    table: dict[E, R] = {}
    twice: list[str] = []
    for record in records:
        member = key(record)
        if member in table:
            twice.append(member.name)
        table[member] = record
    expected = list(members)
    missing = [m.name for m in expected if m not in table]
    foreign = [m.name for m in table if m not in expected]
    problems = []
    if missing:
        problems.append("no entry for " + ", ".join(missing))
    if twice:
        problems.append("more than one entry for " + ", ".join(twice))
    if foreign:
        problems.append("entries for members outside the list: " + ", ".join(foreign))
    if problems:
        raise RuleTableError(
            f"{where}: {'; '.join(problems)} (every member needs exactly one entry; "
            "see docs/extending.md)"
        )
    return MappingProxyType(table)
