"""Replay one game: play it again from its seed, narrate it in German round by round, show
the map at every round start, and check that it ends exactly as recorded.

The map frames are rebuilt from the event log alone (moves, LP changes, status changes), so
any recorded log can be drawn the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from cwenv.engine import events as ev
from cwenv.model.types import Side
from cwenv.rules.dice import STREAM, dice_stream
from cwenv.rulesets.cw_record import record_against
from cwenv.runner.errors import RunnerError
from cwenv.runner.ratings import scenario_label
from cwenv.runner.store import Store
from cwenv.runner.task import (
    GameRecord,
    load_game,
    play_combat,
    resolve_source,
    rules_fingerprint,
)

if TYPE_CHECKING:
    from cwenv.engine.game import Game
    from cwenv.engine.state import Combat


class ReplayError(RunnerError):
    """A game cannot be replayed (or its replay did not come to an end)."""


SIDE_STYLE = {Side.RUNNER: "bold green", Side.GEGNER: "bold red", Side.NEUTRAL: "bold yellow"}


@dataclass(frozen=True)
class ReplaySource:
    """What to play, and (from a database) the result it must reproduce."""

    game: Game
    runners: str
    nscs: str
    seed: int
    label: str
    expected: GameRecord | None = None
    game_id: str | None = None
    warnings: tuple[str, ...] = ()
    stream: str = STREAM  # the dice stream it was recorded under


@dataclass(frozen=True)
class Snapshot:
    """Where everyone stands at the start of a round."""

    round: int
    positions: tuple[int, ...]
    lp: tuple[int, ...]
    status: tuple[ev.StatusChanged | None, ...]  # None while fighting, else the last status


@dataclass
class RoundLog:
    snapshot: Snapshot | None  # None for what happens before the first round
    lines: list[str] = field(default_factory=list)


@dataclass
class Replay:
    source: ReplaySource
    combat: Combat
    record: GameRecord
    rounds: list[RoundLog]

    @property
    def matches(self) -> bool | None:
        """True/False against the recorded result; None when there is nothing to compare."""
        if self.source.expected is None:
            return None
        return self.record.digest == self.source.expected.digest

    def differences(self) -> list[str]:
        """What differs from the recorded result, field by field."""
        expected = self.source.expected
        if expected is None:
            return []
        mine, theirs = self.record.to_json(), expected.to_json()
        return [
            f"{k}: recorded {theirs[k]!r}, replayed {mine[k]!r}"
            for k in theirs
            if mine.get(k) != theirs[k]
        ]


def source_from_db(db: str | Path, game_id: str) -> ReplaySource:
    """The recorded game ``game_id`` (or a unique id prefix) of a tournament database."""
    from cwenv.rules.variants import options_from_mapping

    with Store(db, create=False) as store:
        stored = store.game(game_id)
        recorded_rules = store.rules_options(stored.game.rules_hash)
        recorded_content = _recorded_content(store, stored.game.game_id, stored.game.scenario)
    planned = stored.game
    game = load_game(planned.scenario, planned.rules)
    warnings: list[str] = []
    if recorded_content is not None:
        from cwenv.runner.content import scenario_changes, scenario_content

        now = scenario_content(planned.scenario, game, planned.rules)
        changes = scenario_changes(scenario_label(planned.scenario), recorded_content, now)
        if changes:
            warnings.append(
                "the content changed since the game was recorded, so the replay may differ: "
                + "; ".join(changes)
            )
    found, _ = rules_fingerprint(game.options)
    if found != planned.rules_hash:
        if recorded_rules is None:
            raise RunnerError(f"the rules of game {planned.game_id} changed and are not stored")
        game = dataclasses.replace(game, options=options_from_mapping(recorded_rules))
        warnings.append(
            "the rule variant changed since the game was recorded; "
            "replaying with the recorded options"
        )
    if stored.record is None:
        warnings.append(f"game {planned.game_id} has no recorded result yet")
    label = (
        f"{scenario_label(planned.scenario)} · Runner: {planned.runners} · "
        f"NSC: {planned.nscs} · Spiel {planned.index} · Seed {planned.seed}"
    )
    return ReplaySource(
        game,
        planned.runners,
        planned.nscs,
        planned.seed,
        label,
        stored.record,
        planned.game_id,
        tuple(warnings),
        planned.stream,
    )


def _recorded_content(store: Store, game_id: str, scenario: str) -> dict[str, Any] | None:
    """The content of ``scenario`` as recorded by a tournament holding the game (None: a
    stress run or an older database that did not record it)."""
    for (tid,) in store.rows("SELECT tournament_id FROM entries WHERE game_id = ?", (game_id,)):
        content = store.tournament_config(str(tid)).get("content")
        if not isinstance(content, dict):
            continue
        for spec, recorded in content.items():
            if scenario_label(str(spec)) == scenario_label(scenario) and isinstance(recorded, dict):
                return recorded
    return None


def source_from_scenario(
    scenario: str, runners: str, nscs: str, seed: int, rules: str | None = None
) -> ReplaySource:
    """A game given by scenario, agents and dice seed (as ``cwenv simulate`` plays it)."""
    rules_spec = resolve_source(rules) if rules is not None else None
    game = load_game(resolve_source(scenario), rules_spec)
    from cwenv.runner.task import make_agents

    make_agents(runners, nscs)
    label = f"{scenario} · Runner: {runners} · NSC: {nscs} · Seed {seed}"
    return ReplaySource(game, runners, nscs, seed, label)


def frames(game: Game, events: Sequence[ev.Event]) -> list[RoundLog]:
    """Split the narrated log into rounds, each with a snapshot of the map at its start."""
    from cwenv.engine.narration import narrate

    bm, names = game.battlemap, game.names
    pos = list(game.positions)
    lp = [spec.lp for spec in game.roster]
    status: list[ev.StatusChanged | None] = [None for _ in game.roster]
    logs = [RoundLog(None)]
    for event in events:
        if isinstance(event, ev.RoundStarted):
            logs.append(RoundLog(Snapshot(event.round, tuple(pos), tuple(lp), tuple(status))))
        logs[-1].lines.append(narrate(event, names))
        if isinstance(event, ev.Moved | ev.ForcedMove) and event.path:
            pos[event.fighter] = bm.index(*event.path[-1])
        elif isinstance(event, ev.LPChanged):
            lp[event.fighter] = event.after
        elif isinstance(event, ev.StatusChanged):
            status[event.fighter] = None if event.status is ev.Status.AWAKE else event
    return [log for log in logs if log.snapshot is not None or log.lines]


def marker(game: Game, idx: int) -> str:
    """Runners A, B, …; Gegner a, b, …; neutrals 1, 2, … (by order within the side)."""
    side = game.roster[idx].side
    n = sum(1 for spec in game.roster[:idx] if spec.side is side)
    if side is Side.RUNNER:
        return chr(ord("A") + n % 26)
    if side is Side.GEGNER:
        return chr(ord("a") + n % 26)
    return str((n + 1) % 10)


def render_map(game: Game, snap: Snapshot) -> Text:
    """The battle map in the terminal marker scheme (:mod:`cwenv.content.markers`, with its
    legend), every fighter on the map overlaid, then each fighter's LP and status."""
    from cwenv.content.markers import Placed, draw_map, legend
    from cwenv.engine.narration import status_text

    sides = [spec.side for spec in game.roster]
    placed = []
    for idx, cell in enumerate(snap.positions):
        shown = snap.status[idx]
        if shown is None or shown.status is not ev.Status.ESCAPED:
            placed.append(Placed(idx, cell, sides[idx], shown is not None))
    placed.sort(key=lambda p: p.out)  # a fighter standing is drawn over one lying there
    out = any(p.out for p in placed)
    text = draw_map(game.battlemap, placed, sides)
    text.append_text(legend(game.battlemap, sides, out=out)).append("\n")
    for idx, spec in enumerate(game.roster):
        shown = snap.status[idx]
        state = f" – {status_text(shown)}" if shown is not None else ""
        text.append(f"  {marker(game, idx)}", style=SIDE_STYLE[spec.side])
        text.append(f" {spec.name} ({spec.side.label}) LP {snap.lp[idx]}{state}\n")
    return text


def replay(source: ReplaySource) -> Replay:
    """Play the game again and compare its record with the recorded one."""
    with dice_stream(source.stream):
        combat = play_combat(source.game, source.runners, source.nscs, source.seed)
    record = record_against(combat, source.expected)  # an old record as it was hashed then
    return Replay(source, combat, record, frames(source.game, combat.events))
