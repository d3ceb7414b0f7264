"""Jobs in the runner: several Corporate Wars fights in a row, played as one game.

A job spec is ``job:NAME`` (``configs/jobs/NAME.yaml``), ``job:FILE`` or a ``.yaml`` file
in a folder named ``jobs``. :data:`JOB_RULESET` presents a job to the runner as the game of
a ruleset, so ``cwenv simulate`` and ``cwenv tournament`` take one wherever they take a
scenario: its content parts are the job's settings plus every fight's parts (so a game id
hashes the whole resolved job, and an edited job or scenario refuses a resume), and
:meth:`JobRuleset.play` plays the fights one after another with the carried state of
:mod:`cwenv.engine.carry`. One play of a job is one game; its record says which fight
decided it (``reason`` and the ``job:`` counters).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cwenv.engine.carry import (
    CarriedFighter,
    CarryError,
    carried_from,
    daring_points,
    job_start_mumm,
    mumm_cap,
    out_of_action,
    refit,
    session_mumm,
    without,
)
from cwenv.model.specs import FighterSpec
from cwenv.model.types import Side
from cwenv.ruleset import GameRecord, Outcome
from cwenv.rulesets.corporate_wars import RULESET as CW
from cwenv.runner.errors import RunnerError
from cwenv.runner.seeds import derive_seed

if TYPE_CHECKING:
    from cwenv.content.job import Job
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat

JOB_PREFIX = "job:"


JOB_PART = "job"
"""The content part that is the job file itself (its fights, sessions and carry rules)."""


class JobFileError(RunnerError):
    """A job file cannot be loaded: the message names file, field and allowed values."""


def is_job(spec: str) -> bool:
    """Whether a scenario spec names a job."""
    if spec.startswith(JOB_PREFIX):
        return True
    path = Path(spec)
    return path.suffix in (".yaml", ".yml") and path.parent.name == "jobs"


def job_target(spec: str) -> str:
    """The job's name or file within its spec."""
    return spec[len(JOB_PREFIX) :] if spec.startswith(JOB_PREFIX) else spec


@dataclass(frozen=True)
class JobGame:
    """A loaded job: the file and each fight's :class:`Game` (immutable, shared)."""

    job: Job
    games: tuple[Game, ...]
    specs: tuple[str, ...]  # each fight's scenario spec


@dataclass
class JobPlay:
    """One play of a job: the fights played, and the Runners' state at each one's start."""

    job: JobGame
    combats: list[Combat] = field(default_factory=list)
    starts: list[dict[str, CarriedFighter]] = field(default_factory=list)
    daring: int = 0
    stopped: str = ""  # why the job ended before its last fight ('' : it did not)


class JobRuleset:
    """A job as a Corporate Wars game: content, sides and labels are CW's, play is a row
    of CW combats."""

    name = CW.name
    title = CW.title
    sides = CW.sides

    @property
    def tactics(self) -> Mapping[str, str]:
        return CW.tactics

    # -- content ---------------------------------------------------------------------------
    def load(self, scenario: str, rules: str | None) -> JobGame:
        from cwenv.content.job import load_job
        from cwenv.yamlio import ConfigError

        try:
            job = load_job(scenario)
        except ConfigError as exc:
            raise JobFileError(str(exc)) from None
        games = []
        for i, fight in enumerate(job.fights):
            try:
                games.append(CW.load(fight.scenario, rules if rules is not None else job.rules))
            except ValueError as exc:
                raise JobFileError(
                    f"{job.source}: fights.{i}.scenario: {fight.scenario} cannot be loaded: {exc}"
                ) from None
        return JobGame(job, tuple(games), tuple(f.scenario for f in job.fights))

    def game_sides(self, game: JobGame) -> tuple[str, ...]:
        present = {s for g in game.games for s in CW.game_sides(g)}
        return tuple(s for s in self.sides if s in present)

    def rules_mapping(self, game: JobGame) -> dict[str, Any]:
        return {"fights": [CW.rules_mapping(g) for g in game.games]}

    def content_parts(self, game: JobGame) -> dict[str, Any]:
        parts: dict[str, Any] = {"job": game.job.settings()}
        for k, g in enumerate(game.games, 1):
            parts.update({f"fight{k}:{label}": v for label, v in CW.content_parts(g).items()})
        return parts

    def content_sources(self, scenario: str, game: JobGame, rules: str | None) -> dict[str, str]:
        from cwenv.content.library import shown_path

        sources = {JOB_PART: shown_path(game.job.source)}
        for k, (spec, g) in enumerate(zip(game.specs, game.games, strict=True), 1):
            found = CW.content_sources(spec, g, rules if rules is not None else game.job.rules)
            sources.update({f"fight{k}:{label}": src for label, src in found.items()})
        return sources

    def describe_part(self, label: str) -> str:
        if label == JOB_PART:
            return "the job's settings (fights, sessions, carry)"
        head, _, rest = label.partition(":")
        return f"fight {head.removeprefix('fight')}: {CW.describe_part(rest)}"

    # -- play ------------------------------------------------------------------------------
    def play(self, game: JobGame, runners: str, nscs: str, seed: int) -> JobPlay:
        return play_job(game, runners, nscs, seed)

    # A job is played whole by :meth:`play`; stepping through it decision by decision is
    # its fights' business (each a Combat of Corporate Wars).
    def new_state(self, game: JobGame, seed: int) -> Any:
        raise _stepwise()

    def forbid(self, state: Any, side: int, tags: Iterable[str]) -> None:
        raise _stepwise()

    def view(self, state: Any) -> Any:
        raise _stepwise()

    def is_terminal(self, state: Any) -> bool:
        raise _stepwise()

    def to_move(self, state: Any) -> int:
        raise _stepwise()

    def legal_actions(self, state: Any) -> Sequence[Any]:
        raise _stepwise()

    def apply(self, state: Any, action: Any) -> None:
        raise _stepwise()

    def outcome(self, state: JobPlay) -> Outcome | None:
        record = self.record(state)
        return Outcome(record.winner, record.reason, record.rounds)

    def record(self, state: JobPlay) -> GameRecord:
        from cwenv.runner.job_record import job_record

        return job_record(state)

    def narrate(self, state: JobPlay) -> list[str]:
        lines: list[str] = []
        for k, combat in enumerate(state.combats, 1):
            lines.append(f"— Kampf {k}/{len(state.job.games)}: {combat.game.name} —")
            lines += CW.narrate(combat)
        if state.stopped:
            lines.append(state.stopped)
        return lines

    def side_label(self, side: str) -> str:
        return CW.side_label(side)

    def counter_label(self, key: str) -> str:
        return CW.counter_label(key)


