"""``cwenv advise FILE``: what the NSC whose decision it is would do, for its whole turn.

FILE is a situation file or a ``cwenv play`` save (at a turn or at a reaction or Mumm
prompt). See :mod:`cwenv.play.advise` and docs/advise.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from agents.policy.bundle import BundleError
from agents.search import prepare_agents
from cwenv.agent import Agent
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.play.advise import (
    MAX_BUDGET,
    Advice,
    BudgetError,
    Option,
    advise,
    budgeted,
    decision_seed,
    load_table_file,
)
from cwenv.play.savefile import SavedAction
from cwenv.yamlio import ConfigError

DEFAULT_AGENT = "taktiker"
"""The strongest agent whose median decision time here is under a second (docs/advise.md,
measured by benchmarks/advise_timing.py)."""


def with_budget(agent: Agent, budget: int | None) -> Agent:
    """:func:`cwenv.play.advise.budgeted` for the command line (``--budget``)."""
    try:
        return budgeted(agent, budget)
    except BudgetError as exc:
        raise typer.BadParameter(str(exc), param_hint="--budget") from None


def advise_cmd(
    file: Path = typer.Argument(..., help="Situation YAML or a `cwenv play` save."),
    agent: str = typer.Option(DEFAULT_AGENT, "--agent", help="Agent that decides for the NSC."),
    top: int = typer.Option(3, "--top", min=1, help="How many options to show."),
    budget: int | None = typer.Option(
        None, "--budget", min=1, max=MAX_BUDGET, help="Search iterations (MCTS) or rollouts."
    ),
    english: bool = typer.Option(False, "--english", help="Labels and reasons in English."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Recommend the NSC's action and the rest of its turn, with the agent's own scores
    and a reason for each choice."""
    try:
        table = load_table_file(file)
        chosen_agent = with_budget(make_agent(agent), budget)
        prepare_agents([chosen_agent], table.combat.game)  # an agent that cannot play it
    except (ConfigError, UnknownAgentError, BundleError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    combat = table.combat
    if combat.outcome is not None:  # nothing to advise: say who won and why
        won = combat.outcome.winner
        winner = f"Sieger: {won.label}" if won is not None else "Unentschieden"
        typer.echo(
            f"Der Kampf ist entschieden: {combat.outcome.reason} ({winner}). "
            "Es gibt keinen Zug mehr zu empfehlen.",
            err=True,
        )
        raise typer.Exit(1)
    result = advise(combat, chosen_agent, top, decision_seed(table.seed, combat))
    if as_json:
        typer.echo(json.dumps(advice_dict(result, chosen_agent.name), ensure_ascii=False))
        return
    for line in advice_lines(result, english):
        typer.echo(line)


def _option_dict(o: Option) -> dict[str, Any]:
    return {
        "action": SavedAction.of(o.action).model_dump(),  # as a save writes it
        "label": o.label,
        "label_en": o.label_en,
        "score": o.score,
        "visits": o.visits,
        "reason": o.reason,
        "reason_en": o.reason_en,
    }


def advice_dict(result: Advice, agent: str) -> dict[str, Any]:
    return {
        "agent": agent,
        "fighter": result.fighter,
        "decision": result.decision,
        "decision_en": result.decision_en,
        "score_kind": result.score_kind,
        "score_kind_en": result.score_kind_en,
        "options": [_option_dict(o) for o in (result.recommended, *result.alternatives)],
        "plan": [_option_dict(o) for o in result.plan],
    }


def _score(result: Advice, o: Option, english: bool) -> str:
    if o.score is None:
        return ""
    kind = result.score_kind_en if english else result.score_kind
    visits = ""
    if o.visits is not None:
        visits = f", {o.visits} visits" if english else f", {o.visits} Besuche"
    return f" ({kind} {o.score:.2f}{visits})"


def advice_lines(result: Advice, english: bool = False) -> list[str]:
    """The advice as the terminal shows it: the choice, the rest of the turn, the ranked
    alternatives, each with its reason."""

    def why(o: Option) -> str:
        return o.reason_en if english else o.reason

    def name(o: Option) -> str:
        return o.label_en if english else o.label

    rec = result.recommended
    head = "recommended" if english else "empfohlen"
    decided = result.decision_en if english else result.decision
    lines = [f"{result.fighter} ({decided}): {head} → {name(rec)}{_score(result, rec, english)}"]
    reason_word = "Reason" if english else "Grund"
    if why(rec):
        lines.append(f"  {reason_word}: {why(rec)}")
    for i, o in enumerate(result.plan, 2):
        then = "then" if english else "dann"
        lines.append(f"  {then} {i}. {name(o)}{_score(result, o, english)}")
        if why(o):
            lines.append(f"     {reason_word}: {why(o)}")
    if result.alternatives:
        lines.append("  Alternatives:" if english else "  Alternativen:")
    elif not result.score_kind:
        lines.append(
            "  (this agent gives no scores: no alternatives ranked)"
            if english
            else "  (dieser Agent nennt keine Bewertungen: keine Alternativen gereiht)"
        )
    for o in result.alternatives:
        lines.append(f"   - {name(o)}{_score(result, o, english)}")
        if why(o):
            lines.append(f"     {why(o)}")
    return lines
