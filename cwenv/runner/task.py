"""One game as a pure function: :class:`GameTask` in, :class:`GameRecord` out.

Workers (local processes, Ray tasks) call :func:`play_task`; it loads the scenario once per
process, builds fresh agents for every game (so no agent state leaks between games and
results cannot depend on which worker ran what) and plays the game to its end with the
dice seed of the task and one derived generator per side.

The game system is the scenario's :class:`~cwenv.ruleset.Ruleset` (``dice:duel`` is the
``dice`` ruleset's scenario ``duel``; a spec without a prefix is Corporate Wars'): nothing
here knows a rule. :func:`load_game`, :func:`play_combat` and :func:`record_of` are the
Corporate Wars shortcuts (a :class:`~cwenv.engine.game.Game`, a
:class:`~cwenv.engine.state.Combat`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cwenv import rulesets
from cwenv.rules.dice import STREAM, dice_stream
from cwenv.ruleset import GameRecord, Ruleset
from cwenv.runner.errors import GameFailedError, RunnerError
from cwenv.runner.hashing import content_hash
from cwenv.runner.seeds import side_rngs

if TYPE_CHECKING:
    from cwenv.agent import Agent
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.rules.options import RuleOptions

__all__ = ["GameRecord", "GameTask", "LoadedGame", "TaskResult", "load", "play_task"]


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A loaded scenario: its ruleset and that ruleset's immutable game."""

    ruleset: Ruleset
    game: Any
    scenario: str  # the spec it was loaded from


_GAMES: dict[tuple[str, str | None], LoadedGame] = {}  # per-process cache of immutable games


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything that decides one game. ``rules_hash`` (if set) guards against a variant
    file that changed between planning and playing."""

    key: str
    scenario: str
    runners: str
    nscs: str
    seed: int
    rules: str | None = None
    rules_hash: str | None = None
    content: str | None = None  # the scenario's content hash (cwenv.runner.content)
    stream: str = STREAM  # the dice stream (a game planned before issue #16: mt19937)


@dataclass(frozen=True, slots=True)
class TaskResult:
    key: str
    record: GameRecord
    wall_ms: float  # how long the game took; never part of the result


def rules_fingerprint(options: RuleOptions) -> tuple[str, dict[str, Any]]:
    """The resolved rules of a Corporate Wars game as a plain mapping and its hash."""
    from cwenv.rules.variants import options_to_mapping

    mapping = options_to_mapping(options)
    return content_hash(mapping, 16), mapping


def game_rules(loaded: LoadedGame) -> tuple[str, dict[str, Any]]:
    """The resolved rules of any loaded game as a plain mapping and its hash."""
    mapping = loaded.ruleset.rules_mapping(loaded.game)
    return content_hash(mapping, 16), mapping


def resolve_source(spec: str) -> str:
    """A scenario or variant given as an existing file becomes an absolute path, so worker
    processes started elsewhere find it; names stay names."""
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") and path.exists():
        return str(path.resolve())
    return spec


def resolve_scenario(spec: str) -> str:
    """A scenario spec as plans store it: its file resolved (:func:`resolve_source`) behind
    its ruleset's prefix; Corporate Wars' without one (``cw:duell`` is ``duell``)."""
    from cwenv.runner.jobs import JOB_PREFIX, is_job, job_target

    if is_job(spec):  # a job (cwenv.runner.jobs) keeps its prefix
        return JOB_PREFIX + resolve_source(job_target(spec))
    ruleset, rest = ruleset_and_scenario(spec)
    return rulesets.join(ruleset, resolve_source(rest))


def ruleset_and_scenario(spec: str) -> tuple[Ruleset, str]:
    """The ruleset of a scenario spec and the scenario within it (a :class:`RunnerError`
    for an unknown or broken ruleset)."""
    from cwenv.runner.jobs import JOB_RULESET, is_job, job_target

    if is_job(spec):
        return JOB_RULESET, job_target(spec)
    try:
        return rulesets.split(spec)
    except rulesets.UnknownRulesetError as exc:
        raise RunnerError(str(exc)) from None


def ruleset_of(spec: str) -> Ruleset:
    """The ruleset a scenario spec belongs to."""
    return ruleset_and_scenario(spec)[0]


def one_ruleset(scenarios: tuple[str, ...]) -> Ruleset:
    """The one ruleset of the scenarios of a run (games of two systems cannot be rated or
    compared with each other); a :class:`RunnerError` naming each scenario's otherwise."""
    found = {s: ruleset_of(s) for s in scenarios}
    names = {r.name for r in found.values()}
    if len(names) > 1:
        listed = ", ".join(f"{s} ({r.title})" for s, r in found.items())
        raise RunnerError(f"the scenarios of one run must belong to one ruleset, got {listed}")
    return next(iter(found.values())) if found else rulesets.default()


