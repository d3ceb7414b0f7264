"""``cwenv fight SCENARIO``: play one seeded fight and narrate it in German."""

from __future__ import annotations

import typer

from agents.policy.bundle import BundleError
from agents.search import prepare_agents
from cwenv.agent import play_out
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.engine.narration import narrate, rounds_text
from cwenv.invariants import present
from cwenv.model.types import Side
from cwenv.runner.seeds import side_rngs
from cwenv.yamlio import ConfigError


def fight(
    scenario: str = typer.Argument(..., help="Scenario name (cwenv scenarios list) or YAML file."),
    seed: int = typer.Option(0, "--seed", help="Seed of the fight's dice and the agents."),
    runners: str = typer.Option("greedy", "--runners", help="Agent for the Runner side."),
    nscs: str = typer.Option("greedy", "--nscs", help="Agent for the Gegner and neutrals."),
    rules: str | None = typer.Option(None, "--rules", help="Rule variant name or YAML file."),
    quiet: bool = typer.Option(False, "--quiet", help="Print only the outcome."),
) -> None:
    """Play one fight between two agents and narrate every event."""
    from cwenv.content import load_scenario

    try:
        game = load_scenario(scenario, rules=rules)
        runner_agent, nsc_agent = make_agent(runners), make_agent(nscs)
        prepare_agents([runner_agent, nsc_agent], game)  # an agent that cannot play it: say so
    except (ConfigError, UnknownAgentError, BundleError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    combat = game.new_combat(seed)
    agents = {
        int(Side.RUNNER): runner_agent,
        int(Side.GEGNER): nsc_agent,
        int(Side.NEUTRAL): nsc_agent,
    }
    play_out(combat, agents, side_rngs(seed))  # the same game as `cwenv replay --seed`
    if not quiet:
        for event in combat.events:
            typer.echo(narrate(event, game.names))
    outcome = present(combat.outcome, "the outcome of a finished combat")
    winner = outcome.winner.label if outcome.winner is not None else "Unentschieden"
    typer.echo(f"Ergebnis: {winner} nach {rounds_text(outcome.rounds)} ({outcome.reason})")
