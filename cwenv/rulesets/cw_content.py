"""What a Corporate Wars scenario really is, after loading: its parts and their files.

A game id must change when anything that decides the game changes — a stat block, a weapon,
the map, a rule variant — not only when a name does. The loaded
:class:`~cwenv.engine.game.Game` is plain frozen dataclasses, so its canonical JSON is a
stable text form of the scenario after loading. It is split into named *parts* (the map,
the rules, one part per fighter and per piece of equipment, the setup), so that a resumed
tournament whose content changed is refused with a message that says *what* changed and in
which file (the hashing and the messages are the runner's: :mod:`cwenv.runner.content`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cwenv.content.library import shown_path
from cwenv.hashing import canonical_json

if TYPE_CHECKING:
    from cwenv.engine.game import Game

_EQUIPMENT = ("weapons", "hacks", "cyberware", "items", "backpack")
_LIBRARY = ("weapons", "hacks", "cyberware")  # equipment kinds with files of their own
_SINGULAR = {
    "weapons": "weapon",
    "hacks": "hack",
    "cyberware": "cyberware",
    "items": "item",
    "backpack": "backpack item",
}


def plain(value: Any) -> Any:
    """JSON data of a content object: dataclass fields given to ``__init__`` (derived
    lookup tables and caches are left out), enums by name, sets sorted."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, frozenset | set):
        return sorted((plain(v) for v in value), key=canonical_json)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    dump = getattr(value, "model_dump", None)
    if callable(dump):  # a pydantic model
        return dump(mode="json")
    raise TypeError(f"no stable text form for {type(value).__name__}")


def _scenario_file(spec: str) -> tuple[str, dict[str, Any]]:
    """The scenario's file (as shown to the user) and its top-level YAML mapping."""
    from cwenv.content.library import Library
    from cwenv.yamlio import ConfigError, read_yaml_file

    try:
        path = Library().locate("scenarios", spec)
        data = read_yaml_file(path).data
    except ConfigError:  # loaded a moment ago; a file that vanished just names no sources
        return spec, {}
    return shown_path(path), data if isinstance(data, dict) else {}


def _library_file(kind: str, name: Any) -> str | None:
    from cwenv.content.library import looks_like_path
    from cwenv.rules.variants import CONFIG_ROOT

    if not isinstance(name, str) or not name or name == "default":
        return None
    if looks_like_path(name):
        return shown_path(Path(name))
    return shown_path(CONFIG_ROOT / kind / f"{name}.yaml")


def game_parts(game: Game) -> dict[str, Any]:
    """The loaded scenario split into parts: ``map``, ``rules``, ``setup`` (placements,
    victory, round limit, name, ambush), ``fighter:NAME`` and ``weapons:NAME:ITEM`` …"""
    from cwenv.rules.variants import options_to_mapping

    parts: dict[str, Any] = {
        "map": plain(game.battlemap),
        "rules": options_to_mapping(game.options),
        "setup": {
            "name": game.name,
            "positions": {s.name: pos for s, pos in zip(game.roster, game.positions, strict=True)},
            "victory": plain(game.victory),
            "round_limit": game.round_limit,
            "decision_cap": game.decision_cap,
            "ambushed": plain(game.ambushed),
            "order": [spec.name for spec in game.roster],
        },
    }
    for spec in game.roster:
        stats = plain(spec)
        for kind in _EQUIPMENT:
            items = stats.pop(kind)
            seen: dict[str, int] = {}
            for item in items:
                name = str(item.get("name", "?"))
                seen[name] = seen.get(name, 0) + 1
                label = name if seen[name] == 1 else f"{name} #{seen[name]}"
                parts[f"{kind}:{spec.name}:{label}"] = item
        parts[f"fighter:{spec.name}"] = stats
    return parts


def part_sources(spec: str, game: Game, rules: str | None, labels: list[str]) -> dict[str, str]:
    """Part label → the file(s) it is read from, for the parts ``labels`` of ``game``
    (loaded from scenario ``spec`` with the variant ``rules``)."""
    scenario, data = _scenario_file(spec)
    rules_file = _library_file("rules", rules if rules is not None else data.get("rules"))
    rule_sources = [s for s in (rules_file, scenario if "options" in data else None) if s]
    map_ref = data.get("map")
    sources = {
        "map": _library_file("maps", map_ref) or scenario,
        "rules": " and ".join(rule_sources) or "the default rules",
        "setup": scenario,
    }
    for archetype, name in ((s.archetype, s.name) for s in game.roster):
        block = _library_file("fighters", archetype)
        sources[f"fighter:{name}"] = f"{block} and {scenario}" if block else scenario
    for label in labels:
        kind, _, rest = label.partition(":")
        if kind in _EQUIPMENT:  # items are written into the fighter's stat block
            owner = sources.get(f"fighter:{rest.partition(':')[0]}", scenario)
            sources[label] = f"configs/{kind}/ or {owner}" if kind in _LIBRARY else owner
    return sources


def describe_part(label: str) -> str:
    kind, _, rest = label.partition(":")
    if kind == "map":
        return "the map"
    if kind == "rules":
        return "the rule options"
    if kind == "setup":
        return "the placements, victory conditions or round limit"
    if kind == "fighter":
        return f"fighter {rest}"
    if kind in _EQUIPMENT:
        fighter, _, item = rest.partition(":")
        return f"{_SINGULAR[kind]} {item} of fighter {fighter}"
    return label
