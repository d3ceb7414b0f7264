"""The resolved content of a tournament: what each scenario and agent really is.

A game id must change when anything that decides the game changes — a stat block, a weapon,
the map, a rule variant, an agent's settings — not only when a name does. The loaded
:class:`~cwenv.engine.game.Game` is plain frozen dataclasses, so its canonical JSON is a
stable text form of the scenario after loading. It is split into named *parts* (the map,
the rules, one part per fighter and per piece of equipment, the setup), each with its own
hash, so that a resumed tournament whose content changed can be refused with a message that
says *what* changed and in which file, instead of silently mixing two versions.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import canonical_json, content_hash

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.runner.plan import AgentInfo

_EQUIPMENT = ("weapons", "hacks", "cyberware", "items", "backpack")
_LIBRARY = ("weapons", "hacks", "cyberware")  # equipment kinds with files of their own
_SINGULAR = {
    "weapons": "weapon",
    "hacks": "hack",
    "cyberware": "cyberware",
    "items": "item",
    "backpack": "backpack item",
}


class ContentChangedError(RunnerError):
    """A tournament is resumed with content that differs from the content it began with."""


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


def _shown(path: Path) -> str:
    """A library file as ``configs/...``; any other file as given."""
    from cwenv.rules.variants import CONFIG_ROOT

    try:
        return str(path.resolve().relative_to(CONFIG_ROOT.parent))
    except ValueError:
        return str(path)


def _scenario_file(spec: str) -> tuple[str, dict[str, Any]]:
    """The scenario's file (as shown to the user) and its top-level YAML mapping."""
    from cwenv.content.library import Library
    from cwenv.yamlio import ConfigError, read_yaml_file

    try:
        path = Library().locate("scenarios", spec)
        data = read_yaml_file(path).data
    except ConfigError:  # loaded a moment ago; a file that vanished just names no sources
        return spec, {}
    return _shown(path), data if isinstance(data, dict) else {}


def _library_file(kind: str, name: Any) -> str | None:
    from cwenv.content.library import looks_like_path
    from cwenv.rules.variants import CONFIG_ROOT

    if not isinstance(name, str) or not name or name == "default":
        return None
    if looks_like_path(name):
        return _shown(Path(name))
    return _shown(CONFIG_ROOT / kind / f"{name}.yaml")


@dataclass(frozen=True)
class ScenarioContent:
    """One scenario after loading: a hash per part, and where each part comes from."""

    hash: str
    parts: dict[str, str]  # part label → hash
    sources: dict[str, str]  # part label → the file(s) it is read from

    def to_json(self) -> dict[str, Any]:
        return {"hash": self.hash, "parts": self.parts, "sources": self.sources}


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


def part_hashes(game: Game) -> dict[str, str]:
    return {label: content_hash(value, 16) for label, value in game_parts(game).items()}


_HASHES: dict[tuple[str, str | None], tuple[Game, str]] = {}


def game_content_hash(scenario: str, rules: str | None, game: Game) -> str:
    """:attr:`ScenarioContent.hash` of a loaded game, computed once per process and Game
    (the cache keeps the Game it was computed for and checks that it is the same one)."""
    known = _HASHES.get((scenario, rules))
    if known is not None and known[0] is game:
        return known[1]
    value = content_hash(part_hashes(game), 16)
    _HASHES[(scenario, rules)] = (game, value)
    return value


def scenario_content(spec: str, game: Game, rules: str | None = None) -> ScenarioContent:
    """The parts of ``game`` (loaded from scenario ``spec`` with variant ``rules``) hashed,
    with the file each part is read from."""
    parts = part_hashes(game)
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
    for label in parts:
        kind, _, rest = label.partition(":")
        if kind in _EQUIPMENT:  # items are written into the fighter's stat block
            owner = sources.get(f"fighter:{rest.partition(':')[0]}", scenario)
            sources[label] = f"configs/{kind}/ or {owner}" if kind in _LIBRARY else owner
    return ScenarioContent(content_hash(parts, 16), parts, sources)


def _describe_part(label: str) -> str:
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


def scenario_changes(scenario: str, old: Mapping[str, Any], new: ScenarioContent) -> list[str]:
    """One line per part of ``scenario`` that differs between ``old`` and ``new``."""
    old_parts: dict[str, str] = dict(old.get("parts", {}))
    old_sources: dict[str, str] = dict(old.get("sources", {}))
    lines: list[str] = []
    for label in sorted(set(old_parts) | set(new.parts)):
        before, after = old_parts.get(label), new.parts.get(label)
        if before == after:
            continue
        what = _describe_part(label)
        source = new.sources.get(label) or old_sources.get(label, "")
        where = f" ({'stat block ' if label.startswith('fighter:') else ''}{source})"
        if before is None:
            change = "was added"
        elif after is None:
            change = "was removed"
        else:
            change = "changed"
        lines.append(f"scenario {scenario}: {what} {change}{where if source else ''}")
    if not lines and old.get("hash") != new.hash:
        lines.append(f"scenario {scenario}: its content changed")
    return lines


def agent_changes(spec: str, old: Mapping[str, Any] | None, new: AgentInfo) -> list[str]:
    """What differs in an agent's resolved settings: the changed fields, old → new."""
    if old is None:
        return [f"agent {spec}: not recorded when the tournament was started"]
    if old.get("hash") == new.hash:
        return []
    before, after = dict(old.get("config") or {}), dict(new.fingerprint.get("config") or {})
    fields = [
        f"{k}: {before.get(k, '(unset)')!r} → {after.get(k, '(unset)')!r}"
        for k in sorted(set(before) | set(after))
        if before.get(k) != after.get(k)
    ]
    if old.get("class") != new.fingerprint.get("class"):
        fields.insert(0, f"class {old.get('class')} → {new.fingerprint.get('class')}")
    for key in ("uses", "forbidden", "policy"):
        if old.get(key) != new.fingerprint.get(key):
            fields.append(f"{key} changed")
    detail = "; ".join(fields) or "its settings changed"
    return [f"agent {spec}: {detail}{_agent_source(spec)}"]


def _agent_source(spec: str) -> str:
    from cwenv.agent_registry import agent_source
    from cwenv.content.library import looks_like_path

    base = spec.partition("!")[0]
    if looks_like_path(base):
        return f" ({base})"
    path = agent_source(base)
    return f" ({_shown(Path(path))})" if path else ""


def run_changes(
    old: Mapping[str, Any], content: Mapping[str, ScenarioContent], agents: Mapping[str, AgentInfo]
) -> list[str]:
    """Everything that differs between a stored tournament config ``old`` and a new plan's
    resolved scenarios and agents (empty: the same content)."""
    recorded = old.get("content")
    if not isinstance(recorded, dict):
        return [
            "it was started by an older cwenv that did not record the content of its "
            "scenarios (results format 1), so this run cannot check it"
        ]
    lines: list[str] = []
    for scenario, new in content.items():
        before = recorded.get(scenario)
        if isinstance(before, dict):
            lines += scenario_changes(scenario, before, new)
        else:
            lines.append(f"scenario {scenario}: not recorded when the tournament was started")
    fingerprints = old.get("agent_fingerprints")
    known = fingerprints if isinstance(fingerprints, dict) else {}
    for spec, info in agents.items():
        before_agent = known.get(spec)
        lines += agent_changes(spec, before_agent if isinstance(before_agent, dict) else None, info)
    return lines
