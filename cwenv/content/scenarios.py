"""Scenario files (``configs/scenarios/``): map, fighters, rules, round limit, victory.

A scenario entry in ``fighters`` is either a complete stat block or an ``archetype`` from
``configs/fighters/`` with any fields overridden (:class:`ScenarioFighter`); it is placed
either at a cell (``at: [x, y]``) or in a spawn zone of the map (``spawn: runner``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, Tag, ValidationInfo, field_validator

from cwenv.content.equipment import REF_OR_INLINE
from cwenv.content.fields import MODEL_CONFIG, CellXY, Name, RefName, SideField, Text
from cwenv.content.fighters import FighterPatch
from cwenv.content.maps import MapModel, ZoneName
from cwenv.engine.game import DECISION_CAP

PLACEMENT_FIELDS = ("archetype", "at", "spawn", "count")


class ScenarioFighter(FighterPatch):
    """One entry of a scenario's ``fighters``: an archetype with overrides, placed."""

    model_config = MODEL_CONFIG

    archetype: RefName | None = None
    at: CellXY | None = None
    spawn: ZoneName | None = None
    count: Annotated[int, Field(ge=1, le=32)] = 1

    @field_validator("spawn")
    @classmethod
    def _one_placement(cls, v: str | None, info: ValidationInfo) -> str | None:
        if "at" not in info.data:
            return v  # ``at`` itself was invalid
        if v is not None and info.data["at"] is not None:
            raise ValueError("give either at: [x, y] or spawn: <zone>, not both")
        if v is None and info.data["at"] is None:
            raise ValueError("each fighter needs a placement: at: [x, y] or spawn: <zone>")
        return v

    @field_validator("count")
    @classmethod
    def _count_needs_zone(cls, v: int, info: ValidationInfo) -> int:
        if v > 1 and info.data.get("at") is not None:
            raise ValueError("count > 1 needs spawn: <zone> (one cell per fighter)")
        return v


class EliminateVictory(BaseModel):
    """A side wins when the other has nobody standing (always checked by the engine)."""

    model_config = MODEL_CONFIG

    kind: Literal["eliminate"]


class SurviveVictory(BaseModel):
    """``side`` wins if it still stands after ``rounds`` Kampfrunden."""

    model_config = MODEL_CONFIG

    kind: Literal["survive"]
    side: SideField = "runner"
    rounds: Annotated[int, Field(ge=1, le=1000)]


class ReachExitVictory(BaseModel):
    """``side`` wins when ``count`` of its fighters have left by the map's exit cells."""

    model_config = MODEL_CONFIG

    kind: Literal["reach_exit"]
    side: SideField = "runner"
    count: Annotated[int, Field(ge=1, le=64)] = 1


class ProtectVipVictory(BaseModel):
    """``side`` loses when the fighter named ``vip`` is down or dead."""

    model_config = MODEL_CONFIG

    kind: Literal["protect_vip"]
    vip: Name
    side: SideField = "runner"


VictoryModel = Annotated[
    EliminateVictory | SurviveVictory | ReachExitVictory | ProtectVipVictory,
    Field(discriminator="kind"),
]


MapRef = Annotated[
    Annotated[RefName, Tag("ref")] | Annotated[MapModel, Tag("inline")], REF_OR_INLINE
]


class ScenarioModel(BaseModel):
    """A fight: ``configs/scenarios/<name>.yaml``."""

    model_config = MODEL_CONFIG

    name: Name
    description: Text = ""
    map: MapRef
    rules: RefName | None = None
    options: dict[str, Any] = {}
    round_limit: Annotated[int, Field(ge=1, le=1000)] | None = None
    decision_cap: Annotated[int, Field(ge=100, le=100_000)] = DECISION_CAP
    victory: Annotated[list[VictoryModel], Field(min_length=1, max_length=8)] = [
        EliminateVictory(kind="eliminate")
    ]
    ambushed: list[SideField] = []
    fighters: Annotated[list[ScenarioFighter], Field(min_length=2, max_length=64)]