def resolve_agent(spec: str) -> str:
    """An agent given as an existing file becomes an absolute path (for workers elsewhere);
    names stay names. Plans and ids keep the spec as the user wrote it."""
    path = Path(spec)
    if (spec.endswith((".yaml", ".yml")) or "/" in spec) and path.is_file():
        return str(path.resolve())
    return spec


def load(scenario: str, rules: str | None = None, *, fresh: bool = False) -> LoadedGame:
    """Load (once per process) the game of ``scenario`` with an optional rule variant;
    ``fresh``: read the files again (planning must see today's files, not a cached copy)."""
    key = (scenario, rules)
    loaded = None if fresh else _GAMES.get(key)
    if loaded is None:
        ruleset, name = ruleset_and_scenario(scenario)
        try:
            game = ruleset.load(name, rules)
        except ValueError as exc:  # ScenarioError, or another ruleset's message
            raise RunnerError(str(exc)) from None
        loaded = LoadedGame(ruleset, game, scenario)
        _GAMES[key] = loaded
    return loaded


def load_game(scenario: str, rules: str | None = None, *, fresh: bool = False) -> Game:
    """The Corporate Wars :class:`Game` of ``scenario`` (see :func:`load`); a scenario of
    another ruleset is a :class:`RunnerError` (the command needs Corporate Wars)."""
    loaded = load(scenario, rules, fresh=fresh)
    if loaded.ruleset.name != rulesets.DEFAULT:
        raise RunnerError(
            f"scenario {scenario!r} is a game of {loaded.ruleset.title} (ruleset "
            f"{loaded.ruleset.name!r}); this needs a Corporate Wars scenario"
        )
    from cwenv.runner.jobs import JobGame

    if isinstance(loaded.game, JobGame):
        raise RunnerError(f"{scenario!r} is a job of several fights; this needs one scenario")
    game: Game = loaded.game
    return game


RESTRICT = "!"
"""``AGENT!TAG+TAG`` is AGENT playing with these tactics forbidden (restricted play)."""


def split_restriction(spec: str, ruleset: Ruleset | None = None) -> tuple[str, tuple[str, ...]]:
    """``"taktiker!M02+ZIELEN"`` → ``("taktiker", ("M02", "ZIELEN"))``; tags the ruleset
    (default: Corporate Wars) does not know fail."""
    tactics = (ruleset or rulesets.default()).tactics
    base, _, rest = spec.partition(RESTRICT)
    tags = tuple(t for t in rest.split("+") if t) if rest else ()
    unknown = [t for t in tags if t not in tactics]
    if unknown:
        raise RunnerError(f"unknown tactics {unknown} in {spec!r}; allowed: {', '.join(tactics)}")
    return base, tags


def make_agents(runners: str, nscs: str, ruleset: Ruleset | None = None) -> dict[int, Agent]:
    """Fresh agents for one game, keyed by side index: ``runners`` plays the first side,
    ``nscs`` every other (in Corporate Wars the Gegner and the neutrals)."""
    from cwenv.agent import plays
    from cwenv.agent_registry import UnknownAgentError, make_agent
    from cwenv.yamlio import ConfigError

    ruleset = ruleset or rulesets.default()
    try:
        runner_agent = make_agent(split_restriction(runners, ruleset)[0])
        nsc_agent = make_agent(split_restriction(nscs, ruleset)[0])
    except (UnknownAgentError, ConfigError) as exc:
        raise RunnerError(str(exc)) from None
    for spec, agent in ((runners, runner_agent), (nscs, nsc_agent)):
        if not plays(agent, ruleset.name):
            raise RunnerError(
                f"agent {spec!r} cannot play {ruleset.title} (ruleset {ruleset.name!r}): it "
                f"plays {', '.join(getattr(agent, 'rulesets', ('cw',)))} only; give an agent "
                f"that plays it (random plays every ruleset)"
            )
    return {i: runner_agent if i == 0 else nsc_agent for i in range(len(ruleset.sides))}


