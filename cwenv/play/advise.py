"""The GM advisor: what would this NSC do now, for the whole turn, and why.

The combat comes from a situation file (:mod:`cwenv.play.situation`) or a ``cwenv play``
save (:mod:`cwenv.play.savefile`), at a TURN decision or at any prompt (a reaction, Mumm).
The agent's choice is what its ``act`` plays with the generator a game would give it; the
alternatives are ranked by the agent's own numbers (:class:`cwenv.agent.ActionScores`:
search values and visit counts, policy probabilities, doctrine values), never by a number
of the advisor's. An agent without scores gets its choice shown and nothing ranked.

At a TURN decision the rest of the turn is found by playing the agent's choices forward on
a copy of the combat with the same dice stream and the same per-decision seeds, while the
same fighter's turn (the same round and initiative slot) lasts: a move, then the shot, then
the step back. Prompts in between (the target's defence, the shooter's Mumm) are answered
by the same agent and not listed but for the fighter's Mumm before its own rolls; the steps
after a roll assume the dice the copy rolled (a seeded game rolls the same; with table
dice the copy rolls from the decision's seed).

Each option carries a reason in German and English built from engine facts
(:mod:`cwenv.play.advise_reasons`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cwenv.agent import ActionScores, Agent, DecisionView, scores_of
from cwenv.engine.actions import Action, DecisionKind
from cwenv.engine.payloads import TurnPrompt
from cwenv.engine.state import Combat
from cwenv.play.advise_reasons import MOVE_KINDS, reason
from cwenv.play.menu import label
from cwenv.play.situation import FighterSituation, Situation, load_situation
from cwenv.rules.dice import MersenneDice, SeededDice
from cwenv.yamlio import SAVE_LIMITS, read_yaml_file

__all__ = [
    "MAX_BUDGET",
    "Advice",
    "BudgetError",
    "FighterSituation",
    "NoDecisionError",
    "Option",
    "Situation",
    "TableFile",
    "advise",
    "budgeted",
    "decision_seed",
    "load_situation",
    "load_table_file",
]

MAX_PLAN = 16
"""At most this many further steps of one turn are shown (a turn has a handful)."""
PLAN_KINDS = (DecisionKind.TURN, DecisionKind.PRE_CHECK)
"""The fighter's own decisions a plan lists: its turn's and the Mumm before its rolls.
What it does after a roll depends on the dice, which the GM has not rolled yet."""
SAVE_FIELDS = ("cwenv_save", "actions", "runners", "nscs", "typed_dice", "dice_stream")
"""Fields only a save has: a file with one of them is read as a save, else a situation."""


MAX_BUDGET = 1_000_000
"""The largest search budget the advisor takes (``cwenv advise --budget``)."""
BUDGET_FIELDS = ("iterations", "rollouts")
"""The config fields a search budget sets: MCTS iterations, lookahead rollouts."""


class NoDecisionError(ValueError):
    """Advice was asked for a combat that is over."""


class BudgetError(ValueError):
    """A search budget was given for an agent that does not search."""


def budgeted(agent: Agent, budget: int | None) -> Agent:
    """The agent with a search budget in iterations (MCTS) or rollouts per candidate
    (lookahead) and no wall-clock cap, so that the same advice comes back every time.
    None keeps the configured budget (only the wall-clock cap is dropped); the caller has
    checked ``1 <= budget <= MAX_BUDGET``."""
    config = getattr(agent, "config", None)
    fields = getattr(type(config), "model_fields", {})
    update: dict[str, Any] = {}
    if "time_ms" in fields:
        update["time_ms"] = None
    if budget is not None:
        name = next((f for f in BUDGET_FIELDS if f in fields), None)
        if name is None:
            raise BudgetError(
                f"agent {agent.name!r} does not search; only search agents (mcts, lookahead, "
                "their files) take a budget"
            )
        update[name] = budget
    if update and config is not None:
        agent.config = config.model_copy(update=update)  # type: ignore[attr-defined]
    return agent


@dataclass(frozen=True, slots=True)
class Option:
    action: Action
    label: str
    score: float | None
    reason: str  # German
    reason_en: str = ""
    visits: int | None = None  # a tree search's visit count
    label_en: str = ""


@dataclass(frozen=True, slots=True)
class Advice:
    fighter: str
    recommended: Option
    alternatives: tuple[Option, ...]
    score_kind: str  # what the scores are, in German ("" when the agent has none)
    score_kind_en: str = ""
    decision: str = ""  # what is decided: "Zug", "Verteidigung", … (German)
    plan: tuple[Option, ...] = ()
    """The rest of the turn after ``recommended`` (TURN decisions: the agent's further
    choices in this turn, with their reasons)."""
    decision_en: str = ""  # the same in English ("turn", "defence", …)


@dataclass(frozen=True, slots=True)
class TableFile:
    """A combat read from a situation file or a play save, and the seed of its agents."""

    combat: Combat
    seed: int
    kind: str  # "situation" or "save"


def decision_seed(seed: int, combat: Combat) -> int:
    """The agent generator's seed at this decision, as ``cwenv play`` seeds it."""
    return seed * 1_000_003 + len(combat.history)


def load_table_file(path: Path) -> TableFile:
    """A situation file or a ``cwenv play`` save (told apart by the save's own fields);
    ConfigError naming the file, line and field for either."""
    doc = read_yaml_file(path, SAVE_LIMITS)
    data = doc.data
    if isinstance(data, dict) and any(k in data for k in SAVE_FIELDS):
        from cwenv.play.table_game import PlaySession, load_game, read_saved

        saved, sdoc = read_saved(path)
        session = PlaySession(load_game(saved, sdoc), saved, None, source=sdoc)
        return TableFile(session.combat, saved.seed, "save")
    _, combat, _ = load_situation(path)
    seed = data.get("seed", 0) if isinstance(data, dict) else 0
    return TableFile(combat, seed if isinstance(seed, int) else 0, "situation")


