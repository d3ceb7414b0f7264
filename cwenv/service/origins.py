"""Where a fight starts: a shipped scenario, an uploaded scenario file, a situation (the
advisor's format) or a ``cwenv play`` save — read by the same loaders as the CLI, so a bad
upload gets the CLI's messages, each naming its field (and line).

A client names only shipped content: a scenario or rule variant by its library name,
never a path, so nothing on the server's disk is read on a client's say-so (a situation or
save names its scenario, which is checked the same way). Texts are YAML or JSON (JSON is
YAML); an object sent instead of a text is read as its JSON.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from cwenv.content import list_scenarios, load_scenario
from cwenv.content.library import Library
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.play.savefile import DiceMode, SavedGame, load_game, read_saved
from cwenv.play.situation import load_situation
from cwenv.rules.dice import STREAM, Dice, dice_stream, seeded_dice
from cwenv.service.errors import ServiceError, bad_field, from_config_error
from cwenv.suggest import did_you_mean
from cwenv.yamlio import SAVE_LIMITS, ConfigError, parse_yaml


class OriginKind(Enum):
    SCENARIO = "scenario"  # a shipped scenario by name
    UPLOAD = "scenario_file"  # a scenario file sent by the client
    SITUATION = "situation"  # the advisor's situation format
    SAVE = "save"  # a cwenv play save


@dataclass(frozen=True, slots=True)
class Start:
    """A fight's starting point: the game, how to build its combat with given dice, and
    the saved-game fields (scenario, rules, seed, dice mode, and for a save its dice and
    actions, which the fight replays)."""

    game: Game
    build: Callable[[Dice | None], Combat]
    saved: SavedGame


def shipped_scenarios() -> list[str]:
    return list_scenarios()


def shipped_rules() -> list[str]:
    return Library().names("rules")


def text_of(value: str | dict[str, Any] | list[Any]) -> str:
    """A file's text as sent, or an object as its JSON text (which the YAML reader reads)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def check_shipped(field: str, value: object, known: list[str], what: str) -> None:
    """Refuse anything but a shipped name (a path would read the server's files)."""
    if isinstance(value, str) and value in known:
        return
    shown = value if isinstance(value, str) else type(value).__name__
    hint = did_you_mean(shown, known) if isinstance(value, str) else ""
    raise bad_field(field, f"no shipped {what} {shown!r}{hint}", known)


def _names_in(text: str, field: str, source: str) -> None:
    """Check the scenario and rules a situation or save names before its loader reads
    them (the loaders accept paths; a client may only name shipped content)."""
    try:
        doc = parse_yaml(text, source, SAVE_LIMITS)
    except ConfigError as exc:
        raise from_config_error(exc, {source: field}) from None
    if not isinstance(doc.data, dict):
        return  # the loader says what a situation or save must be
    if "scenario" in doc.data:
        check_shipped(f"{field}.scenario", doc.data["scenario"], shipped_scenarios(), "scenario")
    if doc.data.get("rules") is not None:
        check_shipped(f"{field}.rules", doc.data["rules"], shipped_rules(), "rule variant")


def start_from_scenario(
    name: str, rules: str | None, seed: int, dice: DiceMode, stream: str = STREAM
) -> Start:
    check_shipped("scenario", name, shipped_scenarios(), "scenario")
    if rules is not None:
        check_shipped("rules", rules, shipped_rules(), "rule variant")
    try:
        game = load_scenario(name, rules=rules)
    except ConfigError as exc:
        raise from_config_error(exc, {"command line": "rules"}) from None
    return _seeded_start(game, name, rules, seed, dice, stream)


def start_from_upload(
    text: str, rules: str | None, seed: int, dice: DiceMode, stream: str = STREAM
) -> Start:
    if rules is not None:
        check_shipped("rules", rules, shipped_rules(), "rule variant")
    with tempfile.TemporaryDirectory(prefix="cwenv-serve-") as tmp:
        path = Path(tmp) / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            game = load_scenario(path, rules=rules)
        except ConfigError as exc:
            raise from_config_error(
                exc, {str(path): "scenario_file", "command line": "rules"}
            ) from None
    return _seeded_start(game, "(hochgeladen)", rules, seed, dice, stream)


def _seeded_start(
    game: Game, scenario: str, rules: str | None, seed: int, dice: DiceMode, stream: str
) -> Start:
    """A fight from the start of ``game``, its save naming the dice stream it rolls with."""
    saved = SavedGame(
        scenario=scenario,
        rules=rules,
        seed=seed,
        runners="human",
        nscs="human",
        dice=dice,
        dice_stream=stream,
    )
    return Start(game, _fresh(game, seed, stream), saved)


def start_from_situation(text: str, dice: DiceMode, stream: str = STREAM) -> Start:
    _names_in(text, "situation", "situation")
    with tempfile.TemporaryDirectory(prefix="cwenv-serve-") as tmp:
        path = Path(tmp) / "situation.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            with dice_stream(stream):
                game, base, doc = load_situation(path)
        except ConfigError as exc:
            raise from_config_error(exc, {str(path): "situation"}) from None
    data = doc.data
    seed = data.get("seed", 0) if isinstance(data, dict) else 0
    saved = SavedGame(
        scenario=str(data["scenario"]),
        rules=data.get("rules"),
        seed=seed if isinstance(seed, int) else 0,
        runners="human",
        nscs="human",
        dice=dice,
        dice_stream=stream,
    )

    def build(table: Dice | None) -> Combat:
        # The situation is set up once; every rebuild starts from a copy of it (its own
        # seeded dice go on, or the table's replace them).
        combat = base.clone()
        if table is not None:
            combat.dice = table
        return combat

    return Start(game, build, saved)


def start_from_save(text: str) -> tuple[Start, str]:
    """The start of a saved game (its actions and typed dice are in ``saved``) and the
    temporary file's name, which replay errors must be mapped from."""
    _names_in(text, "save", "save")
    with tempfile.TemporaryDirectory(prefix="cwenv-serve-") as tmp:
        path = Path(tmp) / "save.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            saved, doc = read_saved(path)
            game = load_game(saved, doc)
        except ConfigError as exc:
            raise from_config_error(exc, {str(path): "save"}) from None
    saved = saved.model_copy(update={"runners": "human", "nscs": "human"})
    return Start(game, _fresh(game, saved.seed, saved.dice_stream), saved), str(path)


def rebuild_start(kind: OriginKind, text: str | None, saved: SavedGame) -> Start:
    """The start of a stored fight, from what the store keeps (after a restart)."""
    dice, stream = saved.dice, saved.dice_stream
    if kind is OriginKind.SCENARIO or kind is OriginKind.SAVE:
        return start_from_scenario(saved.scenario, saved.rules, saved.seed, dice, stream)
    if text is None:
        raise ServiceError(409, "stored_fight_broken", "the stored fight lost its text")
    if kind is OriginKind.UPLOAD:
        return start_from_upload(text, saved.rules, saved.seed, dice, stream)
    return start_from_situation(text, dice, stream)


def _fresh(game: Game, seed: int, stream: str) -> Callable[[Dice | None], Combat]:
    def build(table: Dice | None) -> Combat:
        return game.new_combat(seed, table if table is not None else seeded_dice(seed, stream))

    return build