def check_fit(
    runners: str, nscs: str, game: Any, where: str, ruleset: Ruleset | None = None
) -> None:
    """Before any game: an agent that can tell it cannot play ``game`` (a policy bundle
    trained for another action window, through its ``prepare``) stops the run with a
    :class:`RunnerError` naming the scenario, instead of failing every game."""
    from cwenv.runner.jobs import JobGame

    games = game.games if isinstance(game, JobGame) else (game,)  # a job: each fight
    for agent in {id(a): a for a in make_agents(runners, nscs, ruleset).values()}.values():
        prepare = getattr(agent, "prepare", None)
        if callable(prepare):
            for one in games:
                try:
                    prepare(one)
                except ValueError as exc:
                    raise RunnerError(f"{where}: {exc}") from None


def play_game(loaded: LoadedGame, runners: str, nscs: str, seed: int) -> Any:
    """Play one seeded game of any ruleset to its end and return the finished state."""
    from cwenv.agent import play_through

    ruleset = loaded.ruleset
    own_play = getattr(ruleset, "play", None)
    if callable(own_play):  # a ruleset whose game is several plays in a row (a job)
        return own_play(loaded.game, runners, nscs, seed)
    state = ruleset.new_state(loaded.game, seed)
    for side, spec in enumerate((runners, nscs)):
        tags = split_restriction(spec, ruleset)[1]
        if tags:
            ruleset.forbid(state, side, tags)
    agents: Mapping[int, Agent[Any, Any]] = make_agents(runners, nscs, ruleset)
    play_through(ruleset, state, agents, side_rngs(seed, tuple(range(len(ruleset.sides)))))
    return state


def play_combat(game: Game, runners: str, nscs: str, seed: int) -> Combat:
    """Play one seeded Corporate Wars game to its end and return the finished combat."""
    loaded = LoadedGame(rulesets.default(), game, game.name)
    combat: Combat = play_game(loaded, runners, nscs, seed)
    return combat


def record_of(combat: Combat) -> GameRecord:
    """Summarise a finished Corporate Wars combat."""
    return rulesets.default().record(combat)


def play_task(task: GameTask) -> TaskResult:
    """Play one task; any failure becomes a :class:`GameFailedError` naming the game."""
    start = time.perf_counter()
    try:
        loaded = load(task.scenario, task.rules)
        if task.rules_hash is not None:
            found, _ = game_rules(loaded)
            if found != task.rules_hash:
                raise RunnerError(
                    f"the rules of scenario {task.scenario!r} changed since the plan was "
                    f"written (hash {found}, planned {task.rules_hash})"
                )
        if task.content is not None:
            from cwenv.runner.content import game_content_hash

            if game_content_hash(loaded, task.rules) != task.content:
                raise RunnerError(
                    f"scenario {task.scenario!r} (a stat block, weapon, map or rule it uses) "
                    "changed while the tournament ran; run the same command again to see what"
                )
        with dice_stream(task.stream):
            state = play_game(loaded, task.runners, task.nscs, task.seed)
        record = loaded.ruleset.record(state)
    except Exception as exc:
        raise GameFailedError(
            f"game {task.key} ({task.scenario}, runners={task.runners}, nscs={task.nscs}, "
            f"seed={task.seed}) failed: {type(exc).__name__}: {exc}"
        ) from None
    return TaskResult(task.key, record, (time.perf_counter() - start) * 1000.0)


def play_batch(tasks: list[GameTask]) -> list[TaskResult]:
    """Play several tasks in order (one Ray task or pool chunk)."""
    return [play_task(task) for task in tasks]
