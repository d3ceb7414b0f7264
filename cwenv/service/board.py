"""What the browser view draws besides the state: fighter letters, the turn order, the
attack lines of a step, and one fighter's focus (reachable cells, cells in sight, the hit
chance against each opponent).

Everything here reads the engine; nothing decides. Reachable cells are the legal MOVE and
SCHWIERIG actions of the fighter's own turn (the engine's one legality function), so the
map never shows a cell the menu would refuse; the hit chances are the exact odds of
:func:`cwenv.engine.preview.preview_attack`, as in the menu.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cwenv.battlemap.grid import Terrain
from cwenv.battlemap.los import has_line_of_sight
from cwenv.content.markers import fighter_marker
from cwenv.engine import events as ev
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.play.menu import label
from cwenv.service.errors import bad_field
from cwenv.service.wire import cell_json

ATTACK_KINDS = frozenset({ActionKind.ATTACK, ActionKind.MANEUVER, ActionKind.HACK})


def board_json(c: Combat) -> dict[str, Any]:
    """The letters (Runner A.., Gegner a.., neutrals 1..), the turn order and the decision's
    German name: what the page shows next to the state."""
    sides = [f.side for f in c.fighters]
    d = c.decision
    return {
        "markers": [fighter_marker(sides, i) for i in range(len(sides))],
        "order": {
            "now": c.turn_fighter if 0 <= c.turn_fighter < len(c.fighters) else None,
            "next": [idx for _, idx in c.queue if c.fighters[idx].standing],
        },
        "decision_label": None if d is None else d.kind.label,
    }


def attack_lines(events: Sequence[ev.Event]) -> list[dict[str, Any]]:
    """Every attack of ``events``: who at whom, and whether it hit (a redirected miss is
    drawn to the one it struck, C05). A hit whose attack was declared in an earlier step
    (the target's defence was a decision of its own) gets its line in the step it lands."""
    lines: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, ev.AttackDeclared):
            lines.append({"from": event.attacker, "to": event.target, "hit": False})
        elif isinstance(event, ev.AttackRedirected):
            lines.append({"from": event.attacker, "to": event.new_target, "hit": False})
        elif isinstance(event, ev.Hit):
            line = next(
                (x for x in lines if x["from"] == event.attacker and x["to"] == event.target),
                None,
            )
            if line is None:
                lines.append({"from": event.attacker, "to": event.target, "hit": True})
            else:
                line["hit"] = True
    return lines


def _sight_cells(c: Combat, origin: int) -> list[int]:
    bm = c.bm
    return [
        cell
        for cell in range(bm.size)
        if cell != origin
        and bm.terrain[cell] is not Terrain.WALL
        and has_line_of_sight(bm, c.opaque, origin, cell)
    ]


def _best_attacks(c: Combat, idx: int, legal: Sequence[Action]) -> dict[int, dict[str, Any]]:
    """Per target, the legal attack with the best hit chance (its id, label and odds)."""
    best: dict[int, dict[str, Any]] = {}
    for i, a in enumerate(legal):
        if a.actor != idx or a.kind not in ATTACK_KINDS:
            continue
        p = preview_attack(c, a)
        if p is None:
            continue
        known = best.get(a.target)
        if known is None or p.hit > known["hit"]:
            best[a.target] = {
                "id": i,
                "label": label(c, a),
                "hit": p.hit,
                "success": p.success,
                "cover": p.cover.name,
            }
    return best


def focus_json(c: Combat, idx: int) -> dict[str, Any]:
    """One fighter as the page shows it when clicked: reachable cells (free and
    Schwierige Bewegung, on its own turn), cells in its line of sight, and per opponent
    whether it is in sight and the hit chance of its best attack this turn."""
    if not 0 <= idx < len(c.fighters):
        raise bad_field(
            "fighter", f"there are {len(c.fighters)} fighters (0–{len(c.fighters) - 1})"
        )
    f = c.fighters[idx]
    d = c.decision
    own_turn = d is not None and d.kind is DecisionKind.TURN and d.fighter == idx
    legal = c.legal_actions() if own_turn and c.outcome is None else []
    reach: dict[int, dict[str, Any]] = {}
    for i, a in enumerate(legal):
        free = a.kind is ActionKind.MOVE
        if free or (a.kind is ActionKind.SCHWIERIG and a.cell not in reach):
            reach[a.cell] = (cell_json(c, a.cell) or {}) | {"difficult": not free, "id": i}
    sight = _sight_cells(c, f.pos) if f.on_map else []
    seen = set(sight)
    attacks = _best_attacks(c, idx, legal)
    targets = []
    for t in c.fighters:
        if t.idx == idx or t.side is f.side or not t.on_map or t.dead:
            continue
        targets.append(
            {
                "fighter": t.idx,
                "name": t.name,
                "cell": cell_json(c, t.pos),
                "in_sight": t.pos in seen,
                "attack": attacks.get(t.idx),
            }
        )
    return {
        "fighter": idx,
        "own_turn": own_turn,
        "reachable": [reach[cell] for cell in sorted(reach)],
        "sight": [cell_json(c, cell) for cell in sight],
        "targets": targets,
    }
