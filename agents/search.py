"""Shared pieces of the search agents: state value, candidate pruning, rollouts.

The forward model is the engine itself: ``view.clone()`` copies the combat, dice included,
and ``reseed_dice`` samples another future, so a rollout plays by exactly the rules of the
real fight. Every random choice comes from the ``random.Random`` passed to ``act``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import Field

from agents.board import Board, cover_cells, hostile_sides
from agents.config import AgentConfig
from agents.native_rollouts import native_query, native_twin
from agents.worth import condition_cost
from cwenv.agent import ActionScores, Agent, DecisionView, Scoring
from cwenv.engine.actions import HANDLUNG_KINDS, Action, ActionKind, DecisionKind
from cwenv.engine.fighter import FighterState
from cwenv.engine.game import Game
from cwenv.engine.native.combat import NativeCombat
from cwenv.engine.state import Combat
from cwenv.model.types import Condition, CoverLevel, Side

SEED_BITS = 62
CONDITION_MUMM_VALUE = 3.0
"""Worth of a Mumm point (LP) when valuing Entmutigt's lost Mumm in the state value."""

LOW_VALUE_KINDS = frozenset(
    {
        ActionKind.DOOR,
        ActionKind.RUCKSACK,
        ActionKind.HELFEN,
        ActionKind.SCHWIERIG,
        ActionKind.MOVE,
    }
)
"""Kinds left out of the candidate set unless the prior picks them (moves: pruned apart)."""


class SearchConfig(AgentConfig):
    """Parameters shared by the search agents."""

    base: str = Field(
        default="taktiker", description="Agent spec answering prompts and giving the prior."
    )
    rollout: str = Field(
        default="taktiker", description="Agent spec playing both sides in rollouts."
    )
    opponent: str | None = Field(
        default=None,
        description="Agent spec playing the sides hostile to the searching one in rollouts "
        "and in the tree: a model of the opponent's doctrine (none: the rollout agent plays "
        "every side).",
    )
    horizon_rounds: int = Field(
        default=1, ge=0, le=50, description="Rollouts run to the end of the round + this many."
    )
    horizon_turns: int = Field(
        default=0,
        ge=0,
        le=1000,
        description="If > 0, rollouts also stop once this many turns after the current one "
        "have been played.",
    )
    max_rollout_steps: int = Field(
        default=600, ge=1, le=100_000, description="Cap on decisions per rollout."
    )
    native_rollouts: bool = Field(
        default=True,
        description="Play rollouts in C++ where the combat is native and every rollout agent "
        "has a native twin (greedy, taktiker, schuetze, stuermer): the same rollouts, each "
        "choice a twin leaves to its agent made in Python; false: always in Python.",
    )
    max_moves: int = Field(default=5, ge=0, le=200, description="MOVE cells kept as candidates.")
    max_candidates: int = Field(default=14, ge=1, le=500, description="Candidates per decision.")
    search_after_handlung: bool = Field(
        default=False,
        description="Also search the turn's decisions after its Handlung (repositioning); "
        "by default the base doctrine makes them.",
    )
    lp_weight: float = Field(default=0.5, ge=0, description="Value weight of the LP share lead.")
    standing_weight: float = Field(
        default=0.5, ge=0, description="Value weight of the standing-fighter share lead."
    )
    condition_weight: float = Field(
        default=1.0, ge=0, description="Weight of condition costs on LP in the state value."
    )


def side_policies(policy: Agent, opponent: Agent, side: Side) -> dict[int, Agent]:
    """Who plays each side in a search's rollouts for ``side``: ``opponent`` the sides
    hostile to it, ``policy`` the others."""
    foes = hostile_sides(side)
    return {s: opponent if Side(s) in foes else policy for s in range(3)}


def worth_searching(view: DecisionView, legal: Sequence[Action], cfg: SearchConfig) -> bool:
    """A TURN decision with more than one choice, before the Handlung unless configured."""
    if len(legal) < 2 or view.decision.kind is not DecisionKind.TURN:
        return False
    return cfg.search_after_handlung or any(a.kind in HANDLUNG_KINDS for a in legal)


