"""Fighter stat blocks and archetypes (X13: LP, Bewegung, Mumm, Firewall, Behinderung, size).

A file in ``configs/fighters/`` is an archetype: a complete stat block that scenarios
reuse. A scenario entry names an archetype and may override any field; ``skills`` is
merged key by key, every other field is replaced (:func:`merge_fighter`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypeVar

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator

from cwenv.content.equipment import (
    CyberwareModel,
    CyberwareRef,
    HackModel,
    HackRef,
    ItemModel,
    WeaponModel,
    WeaponRef,
)
from cwenv.content.errors import IssueList, UnknownReference, Where, issues_from
from cwenv.content.fields import (
    MODEL_CONFIG,
    DamageForm,
    Name,
    SideField,
    SizeField,
    SkillMap,
    SkillValue,
    Text,
    normalise_skill_keys,
    side_of,
    size_of,
    skill_of,
)
from cwenv.model.specs import CyberwareSpec, FighterSpec, HackSpec, WeaponSpec
from cwenv.model.types import Skill
from cwenv.yamlio import ConfigError, ConfigIssue

Points = Annotated[int, Field(ge=0, le=30)]
MummPoints = Annotated[int, Field(ge=0, le=20)]


class FighterModel(BaseModel):
    """A fighter's stat block (X13): ``configs/fighters/<name>.yaml``."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    side: SideField
    skills: SkillMap = {}
    skill_default: SkillValue = 8
    lp: Annotated[int, Field(ge=1, le=999)]
    bewegung: Annotated[int, Field(ge=0, le=30)] = 6
    ausweichen: SkillValue | None = None
    firewall: Points = 10
    ruestung: Points = 0
    behinderung: Annotated[int, Field(ge=0, le=10)] = 0
    size: SizeField = "mittel"
    mumm: MummPoints = 0
    mumm_max: MummPoints | None = None
    initiative_bonus: Annotated[int, Field(ge=0, le=20)] = 0
    resistances: list[DamageForm] = []
    vulnerabilities: list[DamageForm] = []
    immunities: list[DamageForm] = []
    weapons: list[WeaponRef] = []
    hacks: list[HackRef] = []
    cyberware: list[CyberwareRef] = []
    items: list[ItemModel] = []
    backpack: list[ItemModel] = []
    humanoid: bool = True
    tags: list[Name] = []

    @field_validator("mumm_max")
    @classmethod
    def _mumm_max(cls, v: int | None, info: ValidationInfo) -> int | None:
        mumm = info.data.get("mumm")
        if v is not None and mumm is not None and v < mumm:
            raise ValueError(f"mumm_max must be at least mumm ({mumm}); got {v}")
        return v


class FighterPatch(BaseModel):
    """Every :class:`FighterModel` field, all optional: overrides of an archetype."""

    model_config = MODEL_CONFIG

    name: Name | None = None
    description: Text | None = None
    side: SideField | None = None
    skills: SkillMap | None = None
    skill_default: SkillValue | None = None
    lp: Annotated[int, Field(ge=1, le=999)] | None = None
    bewegung: Annotated[int, Field(ge=0, le=30)] | None = None
    ausweichen: SkillValue | None = None
    firewall: Points | None = None
    ruestung: Points | None = None
    behinderung: Annotated[int, Field(ge=0, le=10)] | None = None
    size: SizeField | None = None
    mumm: MummPoints | None = None
    mumm_max: MummPoints | None = None
    initiative_bonus: Annotated[int, Field(ge=0, le=20)] | None = None
    resistances: list[DamageForm] | None = None
    vulnerabilities: list[DamageForm] | None = None
    immunities: list[DamageForm] | None = None
    weapons: list[WeaponRef] | None = None
    hacks: list[HackRef] | None = None
    cyberware: list[CyberwareRef] | None = None
    items: list[ItemModel] | None = None
    backpack: list[ItemModel] | None = None
    humanoid: bool | None = None
    tags: list[Name] | None = None


class Resolver(Protocol):
    """Looks up content files by name (raises :class:`UnknownReference` or ConfigError)."""

    def weapon(self, name: str) -> WeaponSpec: ...

    def hack(self, name: str) -> HackSpec: ...

    def cyberware(self, name: str) -> CyberwareSpec: ...


def _has(data: Any, path: Sequence[str | int]) -> bool:
    """Whether ``path`` leads to a value inside the raw YAML ``data``."""
    for part in path:
        if isinstance(data, list):
            if not (isinstance(part, int) and 0 <= part < len(data)):
                return False
            data = data[part]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return False
    return True


