"""A doctrine's own numbers for every action it values (for the GM advisor).

A doctrine plans a TURN decision from exact expected values in LP-equivalents
(:mod:`agents.doctrine`): it moves when a cell's worth beats staying by ``move_margin``,
otherwise acts with the best Handlung if that is worth ``min_act``, otherwise ends. The
scores put these on one scale so that ranking them is ranking what the doctrine compares:

* MOVE to a cell: the cell's worth (its best attack while the Handlung is still to come,
  minus the weighted expected damage taken there, plus the doctrine's terms) less the
  margin a move must gain;
* a Handlung: the worth of standing here without it plus the Handlung's worth;
* END_TURN: the worth of standing here (plus ``min_act`` while a Handlung is left, the
  least a Handlung must be worth to be made).

Sprints, Mumm spends and the other turn actions the doctrine decides by rule, not by
value, so they carry no score. At a DEFEND prompt the score is the expected LP the defence
saves less what the reaction (and Mumm) is worth; declining scores 0. Other prompts have
no scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agents.board import Board
from agents.prompts import defend_gains
from cwenv.engine.actions import Action, ActionKind, DecisionKind

if TYPE_CHECKING:
    from agents.doctrine import Doctrine, TurnChoices

TURN_KIND = ("Doktrinwert (LP-Äquivalent)", "doctrine value (LP equivalents)")
DEFEND_KIND = ("Gewinn der Verteidigung (LP-Äquivalent)", "gain of defending (LP equivalents)")


def turn_scores(doc: Doctrine, board: Board, ch: TurnChoices) -> dict[Action, float]:
    """The TURN actions the doctrine compares by value, on the scale of the module text."""
    me = board.me
    acting = bool(ch.handlungen)
    here = doc.cell_value(board, me.pos, acting=False)
    out: dict[Action, float] = {}
    for cell in doc.candidates(board, ch):  # the cells _best_move looks at
        out[ch.moves[cell]] = doc.cell_value(board, cell, acting) - doc.config.move_margin
    for a in ch.handlungen:
        if a.kind is not ActionKind.SPRINT:
            out[a] = here + doc.handlung_value(board, a)
    if ch.end is not None:
        out[ch.end] = here + (doc.config.min_act if acting else 0.0)
    return out


def prompt_scores(doc: Doctrine, board: Board, legal: Sequence[Action]) -> dict[Action, float]:
    """A DEFEND prompt's gains (others: none)."""
    if board.decision.kind is DecisionKind.DEFEND:
        return defend_gains(board, legal, doc.config) or {}
    return {}
