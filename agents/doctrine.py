"""The common frame of the three doctrines: a turn planned from exact expected values.

A turn (H00) is a sequence of TURN decisions. At each one the doctrine values every
Handlung where it stands (:mod:`agents.valuation`) and every reachable cell it considers
(what it could do from there minus the exact expected damage it would take there), moves
when a cell beats staying by ``move_margin``, acts, and after the Handlung repositions for
the enemies' turns. Mumm on the turn: M08 when a condition costs more than two Mumm, M07
when a second Handlung is worth more than two Mumm. Prompts go to :mod:`agents.prompts`.

Doctrines never clone the combat; everything comes from the exact odds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from pydantic import Field

from agents.board import Board
from agents.cells import ShotTable, ThreatTable
from agents.config import PromptConfig
from agents.doctrine_scores import DEFEND_KIND, TURN_KIND, prompt_scores, turn_scores
from agents.prompts import answer_prompt
from agents.valuation import handlung_value
from agents.worth import shake_worth_it
from cwenv.agent import ActionScores, DecisionView
from cwenv.battlemap.grid import Terrain
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, DecisionKind
from cwenv.engine.fighter import FighterState
from cwenv.model.specs import WeaponSpec
from cwenv.model.types import WeaponKind


class DoctrineConfig(PromptConfig):
    """Parameters every doctrine has (weights in LP-equivalents)."""

    move_margin: float = Field(
        default=0.1, ge=0, description="A move must gain at least this much."
    )
    risk_weight: float = Field(
        default=0.5, ge=0, description="Weight of the expected damage taken where one stands."
    )
    exit_weight: float = Field(
        default=3.0, ge=0, description="LP per metre nearer an exit when the side must escape."
    )
    approach_weight: float = Field(
        default=0.1,
        ge=0,
        description="LP per metre nearer the nearest enemy (so nobody hides forever).",
    )
    max_cells: int = Field(
        default=40, ge=1, le=2000, description="Cells valued per movement decision."
    )
    aim_weight: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="H11: the aimed shot comes a turn later; its worth is discounted by this.",
    )
    min_act: float = Field(
        default=0.05, ge=0, description="Below this worth a Handlung is skipped."
    )


class TurnChoices:
    """The legal TURN actions, grouped."""

    __slots__ = ("end", "extra", "handlungen", "legal", "moves", "probe", "shakes", "sprint")

    def __init__(self, legal: Sequence[Action]) -> None:
        self.legal = legal
        self.moves: dict[int, Action] = {}
        self.handlungen: list[Action] = []
        self.shakes: list[Action] = []
        self.end: Action | None = None
        self.extra: Action | None = None
        self.probe: Action | None = None
        self.sprint: Action | None = None
        for a in legal:
            k = a.kind
            if k is ActionKind.MOVE:
                self.moves[a.cell] = a
            elif k is ActionKind.END_TURN:
                self.end = a
            elif k is ActionKind.MUMM_EXTRA_ACTION:
                self.extra = a
            elif k is ActionKind.MUMM_SHAKE:
                self.shakes.append(a)
            elif k is ActionKind.MUMM_PROBE:
                self.probe = a
            elif k is ActionKind.SPRINT:
                self.sprint = a
                self.handlungen.append(a)
            elif k in HANDLUNG_KINDS:
                self.handlungen.append(a)


class Doctrine:
    """Base class: subclasses set the weights and override the hooks below."""

    kind = "doctrine"
    default_description = ""
    shake_weight = 1.0
    stand_weight = 1.0
    stabilise_worth = 0.0

    def __init__(self, config: DoctrineConfig) -> None:
        self.config = config
        self.name = config.name or self.kind
        self.aim_weight = config.aim_weight
        self.description = config.description or self.default_description

    # -- the agent interface -------------------------------------------------------------
    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self._choose(Board(view), legal)

    def _choose(self, board: Board, legal: Sequence[Action]) -> Action:
        if board.decision.kind is DecisionKind.TURN:
            choice = self.turn(board, TurnChoices(legal))
        else:
            choice = answer_prompt(board, legal, self.config)
        return choice if choice in legal else legal[-1]

    def scores(
        self, view: DecisionView, legal: Sequence[Action], rng: random.Random
    ) -> ActionScores | None:
        """The values the doctrine compares (:mod:`agents.doctrine_scores`) and its choice."""
        if len(legal) == 1:
            return None
        board = Board(view)  # one board: the choice and the scores share its tables
        chosen = self._choose(board, legal)
        if board.decision.kind is DecisionKind.TURN:
            values, kind = turn_scores(self, board, TurnChoices(legal)), TURN_KIND
        else:
            values, kind = prompt_scores(self, board, legal), DEFEND_KIND
        if not values:
            return None
        return ActionScores(chosen, values, *kind)

    def native_twin(self) -> object | None:
        """The doctrine's twin in C++ (agents/native/taktiker.cpp: the Taktiker's, the
        Schütze's and the Stürmer's), which makes this agent's choices in the core and hands
        back any it does not value; None for a doctrine without one or where the module is
        not built."""
        from agents.native_rollouts import native_twin

        return native_twin(self)

    # -- hooks -----------------------------------------------------------------------------
    def target_weight(self, board: Board, t: FighterState) -> float:
        """How much this doctrine prefers damage on ``t`` (1 = neutral)."""
        return 1.0

    def weapon_weight(self, board: Board, w: WeaponSpec) -> float:
        """How much this doctrine likes fighting with ``w`` (1 = neutral)."""
        return 1.0

    def risk(self, board: Board) -> float:
        """Weight of the expected damage taken at a cell."""
        return self.config.risk_weight

    def cell_bonus(self, board: Board, cell: int, acting: bool) -> float:
        """Doctrine-specific worth of standing on ``cell`` (beyond attack and risk)."""
        return 0.0

    def candidate_key(self, board: Board, cell: int) -> float:
        """Cheap pre-ranking of cells (lower first) before the exact valuation."""
        return float(board.walk_distance(cell))

    def candidate_keys(self, board: Board, cells: Sequence[int]) -> list[float]:
        """``candidate_key`` of each cell; a doctrine may work out what they share once."""
        return [self.candidate_key(board, c) for c in cells]

    def candidates(self, board: Board, ch: TurnChoices) -> list[int]:
        """The move cells valued exactly: the first ``max_cells`` by ``candidate_key``,
        ties to the lower cell."""
        cells = list(ch.moves)
        ranked = sorted(zip(self.candidate_keys(board, cells), cells, strict=True))
        return [cell for _, cell in ranked[: self.config.max_cells]]

    def approach(self, board: Board, ch: TurnChoices) -> Action | None:
        """What to do with the Handlung when nothing is worth doing here (default: sprint
        toward the enemy if it is out of reach)."""
        if board.me.idx in board.protected:
            return None  # a VIP does not charge
        if ch.sprint is not None and board.enemies and self._far(board):
            return ch.sprint
        return None

    # -- the turn --------------------------------------------------------------------------
    def turn(self, board: Board, ch: TurnChoices) -> Action:
        if ch.probe is not None:
            return ch.probe  # Z02: the benommen Mumm-Probe
        shake = self._mumm_shake(board, ch)
        if shake is not None:
            return shake
        if ch.handlungen:
            return self._plan(board, ch)
        if ch.extra is not None and self._second_handlung(board, ch):
            return ch.extra
        move = self._best_move(board, ch, acting=False)
        if move is not None:
            return move
        return ch.end if ch.end is not None else ch.legal[-1]

    def plan_first(self, board: Board, ch: TurnChoices) -> Action | None:
        """A doctrine's override before the usual planning (default: none)."""
        return None

    def handlung_value(self, board: Board, a: Action) -> float:
        """Worth of Handlung ``a`` where the fighter stands (:mod:`agents.valuation`)."""
        return handlung_value(self, board, a)

    def _plan(self, board: Board, ch: TurnChoices) -> Action:
        first = self.plan_first(board, ch)
        if first is not None:
            return first
        move = self._best_move(board, ch, acting=True)
        if move is not None:
            return move
        best, worth = self._best_handlung(board, ch)
        if best is not None and worth >= self.config.min_act:
            return best
        other = self.approach(board, ch)
        if other is not None:
            return other
        if ch.end is not None:
            return ch.end
        return best if best is not None else ch.handlungen[0]

    def _best_handlung(self, board: Board, ch: TurnChoices) -> tuple[Action | None, float]:
        best: Action | None = None
        worth = 0.0
        for a in ch.handlungen:
            if a.kind is ActionKind.SPRINT:
                continue
            v = self.handlung_value(board, a)
            if best is None or v > worth:
                best, worth = a, v
        return best, worth

    def _mumm_shake(self, board: Board, ch: TurnChoices) -> Action | None:
        """M08: end a condition at once when it costs more than two Mumm."""
        return shake_worth_it(board, ch.shakes, self.config)

    def _second_handlung(self, board: Board, ch: TurnChoices) -> bool:
        """M07: a second Handlung this turn when the best one is worth two Mumm."""
        from agents.valuation import current_best

        return current_best(self, board) >= 2 * self.config.mumm_value

    # -- cells -------------------------------------------------------------------------------
    def _far(self, board: Board) -> bool:
        """No enemy within this turn's reach: out of every usable gun's range even after
        a move, and more than a move plus melee reach away on foot."""
        me = board.me
        move = me.spec.movement
        guns = [
            w.max_range
            for i, w in enumerate(me.weapons)
            if me.weapon_usable(i) and w.kind is WeaponKind.RANGED and w.area_radius == 0
        ]
        if guns and board.nearest_enemy_distance(me.pos) <= max(guns) + move:
            return False
        return board.walk_distance(me.pos) > move + max(me.melee_reach, 1)

    def _best_move(self, board: Board, ch: TurnChoices, acting: bool) -> Action | None:
        if not ch.moves:
            return None
        me = board.me
        if acting is False and me.aim_stacks and board.options.zielen_lost_on_move:
            return None  # X03: moving would waste the aim
        here = self.cell_value(board, me.pos, acting)
        best_cell = -1
        best = here + self.config.move_margin
        for cell in self.candidates(board, ch):
            v = self.cell_value(board, cell, acting)
            if v > best:
                best, best_cell = v, cell
        return ch.moves[best_cell] if best_cell >= 0 else None

    def cell_value(self, board: Board, cell: int, acting: bool) -> float:
        """Worth of standing on ``cell``: the best attack from there (if the Handlung is
        still to come), minus the weighted expected damage taken there, plus the doctrine's
        and the scenario's own terms."""
        if board.me.idx in board.protected:
            # A VIP whose fall loses the fight keeps out of harm's way and lets its side
            # fight: the damage it would take, and distance from the enemies.
            return -3.0 * self.exposure(board, cell) + 0.1 * min(board.walk_distance(cell), 20)
        value = self.cell_bonus(board, cell, acting)
        if acting:
            value += self.attack_from(board, cell)
        value -= self.risk(board) * self.exposure(board, cell)
        value -= self.config.approach_weight * board.walk_distance(cell)
        if board.exits_goal:
            value -= self.config.exit_weight * board.exit_distance(cell)
            if cell in board.bm.exits:
                value += 100.0
        if board.bm.terrain[cell] is Terrain.FIRE:
            value -= 10.0
        return value

    def attack_from(self, board: Board, cell: int) -> float:
        """Best expected worth of one attack with a usable weapon from ``cell``."""
        return self.shots(board).best_from(cell)

    def shots(self, board: Board) -> ShotTable:
        """This decision's table of my attacks, weighted by the doctrine's preferences."""
        key = ("shots", id(self))  # its weights are this doctrine's
        table = board.tables.get(key)
        if table is None:
            table = board.tables[key] = ShotTable(
                board,
                self.config.ko_bonus,
                lambda t, w: self.target_weight(board, t) * self.weapon_weight(board, w),
            )
        return cast(ShotTable, table)

    def exposure(self, board: Board, cell: int) -> float:
        """Expected damage of one attack by each enemy on me at ``cell``: ranged foes with
        their drawn weapon at that range and cover (C01, C02; half if out of range now),
        melee foes if the cell is in their reach; exact odds against my defence (A01–A06).
        (A melee foe that must walk up first can do so wherever one stands, so it does not
        tell cells apart.)"""
        table = board.tables.get(("threats",))
        if table is None:
            table = board.tables[("threats",)] = ThreatTable(board)
        return cast(ThreatTable, table).exposure(cell)
