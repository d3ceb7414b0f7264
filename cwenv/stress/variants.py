"""``cwenv stress variants``: the same seeded games under several rule variants.

Every variant (the base first) plays game ``i`` of every scenario with the dice seed
``game_seed(seed, i)`` — the seed of game ``i`` of ``cwenv simulate --seed S`` and of every
tournament — and the same agents, so the games pair up across variants (common random
numbers): a difference between two variants is the rules' doing, not the dice's. Where a
variant changes nothing the games are identical, roll for roll.

The sweep is planned and stored through the tournament machinery (:mod:`cwenv.runner.store`):
the plan is written before any game is played, every game has a deterministic id, and a
killed sweep run again plays only what is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cwenv.runner.atomic import atomic_write_text
from cwenv.runner.content import ScenarioContent, scenario_content
from cwenv.runner.errors import RunnerError
from cwenv.runner.hashing import canonical_json, content_hash
from cwenv.runner.plan import AgentInfo, Plan, PlannedGame, TournamentConfig, agent_info
from cwenv.runner.seeds import game_seed
from cwenv.runner.store import Conflict, Store
from cwenv.runner.task import GameRecord, load_game, resolve_source, rules_fingerprint
from cwenv.runner.tournament import _play as play_into_store, config_path


class VariantSweepError(ValueError):
    """A sweep cannot be set up: an unknown variant, scenario or agent, or a bad count."""


@dataclass(frozen=True)
class SweepConfig:
    """What the user asked for. ``variants`` are compared with ``base``; each is a rule
    variant name (``configs/rules/``) or a YAML file, read with its own ``base:`` chain."""

    base: str
    variants: tuple[str, ...]
    scenarios: tuple[str, ...]
    runners: str
    nscs: str
    games: int
    seed: int = 0
    name: str = "variants"


@dataclass(frozen=True)
class VariantInfo:
    """One resolved variant: its label (the file's stem), source file and options."""

    label: str
    spec: str
    path: str
    description: str
    options: dict[str, Any]  # the variant's own options, before any scenario overrides


@dataclass(frozen=True)
class SweepPlan(Plan):
    """A tournament plan whose games are (variant, scenario, index) cells."""

    sweep: SweepConfig
    variant_infos: tuple[VariantInfo, ...]
    cells: dict[str, tuple[str, str]]  # game id → (variant label, scenario)

    @property
    def labels(self) -> tuple[str, ...]:
        """Variant labels, the base first."""
        return tuple(v.label for v in self.variant_infos)

    def config_json(self) -> dict[str, Any]:
        """The resolved sweep, saved in the database and beside the results."""
        return {
            "kind": "stress-variants",
            "tournament_id": self.tournament_id,
            "name": self.sweep.name,
            "base": self.sweep.base,
            "variants": [
                {
                    "label": v.label,
                    "spec": v.spec,
                    "path": v.path,
                    "description": v.description,
                    "options": v.options,
                }
                for v in self.variant_infos
            ],
            "scenarios": list(self.sweep.scenarios),
            "runners": self.sweep.runners,
            "nscs": self.sweep.nscs,
            "games": self.sweep.games,
            "seed": self.sweep.seed,
            "dice_seeds": "game i uses game_seed(seed, i) in every variant and scenario",
            "rules_resolved": {
                key: {"hash": h, "options": mapping} for key, (h, mapping) in self.rules.items()
            },
            "agent_fingerprints": {
                spec: {"hash": info.hash, **info.fingerprint} for spec, info in self.agents.items()
            },
            "games_planned": len(self.games),
            # what the store compares on a resume (run_key, content): a sweep is "the same
            # run" as one with the same name, agents, scenarios, seed and variants
            "agents": [self.sweep.runners, self.sweep.nscs],
            "rules": [v.spec for v in self.variant_infos],
            "content": {s: c.to_json() for s, c in (self.content or {}).items()},
        }


def _variant(spec: str) -> VariantInfo:
    from cwenv.rules.variants import RULES_DIR, load_rule_variant, options_to_mapping
    from cwenv.yamlio import ConfigError, read_yaml_file

    known = ", ".join(sorted(p.stem for p in RULES_DIR.glob("*.yaml")))
    path = Path(spec)
    if spec.endswith((".yaml", ".yml")) or "/" in spec:
        if not path.is_file():
            raise VariantSweepError(
                f"rule variant file {spec!r} not found; give an existing YAML file or one of "
                f"the variants in configs/rules/: {known}"
            )
    else:
        path = RULES_DIR / f"{spec}.yaml"
        if not path.is_file():
            raise VariantSweepError(f"unknown rule variant {spec!r}; known: {known}")
    try:
        options = load_rule_variant(path)
        data = read_yaml_file(path).data
    except ConfigError as exc:
        raise VariantSweepError(f"rule variant {spec!r} is invalid:\n{exc}") from None
    description = str(data.get("description", "")) if isinstance(data, dict) else ""
    return VariantInfo(
        path.stem, spec, str(path.resolve()), description.strip(), options_to_mapping(options)
    )


def _check_scenario(spec: str) -> str:
    from cwenv.content import list_scenarios

    if spec.endswith((".yaml", ".yml")) or "/" in spec:
        if not Path(spec).is_file():
            raise VariantSweepError(f"scenario file {spec!r} not found")
        return resolve_source(spec)
    known = list_scenarios()
    if spec not in known:
        raise VariantSweepError(f"unknown scenario {spec!r}; known: {', '.join(known)}")
    return spec


def _validate(config: SweepConfig) -> None:
    if config.games < 1:
        raise VariantSweepError(f"--games must be at least 1, got {config.games}")
    if not config.variants:
        raise VariantSweepError("give at least one --variant (or --all-options)")
    if not config.scenarios:
        raise VariantSweepError("give at least one scenario in --scenarios")
    for what, items in (("scenarios", config.scenarios), ("variants", config.variants)):
        twice = sorted({s for s in items if items.count(s) > 1})
        if twice:
            raise VariantSweepError(f"{what} listed twice: {', '.join(twice)}")


def build_sweep_plan(config: SweepConfig) -> SweepPlan:
    """Validate everything (a :class:`VariantSweepError` names the culprit and the allowed
    values) and list every game: variants × scenarios × indices."""
    _validate(config)
    infos = tuple(_variant(spec) for spec in (config.base, *config.variants))
    labels = [v.label for v in infos]
    twice = sorted({lab for lab in labels if labels.count(lab) > 1})
    if twice:
        raise VariantSweepError(
            f"variant names must differ from each other and from the base; twice: "
            f"{', '.join(twice)} (copy the file under another name)"
        )
    sources = {s: _check_scenario(s) for s in config.scenarios}
    try:
        agents: dict[str, AgentInfo] = {
            spec: agent_info(spec) for spec in dict.fromkeys((config.runners, config.nscs))
        }
    except RunnerError as exc:
        raise VariantSweepError(str(exc)) from None
    agents_hash = content_hash([agents[config.runners].hash, agents[config.nscs].hash], 16)
    rules: dict[str, tuple[str, dict[str, Any]]] = {}
    # The scenario as loaded (per variant) is part of every id: a resume after an edit of
    # the scenario, a stat block or a weapon is refused instead of mixing two versions.
    content: dict[str, ScenarioContent] = {}
    for info in infos:
        for scenario, source in sources.items():
            try:
                game = load_game(source, info.path, fresh=True)
            except RunnerError as exc:
                raise VariantSweepError(str(exc)) from None
            rules[f"{info.label}|{scenario}"] = rules_fingerprint(game.options)
            content[f"{info.label}|{scenario}"] = scenario_content(source, game, info.path)
    games: list[PlannedGame] = []
    cells: dict[str, tuple[str, str]] = {}
    for index in range(config.games):
        seed = game_seed(config.seed, index)
        for info in infos:
            for scenario, source in sources.items():
                rules_hash = rules[f"{info.label}|{scenario}"][0]
                gid = content_hash(
                    {
                        "stress": "variants",
                        "name": config.name,
                        "variant": info.label,
                        "scenario": source,
                        "runners": config.runners,
                        "nscs": config.nscs,
                        "index": index,
                        "seed": config.seed,
                        "rules": rules_hash,
                        "agents": agents_hash,
                        "content": content[f"{info.label}|{scenario}"].hash,
                    }
                )
                cells[gid] = (info.label, scenario)
                games.append(
                    PlannedGame(
                        gid,
                        len(games),
                        source,
                        config.runners,
                        config.nscs,
                        index,
                        seed,
                        info.path,
                        rules_hash,
                        agents_hash,
                    )
                )
    identity = {
        "stress": "variants",
        "name": config.name,
        "variants": [rules[f"{v.label}|{s}"][0] for v in infos for s in config.scenarios],
        "labels": labels,
        "scenarios": [sources[s] for s in config.scenarios],
        "agents": agents_hash,
        "games": config.games,
        "seed": config.seed,
        "content": [content[f"{v.label}|{s}"].hash for v in infos for s in config.scenarios],
    }
    tconfig = TournamentConfig(
        (config.runners, config.nscs),
        config.scenarios,
        config.games,
        config.seed,
        config.base,
        config.name,
    )
    return SweepPlan(
        tconfig,
        content_hash(identity, 16),
        rules,
        agents,
        tuple(games),
        sweep=config,
        variant_infos=infos,
        cells=cells,
        content={s: content[f"{infos[0].label}|{s}"] for s in config.scenarios},
    )


@dataclass
class SweepRun:
    """The sweep's records, keyed by (variant, scenario) and ordered by game index."""

    plan: SweepPlan
    db: Path
    records: dict[tuple[str, str], dict[int, GameRecord]]
    played_now: int = 0
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def games_done(self) -> int:
        return sum(len(r) for r in self.records.values())


def run_sweep(
    config: SweepConfig,
    db: str | Path,
    *,
    jobs: int = 1,
    batch: int = 64,
    on_start: Callable[[int, int], None] | None = None,
    on_game: Callable[[], None] | None = None,
) -> SweepRun:
    """Plan the sweep, play the games the database lacks, and read every record back."""
    plan = build_sweep_plan(config)
    path = Path(db)
    with Store(path) as store:
        store.write_plan(plan)
        atomic_write_text(config_path(path), canonical_json(plan.config_json()) + "\n")
        tasks = [g.task() for g in store.missing(plan.tournament_id)]
        if on_start is not None:
            on_start(len(plan.games), len(plan.games) - len(tasks))
        conflicts = play_into_store(store, tasks, jobs, "local", None, batch, 1.0, on_game)
        stored = store.games(plan.tournament_id)
    records: dict[tuple[str, str], dict[int, GameRecord]] = {
        (v, s): {} for v in plan.labels for s in config.scenarios
    }
    for game in stored:
        if game.record is not None:
            records[plan.cells[game.game.game_id]][game.game.index] = game.record
    return SweepRun(plan, path, records, len(tasks), conflicts)
