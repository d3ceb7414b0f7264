"""``cwenv advise SITUATION.yaml``: the recommended action for the NSC that must act."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from agents.policy.bundle import BundleError
from agents.search import prepare_agents
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.play.advise import advise, load_situation
from cwenv.yamlio import ConfigError


def advise_cmd(
    situation: Path = typer.Argument(..., help="Situation YAML (scenario, turn, fighters)."),
    agent: str = typer.Option("greedy", "--agent", help="Agent that decides for the NSC."),
    top: int = typer.Option(3, "--top", min=1, help="How many options to show."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Recommend the action for the fighter whose turn the situation describes."""
    try:
        _, combat, _ = load_situation(situation)
        chosen_agent = make_agent(agent)
        prepare_agents([chosen_agent], combat.game)  # an agent that cannot play it: say so
    except (ConfigError, UnknownAgentError, BundleError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    if combat.outcome is not None:  # nothing to advise: say who won and why
        won = combat.outcome.winner
        winner = f"Sieger: {won.label}" if won is not None else "Unentschieden"
        typer.echo(
            f"Der Kampf ist entschieden: {combat.outcome.reason} ({winner}). "
            "Es gibt keinen Zug mehr zu empfehlen.",
            err=True,
        )
        raise typer.Exit(1)
    result = advise(combat, chosen_agent, top)
    options = [result.recommended, *result.alternatives]
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "fighter": result.fighter,
                    "score_kind": result.score_kind,
                    "options": [
                        {
                            "action": o.action._asdict() | {"kind": o.action.kind.name},
                            "label": o.label,
                            "score": o.score,
                            "reason": o.reason,
                        }
                        for o in options
                    ],
                },
                ensure_ascii=False,
            )
        )
        return
    rec = result.recommended
    score = f" ({result.score_kind} {rec.score:.2f})" if rec.score is not None else ""
    typer.echo(f"{result.fighter}: empfohlen → {rec.label}{score}")
    if result.recommended.reason:
        typer.echo(f"  Grund: {result.recommended.reason}")
    for i, o in enumerate(result.alternatives, 2):
        score = f" ({result.score_kind} {o.score:.2f})" if o.score is not None else ""
        typer.echo(f"  {i}. {o.label}{score}{' — ' + o.reason if o.reason else ''}")
