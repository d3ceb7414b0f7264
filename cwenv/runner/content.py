"""The resolved content of a run: what each scenario and agent really is.

A game id must change when anything that decides the game changes — a stat block, a weapon,
the map, a rule variant, an agent's settings — not only when a name does. The scenario's
ruleset splits its loaded game into named *parts* of plain JSON
(:meth:`~cwenv.ruleset.Ruleset.content_parts`: for Corporate Wars the map, the rules, one
part per fighter and per piece of equipment, the setup), each hashed here, so that a
resumed tournament whose content changed can be refused with a message that says *what*
changed and in which file, instead of silently mixing two versions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import content_hash

if TYPE_CHECKING:
    from cwenv.ruleset import Ruleset
    from cwenv.runner.plan import AgentInfo
    from cwenv.runner.task import LoadedGame


class ContentChangedError(RunnerError):
    """A tournament is resumed with content that differs from the content it began with."""


@dataclass(frozen=True)
class ScenarioContent:
    """One scenario after loading: a hash per part, and where each part comes from."""

    hash: str
    parts: dict[str, str]  # part label → hash
    sources: dict[str, str]  # part label → the file(s) it is read from

    def to_json(self) -> dict[str, Any]:
        return {"hash": self.hash, "parts": self.parts, "sources": self.sources}


def part_hashes(loaded: LoadedGame) -> dict[str, str]:
    parts = loaded.ruleset.content_parts(loaded.game)
    return {label: content_hash(value, 16) for label, value in parts.items()}


_HASHES: dict[tuple[str, str | None], tuple[Any, str]] = {}


def game_content_hash(loaded: LoadedGame, rules: str | None) -> str:
    """:attr:`ScenarioContent.hash` of a loaded game, computed once per process and game
    (the cache keeps the game it was computed for and checks that it is the same one)."""
    key = (loaded.scenario, rules)
    known = _HASHES.get(key)
    if known is not None and known[0] is loaded.game:
        return known[1]
    value = content_hash(part_hashes(loaded), 16)
    _HASHES[key] = (loaded.game, value)
    return value


def scenario_content(spec: str, game: Any, rules: str | None = None) -> ScenarioContent:
    """The parts of ``game`` (loaded from scenario ``spec`` with variant ``rules``) hashed,
    with the file each part is read from."""
    from cwenv.runner.task import LoadedGame, ruleset_and_scenario

    ruleset, scenario = ruleset_and_scenario(spec)
    parts = part_hashes(LoadedGame(ruleset, game, spec))
    sources = ruleset.content_sources(scenario, game, rules)
    return ScenarioContent(content_hash(parts, 16), parts, sources)


def scenario_changes(
    scenario: str, old: Mapping[str, Any], new: ScenarioContent, ruleset: Ruleset | None = None
) -> list[str]:
    """One line per part of ``scenario`` (of ``ruleset``, default: the scenario's) that
    differs between ``old`` and ``new``."""
    from cwenv.runner.task import ruleset_of

    describe = (ruleset or ruleset_of(scenario)).describe_part
    old_parts: dict[str, str] = dict(old.get("parts", {}))
    old_sources: dict[str, str] = dict(old.get("sources", {}))
    lines: list[str] = []
    for label in sorted(set(old_parts) | set(new.parts)):
        before, after = old_parts.get(label), new.parts.get(label)
        if before == after:
            continue
        what = describe(label)
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
    from cwenv.content.library import looks_like_path, shown_path

    base = spec.partition("!")[0]
    if looks_like_path(base):
        return f" ({base})"
    path = agent_source(base)
    return f" ({shown_path(Path(path))})" if path else ""


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
