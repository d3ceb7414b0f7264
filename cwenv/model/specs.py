"""Static stat blocks: fighters, weapons, hacks, cyberware and items.

These are the immutable "Game" half of the Game/State split: a combat's mutable state
refers to them by index and never changes them. The text leaves most numbers to stat
blocks (X12 weapon data, X13 LP, Bewegung, Mumm, Firewall, Behinderung, sizes), so every
such number lives here and in the YAML files under ``configs/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, SupportsIndex

from cwenv.model.types import (
    SKILL_COUNT,
    ArmourMode,
    CheckValue,
    Condition,
    Side,
    Size,
    Skill,
    WeaponKind,
)


@dataclass(frozen=True, slots=True)
class RangeBand:
    """Up to ``max_m`` metres the attack gets ``modifier`` (X12: ranges are weapon data)."""

    max_m: int
    modifier: int = 0


@dataclass(frozen=True, slots=True)
class WeaponSpec:
    """A weapon (X12). Melee weapons use ``reach``; ranged weapons ``ranges``.

    One W10 + ``bonus`` is rolled per QS (A06; the rules know no other damage die, so a
    spec has no die to set). ``forms`` are the damage forms that resistances,
    vulnerabilities and immunities name (D04, e.g. ``feuer``). ``zehrend`` names the
    Zehrend type a hit inflicts (D03, Z08), e.g. ``"Feuer"``.
    """

    name: str
    kind: WeaponKind
    bonus: int = 0
    armour_mode: ArmourMode = ArmourMode.NORMAL
    forms: frozenset[str] = frozenset()
    zehrend: str | None = None
    reach: int = 1
    ranges: tuple[RangeBand, ...] = ()
    magazine: int = 0
    nachladen: int = 0
    reloads: int | None = None  # spare magazines (None: enough for any fight)
    attack_modifier: int = 0
    non_lethal: bool = False
    area_radius: int = 0
    durchdringung: bool = False
    improvised: bool = False

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        # The unarmed strike is told by identity (X12's bonus, A08's jam): a copied or
        # unpickled combat must get the one UNARMED back, not an equal twin.
        if self is UNARMED:
            return "UNARMED"
        return object.__reduce_ex__(self, protocol)

    @property
    def skill(self) -> Skill:
        """Fernkampf for ranged and thrown weapons, Kampfkunst for melee (P09)."""
        return Skill.FERNKAMPF if self.kind is WeaponKind.RANGED else Skill.KAMPFKUNST

    @property
    def max_range(self) -> int:
        if self.kind is WeaponKind.MELEE:
            return self.reach
        return self.ranges[-1].max_m if self.ranges else 0

    def range_modifier(self, distance: int) -> int | None:
        """The range modifier at ``distance`` metres, or None when out of range."""
        if self.kind is WeaponKind.MELEE:
            return 0 if distance <= self.reach else None
        for band in self.ranges:
            if distance <= band.max_m:
                return band.modifier
        return None

    @property
    def uses_ammo(self) -> bool:
        return self.kind is WeaponKind.RANGED and self.magazine > 0


UNARMED = WeaponSpec(
    name="Faust",
    kind=WeaponKind.MELEE,
    bonus=-2,
    forms=frozenset({"stumpf"}),
    reach=1,
    improvised=True,
)
"""Every fighter can strike unarmed with Kampfkunst (P09: "Schläge, Tritte")."""


@dataclass(frozen=True, slots=True)
class HackSpec:
    """A hack (H10): rolled on Hacking, defended with Firewall (A03, R03).

    ``upload`` is the number of Uploaden Handlungen needed before it can be run (H03).
    Hacks deal direct damage by default (D02), one W10 + ``bonus`` per QS (A06);
    ``area_radius`` > 0 makes it an area hack (C03) centred on the target.
    """

    name: str
    range_m: int = 30
    upload: int = 0
    bonus: int = 0
    deals_damage: bool = True
    armour_mode: ArmourMode = ArmourMode.DIREKT
    forms: frozenset[str] = frozenset({"digital"})
    condition: Condition | None = None
    zehrend: str | None = None
    area_radius: int = 0
    durchdringung: bool = False
    modifier: int = 0


class AbilityKind(Enum):
    """What an active cyberware ability does when used as a Handlung (H09)."""

    HEAL = "heilen"  # heal ``amount``W10 LP (own body)
    SHAKE = "abschuetteln"  # end ``condition`` on oneself
    ARMOUR = "panzerung"  # +``amount`` armour until the end of the round
    FOCUS = "fokus"  # +``amount`` on the next check this round


@dataclass(frozen=True, slots=True)
class CyberAbility:
    kind: AbilityKind
    amount: int = 0
    condition: Condition | None = None
    uses: int = 1


@dataclass(frozen=True, slots=True)
class CyberwareSpec:
    """Cyberware: passive bonuses and an optional active ability (H09).

    ``initiative_bonus`` adds to the Initiative-Grundwert (I01, e.g. Raptor-Booster +6).
    """

    name: str
    initiative_bonus: int = 0
    armour_bonus: int = 0
    movement_bonus: int = 0
    skill_bonuses: tuple[tuple[Skill, int], ...] = ()
    weapon: WeaponSpec | None = None
    ability: CyberAbility | None = None


class ItemKind(Enum):
    HEAL = "heilung"  # heal ``amount``W10 LP
    STIM = "stimulans"  # end ``condition``


@dataclass(frozen=True, slots=True)
class ItemSpec:
    """A consumable: taken with Interagieren (H04) or fetched with Rucksack durchsuchen (H06)."""

    name: str
    kind: ItemKind
    amount: int = 1
    condition: Condition | None = None


@dataclass(frozen=True, slots=True)
class FighterSpec:
    """A fighter's stat block. Skills are indexed by :class:`Skill`.

    ``ausweichen`` None means ASW equals Reflexe (X21 default); ``mumm`` is the Mumm at the
    start of the combat, ``mumm_max`` its cap (X13).
    """

    name: str
    side: Side
    skills: tuple[int, ...]
    lp: int
    bewegung: int = 6
    ausweichen: int | None = None
    firewall: int = 10
    ruestung: int = 0
    behinderung: int = 0
    size: Size = Size.MITTEL
    mumm: int = 0
    mumm_max: int = 0
    initiative_bonus: int = 0
    resistances: frozenset[str] = frozenset()
    vulnerabilities: frozenset[str] = frozenset()
    immunities: frozenset[str] = frozenset()
    weapons: tuple[WeaponSpec, ...] = ()
    hacks: tuple[HackSpec, ...] = ()
    cyberware: tuple[CyberwareSpec, ...] = ()
    items: tuple[ItemSpec, ...] = ()
    backpack: tuple[ItemSpec, ...] = ()
    humanoid: bool = True
    archetype: str = ""
    tags: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if len(self.skills) != SKILL_COUNT:
            raise ValueError(
                f"fighter {self.name!r}: skills needs {SKILL_COUNT} values, got {len(self.skills)}"
            )
        if self.lp < 1:
            raise ValueError(f"fighter {self.name!r}: lp must be at least 1, got {self.lp}")
        if not 0 <= self.mumm <= max(self.mumm_max, self.mumm):
            raise ValueError(f"fighter {self.name!r}: mumm must be 0..mumm_max")

    def skill(self, skill: Skill) -> int:
        """The skill value including cyberware skill bonuses."""
        value = self.skills[skill]
        for ware in self.cyberware:
            for s, bonus in ware.skill_bonuses:
                if s is skill:
                    value += bonus
        return value

    def value(self, check: CheckValue) -> int:
        """The base value for a check: a skill, ASW (X21: Reflexe unless given) or Firewall."""
        if check is CheckValue.AUSWEICHEN:
            return self.ausweichen if self.ausweichen is not None else self.skill(Skill.REFLEXE)
        if check is CheckValue.FIREWALL:
            return self.firewall
        return self.skill(Skill(check.value))

    @property
    def initiative_bonus_total(self) -> int:
        return self.initiative_bonus + sum(w.initiative_bonus for w in self.cyberware)

    @property
    def initiative_grundwert(self) -> int:
        """Initiative-Grundwert = Reflexe + initiative bonuses (I01)."""
        return self.skill(Skill.REFLEXE) + self.initiative_bonus_total

    @property
    def armour(self) -> int:
        return self.ruestung + sum(w.armour_bonus for w in self.cyberware)

    @property
    def movement(self) -> int:
        return self.bewegung + sum(w.movement_bonus for w in self.cyberware)

    @property
    def all_weapons(self) -> tuple[WeaponSpec, ...]:
        """Carried weapons, built-in cyberware weapons, then the unarmed strike."""
        built_in = tuple(w.weapon for w in self.cyberware if w.weapon is not None)
        return (*self.weapons, *built_in, UNARMED)
