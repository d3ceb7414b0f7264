"""The GM advisor: describe the situation at the table, get the NSC's best move.

A situation file names a scenario, whose turn it is, and what differs from the scenario's
start for each fighter (position, LP, conditions, reactions, Mumm, out of the fight). The
agent then recommends an action; alternatives are ranked by the agent's own scores when it
has them (search values, policy probabilities) and otherwise by the exact odds of each
attack (hit chance × expected QS), with a one-line reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from agents.base import Agent, DecisionView
from cwenv.engine.actions import Action
from cwenv.engine.game import Game
from cwenv.engine.preview import preview_attack
from cwenv.engine.situation import SituationError, combat_at_turn
from cwenv.engine.state import Combat
from cwenv.model.types import Condition
from cwenv.play.menu import label
from cwenv.yamlio import ConfigError, ConfigIssue, YamlDocument, read_yaml_file


class FighterSituation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    at: tuple[int, int] | None = None
    lp: int | None = None
    conditions: list[str] = Field(default_factory=list)
    reactions: int | None = Field(None, ge=0)
    mumm: int | None = Field(None, ge=0)
    out: bool = False  # dead or gone: off the board

    @field_validator("conditions")
    @classmethod
    def _known(cls, values: list[str]) -> list[str]:
        for value in values:
            Condition.from_label(value)  # raises with the allowed names
        return values


class Situation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: str
    rules: str | None = None
    round: int = Field(1, ge=1)
    turn: str
    seed: int = 0
    fighters: dict[str, FighterSituation] = Field(default_factory=dict)


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


def load_situation(path: Path) -> tuple[Game, Combat, YamlDocument]:
    """Read a situation file and build the combat at the described turn."""
    from cwenv.content import load_scenario

    doc = read_yaml_file(path)
    try:
        sit = Situation.model_validate(doc.data)
    except ValidationError as exc:
        raise ConfigError([doc.issue(tuple(e["loc"]), e["msg"]) for e in exc.errors()]) from None
    game = load_scenario(sit.scenario, rules=sit.rules)
    names = list(game.names)
    issues: list[ConfigIssue] = []
    if sit.turn not in names:
        issues.append(doc.issue(("turn",), f"no fighter {sit.turn!r}; known: {', '.join(names)}"))
    bm = game.battlemap
    for name, fs in sit.fighters.items():
        if name not in names:
            issues.append(
                doc.issue(("fighters", name), f"no such fighter; known: {', '.join(names)}")
            )
        elif fs.at is not None and not (0 <= fs.at[0] < bm.width and 0 <= fs.at[1] < bm.height):
            issues.append(
                doc.issue(("fighters", name, "at"), f"outside the {bm.width}×{bm.height} map")
            )
    if issues:
        raise ConfigError(issues)

    def edit(c: Combat) -> None:
        for name, fs in sit.fighters.items():
            f = c.fighters[names.index(name)]
            if fs.at is not None:
                f.pos = bm.index(*fs.at)
            if fs.lp is not None:
                f.lp = min(fs.lp, f.spec.lp)
                f.down = f.lp <= 0
            for cond in fs.conditions:
                f.conditions |= 1 << Condition.from_label(cond)
            if fs.reactions is not None:
                f.reactions = fs.reactions
            if fs.mumm is not None:
                f.mumm = min(fs.mumm, f.mumm_max)
            if fs.out:
                f.dead = f.down = True
                c.remove_from_map(f)
                f.fled = True

    try:
        combat = combat_at_turn(game, names.index(sit.turn), edit, round_=sit.round, seed=sit.seed)
    except SituationError as exc:
        raise ConfigError([doc.issue(("fighters",), str(exc))]) from None
    return game, combat, doc


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
