"""The public face of the content package: load, list and validate YAML content.

Names refer to files of the library (``configs/<kind>/<name>.yaml``); anything ending in
``.yaml``/``.yml`` or containing a slash is a path. References inside a file (weapons of
a fighter, the map of a scenario, archetypes) are always names in the library tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cwenv.battlemap.grid import BattleMap
from cwenv.content.assemble import build_game
from cwenv.content.equipment import CyberwareModel, HackModel, WeaponModel
from cwenv.content.errors import Origin, UnknownReference, validate
from cwenv.content.fighters import FighterModel, fighter_spec
from cwenv.content.library import KINDS, Kind, Library
from cwenv.content.maps import MapModel, build_map
from cwenv.content.scenarios import ScenarioModel
from cwenv.engine.game import Game
from cwenv.model.specs import CyberwareSpec, FighterSpec, HackSpec, WeaponSpec
from cwenv.rules.variants import load_rule_variant
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument, read_yaml_file

MODELS: dict[str, type[BaseModel]] = {
    "weapons": WeaponModel,
    "hacks": HackModel,
    "cyberware": CyberwareModel,
    "fighters": FighterModel,
    "maps": MapModel,
    "scenarios": ScenarioModel,
}


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario: the Game and what the file says about it."""

    name: str
    description: str
    source: Path
    game: Game


def _read(lib: Library, kind: Kind, name_or_path: str | Path) -> tuple[YamlDocument, Any]:
    doc = read_yaml_file(lib.locate(kind, name_or_path))
    return doc, validate(MODELS[kind], Origin(doc), doc.data)


def read_scenario(
    name_or_path: str | Path, *, root: str | Path | None = None, rules: str | Path | None = None
) -> Scenario:
    """Load a scenario with its description; ``rules`` replaces the scenario's variant."""
    lib = Library(root)
    doc, model = _read(lib, "scenarios", name_or_path)
    game = build_game(model, doc, lib, rules=rules)
    return Scenario(model.name, model.description, Path(doc.source), game)


def load_scenario(
    name_or_path: str | Path, *, root: str | Path | None = None, rules: str | Path | None = None
) -> Game:
    """The :class:`Game` of a scenario (``feuergefecht`` or a path); ConfigError if invalid."""
    return read_scenario(name_or_path, root=root, rules=rules).game


def list_scenarios(root: str | Path | None = None) -> list[str]:
    """Names of the scenarios in the library, sorted."""
    return Library(root).names("scenarios")


def list_content(kind: Kind, root: str | Path | None = None) -> list[str]:
    """Names of the files of one kind (``weapons``, ``fighters``, …), sorted."""
    return Library(root).names(kind)


def load_fighter(name_or_path: str | Path, *, root: str | Path | None = None) -> FighterSpec:
    """A fighter archetype's stat block (``konzernwache`` or a path)."""
    lib = Library(root)
    doc, model = _read(lib, "fighters", name_or_path)
    return fighter_spec(model, lib, Origin(doc), Path(doc.source).stem)


def _with_refs(doc: YamlDocument, field: str, make: Any) -> Any:
    try:
        return make()
    except UnknownReference as exc:
        raise ConfigError([Origin(doc).issue((field,), str(exc))]) from None


def load_weapon(name_or_path: str | Path, *, root: str | Path | None = None) -> WeaponSpec:
    spec: WeaponSpec = _read(Library(root), "weapons", name_or_path)[1].to_spec()
    return spec


def load_hack(name_or_path: str | Path, *, root: str | Path | None = None) -> HackSpec:
    spec: HackSpec = _read(Library(root), "hacks", name_or_path)[1].to_spec()
    return spec


def load_cyberware(name_or_path: str | Path, *, root: str | Path | None = None) -> CyberwareSpec:
    lib = Library(root)
    doc, model = _read(lib, "cyberware", name_or_path)
    spec: CyberwareSpec = _with_refs(doc, "weapon", lambda: model.to_spec(lib.weapon))
    return spec


def load_map(name_or_path: str | Path, *, root: str | Path | None = None) -> BattleMap:
    doc, model = _read(Library(root), "maps", name_or_path)
    return build_map(model, Origin(doc))


def kind_of(path: Path, data: Any = None) -> Kind | None:
    """The kind of a content file: its folder's name, else a guess from its fields."""
    if path.parent.name in KINDS:
        return next(k for k in KINDS if k == path.parent.name)
    if not isinstance(data, dict):
        return None
    guesses: tuple[tuple[Kind, tuple[str, ...]], ...] = (
        ("scenarios", ("fighters",)),
        ("maps", ("grid",)),
        ("fighters", ("side", "lp")),
        ("hacks", ("range_m", "upload")),
        ("weapons", ("kind", "ranges", "reach")),
        ("cyberware", ("ability", "initiative_bonus", "armour_bonus", "skill_bonuses")),
        ("rules", ("options", "base")),
    )
    for kind, keys in guesses:
        if any(k in data for k in keys):
            return kind
    return None


_LOADERS = {
    "weapons": load_weapon,
    "hacks": load_hack,
    "cyberware": load_cyberware,
    "fighters": load_fighter,
    "maps": load_map,
    "scenarios": load_scenario,
}


def validate_file(
    path: str | Path, *, kind: Kind | None = None, root: str | Path | None = None
) -> Kind:
    """Load ``path`` completely (references included); return its kind or raise ConfigError."""
    p = Path(path)
    if kind is None:
        doc = read_yaml_file(p)
        kind = kind_of(p, doc.data)
        if kind is None:
            raise ConfigError(
                [
                    ConfigIssue(
                        str(p),
                        1,
                        (),
                        "cannot tell what this file describes; put it in "
                        f"configs/<kind>/ or name the kind ({', '.join(KINDS)})",
                    )
                ]
            )
    if kind == "rules":
        load_rule_variant(p)
    else:
        _LOADERS[kind](p, root=root)
    return kind


def library_files(root: str | Path | None = None) -> Iterable[Path]:
    """Every content file of the library, kind by kind."""
    lib = Library(root)
    for kind in KINDS:
        for name in lib.names(kind):
            yield lib.root / kind / f"{name}.yaml"
