"""The doctrines' typical mistakes, as named perturbations of a chosen action.

A game master who plays NSCs for beginners lets them make the mistakes real players make.
Each mistake here looks at the action the agent chose and, where the situation offers the
mistake, replaces it with the worse action named by engine facts alone (cover levels,
targets' LP, Mumm prices), so it works on top of any agent:

* ``forget_cover``: a move ends on the reachable cell with the least terrain cover against
  the standing enemies (C01, C02) instead of the chosen one, and a shot-at fighter does not
  drop prone (R06);
* ``split_fire``: an attack goes to the healthiest other standing enemy the same weapon can
  reach instead of the chosen target (focus fire forgotten);
* ``waste_mumm``: where the agent keeps its Mumm, it spends it on the first Mumm spend
  offered (M01–M09), so none is left when it matters (M04 is never refused).

Which mistake applies when is drawn from the agent's own seeded generator, once per
opportunity, so the same seed makes the same mistakes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from agents.board import Board
from cwenv.agent import DecisionView
from cwenv.engine.actions import Action, ActionKind, DecisionKind, mumm_price

Mistake = Literal["forget_cover", "split_fire", "waste_mumm"]
MISTAKES: tuple[Mistake, ...] = ("forget_cover", "split_fire", "waste_mumm")

MISTAKE_TEXT: dict[Mistake, str] = {
    "forget_cover": "forgets cover",
    "split_fire": "splits fire",
    "waste_mumm": "wastes Mumm",
}
"""Each mistake in the words of docs/difficulty.md."""


def _exposure(board: Board, cell: int) -> int:
    """Total terrain cover a fighter on ``cell`` would have against the standing enemies."""
    return sum(int(board.cover_of_cell(cell, e)) for e in board.enemies)


def forget_cover(view: DecisionView, legal: Sequence[Action], chosen: Action) -> Action | None:
    """The worse action of ``forget_cover`` (module text), or None where it has none."""
    kind = view.decision.kind
    if kind is DecisionKind.NIEDERWERFEN:
        if chosen.kind is ActionKind.DROP_PRONE:
            return next((a for a in legal if a.kind is ActionKind.STAY_UP), None)
        return None
    if kind is not DecisionKind.TURN or chosen.kind is not ActionKind.MOVE:
        return None
    board = Board(view)
    if not board.enemies:
        return None
    moves = [a for a in legal if a.kind is ActionKind.MOVE]
    worst = min(moves, key=lambda a: (_exposure(board, a.cell), board.dist(a.cell, chosen.cell)))
    if _exposure(board, worst.cell) >= _exposure(board, chosen.cell):
        return None  # the chosen cell is already as open as any
    return worst


def split_fire(view: DecisionView, legal: Sequence[Action], chosen: Action) -> Action | None:
    """The worse action of ``split_fire`` (module text), or None where it has none."""
    if chosen.kind is not ActionKind.ATTACK:
        return None
    fighters = view.fighters
    others = [
        a
        for a in legal
        if a.kind is ActionKind.ATTACK
        and a.arg == chosen.arg
        and a.target != chosen.target
        and fighters[a.target].standing  # a blow at the fallen is no split fire
    ]
    if not others:
        return None
    return max(others, key=lambda a: fighters[a.target].lp)  # first of equals: legal order


def waste_mumm(view: DecisionView, legal: Sequence[Action], chosen: Action) -> Action | None:
    """The worse action of ``waste_mumm`` (module text), or None where it has none."""
    if view.decision.kind is DecisionKind.DEATH or mumm_price(chosen) > 0:
        return None
    return next((a for a in legal if mumm_price(a) > 0), None)


PERTURBATIONS: dict[Mistake, Callable[[DecisionView, Sequence[Action], Action], Action | None]] = {
    "forget_cover": forget_cover,
    "split_fire": split_fire,
    "waste_mumm": waste_mumm,
}


def make_mistakes(
    view: DecisionView,
    legal: Sequence[Action],
    chosen: Action,
    rates: Mapping[Mistake, float],
    rng: random.Random,
) -> tuple[Action, list[Mistake]]:
    """``chosen`` after the mistakes of ``rates`` (each made with its probability where the
    situation offers it, in the order of :data:`MISTAKES`), and the mistakes made."""
    made: list[Mistake] = []
    for name in MISTAKES:
        rate = rates.get(name, 0.0)
        if rate <= 0.0:
            continue
        worse = PERTURBATIONS[name](view, legal, chosen)
        if worse is None or worse == chosen:
            continue
        if rate >= 1.0 or rng.random() < rate:  # rate 1: no draw, the mistake is certain
            chosen = worse
            made.append(name)
    return chosen, made