@dataclass(frozen=True)
class MergedOrigin:
    """Where a merged fighter's fields came from: the scenario entry or the archetype.

    A path given in the entry belongs to the entry; else to the archetype when it holds
    the path; anything else (a missing field) is reported at the entry.
    """

    base: Where | None
    base_data: Mapping[Any, Any]
    override: Where
    override_data: Mapping[Any, Any]

    def issue(self, path: Sequence[str | int], message: str) -> ConfigIssue:
        in_base = self.base is not None and _has(self.base_data, path)
        if self.base is not None and in_base and not _has(self.override_data, path):
            return self.base.issue(path, message)
        return self.override.issue(path, message)


def merge_fighter(base: Mapping[Any, Any], override: Mapping[Any, Any]) -> dict[Any, Any]:
    """The archetype's raw fields with ``override`` on top; ``skills`` merged per skill
    (names compared case-insensitively, so ``fernkampf`` overrides ``Fernkampf``)."""
    out = dict(base)
    for key, value in override.items():
        old = out.get(key)
        if key == "skills" and isinstance(old, dict) and isinstance(value, dict):
            try:
                out[key] = {**normalise_skill_keys(old), **normalise_skill_keys(value)}
            except ValueError:  # a skill twice in one mapping: validation reports it
                out[key] = {**old, **value}
        else:
            out[key] = value
    return out


def validate_fighter(data: Any, where: Where) -> FighterModel:
    """Validate raw (possibly merged) fighter data; issues are placed by ``where``."""
    try:
        return FighterModel.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(issues_from(exc, FighterModel, where)) from None


T = TypeVar("T")


def _resolve(
    items: Sequence[Any],
    inline: Callable[[Any], T],
    lookup: Callable[[str], T],
    field: str,
    where: Where,
    issues: IssueList,
) -> tuple[T, ...]:
    out: list[T] = []
    for i, item in enumerate(items):
        try:
            out.append(lookup(item) if isinstance(item, str) else inline(item))
        except UnknownReference as exc:
            issues.append(where.issue((field, i), str(exc)))
        except ConfigError as exc:
            issues.extend_from(exc)
    return tuple(out)


def fighter_spec(
    model: FighterModel, lib: Resolver, where: Where, archetype: str = ""
) -> FighterSpec:
    """Build the engine's stat block, resolving weapon, hack and cyberware references."""
    issues = IssueList()
    weapons = _resolve(model.weapons, WeaponModel.to_spec, lib.weapon, "weapons", where, issues)
    hacks = _resolve(model.hacks, HackModel.to_spec, lib.hack, "hacks", where, issues)

    def inline_ware(ware: CyberwareModel) -> CyberwareSpec:
        return ware.to_spec(lib.weapon)

    cyberware = _resolve(model.cyberware, inline_ware, lib.cyberware, "cyberware", where, issues)
    issues.raise_if_any()
    values = {skill_of(k): v for k, v in model.skills.items()}
    skills = tuple(values.get(s, model.skill_default) for s in Skill)
    mumm_max = model.mumm if model.mumm_max is None else model.mumm_max
    return FighterSpec(
        name=model.name,
        side=side_of(model.side),
        skills=skills,
        lp=model.lp,
        bewegung=model.bewegung,
        ausweichen=model.ausweichen,
        firewall=model.firewall,
        ruestung=model.ruestung,
        behinderung=model.behinderung,
        size=size_of(model.size),
        mumm=model.mumm,
        mumm_max=mumm_max,
        initiative_bonus=model.initiative_bonus,
        resistances=frozenset(model.resistances),
        vulnerabilities=frozenset(model.vulnerabilities),
        immunities=frozenset(model.immunities),
        weapons=weapons,
        hacks=hacks,
        cyberware=cyberware,
        items=tuple(i.to_spec() for i in model.items),
        backpack=tuple(i.to_spec() for i in model.backpack),
        humanoid=model.humanoid,
        archetype=archetype,
        tags=frozenset(model.tags),
    )


FIGHTER_FIELDS: tuple[str, ...] = tuple(FighterModel.model_fields)
"""Field names a scenario entry may override (:class:`FighterPatch` mirrors them)."""

__all__ = [
    "FIGHTER_FIELDS",
    "FighterModel",
    "FighterPatch",
    "MergedOrigin",
    "Resolver",
    "fighter_spec",
    "merge_fighter",
    "validate_fighter",
]
