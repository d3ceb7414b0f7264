"""The GM advisor: describe the situation at the table, get the NSC's best move.

A situation file (:mod:`cwenv.play.situation`) names a scenario, whose turn it is, and what
differs from the scenario's start for each fighter. The agent then recommends an action;
alternatives are ranked by the agent's own scores when it has them (search values, policy
probabilities) and otherwise by the exact odds of each attack (hit chance × expected QS),
with a one-line reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cwenv.agent import Agent, DecisionView
from cwenv.engine.actions import Action
from cwenv.engine.preview import preview_attack
from cwenv.engine.state import Combat
from cwenv.play.menu import label
from cwenv.play.situation import FighterSituation, Situation, load_situation

__all__ = ["Advice", "FighterSituation", "Option", "Situation", "advise", "load_situation"]


@dataclass(frozen=True, slots=True)
class Option:
    action: Action
    label: str
    score: float | None
    reason: str


@dataclass(frozen=True, slots=True)
class Advice:
    fighter: str
    recommended: Option
    alternatives: tuple[Option, ...]
    score_kind: str  # "Wahrscheinlichkeit" (policies), "Wert" (search), "erwartete QS"


def _reason(c: Combat, action: Action) -> tuple[float | None, str]:
    """An attack's expected QS (hit chance included) and why it looks good or bad."""
    preview = preview_attack(c, action)
    if preview is None:
        return None, ""
    t = c.fighters[action.target]
    reason = f"Treffer {round(preview.hit * 100)} %, Ziel bei {t.lp}/{t.spec.lp} LP" + (
        ", Ziel in Deckung" if preview.cover.value else ""
    )
    return preview.expected_qs, reason


def advise(combat: Combat, agent: Agent, top: int = 3, seed: int = 0) -> Advice:
    """The agent's recommendation and the best alternatives."""
    view = DecisionView(combat)
    legal = combat.legal_actions()
    rng = random.Random(seed)
    scores_of = getattr(agent, "scores", None)
    if callable(scores_of):
        scores: dict[Action, float] = scores_of(view, legal, random.Random(seed))
        kind = getattr(agent, "score_kind", "Wert")
        chosen = max(legal, key=lambda a: scores.get(a, float("-inf")))
    else:
        chosen = agent.act(view, legal, rng)
        scores = {}
        for action in legal:
            value, _ = _reason(combat, action)
            if value is not None:
                scores[action] = value
        kind = "erwartete QS"
    ranked = sorted((a for a in legal if a != chosen and a in scores), key=lambda a: -scores[a])[
        : max(0, top - 1)
    ]

    def option(a: Action) -> Option:
        return Option(a, label(combat, a), scores.get(a), _reason(combat, a)[1])

    name = combat.fighters[combat.current_fighter()].name
    return Advice(name, option(chosen), tuple(option(a) for a in ranked), kind)
