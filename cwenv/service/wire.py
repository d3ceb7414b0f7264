"""The service's JSON: actions, events, payloads, fighters, the map, the legal actions with
their exact odds, and the advisor's answer.

An :class:`~cwenv.engine.actions.Action` becomes JSON and comes back from JSON only here
(:func:`action_json`, :func:`action_of`, :class:`ActionBody`): renaming an Action field is
a change to this module alone. Events and payloads are frozen records and are written out
field by field (enums by name), so a new event needs no code here.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cwenv.battlemap.grid import DEFAULT_LEGEND, Terrain
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.events import Event
from cwenv.engine.narration import narrate
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.play.advise import Advice, Option
from cwenv.play.menu import label
from cwenv.play.prompt_odds import choice_odds
from cwenv.service.errors import bad_field

STRICT = ConfigDict(extra="forbid", strict=True)
_CHAR_OF = {terrain: char for char, terrain in DEFAULT_LEGEND.items()}
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


class ActionBody(BaseModel):
    """An action as the client sends it (the fields of the engine's Action)."""

    model_config = STRICT

    kind: str = Field(description="The action kind by name, e.g. ATTACK, MOVE, END_TURN.")
    actor: int
    target: int = -1
    cell: int = -1
    arg: int = Field(-1, description="Weapon, manoeuvre, hack, item or check value slot.")
    mumm: int = 0


def action_json(a: Action) -> dict[str, Any]:
    return {
        "kind": a.kind.name,
        "actor": a.actor,
        "target": a.target,
        "cell": a.cell,
        "arg": a.arg,
        "mumm": a.mumm,
    }


def action_of(body: ActionBody, field: str = "action") -> Action:
    """The engine's Action of a client's JSON; 422 naming the field for an unknown kind."""
    kinds = list(ActionKind.__members__)
    if body.kind not in ActionKind.__members__:
        raise bad_field(f"{field}.kind", f"unknown action kind {body.kind!r}", kinds)
    return Action(ActionKind[body.kind], body.actor, body.target, body.cell, body.arg, body.mumm)


def record_json(value: object) -> Any:
    """A frozen record (event, payload, roll) as JSON: enums by name, tuples as lists."""
    if isinstance(value, Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: record_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple (Cell, Source)
        return {name: record_json(v) for name, v in zip(value._fields, value, strict=True)}
    if isinstance(value, (tuple, list)):
        return [record_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): record_json(v) for k, v in value.items()}
    return value


def event_json(event: Event, names: list[str]) -> dict[str, Any]:
    """An event as data (its type and fields) with its German narration line."""
    return {"type": type(event).__name__, "data": record_json(event), "text": narrate(event, names)}


def cell_json(c: Combat, cell: int) -> dict[str, int] | None:
    if cell < 0:
        return None
    x, y = c.bm.cell(cell)
    return {"x": x, "y": y, "index": cell}


def map_json(c: Combat) -> dict[str, Any]:
    """The map as rows of the scenario files' characters (doors as they are now) and rows
    of heights in base 36, with the legend's meaning of each character."""
    bm = c.bm
    rows, heights = [], []
    for y in range(bm.height):
        row, height = [], []
        for x in range(bm.width):
            i = y * bm.width + x
            terrain = bm.terrain[i]
            if terrain in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
                terrain = Terrain.DOOR_OPEN if c.door_open(i) else Terrain.DOOR_CLOSED
            row.append(_CHAR_OF[terrain])
            height.append(_BASE36[min(bm.elevation[i], 35)])
        rows.append("".join(row))
        heights.append("".join(height))
    return {
        "name": bm.name,
        "width": bm.width,
        "height": bm.height,
        "rows": rows,
        "elevation": heights,
        "legend": {char: terrain.name for char, terrain in DEFAULT_LEGEND.items()},
        "exits": [cell_json(c, e) for e in bm.exits],
    }


def fighter_json(c: Combat, idx: int) -> dict[str, Any]:
    f = c.fighters[idx]
    drawn = f.weapons[f.drawn].name if 0 <= f.drawn < len(f.weapons) else None
    return {
        "index": idx,
        "name": f.name,
        "side": f.side.name,
        "cell": cell_json(c, f.pos) if f.on_map else None,
        "lp": f.lp,
        "lp_max": f.spec.lp,
        "mumm": f.mumm,
        "mumm_max": f.mumm_max,
        "reactions": f.reactions,
        "actions": f.actions,
        "initiative": f.initiative,
        "conditions": [cond.name for cond in f.condition_list()],
        "condition_labels": [cond.label for cond in f.condition_list()],
        "zehrend": list(f.zehrend),
        "standing": f.standing,
        "dead": f.dead,
        "down": f.down,
        "stabilised": f.stabilised,
        "fled": f.fled,
        "drawn_weapon": drawn,
        "weapons": [
            {"slot": i, "name": w.name, "ammo": f.ammo[i]} for i, w in enumerate(f.weapons)
        ],
        "aim_target": f.aim_target if f.aim_target >= 0 else None,
    }


def odds_json(c: Combat, a: Action) -> dict[str, Any] | None:
    """The exact odds of an attack (cwenv.engine.preview), None for other actions."""
    p = preview_attack(c, a)
    if p is None:
        return None
    return {
        "probenwert": p.probenwert,
        "success": p.success,
        "hit": p.hit,
        "expected_qs": p.expected_qs,
        "cover": p.cover.name,
        "defence": p.defence,
    }


def legal_json(c: Combat) -> list[dict[str, Any]]:
    """Every legal action with its id (its place in the list), label and exact odds."""
    return [
        {
            "id": i,
            "action": action_json(a),
            "label": label(c, a),
            "odds": odds_json(c, a),
            "odds_text": choice_odds(c, a) or None,
        }
        for i, a in enumerate(c.legal_actions())
    ]


def decision_json(c: Combat) -> dict[str, Any] | None:
    d = c.decision
    if d is None:
        return None
    f = c.fighters[d.fighter]
    return {
        "kind": d.kind.name,
        "fighter": d.fighter,
        "name": f.name,
        "side": f.side.name,
        "resolving": c.stack_frames()[-1].describe() if c.stack_frames() else None,
        "about": None if d.payload is None else record_json(d.payload),
        "about_type": None if d.payload is None else type(d.payload).__name__,
    }


def outcome_json(c: Combat) -> dict[str, Any] | None:
    o = c.outcome
    if o is None:
        return None
    return {
        "winner": o.winner.name if o.winner is not None else None,
        "reason": o.reason,
        "rounds": o.rounds,
    }


def combat_json(c: Combat, with_legal: bool = True) -> dict[str, Any]:
    return {
        "scenario": c.game.name,
        "round": c.round,
        "map": map_json(c),
        "fighters": [fighter_json(c, i) for i in range(len(c.fighters))],
        "decision": decision_json(c),
        "legal_actions": legal_json(c) if with_legal and c.outcome is None else [],
        "outcome": outcome_json(c),
    }


def option_json(c: Combat, o: Option) -> dict[str, Any]:
    legal = c.legal_actions()
    return {
        "id": legal.index(o.action) if o.action in legal else None,
        "action": action_json(o.action),
        "label": o.label,
        "label_en": o.label_en,
        "score": o.score,
        "reason": o.reason or None,
        "reason_en": o.reason_en or None,
        "visits": o.visits,
        "odds": odds_json(c, o.action),
    }


def advice_json(c: Combat, agent: str, advice: Advice) -> dict[str, Any]:
    """The advisor's answer (cwenv.play.advise): the choice, its score, the alternatives."""
    return {
        "agent": agent,
        "fighter": advice.fighter,
        "score_kind": advice.score_kind,
        "score_kind_en": advice.score_kind_en,
        "decision": advice.decision,
        "decision_en": advice.decision_en,
        "recommended": option_json(c, advice.recommended),
        "alternatives": [option_json(c, o) for o in advice.alternatives],
        "plan": [plan_step_json(o) for o in advice.plan],
    }


def plan_step_json(o: Option) -> dict[str, Any]:
    """A later step of the advised turn (on the advisor's copy: no id, no odds here)."""
    return {
        "action": action_json(o.action),
        "label": o.label,
        "label_en": o.label_en,
        "score": o.score,
        "reason": o.reason or None,
        "reason_en": o.reason_en or None,
    }
