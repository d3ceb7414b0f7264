"""One game as a pure function: :class:`GameTask` in, :class:`GameRecord` out.

Workers (local processes, Ray tasks) call :func:`play_task`; it loads the scenario once per
process, builds fresh agents for every game (so no agent state leaks between games and
results cannot depend on which worker ran what) and plays the combat to its end with the
dice seed of the task and one derived generator per side.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cwenv.model.types import Side
from cwenv.runner.errors import GameFailedError, RunnerError
from cwenv.runner.hashing import content_hash
from cwenv.runner.seeds import side_rngs

if TYPE_CHECKING:
    from cwenv.agent import Agent
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat
    from cwenv.rules.options import RuleOptions

_GAMES: dict[tuple[str, str | None], Game] = {}  # per-process cache of immutable Games


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


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The result of one game; everything in it is deterministic (no timings)."""

    winner: str | None  # Side name, None for a draw
    reason: str
    rounds: int
    counters: dict[str, int] = field(default_factory=dict)
    lp_lost: dict[str, int] = field(default_factory=dict)  # by Side name of the victim
    events: int = 0
    events_hash: str = ""
    tactics: dict[str, dict[str, int]] = field(default_factory=dict)  # side → tag → uses

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["counters"] = dict(sorted(self.counters.items()))
        data["lp_lost"] = dict(sorted(self.lp_lost.items()))
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            winner=data["winner"],
            reason=str(data["reason"]),
            rounds=int(data["rounds"]),
            counters={str(k): int(v) for k, v in data.get("counters", {}).items()},
            lp_lost={str(k): int(v) for k, v in data.get("lp_lost", {}).items()},
            events=int(data.get("events", 0)),
            events_hash=str(data.get("events_hash", "")),
            tactics={
                str(side): {str(k): int(v) for k, v in tags.items()}
                for side, tags in data.get("tactics", {}).items()
            },
        )

    @property
    def digest(self) -> str:
        """A hash of the whole record: two plays of one game must give the same digest."""
        return content_hash(self.to_json(), 32)


@dataclass(frozen=True, slots=True)
class TaskResult:
    key: str
    record: GameRecord
    wall_ms: float  # how long the game took; never part of the result


def rules_fingerprint(options: RuleOptions) -> tuple[str, dict[str, Any]]:
    """The resolved rules as a plain mapping and its hash."""
    from cwenv.rules.variants import options_to_mapping

    mapping = options_to_mapping(options)
    return content_hash(mapping, 16), mapping


def resolve_source(spec: str) -> str:
    """A scenario or variant given as an existing file becomes an absolute path, so worker
    processes started elsewhere find it; names stay names."""
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") and path.exists():
        return str(path.resolve())
    return spec


def resolve_agent(spec: str) -> str:
    """An agent given as an existing file becomes an absolute path (for workers elsewhere);
    names stay names. Plans and ids keep the spec as the user wrote it."""
    path = Path(spec)
    if (spec.endswith((".yaml", ".yml")) or "/" in spec) and path.is_file():
        return str(path.resolve())
    return spec


def load_game(scenario: str, rules: str | None = None, *, fresh: bool = False) -> Game:
    """Load (once per process) the Game of ``scenario`` with an optional rule variant;
    ``fresh``: read the files again (planning must see today's files, not a cached copy)."""
    key = (scenario, rules)
    game = None if fresh else _GAMES.get(key)
    if game is None:
        from cwenv.content import load_scenario
        from cwenv.yamlio import ConfigError

        try:
            game = load_scenario(scenario, rules=rules)
        except ConfigError as exc:
            raise RunnerError(str(exc)) from None
        _GAMES[key] = game
    return game


RESTRICT = "!"
"""``AGENT!TAG+TAG`` is AGENT playing with these tactics forbidden (restricted play)."""


def split_restriction(spec: str) -> tuple[str, tuple[str, ...]]:
    """``"taktiker!M02+ZIELEN"`` → ``("taktiker", ("M02", "ZIELEN"))``; unknown tags fail."""
    from cwenv.engine.tactics import TACTICS

    base, _, rest = spec.partition(RESTRICT)
    tags = tuple(t for t in rest.split("+") if t) if rest else ()
    unknown = [t for t in tags if t not in TACTICS]
    if unknown:
        raise RunnerError(f"unknown tactics {unknown} in {spec!r}; allowed: {', '.join(TACTICS)}")
    return base, tags


def make_agents(runners: str, nscs: str) -> dict[int, Agent]:
    """Fresh agents for one game; the NSC agent also drives the neutrals."""
    from cwenv.agent_registry import UnknownAgentError, make_agent
    from cwenv.yamlio import ConfigError

    try:
        runner_agent = make_agent(split_restriction(runners)[0])
        nsc_agent = make_agent(split_restriction(nscs)[0])
    except (UnknownAgentError, ConfigError) as exc:
        raise RunnerError(str(exc)) from None
    return {
        int(Side.RUNNER): runner_agent,
        int(Side.GEGNER): nsc_agent,
        int(Side.NEUTRAL): nsc_agent,
    }


def check_fit(runners: str, nscs: str, game: Game, where: str) -> None:
    """Before any game: an agent that can tell it cannot play ``game`` (a policy bundle
    trained for another action window, through its ``prepare``) stops the run with a
    :class:`RunnerError` naming the scenario, instead of failing every game."""
    for agent in {id(a): a for a in make_agents(runners, nscs).values()}.values():
        prepare = getattr(agent, "prepare", None)
        if callable(prepare):
            try:
                prepare(game)
            except ValueError as exc:
                raise RunnerError(f"{where}: {exc}") from None


