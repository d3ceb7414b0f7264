"""Warnings about scenarios that are valid but may not play as meant.

``cwenv scenarios validate`` prints them after ``ok``; they never stop a scenario from
loading. Today one check: a fight that may never end.
"""

from __future__ import annotations

from cwenv.battlemap.grid import Terrain
from cwenv.engine.game import Game, VictoryKind
from cwenv.model.types import Side


def scenario_warnings(game: Game) -> list[str]:
    """Plain-English warnings about ``game`` (empty when nothing looks wrong)."""
    out: list[str] = []
    ends_by_rounds = game.round_limit is not None or any(
        v.kind is VictoryKind.SURVIVE for v in game.victory
    )
    if not ends_by_rounds and not sides_connected(game):
        out.append(
            "no walkable path between the Runners and the Gegner and no round limit: the "
            f"fight may never end (it stops undecided after {game.decision_cap} decisions, "
            "the scenario's decision_cap); set round_limit"
        )
    return out


def sides_connected(game: Game) -> bool:
    """Whether some Runner and some Gegner could walk to each other, heights, climbs and
    doors aside (an over-estimate: doors count as openable, any height as climbable)."""
    bm = game.battlemap
    passable = [t.standable or t is Terrain.DOOR_CLOSED for t in bm.terrain]
    gegner = {
        pos
        for spec, pos in zip(game.roster, game.positions, strict=True)
        if spec.side is Side.GEGNER
    }
    seen = {
        pos
        for spec, pos in zip(game.roster, game.positions, strict=True)
        if spec.side is Side.RUNNER
    }
    frontier = list(seen)
    while frontier:
        cell = frontier.pop()
        if cell in gegner:
            return True
        for n in bm.neighbours[cell]:
            if passable[n] and n not in seen:
                seen.add(n)
                frontier.append(n)
    return False
