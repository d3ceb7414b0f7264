"""The tournament plan: every game, with a deterministic id, written before any is played.

Round robin: every pairing of two distinct agents plays both sides of every scenario,
``games`` times each. A game's id hashes (tournament name, pairing, scenario, side, index,
tournament seed, rules hash, agent config hash, and the hash of the scenario's resolved
content: stat blocks, weapons, map, rules — :mod:`cwenv.runner.content`); its dice seed is
``game_seed(seed, index)``, the same for every pairing, side and scenario (common random
numbers), and the same as game ``index`` of ``cwenv simulate --seed seed``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from cwenv.rules.dice import STREAM
from cwenv.ruleset import Ruleset
from cwenv.runner.content import ScenarioContent, scenario_content
from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import content_hash
from cwenv.runner.seeds import game_seed
from cwenv.runner.task import (
    GameTask,
    check_fit,
    game_rules,
    load,
    one_ruleset,
    resolve_agent,
    resolve_scenario,
    resolve_source,
    split_restriction,
)


@dataclass(frozen=True)
class TournamentConfig:
    """What the user asked for."""

    agents: tuple[str, ...]
    scenarios: tuple[str, ...]
    games: int
    seed: int = 0
    rules: str | None = None
    name: str = "main"


@dataclass(frozen=True)
class AgentInfo:
    spec: str
    fingerprint: dict[str, Any]
    hash: str


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan; :meth:`task` is what a worker plays."""

    game_id: str
    ordinal: int
    scenario: str  # name, or the absolute path of a scenario file
    runners: str
    nscs: str
    index: int
    seed: int  # the dice seed
    rules: str | None  # rule variant name or absolute path; None: the scenario's own
    rules_hash: str
    agents_hash: str
    stream: str = STREAM  # the dice stream; the games of a tournament before #16: mt19937

    def task(self) -> GameTask:
        return GameTask(
            self.game_id,
            self.scenario,
            resolve_agent(self.runners),
            resolve_agent(self.nscs),
            self.seed,
            self.rules,
            self.rules_hash,
            stream=self.stream,
        )


@dataclass(frozen=True)
class Plan:
    """A resolved tournament: config, rules and agent fingerprints, and every game."""

    config: TournamentConfig
    tournament_id: str
    rules: dict[str, tuple[str, dict[str, Any]]]  # scenario → (rules hash, mapping)
    agents: dict[str, AgentInfo]
    games: tuple[PlannedGame, ...]
    # scenario → its resolved content; None for plans that do not record it (stress runs)
    content: dict[str, ScenarioContent] | None = field(default=None, kw_only=True)

    def config_json(self) -> dict[str, Any]:
        """The resolved config, saved in the database and beside the results."""
        extra: dict[str, Any] = {}
        if self.content is not None:
            extra["kind"] = "tournament"
            extra["content"] = {s: c.to_json() for s, c in self.content.items()}
        return {
            **extra,
            "tournament_id": self.tournament_id,
            "name": self.config.name,
            "agents": list(self.config.agents),
            "scenarios": list(self.config.scenarios),
            "games": self.config.games,
            "seed": self.config.seed,
            "rules": self.config.rules,
            "rules_resolved": {
                scenario: {"hash": h, "options": mapping}
                for scenario, (h, mapping) in self.rules.items()
            },
            "agent_fingerprints": {
                spec: {"hash": info.hash, **info.fingerprint} for spec, info in self.agents.items()
            },
            "games_planned": len(self.games),
            "dice": STREAM,  # a config without it was played by the legacy stream
        }


def agent_info(spec: str, depth: int = 0, ruleset: Ruleset | None = None) -> AgentInfo:
    """The agent's identity: its spec, class and settings (an agent's ``config`` attribute:
    a dataclass, a pydantic model or plain JSON data), so a changed setting changes ids.
    Forbidden tactics are checked against ``ruleset`` (default: Corporate Wars)."""
    from cwenv.agent_registry import UnknownAgentError, make_agent
    from cwenv.yamlio import ConfigError

    base, forbidden = split_restriction(spec, ruleset)
    try:
        agent = make_agent(base)
    except (UnknownAgentError, ConfigError) as exc:
        raise RunnerError(str(exc)) from None
    cls = type(agent)
    fingerprint: dict[str, Any] = {"spec": spec, "class": f"{cls.__module__}.{cls.__qualname__}"}
    if forbidden:
        fingerprint["forbidden"] = list(forbidden)
    raw: Any = getattr(agent, "config", None)
    config: Any = raw
    if dataclasses.is_dataclass(raw) and not isinstance(raw, type):
        config = dataclasses.asdict(raw)
    elif callable(getattr(raw, "model_dump", None)):  # a pydantic model
        config = raw.model_dump(mode="json")
    if config is not None:
        try:
            json.dumps(config, sort_keys=True)
        except (TypeError, ValueError):
            config = None  # an object without a stable text form cannot take part in ids
    if config is not None:
        fingerprint["config"] = config
        uses = _used_agents(config, depth)
        if uses:
            fingerprint["uses"] = uses
    return AgentInfo(spec, fingerprint, content_hash(fingerprint, 16))


_USED = ("base", "rollout")  # config fields that name another agent (mcts, lookahead)


