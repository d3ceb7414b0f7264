"""The content library: the YAML files under one ``configs/`` tree, loaded on demand.

Files are referenced by kind and file name without ``.yaml`` (``weapons/pistole.yaml`` is
the weapon ``pistole``). A :class:`Library` caches what it loaded, failures included, so
one scenario that names a broken weapon twice reports it once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from cwenv.battlemap.grid import BattleMap
from cwenv.content.equipment import CyberwareModel, HackModel, WeaponModel
from cwenv.content.errors import Origin, UnknownReference, validate
from cwenv.content.fighters import FighterModel, fighter_spec
from cwenv.content.maps import MapModel, build_map
from cwenv.model.specs import CyberwareSpec, FighterSpec, HackSpec, WeaponSpec
from cwenv.rules.variants import CONFIG_ROOT
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument, read_yaml_file

Kind = Literal["weapons", "hacks", "cyberware", "fighters", "maps", "scenarios", "rules"]
KINDS: tuple[Kind, ...] = (
    "weapons",
    "hacks",
    "cyberware",
    "fighters",
    "maps",
    "scenarios",
    "rules",
)

_SINGULAR = {
    "weapons": "weapon",
    "hacks": "hack",
    "cyberware": "cyberware",
    "fighters": "fighter archetype",
    "maps": "map",
    "scenarios": "scenario",
    "rules": "rule variant",
}

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def looks_like_path(name: str | Path) -> bool:
    """Whether ``name`` is a file path rather than a library name."""
    text = str(name)
    return isinstance(name, Path) or text.endswith((".yaml", ".yml")) or "/" in text or "\\" in text


def shown_path(path: str | Path) -> str:
    """A file of the repository's ``configs/`` as ``configs/...`` (how messages name it);
    any other file as given."""
    try:
        return str(Path(path).resolve().relative_to(CONFIG_ROOT.parent))
    except ValueError:
        return str(path)


class Library:
    """Content files under ``root`` (default: the repository's ``configs/``)."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else CONFIG_ROOT
        self._cache: dict[tuple[str, str], Any] = {}

    # -- files ------------------------------------------------------------------------
    def names(self, kind: Kind) -> list[str]:
        """The names of every file of ``kind``, sorted."""
        folder = self.root / kind
        return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []

    def path(self, kind: Kind, name: str) -> Path:
        """The file of ``name``; :class:`UnknownReference` lists the known names."""
        candidate = self.root / kind / f"{name}.yaml"
        if not candidate.is_file():
            raise UnknownReference(_SINGULAR[kind], name, self.names(kind))
        return candidate

    def locate(self, kind: Kind, name_or_path: str | Path) -> Path:
        """A library name or a file path; an unknown name is a :class:`ConfigError`."""
        if looks_like_path(name_or_path):
            return Path(name_or_path)
        try:
            return self.path(kind, str(name_or_path))
        except UnknownReference as exc:
            raise ConfigError([ConfigIssue(str(name_or_path), None, (), str(exc))]) from None

    def document(self, kind: Kind, name: str) -> YamlDocument:
        doc: YamlDocument = self._cached(
            ("doc:" + kind, name), lambda: read_yaml_file(self.path(kind, name))
        )
        return doc

    def _cached(self, key: tuple[str, str], make: Any) -> Any:
        if key not in self._cache:
            try:
                self._cache[key] = make()
            except (ConfigError, UnknownReference) as exc:
                self._cache[key] = exc
        value = self._cache[key]
        if isinstance(value, ConfigError | UnknownReference):
            raise value
        return value

    def _model(self, kind: Kind, name: str, model: type[M]) -> M:
        def make() -> M:
            doc = self.document(kind, name)
            return validate(model, Origin(doc), doc.data)

        result: M = self._cached(("model:" + kind, name), make)
        return result

    # -- typed loaders (references by name) -------------------------------------------
    def weapon(self, name: str) -> WeaponSpec:
        return self._model("weapons", name, WeaponModel).to_spec()

    def hack(self, name: str) -> HackSpec:
        return self._model("hacks", name, HackModel).to_spec()

    def cyberware(self, name: str) -> CyberwareSpec:
        def make() -> CyberwareSpec:
            model = self._model("cyberware", name, CyberwareModel)
            where = Origin(self.document("cyberware", name))
            try:
                return model.to_spec(self.weapon)
            except UnknownReference as exc:
                raise ConfigError([where.issue(("weapon",), str(exc))]) from None

        result: CyberwareSpec = self._cached(("spec:cyberware", name), make)
        return result

    def fighter_model(self, name: str) -> FighterModel:
        return self._model("fighters", name, FighterModel)

    def fighter(self, name: str) -> FighterSpec:
        def make() -> FighterSpec:
            model = self.fighter_model(name)
            return fighter_spec(model, self, Origin(self.document("fighters", name)), name)

        result: FighterSpec = self._cached(("spec:fighters", name), make)
        return result

    def map(self, name: str) -> BattleMap:
        def make() -> BattleMap:
            model = self._model("maps", name, MapModel)
            return build_map(model, Origin(self.document("maps", name)))

        result: BattleMap = self._cached(("spec:maps", name), make)
        return result


def load_file(path: Path, model: type[M]) -> tuple[M, YamlDocument]:
    """Read and validate one file of any kind."""
    doc = read_yaml_file(path)
    return validate(model, Origin(doc), doc.data), doc
