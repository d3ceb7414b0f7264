"""What the terminal game shows before each decision: the map with the decider's reachable
cells and targets (:mod:`cwenv.content.markers`), every fighter's status and the turn order."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from cwenv.content.markers import (
    SIDE_STYLE,
    Focus,
    Placed,
    Reach,
    draw_map,
    fighter_marker,
    has_relief,
    legend,
)
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.fighter import FighterState
from cwenv.engine.payloads import (
    AfterRoll,
    AttackPrompt,
    BeforeRoll,
    BlockadePrompt,
    DamagePrompt,
    DragPrompt,
    KeepPrompt,
)
from cwenv.engine.state import Combat
from cwenv.model.types import Condition, Side

TURN_ORDER_SHOWN = 8
"""How many of the turns still to come this round the status line names."""
ATTACK_KINDS = frozenset({ActionKind.ATTACK, ActionKind.MANEUVER, ActionKind.HACK})
"""Turn actions against a target: their targets are marked on the map."""


def sides(c: Combat) -> list[Side]:
    return [f.side for f in c.fighters]


def mark(c: Combat, idx: int) -> str:
    return fighter_marker(sides(c), idx)


def placed(c: Combat) -> list[Placed]:
    return [
        Placed(idx, cell, c.fighters[idx].side, not c.fighters[idx].standing)
        for cell, idx in c.occupant.items()
    ]


def targets(legal: Sequence[Action]) -> list[int]:
    """The fighters an attack, manoeuvre or hack among ``legal`` is aimed at, in order."""
    return list(dict.fromkeys(a.target for a in legal if a.kind in ATTACK_KINDS))


def reach(legal: Sequence[Action]) -> dict[int, Reach]:
    """The cells a move among ``legal`` ends in; free movement wins over a difficult one."""
    cells: dict[int, Reach] = {}
    for a in legal:
        if a.kind is ActionKind.MOVE:
            cells[a.cell] = Reach.FREE
        elif a.kind is ActionKind.SCHWIERIG:
            cells.setdefault(a.cell, Reach.DIFFICULT)
    return cells


def opponents(c: Combat, legal: Sequence[Action]) -> list[int]:
    """The fighters the pending decision is about, besides the decider."""
    d = c.decision
    if d is None:
        return []
    if d.kind is DecisionKind.TURN:
        return targets(legal)
    about = d.payload
    if isinstance(about, AttackPrompt):
        return [about.attack.attacker]
    if isinstance(about, BeforeRoll | AfterRoll | KeepPrompt) and about.check.attack is not None:
        ref = about.check.attack
        return [ref.target if ref.attacker == d.fighter else ref.attacker]
    if isinstance(about, BlockadePrompt):
        return [about.mover]
    if isinstance(about, DamagePrompt) and about.source >= 0:
        return [about.source]
    if isinstance(about, DragPrompt):
        return [about.target]
    return []


def board(c: Combat, legal: Sequence[Action] | None = None) -> tuple[Text, Text]:
    """The map marked for the pending decision (none when ``legal`` is None) and its legend."""
    cells: dict[int, Reach] = {}
    focus: dict[int, Focus] = {}
    d = c.decision
    if legal is not None and d is not None:
        cells = reach(legal)
        focus = dict.fromkeys(opponents(c, legal), Focus.OPPONENT)
        focus[d.fighter] = Focus.ACTOR
    shown = placed(c)
    out = any(p.out for p in shown)
    roster = sides(c)
    drawn = draw_map(c.bm, shown, roster, door_open=c.door_open, reach=cells, focus=focus)
    return drawn, legend(c.bm, roster, reach=cells, focus=focus, out=out)


def render_map(c: Combat, legal: Sequence[Action] | None = None) -> Text:
    """The map and its legend as one text."""
    drawn, key = board(c, legal)
    return drawn.append_text(key).append("\n")


def weapon_text(f: FighterState) -> tuple[str, str]:
    """The weapon at hand and its ammunition (magazine, spare magazines)."""
    carried = len(f.spec.weapons)
    i = f.drawn if 0 <= f.drawn < carried and not f.dropped >> f.drawn & 1 else -1
    if i < 0:
        built_in = f.weapons[carried:]
        return (built_in[0].name if built_in else "—"), ""
    w = f.weapons[i]
    name = w.name + (" (blockiert)" if f.jammed >> i & 1 else "")
    if not w.uses_ammo:
        return name, ""
    spare = f" +{f.reloads[i]}" if f.reloads[i] >= 0 else ""
    return name, f"{f.ammo[i]}/{w.magazine}{spare}"


def position_text(c: Combat, f: FighterState) -> str:
    if f.fled:
        return "geflohen"
    cell = c.bm.cell(f.pos)
    height = f" {c.bm.elevation[f.pos]} m" if has_relief(c.bm) else ""
    return f"({cell.x}, {cell.y}){height}"


def status_table(c: Combat) -> Table:
    """Every fighter: field, LP, weapon and ammunition, aim, reactions, Mumm, conditions."""
    table = Table(show_edge=False, pad_edge=False)
    for col in ("", "Name", "Feld", "LP", "Waffe", "Mun.", "Zielen", "Reak.", "Mumm", "Zustände"):
        table.add_column(col)
    for f in c.fighters:
        conds = [cond.label for cond in Condition if f.has(cond)]
        conds += [f"zehrend ({k})" for k in f.zehrend]
        status = "tot" if f.dead else ("kampfunfähig" if f.down else "")
        weapon, ammo = weapon_text(f)
        aim = f"{f.aim_stacks}× auf {mark(c, f.aim_target)}" if f.aim_stacks else ""
        table.add_row(
            Text(mark(c, f.idx), style=SIDE_STYLE[f.side]),
            f.name,
            position_text(c, f),
            f"{f.lp}/{f.spec.lp}",
            weapon,
            ammo,
            aim,
            str(f.reactions),
            f"{f.mumm}/{f.mumm_max}",
            ", ".join(filter(None, [status, *conds])),
        )
    return table


def turn_order(c: Combat) -> str:
    """Round, whose turn it is, and who acts after it this round (initiative order)."""
    now = c.turn_fighter
    parts = [f"Runde {c.round}"]
    if 0 <= now < len(c.fighters):
        parts.append(f"am Zug: {mark(c, now)} {c.fighters[now].name}")
    later = [
        f"{mark(c, idx)} {c.fighters[idx].name} ({step})"
        for step, idx in c.queue
        if c.fighters[idx].standing
    ]
    shown = ", ".join(later[:TURN_ORDER_SHOWN]) + (", …" if len(later) > TURN_ORDER_SHOWN else "")
    parts.append("danach: " + (shown if later else "Rundenende"))
    return " · ".join(parts)
