"""``cwenv serve``: the NSC brain as a local HTTP service (docs/service.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from agents.policy.bundle import BundleError
from agents.search import prepare_agents
from cwenv.agent import Agent
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.engine.game import Game
from cwenv.play.advise import MAX_BUDGET
from cwenv.service.bodies import SERVED_BUDGET, Settings
from cwenv.service.security import WILDCARD_HOSTS, is_loopback

DEFAULT_DB = Path(".cwenv-serve.sqlite")


def agent_maker(spec: str, game: Game) -> Agent:
    """A fresh agent that has checked it can play ``game`` (as ``cwenv play`` checks)."""
    agent = make_agent(spec)
    try:
        prepare_agents([agent], game)
    except BundleError as exc:
        raise UnknownAgentError(str(exc)) from None
    return agent


def settings_of(
    host: str,
    port: int,
    token: str | None,
    origin: list[str],
    allow_host: list[str],
    db: Path | None,
    max_fights: int,
    max_body: int,
    games: Path | None = None,
    max_budget: int = SERVED_BUDGET,
) -> Settings:
    """The service's settings; refuses another address than loopback without a token."""
    if not is_loopback(host) and not token:
        where = "every address" if host in WILDCARD_HOSTS else host
        raise typer.BadParameter(
            f"bound to {where}, anyone who reaches it could run fights: give --token SECRET "
            "(clients send 'Authorization: Bearer SECRET')",
            param_hint="--host",
        )
    return Settings(
        host=host,
        port=port,
        token=token or None,
        origins=tuple(origin),
        allowed_hosts=tuple(allow_host),
        db=db,
        max_fights=max_fights,
        max_body=max_body,
        games=games,
        max_budget=max_budget,
    )


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback)."),
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="Port to listen on."),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="CWENV_SERVE_TOKEN",
        help="Clients must send 'Authorization: Bearer TOKEN' (required off loopback).",
    ),
    origin: list[str] = typer.Option(
        [], "--origin", help="A browser origin allowed to call (a VTT: https://vtt.example:30000)."
    ),
    allow_host: list[str] = typer.Option(
        [], "--allow-host", help="Another name clients reach the service by (Host header)."
    ),
    db: Path = typer.Option(DEFAULT_DB, "--db", help="SQLite file the fights are kept in."),
    no_db: bool = typer.Option(False, "--no-db", help="Keep fights in memory only."),
    max_fights: int = typer.Option(64, "--max-fights", min=1, help="Most fights held at once."),
    max_body: int = typer.Option(
        1_000_000, "--max-body", min=1024, help="Largest request body in bytes."
    ),
    games: Path | None = typer.Option(
        None,
        "--games",
        exists=True,
        dir_okay=False,
        help="A tournament or stress database whose games the page (/ui/) replays.",
    ),
    max_budget: int = typer.Option(
        SERVED_BUDGET,
        "--max-budget",
        min=1,
        max=MAX_BUDGET,
        help="Largest search budget (MCTS iterations, rollouts) a client may ask for.",
    ),
) -> None:
    """Serve the NSC brain as a JSON HTTP API: create fights, read them with exact odds, ask
    an agent, apply actions with dice from the table, undo (docs/service.md)."""
    import uvicorn

    from cwenv.service.app import create_app

    settings = settings_of(
        host,
        port,
        token,
        origin,
        allow_host,
        None if no_db else db,
        max_fights,
        max_body,
        games,
        max_budget,
    )
    app = create_app(settings, agent_maker)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}"
    typer.echo(f"cwenv serve: {url}/v1 (API: {url}/docs, page: {url}/ui/)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
