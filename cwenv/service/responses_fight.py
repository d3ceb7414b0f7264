"""Typed answers about one fight for the OpenAPI document: its state, an action's result,
the board and a fighter's focus of the browser view, and the stored games of Watch mode.

Like :mod:`.responses` they describe, field for field, the JSON that :mod:`.wire`,
:mod:`.board` and :mod:`.replays` write and change none of it. The combat's parts of a
state are absent (not null) while a fight's setup waits for the table's first dice, so the
routes that answer with a state serialise only the fields that were set
(``response_model_exclude_unset``); the models mark those parts optional.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from cwenv.service.responses import ActionOut, EventOut, Number, Odds, _Answer

_ABSENT = "Absent while the fight's setup waits for the table's first dice."


class CellOut(_Answer):
    x: int
    y: int
    index: int = Field(description="The cell's index (y * width + x): an action's cell.")


class MapOut(_Answer):
    """The map as rows of the scenario files' characters and rows of heights (base 36)."""

    name: str
    width: int
    height: int
    rows: list[str]
    elevation: list[str]
    legend: dict[str, str]
    exits: list[CellOut]


class WeaponOut(_Answer):
    slot: int
    name: str
    ammo: int


class FighterOut(_Answer):
    index: int
    name: str
    side: str
    cell: CellOut | None = Field(description="None once the fighter has left the map.")
    lp: int
    lp_max: int
    mumm: int
    mumm_max: int
    reactions: int
    actions: int
    initiative: int
    conditions: list[str]
    condition_labels: list[str]
    zehrend: list[str]
    standing: bool
    dead: bool
    down: bool
    stabilised: bool
    fled: bool
    drawn_weapon: str | None
    weapons: list[WeaponOut]
    aim_target: int | None


class DecisionOut(_Answer):
    """Whose decision it is, of which kind, and the prompt it answers (``about``)."""

    kind: str
    fighter: int
    name: str
    side: str
    resolving: str | None
    about: dict[str, Any] | None
    about_type: str | None


class LegalOut(_Answer):
    """A legal action; ``id`` is its place in the list (``action_id`` of POST …/actions)."""

    id: int
    action: ActionOut
    label: str
    odds: Odds | None
    odds_text: str | None


class OutcomeOut(_Answer):
    winner: str | None
    reason: str
    rounds: int


class WaitingOut(_Answer):
    """A step that waits for the table's W10s (fights with ``dice: table``)."""

    wants: str = Field(alias="for", description="What the next die is for (German).")
    sent: int
    action: ActionOut | None = Field(description="None: the fight's setup (initiative).")


class CombatOut(_Answer):
    """The combat's parts of a state (each absent while the setup waits for dice)."""

    scenario: str | None = Field(None, description=_ABSENT)
    round: int | None = Field(None, description=_ABSENT)
    map: MapOut | None = Field(None, description=_ABSENT)
    fighters: list[FighterOut] | None = Field(None, description=_ABSENT)
    decision: DecisionOut | None = Field(None, description="None once the fight is over.")
    legal_actions: list[LegalOut] | None = Field(None, description=_ABSENT)
    outcome: OutcomeOut | None = Field(None, description="None while the fight goes on.")


class StateHead(_Answer):
    id: str
    origin: str
    dice: str
    step: int
    waiting_for_die: WaitingOut | None


class StateOut(CombatOut, StateHead):
    """``GET /v1/fights/{id}`` (and the state after a create, an action, dice or undo).
    Pydantic orders the fields of the later base first: the head, then the combat."""


class PurposeOut(_Answer):
    """What the W10 a step waits for is rolled for (``cwenv.play.roll_text.roll_json``)."""

    kind: str
    fighter: int
    fighter_name: str | None
    target: int
    target_name: str | None
    other: int
    other_name: str | None
    die: int
    count: int
    check: str | None
    value: str | None
    qs: int | None
    label: str
    text: str


class ResultOut(_Answer):
    """``POST …/actions`` and ``POST …/dice``: what the step did, or the die it waits for."""

    action: ActionOut | None
    events: list[EventOut]
    needs_die: str | None
    needs_die_purpose: PurposeOut | None
    unused_dice: int
    state: StateOut


class OrderOut(_Answer):
    now: int | None
    next: list[int]


class BoardParts(_Answer):
    """What the browser's map draws besides the state (absent while the setup waits)."""

    markers: list[str] | None = Field(None, description="Runner A.., Gegner a.., neutrals 1..")
    order: OrderOut | None = None
    decision_label: str | None = None


class BoardOut(BoardParts, StateOut):
    """``GET /v1/fights/{id}/board``."""


class AttackOut(_Answer):
    id: int
    label: str
    hit: Number
    success: Number
    cover: str


class ReachOut(CellOut):
    difficult: bool = Field(description="Reached by Schwierige Bewegung.")
    id: int


class TargetOut(_Answer):
    fighter: int
    name: str
    cell: CellOut | None
    in_sight: bool
    attack: AttackOut | None


class FocusOut(_Answer):
    """``GET /v1/fights/{id}/fighters/{n}/focus``."""

    fighter: int
    own_turn: bool
    reachable: list[ReachOut]
    sight: list[CellOut]
    targets: list[TargetOut]


class GameRowOut(_Answer):
    game_id: str
    scenario: str
    scenario_source: str
    rules: str | None
    runners: str
    nscs: str
    index: int
    seed: int
    result: str
    reason: str | None
    rounds: int | None


class GamesOut(_Answer):
    """``GET /v1/games``."""

    db: str
    total: int
    games: list[GameRowOut]


class LineOut(_Answer):
    source: int = Field(alias="from")
    to: int
    hit: bool


class TakenOut(_Answer):
    action: ActionOut
    label: str


class FrameState(BoardParts, CombatOut):
    """A replay frame's state (no fight id: the game is not a fight of the service)."""


class FrameOut(_Answer):
    step: int
    taken: TakenOut | None
    events: list[EventOut]
    lines: list[LineOut]
    state: FrameState


class ReplayOut(_Answer):
    """``GET /v1/games/{id}/replay``."""

    game_id: str
    label: str
    warnings: list[str]
    matches: bool | None
    outcome: OutcomeOut | None
    frames: list[FrameOut]