def _used_agents(config: Any, depth: int) -> dict[str, Any]:
    """The fingerprints of the agents a config builds on, so that editing ``stuermer.yaml``
    also changes the identity of an MCTS agent whose rollouts play the Stürmer."""
    if not isinstance(config, dict) or depth >= 3:
        return {}
    out: dict[str, Any] = {}
    for key in _USED:
        name = config.get(key)
        if isinstance(name, str) and name:
            try:
                out[key] = agent_info(name, depth + 1).fingerprint
            except RunnerError:
                out[key] = {"spec": name}  # the agent reports its own bad reference
    return out


def pairings(agents: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every unordered pair of distinct agents, in the order given."""
    return list(itertools.combinations(agents, 2))


def game_id(
    name: str,
    pairing: tuple[str, str],
    scenario: str,
    runners: str,
    index: int,
    seed: int,
    rules_hash: str,
    agents_hash: str,
    content: str = "",
) -> str:
    """The deterministic id of one planned game (``content``: the scenario's content hash;
    plans that do not record content leave it out, which keeps their ids)."""
    identity: dict[str, Any] = {
        "tournament": name,
        "pairing": sorted(pairing),
        "scenario": scenario,
        "runners": runners,
        "index": index,
        "seed": seed,
        "rules": rules_hash,
        "agents": agents_hash,
    }
    if content:
        identity["content"] = content
    # The dice stream since issue #16: a game of the new stream is another game than the
    # one of the same seed stored before it (those ids hash no stream and keep mt19937).
    identity["dice"] = STREAM
    return content_hash(identity)


def planned_game(
    ordinal: int,
    name: str,
    seed: int,
    pairing: tuple[str, str],
    source: str,
    runners: str,
    nscs: str,
    index: int,
    rules_spec: str | None,
    rules_hash: str,
    agents: dict[str, AgentInfo],
    content: str = "",
) -> PlannedGame:
    """Game ``index`` of ``pairing`` on ``source`` with ``runners`` vs ``nscs`` in the run
    ``name`` seeded ``seed``: its id and its dice seed (the same for every pairing, side
    and scenario — common random numbers)."""
    agents_hash = content_hash([agents[runners].hash, agents[nscs].hash], 16)
    gid = game_id(name, pairing, source, runners, index, seed, rules_hash, agents_hash, content)
    return PlannedGame(
        gid,
        ordinal,
        source,
        runners,
        nscs,
        index,
        game_seed(seed, index),
        rules_spec,
        rules_hash,
        agents_hash,
    )


def _validate(config: TournamentConfig) -> None:
    if len(config.agents) < 2:
        raise RunnerError(f"a tournament needs at least two agents, got {list(config.agents)}")
    dupes = sorted({a for a in config.agents if config.agents.count(a) > 1})
    if dupes:
        raise RunnerError(f"agents listed twice: {', '.join(dupes)}")
    if not config.scenarios:
        raise RunnerError("a tournament needs at least one scenario")
    dupes = sorted({s for s in config.scenarios if config.scenarios.count(s) > 1})
    if dupes:
        raise RunnerError(f"scenarios listed twice: {', '.join(dupes)}")
    if config.games < 1:
        raise RunnerError(f"--games must be at least 1, got {config.games}")


def build_plan(config: TournamentConfig) -> Plan:
    """Validate the config (every agent and scenario loads) and list every game."""
    _validate(config)
    ruleset = one_ruleset(config.scenarios)
    agents = {spec: agent_info(spec, ruleset=ruleset) for spec in config.agents}
    rules_spec = resolve_source(config.rules) if config.rules is not None else None
    sources = {s: resolve_scenario(s) for s in config.scenarios}
    loaded = {s: load(src, rules_spec, fresh=True) for s, src in sources.items()}
    rules = {s: game_rules(game) for s, game in loaded.items()}
    content = {s: scenario_content(sources[s], game.game, rules_spec) for s, game in loaded.items()}
    for scenario, game in loaded.items():
        for spec in config.agents:  # a bundle that cannot play it: say so now
            check_fit(spec, spec, game.game, scenario, ruleset)
    games: list[PlannedGame] = []
    for index in range(config.games):
        for scenario, source in sources.items():
            rules_hash = rules[scenario][0]
            for pairing in pairings(config.agents):
                for runners, nscs in (pairing, pairing[::-1]):
                    games.append(
                        planned_game(
                            len(games), config.name, config.seed, pairing, source,
                            runners, nscs, index,
                            rules_spec, rules_hash, agents, content[scenario].hash,
                        )
                    )  # fmt: skip
    identity = {
        "name": config.name,
        "agents": [agents[a].hash for a in config.agents],
        "scenarios": [sources[s] for s in config.scenarios],
        "games": config.games,
        "seed": config.seed,
        "rules": [rules[s][0] for s in config.scenarios],
        "content": [content[s].hash for s in config.scenarios],
        "dice": STREAM,
    }
    tid = content_hash(identity, 16)
    return Plan(config, tid, rules, agents, tuple(games), content=content)


def run_key(config: dict[str, Any]) -> str:
    """What makes two stored tournaments "the same run" as far as the user can tell: the
    name, agents, scenarios, seed and rule variant as written (not the number of games,
    which a later run may raise). Two runs with one key must have the same content."""
    return content_hash(
        {k: config.get(k) for k in ("name", "agents", "scenarios", "seed", "rules")}, 16
    )
