"""Weapons, hacks, cyberware and items as YAML models (X12 weapon data, X13 stat data).

Each model converts to the engine's immutable spec in :mod:`cwenv.model.specs`. Cross-field
rules are field validators (they see the fields declared before them), so every error
points at the field to change.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, Discriminator, Field, Tag, ValidationInfo, field_validator

from cwenv.content.fields import (
    MODEL_CONFIG,
    AbilityKindField,
    ArmourModeField,
    ConditionField,
    DamageDie,
    DamageForm,
    ItemKindField,
    Name,
    RefName,
    SkillBonusMap,
    SmallInt,
    Text,
    WeaponKindField,
    condition_of,
    parse_damage,
    skill_of,
    zehrend_type,
)
from cwenv.model.specs import (
    AbilityKind,
    CyberAbility,
    CyberwareSpec,
    HackSpec,
    ItemKind,
    ItemSpec,
    RangeBand,
    WeaponSpec,
)
from cwenv.model.types import ArmourMode, WeaponKind

Radius = Annotated[int, Field(ge=0, le=10)]


class RangeBandModel(BaseModel):
    """Up to ``max_m`` metres the attack gets ``modifier`` on its Probenwert (X12)."""

    model_config = MODEL_CONFIG

    max_m: Annotated[int, Field(ge=1, le=500)]
    modifier: SmallInt = 0


class WeaponModel(BaseModel):
    """A weapon (A01, A06, X12): ``configs/weapons/<name>.yaml``."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    kind: WeaponKindField
    damage: DamageDie = "W10"
    armour_mode: ArmourModeField = "normal"
    forms: list[DamageForm] = []
    zehrend: DamageForm | None = None
    reach: Annotated[int, Field(ge=1, le=10)] | None = None
    ranges: list[RangeBandModel] = []
    magazine: Annotated[int, Field(ge=0, le=500)] = 0
    nachladen: Annotated[int, Field(ge=0, le=10)] = 0
    attack_modifier: SmallInt = 0
    non_lethal: bool = False
    area_radius: Radius = 0
    durchdringung: bool = False
    improvised: bool = False

    @field_validator("reach")
    @classmethod
    def _reach_melee_only(cls, v: int | None, info: ValidationInfo) -> int | None:
        if v is not None and info.data.get("kind") == "fernkampf":
            raise ValueError("reach is for nahkampf weapons; a fernkampf weapon uses ranges")
        return v

    @field_validator("ranges")
    @classmethod
    def _ranges(cls, v: list[RangeBandModel], info: ValidationInfo) -> list[RangeBandModel]:
        kind = info.data.get("kind")
        if kind == "nahkampf" and v:
            raise ValueError("ranges are for fernkampf weapons; a nahkampf weapon uses reach")
        if kind == "fernkampf" and not v:
            raise ValueError("a fernkampf weapon needs at least one range band {max_m, modifier}")
        for a, b in itertools.pairwise(v):
            if b.max_m <= a.max_m:
                raise ValueError("range bands must be ordered by strictly increasing max_m")
        return v

    @field_validator("magazine")
    @classmethod
    def _magazine(cls, v: int, info: ValidationInfo) -> int:
        if v and info.data.get("kind") == "nahkampf":
            raise ValueError("only fernkampf weapons have a magazine")
        return v

    @field_validator("nachladen")
    @classmethod
    def _nachladen(cls, v: int, info: ValidationInfo) -> int:
        if info.data.get("magazine", 0) > 0 and v < 1:
            raise ValueError("a weapon with a magazine needs nachladen >= 1 (H05)")
        if v and not info.data.get("magazine"):
            raise ValueError("nachladen needs a magazine > 0")
        return v

    @field_validator("durchdringung")
    @classmethod
    def _durchdringung(cls, v: bool, info: ValidationInfo) -> bool:
        if v and not info.data.get("area_radius"):
            raise ValueError("durchdringung only matters for area attacks (C03); set area_radius")
        return v

    def to_spec(self) -> WeaponSpec:
        return WeaponSpec(
            name=self.name,
            kind=WeaponKind(self.kind),
            bonus=parse_damage(self.damage),
            armour_mode=ArmourMode(self.armour_mode),
            forms=frozenset(self.forms),
            zehrend=zehrend_type(self.zehrend) if self.zehrend else None,
            reach=self.reach or 1,
            ranges=tuple(RangeBand(b.max_m, b.modifier) for b in self.ranges),
            magazine=self.magazine,
            nachladen=self.nachladen,
            attack_modifier=self.attack_modifier,
            non_lethal=self.non_lethal,
            area_radius=self.area_radius,
            durchdringung=self.durchdringung,
            improvised=self.improvised,
        )