def _stepwise() -> RunnerError:
    return RunnerError("a job is played whole (JobRuleset.play), not decision by decision")


JOB_RULESET = JobRuleset()


def _regenerated(
    known: dict[str, tuple[CarriedFighter, FighterSpec]], game: Game
) -> dict[str, tuple[CarriedFighter, FighterSpec]]:
    """M10, X37: at the start of a further session every Runner regains half its Mumm,
    read by the options of the session's first fight."""
    return {
        name: (dataclasses.replace(c, mumm=session_mumm(c, spec, game.options)), spec)
        for name, (c, spec) in known.items()
    }


def fight_seed(seed: int, fight: int) -> int:
    """The dice seed of fight ``fight`` (0-based) of a job game seeded ``seed``."""
    return seed if fight == 0 else derive_seed("job-fight", seed, fight)


def play_job(game: JobGame, runners: str, nscs: str, seed: int) -> JobPlay:
    """Play the fights of ``game`` in order. Each Runner brings what it had left into the
    next fight it is in (matched by name; the job's ``carry`` says what), starts the job
    with full Mumm and regains half at each new session (M10, X37); a Runner out of action
    (dead or down, :func:`~cwenv.engine.carry.out_of_action`) takes no part in later
    fights. The job stops at the first fight the Runners do not win."""
    from cwenv.runner.task import LoadedGame, play_game

    job = game.job
    play = JobPlay(game)
    known: dict[str, tuple[CarriedFighter, FighterSpec]] = {}
    out: set[str] = set()
    session = job.fights[0].session
    for k, (fight, scenario) in enumerate(zip(job.fights, game.games, strict=True)):
        if fight.session != session:
            known = _regenerated(known, scenario)
            session = fight.session
        drop = {i for i, s in enumerate(scenario.roster) if s.side is Side.RUNNER and s.name in out}
        if len(drop) == sum(1 for s in scenario.roster if s.side is Side.RUNNER):
            play.stopped = f"Kampf {k + 1}: kein Runner mehr einsatzfähig"
            break
        try:
            fitted = without(scenario, drop)
        except CarryError as exc:
            play.stopped = f"Kampf {k + 1}: {exc}"
            break
        carried = []
        for idx, spec in enumerate(fitted.roster):
            if spec.side is not Side.RUNNER:
                continue
            if spec.name in known:
                before, old_spec = known[spec.name]
                carried.append((idx, refit(before, old_spec, spec)))
            else:  # M10: 'Am Anfang jedes Auftrags startest du mit vollem Mumm'
                carried.append((idx, CarriedFighter(lp=spec.lp, mumm=job_start_mumm(spec))))
        fitted = dataclasses.replace(fitted, carried=tuple(carried))
        play.starts.append({fitted.roster[i].name: c for i, c in carried})
        loaded = LoadedGame(CW, fitted, game.specs[k])
        combat: Combat = play_game(loaded, runners, nscs, fight_seed(seed, k))
        play.combats.append(combat)
        for f in combat.fighters:
            if f.side is not Side.RUNNER:
                continue
            if out_of_action(f):
                out.add(f.name)
                known.pop(f.name, None)
                continue
            kept = carried_from(
                f,
                conditions=job.conditions,
                zehrend=job.carry.zehrend,
                ammo=job.carry.ammo,
                items=job.carry.items,
            )
            points = daring_points(combat, f.idx)  # M10, X61
            play.daring += points
            kept = dataclasses.replace(kept, mumm=min(mumm_cap(f.spec), kept.mumm + points))
            known[f.name] = (kept, f.spec)
        outcome = combat.outcome
        if outcome is None or outcome.winner is not Side.RUNNER:
            break
    return play