def twin(rng: random.Random) -> random.Random:
    """A generator in ``rng``'s state: a search's ``scores`` hands it to the base doctrine's
    own ``scores`` when it does not search, so those see what its ``act`` saw."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def base_scores(
    base: Agent, view: DecisionView, legal: Sequence[Action], rng: random.Random
) -> ActionScores | None:
    """The scores of a search's base doctrine for a decision the search leaves to it."""
    return base.scores(view, legal, rng) if isinstance(base, Scoring) else None


def new_seed(rng: random.Random) -> int:
    return rng.getrandbits(SEED_BITS)


def state_value(
    c: Combat,
    side: Side,
    lp_weight: float,
    standing_weight: float,
    condition_weight: float = 0.0,
) -> float:
    """Value of ``c`` for ``side`` in [−1, 1]: ±1 for a decided fight (0 for a draw),
    otherwise the lead in LP share and standing-fighter share (escaped fighters count as
    standing), scaled into (−0.9, 0.9). With ``condition_weight`` a standing fighter's LP
    are lowered by what its conditions cost it over one turn, in expected LP from the exact
    odds (:func:`agents.worth.condition_cost`; benommen, niedergeworfen, … Z01–Z07)."""
    if c.outcome is not None:
        w = c.outcome.winner
        return 0.0 if w is None else (1.0 if w is side else -1.0)
    if isinstance(c, NativeCombat) and (query := native_query("state_value")) is not None:
        # the same sums in C++ (agents/native/queries.cpp)
        weights = (lp_weight, standing_weight, condition_weight, CONDITION_MUMM_VALUE)
        return float(c.ask(query, (int(side), *weights))[0])
    foes = hostile_sides(side)
    mine = [f for f in c.fighters if f.side is side]
    theirs = [f for f in c.fighters if f.side in foes]
    board = Board(DecisionView(c)) if condition_weight > 0 and c.decision is not None else None

    def effective(f: FighterState) -> float:
        lp = float(max(f.lp, 0))
        if board is None or not f.conditions or not f.standing:
            return lp
        cost = 0.0  # added in order (not sum(): its rounding differs across Pythons)
        for cond in f.condition_list():
            if cond is not Condition.STERBEND:
                cost += condition_cost(board, f, cond, 1.0, CONDITION_MUMM_VALUE)
        return max(0.0, lp - condition_weight * cost)

    def shares(fs: list[FighterState]) -> tuple[float, float]:
        if not fs:
            return 0.0, 0.0
        lp = 0.0
        for f in fs:
            if not f.dead:
                lp += effective(f)
        lp /= sum(f.spec.lp for f in fs)
        up = sum(1 for f in fs if f.standing or f.fled) / len(fs)
        return lp, up

    lp_m, up_m = shares(mine)
    lp_t, up_t = shares(theirs)
    total = lp_weight + standing_weight
    if total <= 0:
        return 0.0
    return 0.9 * (lp_weight * (lp_m - lp_t) + standing_weight * (up_m - up_t)) / total


class Horizon:
    """Where a rollout stops: a round, a number of turns, a number of decisions; and
    whether it may run in the core (``native_rollouts``)."""

    __slots__ = ("max_steps", "native", "stop_round", "stop_turns")

    def __init__(self, c: Combat, cfg: SearchConfig) -> None:
        self.stop_round = c.round + cfg.horizon_rounds
        self.stop_turns = (
            c.counters.get("turns", 0) + cfg.horizon_turns if cfg.horizon_turns > 0 else -1
        )
        self.max_steps = cfg.max_rollout_steps
        self.native = cfg.native_rollouts

    def reached(self, c: Combat) -> bool:
        if c.is_terminal() or c.round > self.stop_round:
            return True
        return self.stop_turns >= 0 and c.counters.get("turns", 0) > self.stop_turns


def rollout(sim: Combat, policies: dict[int, Agent], rng: random.Random, horizon: Horizon) -> int:
    """Play ``sim`` on with ``policies`` (by side) until the horizon or ``max_steps``
    decisions; returns the decisions played. On the native combat with a native twin of
    every side's policy (:mod:`agents.native_rollouts`) the core plays their choices and
    hands back each one a twin leaves to its agent (one it does not value, a random last
    resort), which the agent makes here with ``rng``: the same rollout either way."""
    steps = 0
    view = DecisionView(sim)
    if isinstance(sim, NativeCombat) and horizon.native:
        twins = {side: native_twin(agent) for side, agent in policies.items()}
        if all(t is not None for t in twins.values()):
            while steps < horizon.max_steps:
                left = horizon.max_steps - steps
                steps += sim.rollout(twins, horizon.stop_round, horizon.stop_turns, left, True)
                if not sim.deferred or steps >= horizon.max_steps:
                    return steps
                _step(sim, view, policies, rng)
                steps += 1
            return steps
    while not horizon.reached(sim) and steps < horizon.max_steps:
        _step(sim, view, policies, rng)
        steps += 1
    return steps


