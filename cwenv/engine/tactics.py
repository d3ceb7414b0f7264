"""Tactic tags: named options a player can be forbidden (restricted play, Jaffe et al. 2012).

Each legal action carries the tags of the tactics it uses: every Mumm spend (M01–M09),
Zielen, each Kampfmanöver, Niederwerfen, Blockadeangriff, Sprinten, defending at all, and
using cover (stepping next to a cover object). ``Combat.forbid(side, tags)`` removes tagged
actions in the one legality function, so a restricted agent simply sees fewer choices.
A tag depends only on the action and the map, so usage can be counted from a game's
action history as well.
"""

from __future__ import annotations

from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.tables.maneuvers import MANEUVERS
from cwenv.engine.tables.mumm import EXTRA_REACTION, MUMM_SPENDS

TACTICS: dict[str, str] = {
    **{rule.tactic: rule.label for rule in MUMM_SPENDS.values()},
    "ZIELEN": "Zielen (H11)",
    **{rule.tactic: f"Kampfmanöver {rule.label} ({rule.rule})" for rule in MANEUVERS.values()},
    "NIEDERWERFEN": "Niederwerfen als Reaktion (R06)",
    "BLOCKADE": "Blockadeangriff (R04)",
    "SPRINTEN": "Sprinten (H08)",
    "VERTEIDIGEN": "sich verteidigen (A02)",
    "DECKUNG": "Deckung nutzen: auf ein Feld neben Deckung ziehen (C01, C02)",
}
"""Every tactic tag with what it stands for: the Mumm spends' and manoeuvres' from their
tables (:data:`~cwenv.engine.tables.mumm.MUMM_SPENDS`,
:data:`~cwenv.engine.tables.maneuvers.MANEUVERS`)."""

_BY_KIND: dict[ActionKind, str] = {
    **{rule.kind: rule.tactic for rule in MUMM_SPENDS.values() if rule.kind is not None},
    ActionKind.ZIELEN: "ZIELEN",
    ActionKind.DROP_PRONE: "NIEDERWERFEN",
    ActionKind.BLOCKADE_ATTACK: "BLOCKADE",
    ActionKind.SPRINT: "SPRINTEN",
    ActionKind.DEFEND: "VERTEIDIGEN",
}
_REACTIONS_WITH_MUMM = frozenset(
    {ActionKind.DEFEND, ActionKind.DROP_PRONE, ActionKind.BLOCKADE_ATTACK, ActionKind.CATCH_FALL}
)
"""The reactions a fighter may pay for with Mumm (M05: ``mumm=1``)."""
_COVER = frozenset({Terrain.COVER_HALF, Terrain.COVER_THREE_QUARTER})


def next_to_cover(bm: BattleMap, cell: int) -> bool:
    """A cell beside a cover object (where directional cover can protect, C02)."""
    terrain = bm.terrain
    return any(terrain[n] in _COVER for n in bm.neighbours[cell])


def tactic_tags(bm: BattleMap, action: Action) -> tuple[str, ...]:
    """The tactic tags of ``action`` (empty for plain actions)."""
    kind = action.kind
    tags: list[str] = []
    tag = _BY_KIND.get(kind)
    if tag is not None:
        tags.append(tag)
    if action.mumm and kind in _REACTIONS_WITH_MUMM:
        tags.append(EXTRA_REACTION.tactic)
    if kind is ActionKind.MANEUVER:
        tags.append(MANEUVERS[action.maneuver].tactic)
    if kind in (ActionKind.MOVE, ActionKind.SCHWIERIG) and next_to_cover(bm, action.cell):
        tags.append("DECKUNG")
    return tuple(tags)


def unknown_tactics(tags: frozenset[str]) -> list[str]:
    return sorted(t for t in tags if t not in TACTICS)
