"""Shared field types of the content models: names, damage dice, damage forms, cells.

YAML content uses German names throughout (skills, sides, sizes, conditions). The types
here validate them and convert them to the engine's enums in :mod:`cwenv.model.types`.
Damage forms (D04) and Zehrend types (D03, Z08) form one closed vocabulary so that a typo
in a resistance is an error rather than a resistance that never applies.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field

from cwenv.model.types import Condition, Side, Size, Skill

MODEL_CONFIG = ConfigDict(extra="forbid", strict=True, validate_default=True)
"""The configuration of every content model: unknown fields are errors, no silent type
coercion (``"5"`` is not an integer), defaults are checked by the same validators."""


SkillName = Literal[
    "Coolness",
    "Connections",
    "Datamining",
    "Fernkampf",
    "Hacking",
    "Kampfkunst",
    "Infiltration",
    "Operations",
    "Reflexe",
    "Technik",
    "Unbeugsamkeit",
    "Wahrnehmung",
]
"""The twelve Fertigkeiten (P09) as written in the book."""

SideName = Literal["runner", "gegner", "neutral"]
SizeName = Literal["winzig", "klein", "mittel", "gross", "riesig"]
ConditionName = Literal[
    "angeschlagen", "benommen", "eingeschraenkt", "entmutigt", "niedergeworfen", "verwirrt"
]
"""Conditions a hack, item or cyberware may inflict or end (Z01–Z05, Z07; not Sterbend)."""

DamageFormName = Literal[
    "ballistisch",
    "klinge",
    "stumpf",
    "explosion",
    "feuer",
    "kaelte",
    "elektrisch",
    "saeure",
    "gift",
    "laser",
    "digital",
    "sturz",
    "blutung",
]
DAMAGE_FORMS: tuple[str, ...] = get_args(DamageFormName)
"""Damage forms that resistances, vulnerabilities and immunities name (D04, X32).

``stumpf`` is the unarmed strike, ``digital`` the default of hacks, ``sturz`` falls (B05)
and ``blutung`` the Zehrend of a Tiefe Wunde (A07); the rest are weapon data (X12)."""


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def fold(text: Any) -> Any:
    """Lower-case and spell umlauts out (``Säure`` → ``saeure``); non-strings pass."""
    if isinstance(text, str):
        return text.strip().lower().translate(_UMLAUTS)
    return text


Folded = BeforeValidator(fold)
DamageForm = Annotated[DamageFormName, Folded]
SideField = Annotated[SideName, Folded]
SizeField = Annotated[SizeName, Folded]
ConditionField = Annotated[ConditionName, Folded]
ArmourModeField = Annotated[Literal["normal", "brechend", "direkt"], Folded]
"""How damage meets armour (A06, D01 brechend halves it, D02 direkt ignores it)."""
WeaponKindField = Annotated[Literal["nahkampf", "fernkampf"], Folded]
ItemKindField = Annotated[Literal["heilung", "stimulans"], Folded]
AbilityKindField = Annotated[Literal["heilen", "abschuetteln", "panzerung", "fokus"], Folded]

REF_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
RefName = Annotated[str, Field(pattern=REF_PATTERN)]
"""A reference to another content file by its file name without ``.yaml``."""


def _printable(text: str, allowed: str = "") -> str:
    """Refuse control characters: a name printed to a terminal must not move the cursor,
    clear the screen or retitle the window (``"\\e[2J"`` in a double-quoted YAML string)."""
    for ch in text:
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            raise ValueError(f"contains the control character {ch!r}; only printable text")
    return text


def _printable_text(text: str) -> str:
    return _printable(text, "\n\t")


Name = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(_printable)]
Text = Annotated[str, Field(max_length=2000), AfterValidator(_printable_text)]
SmallInt = Annotated[int, Field(ge=-20, le=20)]
CellXY = Annotated[list[Annotated[int, Field(ge=0, le=1000)]], Field(min_length=2, max_length=2)]
"""A map cell as ``[x, y]``: x grows east, y grows south, both from 0."""

_DAMAGE_RE = re.compile(r"^\s*(\d*)\s*[WwDd]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


def parse_damage(text: str) -> int:
    """``"W10+2"`` → 2, the bonus. One W10 per QS is all the rules know (A06, X12)."""
    match = _DAMAGE_RE.match(text)
    if match is None:
        raise ValueError(f"expected a damage die like 'W10', 'W10+2' or 'W10-1'; got {text!r}")
    count, die, sign, bonus = match.groups()
    if count not in ("", "1") or die != "10":
        raise ValueError(
            f"only W10 damage dice are supported (A06 rolls one W10 per QS); got {text!r}"
        )
    value = int(bonus) if bonus else 0
    if value > 20:
        raise ValueError(f"damage bonus must be at most 20; got {text!r}")
    return -value if sign == "-" else value


def _check_damage(text: str) -> str:
    parse_damage(text)
    return text


DamageDie = Annotated[str, Field(max_length=20), AfterValidator(_check_damage)]


def skill_of(name: str) -> Skill:
    return Skill.from_label(name)


def side_of(name: str) -> Side:
    return Side[name.upper()]


def size_of(name: str) -> Size:
    return Size[name.upper()]


def condition_of(name: str) -> Condition:
    return Condition.from_label(name)


def zehrend_type(form: str) -> str:
    """The engine's Zehrend type for a damage form: ``feuer`` → ``Feuer`` (Z08, X20)."""
    return form[:1].upper() + form[1:]


def normalise_skill_keys(value: Any) -> Any:
    """Accept skill names in any case (``fernkampf`` → ``Fernkampf``); others pass."""
    if not isinstance(value, dict):
        return value
    labels = {label.lower(): label for label in get_args(SkillName)}
    out: dict[Any, Any] = {}
    for key, v in value.items():
        new = labels.get(key.strip().lower(), key) if isinstance(key, str) else key
        if new in out:  # "Fernkampf" and "fernkampf" both given
            raise ValueError(f"skill {new!r} is given twice")
        out[new] = v
    return out


SkillValue = Annotated[int, Field(ge=0, le=30)]
SkillMap = Annotated[dict[SkillName, SkillValue], BeforeValidator(normalise_skill_keys)]
"""Skill values by German name (P09); 10 Lehrling, 12 Profi, 14 Veteran, 16 Meister."""
SkillBonusMap = Annotated[
    dict[SkillName, Annotated[int, Field(ge=-10, le=10)]], BeforeValidator(normalise_skill_keys)
]