class HackModel(BaseModel):
    """A hack (H03, H10, C03, D02): ``configs/hacks/<name>.yaml``."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    range_m: Annotated[int, Field(ge=1, le=500)] = 30
    upload: Annotated[int, Field(ge=0, le=10)] = 0
    damage: DamageDie = "W10"
    deals_damage: bool = True
    armour_mode: ArmourModeField = "direkt"
    forms: list[DamageForm] = ["digital"]
    condition: ConditionField | None = None
    zehrend: DamageForm | None = None
    area_radius: Radius = 0
    durchdringung: bool = False
    modifier: SmallInt = 0

    @field_validator("zehrend")
    @classmethod
    def _has_effect(cls, v: str | None, info: ValidationInfo) -> str | None:
        silent = info.data.get("deals_damage") is False and "condition" in info.data
        if v is None and silent and info.data["condition"] is None:
            raise ValueError(
                "a hack with deals_damage: false needs a condition or zehrend to do anything"
            )
        return v

    @field_validator("durchdringung")
    @classmethod
    def _durchdringung(cls, v: bool, info: ValidationInfo) -> bool:
        if v and not info.data.get("area_radius"):
            raise ValueError("durchdringung only matters for area hacks (C03); set area_radius")
        return v

    def to_spec(self) -> HackSpec:
        return HackSpec(
            name=self.name,
            range_m=self.range_m,
            upload=self.upload,
            bonus=parse_damage(self.damage),
            deals_damage=self.deals_damage,
            armour_mode=ArmourMode(self.armour_mode),
            forms=frozenset(self.forms),
            condition=condition_of(self.condition) if self.condition else None,
            zehrend=zehrend_type(self.zehrend) if self.zehrend else None,
            area_radius=self.area_radius,
            durchdringung=self.durchdringung,
            modifier=self.modifier,
        )


class ItemModel(BaseModel):
    """A consumable (H04, H06): ``heilung`` heals ``amount``W10 LP, ``stimulans`` ends
    ``condition``."""

    model_config = MODEL_CONFIG

    name: Name
    kind: ItemKindField
    amount: Annotated[int, Field(ge=1, le=10)] = 1
    condition: ConditionField | None = None

    @field_validator("condition")
    @classmethod
    def _stim_condition(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is None and info.data.get("kind") == "stimulans":
            raise ValueError("a stimulans needs the condition it ends")
        return v

    def to_spec(self) -> ItemSpec:
        return ItemSpec(
            name=self.name,
            kind=ItemKind(self.kind),
            amount=self.amount,
            condition=condition_of(self.condition) if self.condition else None,
        )


class AbilityModel(BaseModel):
    """An active cyberware ability (H09): heilen ``amount``W10 LP, abschuetteln
    ``condition``, panzerung +``amount`` armour this round, fokus +``amount`` on the next
    check; usable ``uses`` times per combat."""

    model_config = MODEL_CONFIG

    kind: AbilityKindField
    amount: Annotated[int, Field(ge=0, le=20)] = 0
    condition: ConditionField | None = None
    uses: Annotated[int, Field(ge=1, le=20)] = 1

    @field_validator("condition")
    @classmethod
    def _needs(cls, v: str | None, info: ValidationInfo) -> str | None:
        kind = info.data.get("kind")
        if kind == "abschuetteln" and v is None:
            raise ValueError("abschuetteln needs the condition it ends")
        if kind in ("heilen", "panzerung", "fokus") and not info.data.get("amount"):
            raise ValueError(f"{kind} needs amount >= 1")
        return v

    def to_spec(self) -> CyberAbility:
        return CyberAbility(
            kind=AbilityKind(self.kind),
            amount=self.amount,
            condition=condition_of(self.condition) if self.condition else None,
            uses=self.uses,
        )


def _ref_or_inline(value: Any) -> str | None:
    if isinstance(value, str):
        return "ref"
    if isinstance(value, dict):
        return "inline"
    return None


REF_OR_INLINE = Discriminator(
    _ref_or_inline,
    custom_error_type="ref_or_inline",
    custom_error_message="expected a file name (text) or an inline mapping",
)
"""A field that is a file name (``pistole``) or the same thing written inline."""

WeaponRef = Annotated[
    Annotated[RefName, Tag("ref")] | Annotated[WeaponModel, Tag("inline")], REF_OR_INLINE
]
HackRef = Annotated[
    Annotated[RefName, Tag("ref")] | Annotated[HackModel, Tag("inline")], REF_OR_INLINE
]


class CyberwareModel(BaseModel):
    """Cyberware (I01, H09): ``configs/cyberware/<name>.yaml``. Passive bonuses add to the
    fighter's values; ``weapon`` is a built-in weapon; ``ability`` an active ability."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    initiative_bonus: Annotated[int, Field(ge=0, le=20)] = 0
    armour_bonus: Annotated[int, Field(ge=0, le=20)] = 0
    movement_bonus: Annotated[int, Field(ge=-6, le=20)] = 0
    skill_bonuses: SkillBonusMap = {}
    weapon: WeaponRef | None = None
    ability: AbilityModel | None = None

    def to_spec(self, weapon: Callable[[str], WeaponSpec]) -> CyberwareSpec:
        """The spec; ``weapon`` resolves a weapon file name (the caller reports failures)."""
        built_in = None
        if isinstance(self.weapon, str):
            built_in = weapon(self.weapon)
        elif isinstance(self.weapon, WeaponModel):
            built_in = self.weapon.to_spec()
        return CyberwareSpec(
            name=self.name,
            initiative_bonus=self.initiative_bonus,
            armour_bonus=self.armour_bonus,
            movement_bonus=self.movement_bonus,
            skill_bonuses=tuple((skill_of(k), v) for k, v in self.skill_bonuses.items()),
            weapon=built_in,
            ability=self.ability.to_spec() if self.ability else None,
        )


CyberwareRef = Annotated[
    Annotated[RefName, Tag("ref")] | Annotated[CyberwareModel, Tag("inline")], REF_OR_INLINE
]
