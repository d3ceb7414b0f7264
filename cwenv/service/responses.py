"""Typed answers of the service for its OpenAPI document (``response_model=``).

They describe the JSON that :mod:`.wire` and :mod:`.app` already write, field for field, and
change none of it: numbers are ``int | float`` so an int stays an int and a float a float
(pydantic's smart unions keep the exact type), and ``extra="forbid"`` makes a field added
to the JSON without its model a 500 in the tests rather than a silently wrong document.
Engine records of open shape (an event's data, a prompt's payload) stay ``dict``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Number = int | float


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Limits(_Answer):
    max_fights: int
    max_body: int


class About(_Answer):
    """``GET /v1``."""

    service: str
    version: str
    scenarios: list[str]
    rules: list[str]
    agents: list[str]
    limits: Limits


class AgentRow(_Answer):
    """One row of ``GET /v1/agents``."""

    agent: str
    description: str


class FightRow(_Answer):
    """One row of ``GET /v1/fights``."""

    id: str
    scenario: str
    step: int
    over: bool


class ActionOut(_Answer):
    """An action as the service writes it (``wire.action_json``)."""

    kind: str
    actor: int
    target: int
    cell: int
    arg: int
    mumm: int


class Odds(_Answer):
    """An attack's exact odds (``wire.odds_json``)."""

    probenwert: int
    success: Number
    hit: Number
    expected_qs: Number
    cover: str
    defence: int | None


class AdviceOption(_Answer):
    """The recommendation or an alternative; ``id`` is its place in ``legal_actions``."""

    id: int | None
    action: ActionOut
    label: str
    label_en: str
    score: Number | None
    reason: str | None
    reason_en: str | None
    visits: int | None
    odds: Odds | None


class PlanStep(_Answer):
    """A later step of the advised turn."""

    action: ActionOut
    label: str
    label_en: str
    score: Number | None
    reason: str | None
    reason_en: str | None


class AdviceOut(_Answer):
    """``GET /v1/fights/{id}/advice``: what would this NSC do?"""

    agent: str
    fighter: str
    score_kind: str
    score_kind_en: str
    decision: str
    decision_en: str
    recommended: AdviceOption
    alternatives: list[AdviceOption]
    plan: list[PlanStep]
    step: int


class EventOut(_Answer):
    """An event as data and as its German narration line."""

    type: str
    data: dict[str, Any]
    text: str


class EventsPage(_Answer):
    """``GET /v1/fights/{id}/events``."""

    since: int
    count: int
    events: list[EventOut]


class IssueOut(_Answer):
    """One problem with a request (``cwenv.service.errors.Issue``)."""

    field: str = Field(description="The request's field, dotted (``situation.fighters.Mara.at``).")
    message: str
    line: int | None = Field(None, description="Absent unless the field is a file's text.")
    allowed: list[str] | None = Field(
        None, description="Absent unless the field takes fixed values."
    )


class ErrorOut(_Answer):
    """Every 4xx the service answers (``cwenv.service.errors.ServiceError``, the gate's)."""

    error: str = Field(description="A code: invalid_request, no_such_fight, needs_die, …")
    message: str
    issues: list[IssueOut]
