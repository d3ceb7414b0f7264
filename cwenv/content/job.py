"""Job files (``configs/jobs/``): several scenarios played in a row as one Auftrag (M10).

A job lists its fights in order, each with the session (Sitzung) it is played in, and says
what a Runner carries from one fight into the next (``carry``). Runners are matched by
name: a Runner of a later fight who fought in an earlier one comes in with what it had
left; Gegner and neutrals are always the scenario's own. The rules of carrying over are
:mod:`cwenv.engine.carry`; the runner plays a job (:mod:`cwenv.runner.jobs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from cwenv.content.errors import Origin, validate
from cwenv.content.fields import MODEL_CONFIG, Name, RefName, Text
from cwenv.content.library import Library, looks_like_path
from cwenv.engine.carry import LASTING
from cwenv.model.types import Condition
from cwenv.yamlio import ConfigError, ConfigIssue, read_yaml_file

JOBS_FOLDER = "jobs"

ConditionCarry = Literal["lasting", "all", "none"]
AmmoCarry = Literal["as_left", "reloaded", "full"]

CONDITION_SETS: dict[str, frozenset[Condition]] = {
    "lasting": LASTING,
    "all": frozenset(Condition) - {Condition.STERBEND},  # a dying Runner is out anyway
    "none": frozenset(),
}


class CarryModel(BaseModel):
    """What a Runner brings from one fight of the job into the next."""

    model_config = MODEL_CONFIG

    conditions: ConditionCarry = "lasting"
    zehrend: bool = False
    ammo: AmmoCarry = "reloaded"
    items: bool = True


class FightModel(BaseModel):
    """One fight of a job: a scenario (library name, or a file relative to the job file)
    and the session it is played in (1, 2, …; a new number is a new Sitzung, M10/X37)."""

    model_config = MODEL_CONFIG

    scenario: Annotated[str, Field(min_length=1, max_length=200)]
    session: Annotated[int, Field(ge=1, le=100)] = 1


class JobModel(BaseModel):
    """A job: ``configs/jobs/<name>.yaml``."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    rules: RefName | None = None
    carry: CarryModel = CarryModel()
    fights: Annotated[list[FightModel], Field(min_length=1, max_length=16)]


@dataclass(frozen=True)
class Fight:
    scenario: str  # a library name or an absolute path
    session: int


@dataclass(frozen=True)
class Job:
    """A loaded job file."""

    name: str
    description: str
    source: Path
    rules: str | None
    carry: CarryModel
    fights: tuple[Fight, ...]

    @property
    def conditions(self) -> frozenset[Condition]:
        return CONDITION_SETS[self.carry.conditions]

    def settings(self) -> dict[str, object]:
        """What of the job decides its games besides its scenarios (hashed into game ids)."""
        return {
            "name": self.name,
            "rules": self.rules,
            "carry": self.carry.model_dump(mode="json"),
            "fights": [{"scenario": Path(f.scenario).name, "session": f.session} for f in
                       self.fights],
        }  # fmt: skip


def locate_job(spec: str, root: str | Path | None = None) -> Path:
    """The file of a job: a path, or a name in the library's ``jobs/`` folder."""
    lib = Library(root)
    if looks_like_path(spec):
        return Path(spec)
    candidate = lib.root / JOBS_FOLDER / f"{spec}.yaml"
    if not candidate.is_file():
        folder = lib.root / JOBS_FOLDER
        known = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
        listed = ", ".join(known) or "(none)"
        raise ConfigError([ConfigIssue(spec, None, (), f"unknown job {spec!r}; known: {listed}")])
    return candidate


def load_job(spec: str, root: str | Path | None = None) -> Job:
    """Read and check a job file (every scenario it names must exist); a
    :class:`ConfigError` names file, line, field and the allowed values."""
    path = locate_job(spec, root)
    doc = read_yaml_file(path)
    model = validate(JobModel, Origin(doc), doc.data)
    lib = Library(root)
    known = lib.names("scenarios")
    fights = []
    issues = []
    previous = 1
    for i, fight in enumerate(model.fights):
        allowed = (1,) if i == 0 else (previous, previous + 1)
        if fight.session not in allowed:
            issues.append(
                doc.issue(
                    ("fights", i, "session"),
                    f"{fight.session} is not allowed here; allowed: "
                    f"{' or '.join(str(a) for a in allowed)} (sessions start at 1, go up by one)",
                )
            )
        previous = fight.session
        if looks_like_path(fight.scenario):
            file = (path.parent / fight.scenario).resolve()
            if not file.is_file():
                issues.append(doc.issue(("fights", i, "scenario"), f"no such file: {file}"))
            fights.append(Fight(str(file), fight.session))
        elif fight.scenario not in known:
            issues.append(
                doc.issue(
                    ("fights", i, "scenario"),
                    f"unknown scenario {fight.scenario!r}; known: {', '.join(known)}",
                )
            )
        else:
            fights.append(Fight(fight.scenario, fight.session))
    if issues:
        raise ConfigError(issues)
    return Job(
        model.name, model.description, path.resolve(), model.rules, model.carry, tuple(fights)
    )