def play_combat(game: Game, runners: str, nscs: str, seed: int) -> Combat:
    """Play one seeded game to its end and return the finished combat."""
    from cwenv.agent import play_out

    combat = game.new_combat(seed)
    for side, spec in ((Side.RUNNER, runners), (Side.GEGNER, nscs)):
        tags = split_restriction(spec)[1]
        if tags:
            combat.forbid(side, tags)  # restricted play goes through the legality function
    play_out(combat, make_agents(runners, nscs), side_rngs(seed))
    return combat


_KNOCKOUT = ("kampfunfähig", "tot", "bewusstlos")


def derived_counters(combat: Combat) -> dict[str, int]:
    """Counters read off the event log: ``turns:SIDE`` (turns begun per side, I03/I12) and
    ``decided:volltreffer`` = 1 when the knock-out that ended the fight came from the damage
    of a Volltreffer hit (P06, A07): the last loser to go down fell to the hit whose
    Volltreffer table was rolled, before the next attack, turn end or round end."""
    from cwenv.engine import events as ev

    out: dict[str, int] = {}
    outcome = combat.outcome
    winner = outcome.winner if outcome is not None else None
    hit_target = vt_target = -1
    down: set[int] = set()
    last_ko_vt = False
    for event in combat.events:
        if isinstance(event, ev.TurnStarted):
            key = f"turns:{combat.fighters[event.fighter].side.name}"
            out[key] = out.get(key, 0) + 1
            hit_target = vt_target = -1
        elif isinstance(event, ev.Hit):
            hit_target, vt_target = event.target, -1
        elif isinstance(event, ev.TableRolled) and event.table == "Volltreffer":
            vt_target = hit_target
        elif isinstance(event, ev.AttackDeclared | ev.TurnEnded | ev.RoundEnded):
            hit_target = vt_target = -1
        elif isinstance(event, ev.StatusChanged):
            if event.status == "wieder bei Bewusstsein":
                down.discard(event.fighter)
            elif event.status.startswith(_KNOCKOUT) and event.fighter not in down:
                down.add(event.fighter)
                side = combat.fighters[event.fighter].side
                if winner is not None and side is not winner and side is not Side.NEUTRAL:
                    last_ko_vt = event.fighter == vt_target
    if last_ko_vt:
        out["decided:volltreffer"] = 1
    return out


def record_of(combat: Combat) -> GameRecord:
    """Summarise a finished combat."""
    from cwenv.engine.events import LPChanged

    outcome = combat.outcome
    if outcome is None:
        raise ValueError("the combat has not ended")
    lost: dict[str, int] = {}
    for event in combat.events:
        if isinstance(event, LPChanged) and event.after < event.before:
            side = combat.fighters[event.fighter].side.name
            lost[side] = lost.get(side, 0) + event.before - event.after
    from cwenv.engine.tactics import tactic_tags

    tactics: dict[str, dict[str, int]] = {}
    for action in combat.history:
        for tag in tactic_tags(combat.bm, action):
            used = tactics.setdefault(combat.fighters[action.actor].side.name, {})
            used[tag] = used.get(tag, 0) + 1
    log = hashlib.sha256()
    for event in combat.events:
        log.update(repr(event).encode("utf-8"))
        log.update(b"\n")
    counters = dict(combat.counters)
    counters.update(derived_counters(combat))
    return GameRecord(
        winner=outcome.winner.name if outcome.winner is not None else None,
        reason=outcome.reason,
        rounds=outcome.rounds,
        counters=dict(sorted(counters.items())),
        lp_lost=dict(sorted(lost.items())),
        events=len(combat.events),
        events_hash=log.hexdigest()[:32],
        tactics={side: dict(sorted(t.items())) for side, t in sorted(tactics.items())},
    )


def play_task(task: GameTask) -> TaskResult:
    """Play one task; any failure becomes a :class:`GameFailedError` naming the game."""
    start = time.perf_counter()
    try:
        game = load_game(task.scenario, task.rules)
        if task.rules_hash is not None:
            found, _ = rules_fingerprint(game.options)
            if found != task.rules_hash:
                raise RunnerError(
                    f"the rules of scenario {task.scenario!r} changed since the plan was "
                    f"written (hash {found}, planned {task.rules_hash})"
                )
        if task.content is not None:
            from cwenv.runner.content import game_content_hash

            if game_content_hash(task.scenario, task.rules, game) != task.content:
                raise RunnerError(
                    f"scenario {task.scenario!r} (a stat block, weapon, map or rule it uses) "
                    "changed while the tournament ran; run the same command again to see what"
                )
        record = record_of(play_combat(game, task.runners, task.nscs, task.seed))
    except Exception as exc:
        raise GameFailedError(
            f"game {task.key} ({task.scenario}, runners={task.runners}, nscs={task.nscs}, "
            f"seed={task.seed}) failed: {type(exc).__name__}: {exc}"
        ) from None
    return TaskResult(task.key, record, (time.perf_counter() - start) * 1000.0)


def play_batch(tasks: list[GameTask]) -> list[TaskResult]:
    """Play several tasks in order (one Ray task or pool chunk)."""
    return [play_task(task) for task in tasks]
