"""Saved games: the strict file format, its version, atomic writes, loading with errors
that name the file, line and field.

A saved game is the list of decisions and typed dice that rebuilds a combat exactly (see
:mod:`cwenv.play.table_game`). The ``cwenv_save`` field carries the format version; a file
without it was written before the field existed and has the same layout (format 1).

Format 2 (issue #16) adds ``dice_stream``, the generator the seed feeds
(:data:`cwenv.rules.dice.STREAMS`). A save without it was rolled by the stream of before,
Python's Mersenne Twister (``mt19937``), and replays under it exactly.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    ValidationError,
    field_validator,
)

from cwenv.content.errors import issues_from
from cwenv.engine.actions import Action, ActionKind
from cwenv.rules.dice import LEGACY_STREAM, STREAM, STREAMS
from cwenv.yamlio import SAVE_LIMITS, ConfigError, ConfigIssue, YamlDocument, read_yaml_file

if TYPE_CHECKING:
    from cwenv.engine.game import Game

HUMAN = "human"
SAVE_VERSION = 2
"""The save format this cwenv writes (the ``cwenv_save`` field); it reads 1 and 2. A file
without the field predates it and has format 1's layout, so it is read as format 1."""
VERSION_FIELD = "cwenv_save"
STRICT = ConfigDict(extra="forbid", strict=True)
"""Like content files: unknown fields are errors and nothing is coerced ('4' is no 4)."""


def _w10(value: int) -> int:
    if not 1 <= value <= 10:
        raise ValueError(f"a W10 shows 1 to 10, not {value}")
    return value


W10 = Annotated[int, AfterValidator(_w10)]


class DiceMode(Enum):
    SEEDED = "seeded"  # the engine rolls from the seed
    TABLE = "table"  # the GM types every W10 rolled at the table


class SavedAction(BaseModel):
    model_config = STRICT

    kind: str

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        if value not in ActionKind.__members__:
            raise ValueError(f"unknown action kind; allowed: {', '.join(ActionKind.__members__)}")
        return value

    actor: int
    target: int = -1
    cell: int = -1
    index: int = -1
    mumm: int = 0

    @classmethod
    def of(cls, a: Action) -> SavedAction:
        return cls(
            kind=a.kind.name,
            actor=a.actor,
            target=a.target,
            cell=a.cell,
            index=a.arg,
            mumm=a.mumm,
        )

    def action(self) -> Action:
        return Action(
            ActionKind[self.kind], self.actor, self.target, self.cell, self.index, self.mumm
        )


class SavedGame(BaseModel):
    """A saved game: everything needed to rebuild it exactly."""

    model_config = STRICT

    cwenv_save: int = Field(SAVE_VERSION, ge=1, le=SAVE_VERSION)
    scenario: str
    rules: str | None = None
    seed: int
    runners: str
    nscs: str
    # An enum is written as its value ('table'); strict mode would want the enum object.
    dice: Annotated[DiceMode, Strict(False)] = DiceMode.SEEDED
    typed_dice: list[W10] = Field(default_factory=list)
    actions: list[SavedAction] = Field(default_factory=list)
    # The stream of the seeded dice; a file without it is read as LEGACY_STREAM (stored_save).
    dice_stream: str = STREAM

    @field_validator("dice_stream")
    @classmethod
    def _known_stream(cls, value: str) -> str:
        if value not in STREAMS:
            raise ValueError(f"unknown dice stream; this cwenv knows {', '.join(STREAMS)}")
        return value


def stored_save(data: dict[str, object]) -> dict[str, object]:
    """A stored save's fields as read: one without ``cwenv_save`` is format 1, and one
    written before ``dice_stream`` existed was rolled by the legacy stream, so it says so
    (and replays exactly)."""
    return {VERSION_FIELD: 1, "dice_stream": LEGACY_STREAM, **data}


def write_save(path: Path, saved: SavedGame) -> None:
    """Write ``saved`` to ``path`` atomically; OSError when that cannot be done (the file
    there before, if any, is then unchanged)."""
    text = "# cwenv: gespeicherte Partie\n" + yaml.safe_dump(
        saved.model_dump(mode="json"), sort_keys=False, allow_unicode=True
    )
    write_atomic(path, text)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file next to ``path`` and rename it over ``path``: a
    crash or a full disk leaves the old file or the new one, never half of one."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        mask = os.umask(0)  # mkstemp makes the file 0600; a save is an ordinary file
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _check_version(doc: YamlDocument) -> None:
    """Refuse a save format this cwenv does not know, by name, before reading the rest."""
    data = doc.data
    if not isinstance(data, dict) or VERSION_FIELD not in data:
        return  # no field: a save from before the field existed, which is format 1
    version = data[VERSION_FIELD]
    if type(version) is not int or not 1 <= version <= SAVE_VERSION:
        raise ConfigError(
            [
                doc.issue(
                    (VERSION_FIELD,),
                    f"save format {version!r} is unknown; this cwenv reads formats "
                    f"1 to {SAVE_VERSION} (a save written by another cwenv version?)",
                )
            ]
        )


def load_saved(path: Path) -> SavedGame:
    """Read and validate a saved game; errors name the file, line and field."""
    return read_saved(path)[0]


def read_saved(path: Path) -> tuple[SavedGame, YamlDocument]:
    """The saved game and its document (for errors found later, at their lines)."""
    doc = read_yaml_file(path, SAVE_LIMITS)
    if not isinstance(doc.data, dict):
        raise ConfigError(
            [doc.issue((), "a saved game is a mapping of fields (scenario, seed, actions, …)")]
        )
    _check_version(doc)
    try:
        saved = SavedGame.model_validate(stored_save(doc.data))
    except ValidationError as exc:
        raise ConfigError(issues_from(exc, SavedGame, doc)) from None
    return saved, doc


def load_game(saved: SavedGame, doc: YamlDocument | None = None) -> Game:
    """The scenario of a saved game. Errors name the saved file's ``scenario`` or ``rules``
    field when the game came from a file (``doc``), else the scenario's own file."""
    from cwenv.content import load_scenario

    try:
        return load_scenario(saved.scenario, rules=saved.rules)
    except ConfigError as exc:
        if doc is None:
            raise
        field = "scenario"
        if saved.rules is not None:
            with contextlib.suppress(ConfigError):
                load_scenario(saved.scenario)
                field = "rules"  # the scenario loads alone: the variant is at fault
        raise ConfigError([doc.issue((field,), _inner(i)) for i in exc.issues]) from None


def _inner(issue: ConfigIssue) -> str:
    """An issue of another file as a message; a bare name (no file) only by its message."""
    return str(issue) if Path(issue.file).is_file() else issue.message
