"""The browser view of ``cwenv serve`` (docs/browser.md): its static page under ``/ui/``
and the JSON only the page needs: the board (state plus letters and turn order), a
fighter's focus, and the stored games of ``--games DB`` replayed step by step.

The page is plain HTML and JavaScript modules shipped as package data
(``cwenv/service/static``); it talks to the same ``/v1`` API as any other client.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from cwenv.service.board import board_json, focus_json
from cwenv.service.bodies import Settings
from cwenv.service.fights import Fight
from cwenv.service.replays import MAX_LISTED, Replays, games_json
from cwenv.service.responses_fight import BoardOut, FocusOut, GamesOut, ReplayOut
from cwenv.service.store import Registry

UI = "/ui"
STATIC = Path(str(resources.files("cwenv.service") / "static"))


def open_paths() -> frozenset[str]:
    """The page's files: public even with a token (they hold no data; the page sends the
    token, from its address's ``#token=``, with every API call)."""
    files = {f"{UI}/{p.name}" for p in STATIC.iterdir() if p.is_file()}
    return frozenset({UI, f"{UI}/", *files})


def register(
    api: FastAPI,
    registry: Registry,
    settings: Settings,
    state_json: Callable[[Fight], dict[str, Any]],
) -> None:
    """Add the page and its routes to the service."""
    replays = Replays(settings.games)

    @api.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse(f"{UI}/")

    @api.get(
        "/v1/fights/{fight_id}/board",
        tags=["browser"],
        response_model=BoardOut,
        response_model_exclude_unset=True,
    )
    def board(fight_id: str) -> dict[str, Any]:
        """The state with the legal actions, plus what the map draws: fighter letters
        (Runner A.., Gegner a.., neutrals 1..), the turn order, the decision's name."""
        with registry.use(fight_id) as fight:
            out = state_json(fight)
            if fight.combat is not None:
                out |= board_json(fight.combat)
            return out

    @api.get(
        "/v1/fights/{fight_id}/fighters/{fighter}/focus", tags=["browser"], response_model=FocusOut
    )
    def focus(fight_id: str, fighter: int) -> dict[str, Any]:
        """A fighter as clicked on the map: reachable cells (free and Schwierige Bewegung)
        on its own turn, the cells in its line of sight, and per opponent whether it is in
        sight and the exact hit chance of the fighter's best attack on it now."""
        with registry.use(fight_id) as fight:
            return focus_json(fight.live(), fighter)

    @api.get("/v1/games", tags=["browser"], response_model=GamesOut)
    def games(limit: int = Query(100, ge=1, le=MAX_LISTED)) -> dict[str, Any]:
        """The games of the database given to ``cwenv serve --games DB``."""
        return games_json(settings.games, limit)

    @api.get(
        "/v1/games/{game_id}/replay",
        tags=["browser"],
        response_model=ReplayOut,
        response_model_exclude_unset=True,
    )
    def replay(game_id: str) -> dict[str, Any]:
        """A stored game step by step: the state before each decision, the decision taken,
        its events (data and German narration) and the attack lines to draw."""
        return replays.get(game_id)

    api.mount(UI, StaticFiles(directory=STATIC, html=True), name="ui")
