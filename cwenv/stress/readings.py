"""``--all-options``: one rule variant per alternative reading of every X-question.

Each :class:`~cwenv.rules.options.RuleOptions` field declares the X-question it answers
(``metadata["x"]``) and its alternatives (``metadata["alternatives"]``). From these:

* a yes/no option: the other answer;
* an option with named readings (an enum): the readings its alternatives text names
  (``grundwert, reflexe``; ``e.g. COOLNESS``), or every other reading if it names none;
  a skill or check value whose text names none ("any skill") is skipped;
* a number: the integers the text lists (``0 (no substitution), 2+`` → 0, 2); an open range
  (``n >= 1``, ``any int``) gives one step either side of the base value, within the bound;
* a set or mapping (``mental_checks``, ``zehrend_checks``): skipped, no finite list.

Alternatives are taken relative to the base variant's value, so a sweep from another base
still asks "what if this one reading were different".
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any

import yaml

from cwenv.rules.options import RuleOptions
from cwenv.runner.atomic import atomic_write_text

_BOUND = re.compile(r"(?:^|\b)(?:n|int|any int)\s*>=\s*(-?\d+)")
_OPEN = re.compile(r"^(?:any )?int\b")


@dataclass(frozen=True)
class Reading:
    """One alternative reading: option ``name`` (X-question ``x``) set to ``value``."""

    x: str
    name: str
    value: Any  # YAML-ready
    base_value: Any
    why: str
    alternatives: str

    @property
    def label(self) -> str:
        text = str(self.value).lower() if not isinstance(self.value, bool) else str(self.value)
        text = text.lower().replace("_", "-").replace(" ", "-")
        if text.startswith("-"):
            text = "minus" + text[1:]
        return f"{self.x.lower()}-{self.name.replace('_', '-')}-{text}"


@dataclass(frozen=True)
class Skipped:
    x: str
    name: str
    reason: str


def _yaml_value(value: Any) -> Any:
    if isinstance(value, IntEnum):
        return value.name.lower()
    if isinstance(value, Enum):
        return value.value
    return value


def _int_alternatives(base: int, text: str) -> list[int]:
    bound = _BOUND.search(text)
    if bound is not None or _OPEN.match(text.strip()):
        low = int(bound.group(1)) if bound is not None else None
        return [v for v in (base - 1, base + 1) if low is None or v >= low]
    return [int(v) for v in re.findall(r"(?<![\w>=])-?\d+", text)]


def _names(member: Enum, text: str) -> bool:
    """Whether the alternatives text names this reading (by name or value, as a word)."""
    words = {member.name.lower()}
    if not isinstance(member, IntEnum):
        words.add(str(member.value).lower())
    found = set(re.findall(r"[a-z_]+", text.lower()))
    return bool(words & found)


def _alternatives(value: Any, text: str) -> list[Any] | str:
    """The alternative values of one option, or the reason there is no finite list."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, Enum):
        named = [m for m in type(value) if _names(m, text)]
        if named:
            return named
        if isinstance(value, IntEnum):  # a skill or check value: "any skill" names none
            return f"no concrete reading named ({text!r})"
        return list(type(value))
    if isinstance(value, int):
        return _int_alternatives(value, text)
    return f"no finite list of readings ({text!r})"


def alternative_readings(base: RuleOptions) -> tuple[list[Reading], list[Skipped]]:
    """Every alternative reading of every X-option relative to ``base``, in option order,
    and the options without a concrete alternative."""
    readings: list[Reading] = []
    skipped: list[Skipped] = []
    for f in dataclasses.fields(RuleOptions):
        x = str(f.metadata.get("x", ""))
        if not x.startswith("X"):
            continue
        current = getattr(base, f.name)
        text = str(f.metadata["alternatives"])
        alts = _alternatives(current, text)
        if isinstance(alts, str):
            skipped.append(Skipped(x, f.name, alts))
            continue
        values = [v for v in dict.fromkeys(alts) if v != current]
        if not values:
            skipped.append(Skipped(x, f.name, "the base already uses every listed reading"))
        for v in values:
            readings.append(
                Reading(x, f.name, _yaml_value(v), _yaml_value(current), f.metadata["why"], text)
            )
    return readings, skipped


def write_reading_variants(readings: list[Reading], folder: Path, base_spec: str) -> list[Path]:
    """Write one variant file per reading into ``folder`` (``base:`` the sweep's base)."""
    folder.mkdir(parents=True, exist_ok=True)
    base_ref = base_spec
    if base_spec.endswith((".yaml", ".yml")) or "/" in base_spec:
        base_ref = str(Path(base_spec).resolve())
    paths = []
    for r in readings:
        data = {
            "name": r.label,
            "description": (
                f"{r.x}: {r.name} = {r.value} instead of {r.base_value}. Default reading: "
                f"{r.why} Alternatives: {r.alternatives}."
            ),
            "base": base_ref,
            "options": {r.name: r.value},
        }
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=88)
        paths.append(atomic_write_text(folder / f"{r.label}.yaml", text))
    return paths
