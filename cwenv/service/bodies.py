"""The request bodies of the service (strict: an unknown field is an error, nothing is
coerced), and the service's settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cwenv.play.advise import MAX_BUDGET
from cwenv.service.wire import ActionBody

W10 = Annotated[int, Field(ge=1, le=10)]
Text = Annotated[str, Field(max_length=2_000_000)]
Document = Text | dict[str, Any]
"""A file's text (YAML or JSON) or the same document as a JSON object."""
MAX_SEED = 2**63 - 1
DICE_PER_REQUEST = 200
SERVED_BUDGET = 10_000
"""The default ``--max-budget``: an MCTS search this long takes minutes on a small machine,
and one request holds a worker thread while it runs."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How ``cwenv serve`` runs (its command-line options)."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None
    origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    db: Path | None = None  # None: fights live only as long as the process
    max_fights: int = 64
    max_body: int = 1_000_000
    max_top: int = 10
    max_budget: int = SERVED_BUDGET  # search iterations or rollouts one advice may ask for
    games: Path | None = None  # a tournament or stress database for the page's Watch mode


class CreateFight(BaseModel):
    """Where the fight starts: exactly one of ``scenario`` (a shipped name),
    ``scenario_file`` (a scenario file's text or object), ``situation`` (the format of
    ``cwenv advise``) or ``save`` (a ``cwenv play`` save)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    scenario: str | None = Field(None, max_length=200, examples=["feuergefecht"])
    scenario_file: Document | None = None
    situation: Document | None = None
    save: Document | None = None
    rules: str | None = Field(None, max_length=200, description="A shipped rule variant.")
    seed: int = Field(0, ge=0, le=MAX_SEED)
    dice: Literal["seeded", "table"] = Field(
        "seeded", description="seeded: the service rolls; table: the client sends every W10."
    )


class ActBody(BaseModel):
    """The action to carry out: exactly one of ``action`` (the action itself),
    ``action_id`` (its id in the state's ``legal_actions``) or ``agent`` (that agent's
    proposal, as ``GET …/advice`` gives it). ``dice``: the table's W10s for this step
    (fights with ``dice: table``); ``expect_step``: refuse if the fight moved on;
    ``budget``: the agent's search budget, as ``GET …/advice?budget=`` takes it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: ActionBody | None = None
    action_id: int | None = Field(None, ge=0)
    agent: str | None = Field(None, max_length=200)
    dice: list[W10] = Field(default_factory=list, max_length=DICE_PER_REQUEST)
    expect_step: int | None = Field(None, ge=0)
    budget: int | None = Field(
        None,
        ge=1,
        le=MAX_BUDGET,
        description="With agent: MCTS iterations or lookahead rollouts (at most the "
        "service's --max-budget).",
    )


class DiceBody(BaseModel):
    """W10s rolled at the table for the step that waits for them."""

    model_config = ConfigDict(extra="forbid", strict=True)

    dice: list[W10] = Field(min_length=1, max_length=DICE_PER_REQUEST)


class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    expect_step: int | None = Field(None, ge=0)