def decide(
    agent: Agent, sim: Combat, view: DecisionView, legal: Sequence[Action], rng: random.Random
) -> Action:
    """``agent``'s choice on ``sim``: its native twin's where the combat is native and the
    twin makes it (the same choice, :mod:`agents.native_rollouts`), else the agent's."""
    if isinstance(sim, NativeCombat):
        twin = native_twin(agent)
        if twin is not None:
            got = sim.twin_choice(twin)
            if got is not None:
                return legal[got]
    return agent.act(view, legal, rng)


def _step(sim: Combat, view: DecisionView, policies: dict[int, Agent], rng: random.Random) -> None:
    """One decision of a rollout: a lone choice taken, else the deciding side's agent's."""
    legal = sim.legal_actions()
    if len(legal) == 1:
        sim.apply(legal[0])
    else:
        side = int(sim.fighters[sim.current_fighter()].side)
        sim.apply(policies[side].act(view, legal, rng))


def turn_candidates(
    view: DecisionView,
    legal: Sequence[Action],
    prior: Action,
    rng: random.Random,
    max_moves: int,
    max_candidates: int,
) -> list[Action]:
    """A pruned, prior-ordered candidate set for a TURN decision: the prior's choice first,
    then every Handlung and turn action but the low-value kinds, then a handful of MOVE
    cells (nearest to each enemy, best cover, farthest back, one at random)."""
    out: list[Action] = [prior]
    seen = {prior}
    for a in legal:
        if a.kind not in LOW_VALUE_KINDS and a not in seen:
            out.append(a)
            seen.add(a)
    for a in move_candidates(view, legal, rng, max_moves):
        if a not in seen:
            out.append(a)
            seen.add(a)
    return out[:max_candidates]


def move_candidates(
    view: DecisionView, legal: Sequence[Action], rng: random.Random, limit: int
) -> list[Action]:
    moves = {a.cell: a for a in legal if a.kind is ActionKind.MOVE}
    if not moves or limit <= 0:
        return []
    cells = sorted(moves)
    combat = view.combat
    if isinstance(combat, NativeCombat) and (query := native_query("move_candidates")):
        # the same picks in C++ (agents/native/queries.cpp), then the draw
        picked = [int(x) for x in combat.ask(query, (limit, *cells))]
    else:
        picked = _picked_moves(Board(view), cells, limit)
    drawn = cells[rng.randrange(len(cells))]
    if drawn not in picked and len(picked) < limit:
        picked.append(drawn)
    return [moves[c] for c in picked]


def _picked_moves(board: Board, cells: list[int], limit: int) -> list[int]:
    """move_candidates' picks before its draw: the cell nearest to each enemy, the best
    covered, the farthest back, the nearest to an exit."""
    picked: list[int] = []

    def add(cell: int) -> None:
        if cell not in picked and len(picked) < limit:
            picked.append(cell)

    for e in board.enemies:
        add(min(cells, key=lambda c: (board.dist(c, e.pos), c)))
    covered = [c for c in cells if c in cover_cells(board.bm)]
    if covered and board.enemies:

        def protection(c: int) -> int:
            return sum(int(board.cover_of_cell(c, e) >= CoverLevel.HALF) for e in board.enemies)

        add(max(covered, key=lambda c: (protection(c), -board.nearest_enemy_distance(c), -c)))
    if board.enemies:
        add(max(cells, key=lambda c: (board.nearest_enemy_distance(c), -c)))
    if board.exits_goal:
        add(min(cells, key=lambda c: (board.exit_distance(c), c)))
    return picked


def prepare_agents(agents: Sequence[object], game: Game) -> None:
    """Let every agent that can tell check now that it can play ``game`` (its ``prepare``;
    a policy bundle raises for an action window that does not fit), so that a search agent
    built on a policy fails before the first decision, not in the middle of a fight."""
    for agent in agents:
        prepare = getattr(agent, "prepare", None)
        if callable(prepare):
            prepare(game)
