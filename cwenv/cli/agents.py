"""``cwenv agents …``: the agent specs the other commands accept."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Agents: doctrines, search agents and their YAML configurations.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def agents() -> None:
    """Agents: doctrines, search agents and their YAML configurations."""


@app.command("list")
def list_agents() -> None:
    """Every usable agent spec with a one-line description."""
    from cwenv.agent_registry import describe_agents

    rows = describe_agents()
    width = max(len(name) for name, _ in rows)
    for name, text in rows:
        typer.echo(f"{name:<{width}}  {text}")
    typer.echo("")
    typer.echo("Ausserdem: jede YAML-Datei mit 'kind:' als Pfad.")
    typer.echo("policy:PFAD: ein gespeichertes Policy-Bündel (Ordner mit manifest.json).")
    typer.echo("scorer:PFAD: ein Kandidaten-Bewerter (Kodierung 2), spielt jedes Szenario.")


@app.command("show")
def show(spec: str = typer.Argument(..., help="Agent spec (name or YAML file).")) -> None:
    """Print an agent's full configuration, defaults included."""
    from cwenv.agent_registry import UnknownAgentError, make_agent
    from cwenv.yamlio import ConfigError

    try:
        agent = make_agent(spec)
    except (ConfigError, UnknownAgentError) as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    config = getattr(agent, "config", None)
    typer.echo(f"{agent.name}: {getattr(agent, 'description', '')}")
    if config is None:
        typer.echo("  (keine Parameter)")
        return
    values = config if isinstance(config, dict) else config.model_dump()
    for key, value in values.items():
        typer.echo(f"  {key}: {value}")
