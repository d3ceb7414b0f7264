"""One decision on screen: the map marked for it, the status, the menu with its odds, the
target list of ``a N``, the reachable cells, and the choice Enter takes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.state import Combat
from cwenv.play.assist import Assistant, hint_lines, quick_label, quick_targets, searches_now
from cwenv.play.board_view import mark, render_map, status_table, turn_order
from cwenv.play.menu import label, split_menu


def say(console: Console, line: str) -> None:
    """A line of game text: no rich markup or highlighting in names and numbers."""
    console.print(line, markup=False, highlight=False)


def input_for(c: Combat, action: Action, numbered: list[Action], brief: bool = False) -> str:
    """How the player would type ``action``, and what it is (unless ``brief`` and it is a
    menu entry, listed just above)."""
    if action in numbered:
        n = numbered.index(action) + 1
        return str(n) if brief else f"{n}) {label(c, action)}"
    cell = c.bm.cell(action.cell)
    word = {ActionKind.MOVE: "b", ActionKind.SCHWIERIG: "sb"}.get(action.kind, "z")
    return f"{word} {cell.x} {cell.y}: {label(c, action)}"


def announce(console: Console, c: Combat, assistant: Assistant) -> None:
    """'Berater denkt nach …' before an advisor's search (it may take a while)."""
    advisor = assistant.advisor
    if advisor is None or assistant.has_advice(c):
        return
    budget = searches_now(advisor, c)
    if budget is not None:
        say(console, f"Berater denkt nach … ({advisor.name}: {budget})")


def show_advice(console: Console, c: Combat, assistant: Assistant) -> None:
    """The advisor's proposal, its reason and the next best choices (``--hint``, ``?``)."""
    advisor = assistant.advisor
    if advisor is None:
        console.print("Kein Berater (--advisor none).")
        return
    announce(console, c, assistant)
    found = assistant.advice(c)
    if found is not None:
        for line in hint_lines(found, advisor.name):
            say(console, line)


def show_decision(
    console: Console, c: Combat, legal: Sequence[Action], assistant: Assistant, hint: bool
) -> tuple[list[Action], list[Action]]:
    """Print the decision; return its numbered menu entries and its cell choices."""
    d = c.decision
    if d is None:
        return [], []
    me = c.fighters[d.fighter]
    numbered, cells = split_menu(legal)
    console.print(render_map(c, legal))
    console.print(status_table(c))
    say(console, turn_order(c))
    head = f"{mark(c, me.idx)} {me.name} — {d.kind.label}"
    if d.kind is DecisionKind.TURN:
        head += f" (LP {me.lp}/{me.spec.lp}, Reaktionen {me.reactions}, Mumm {me.mumm})"
    console.print(head, style="bold", markup=False)
    if hint:
        show_advice(console, c, assistant)
    announce(console, c, assistant)
    default = assistant.default(c, legal)
    for i, action in enumerate(numbered, 1):
        enter = "  ← Enter" if default is not None and default[0] == action else ""
        say(console, f"  {i}) {label(c, action)}{enter}")
    quick = quick_targets(c, legal, default[0] if default else None)
    if quick:
        listed = " · ".join(
            f"{n}) {mark(c, t)} {c.fighters[t].name}: {quick_label(c, a)}"
            for n, (t, a) in enumerate(quick, 1)
        )
        say(console, f"  Ziele (a N, a N + = mit Probe verbessern): {listed}")
    if cells:
        free = sum(1 for a in cells if a.kind is ActionKind.MOVE)
        hard = sum(1 for a in cells if a.kind is ActionKind.SCHWIERIG)
        moves = f"  Bewegung: {free} Felder ':' (b X Y)"
        if hard:
            moves += f", {hard} nur mit Schwieriger Bewegung '^' (sb X Y)"
        say(console, moves)
    if default is not None:
        say(console, f"  Enter = {input_for(c, default[0], numbered, brief=True)} — {default[1]}")
    return numbered, cells