def _rank(found: ActionScores, legal: list[Action]) -> list[Action]:
    """The scored legal actions, best first by what the agent ranks by: visits (then
    value) for a tree search, else its values."""
    visits = found.visits or {}
    scored = [a for a in legal if a in found.values]
    return sorted(scored, key=lambda a: (-visits.get(a, 0), -found.values[a]))


def _shown(ranked: list[Action], n: int) -> list[Action]:
    """The first ``n`` of ``ranked``, with at most half of them (rounded up) moves: a
    doctrine values dozens of cells nearly alike, which would hide its other Handlungen.
    The order stays the agent's."""
    moves = 0
    out: list[Action] = []
    for a in ranked:
        if len(out) == n:
            break
        if a.kind in MOVE_KINDS:
            if moves >= (n + 1) // 2:
                continue
            moves += 1
        out.append(a)
    return out


def _option(c: Combat, found: ActionScores, a: Action) -> Option:
    why = reason(c, a)
    visits = found.visits.get(a) if found.visits is not None else None
    return Option(
        a, label(c, a), found.values.get(a), why.de, why.en, visits, label(c, a, english=True)
    )


def _decision_name(c: Combat, english: bool = False) -> str:
    d = c.decision
    kind = DecisionKind.TURN if d is None else d.kind
    names = _DECISIONS.get(kind)
    return kind.name if names is None else names[english]


_DECISIONS = {
    DecisionKind.TURN: ("Zug", "turn"),
    DecisionKind.DEFEND: ("Verteidigung", "defence"),
    DecisionKind.NIEDERWERFEN: ("Niederwerfen", "Niederwerfen (drop prone)"),
    DecisionKind.PRE_CHECK: ("Mumm vor der Probe", "Mumm before the check"),
    DecisionKind.POST_CHECK: ("Mumm nach der Probe", "Mumm after the check"),
    DecisionKind.KEEP: ("welcher Wurf zählt", "which roll counts"),
    DecisionKind.DAMAGE: ("Treffer wegstecken", "Treffer wegstecken (halve the damage)"),
    DecisionKind.DEATH: ("Dem Tod von der Schippe springen", "Dem Tod von der Schippe springen"),
    DecisionKind.BLOCKADE: ("Blockadeangriff", "blockade attack"),
    DecisionKind.STURZ: ("Sturz abfangen", "catching a fall"),
    DecisionKind.ORDER: ("Reihenfolge", "order"),
    DecisionKind.DRAG: ("Mitschleifen", "dragging along"),
}
"""What is decided, German then English (the advice's heading)."""


def _one(c: Combat, agent: Agent, seed: int, top: int) -> tuple[Advice, Action]:
    legal = c.legal_actions()
    found = scores_of(agent, DecisionView(c), legal, seed)
    chosen = found.chosen
    ranked = _shown([a for a in _rank(found, legal) if a != chosen], max(0, top - 1))
    name = c.fighters[c.current_fighter()].name
    advice = Advice(
        name,
        _option(c, found, chosen),
        tuple(_option(c, found, a) for a in ranked),
        found.kind,
        found.kind_en,
        _decision_name(c),
        decision_en=_decision_name(c, english=True),
    )
    return advice, chosen


def _turn_key(c: Combat) -> tuple[int, int, int] | None:
    d = c.decision
    if d is None or d.kind is not DecisionKind.TURN or not isinstance(d.payload, TurnPrompt):
        return None
    return d.fighter, c.round, d.payload.slot


def _rest_of_turn(c: Combat, agent: Agent, seed: int, first: Action) -> tuple[Option, ...]:
    """The agent's further choices in this turn, played forward on a copy of ``c``.
    ``seed`` is this decision's; a later one's is it plus the decisions made since (as
    :func:`decision_seed` gives in a game)."""
    key = _turn_key(c)
    if key is None:
        return ()
    me = key[0]
    sim = c.clone()
    if not isinstance(c.dice, SeededDice | MersenneDice):
        sim.reseed_dice(seed)  # table dice cannot be asked from a copy
    start = len(c.history)
    sim.apply(first)
    steps: list[Option] = []
    while sim.decision is not None and len(steps) < MAX_PLAN:
        d = sim.decision
        if d.kind is DecisionKind.TURN and _turn_key(sim) != key:
            break  # the turn is over
        legal = sim.legal_actions()
        step_seed = seed + len(sim.history) - start
        if d.fighter == me and d.kind in PLAN_KINDS and len(legal) > 1:
            advice, action = _one(sim, agent, step_seed, 1)
            steps.append(advice.recommended)
        else:
            action = agent.act(DecisionView(sim), legal, random.Random(step_seed))
        sim.apply(action)
    return tuple(steps)


def advise(combat: Combat, agent: Agent, top: int = 3, seed: int = 0) -> Advice:
    """The agent's choice at ``combat``'s decision with ``seed`` as its generator's seed
    (:func:`decision_seed`), the next ``top - 1`` by its own scores, and at a TURN
    decision the rest of the turn. NoDecisionError for a combat that is over."""
    if combat.decision is None:
        raise NoDecisionError("the fight is over; there is no decision to advise")
    advice, chosen = _one(combat, agent, seed, top)
    return replace(advice, plan=_rest_of_turn(combat, agent, seed, chosen))
