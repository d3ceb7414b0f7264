"""Records made before issue #16 replaced the dice stream keep replaying exactly.

The fixtures in tests/data/mt19937/ were written by the code of commit 6b377f8 (the last
whose dice were Python's Mersenne Twister): a ``cwenv play`` save of duell (seed 5,
greedy against greedy, 14 decisions) and a tournament database (greedy against random on
duell, two games per side, seed 3). They name no dice stream; cwenv reads them as the
legacy one (``mt19937``) and plays them as they were played then. New records name the
stream they were rolled with.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from cwenv.content import load_scenario
from cwenv.engine.events import Event
from cwenv.play.savefile import SavedGame, load_saved, stored_save
from cwenv.play.table_game import PlaySession
from cwenv.rules.dice import (
    LEGACY_STREAM,
    STREAM,
    MersenneDice,
    SeededDice,
    UnknownStreamError,
    dice_stream,
    seeded_dice,
)
from cwenv.runner.replay import replay, source_from_db
from cwenv.runner.store import Store
from cwenv.service.origins import OriginKind, rebuild_start
from cwenv.yamlio import ConfigError

DATA = Path(__file__).parent / "data" / "mt19937"
OLD_SAVE = DATA / "duell-seed5.yaml"
OLD_DB = DATA / "tournament.sqlite"
# the old code played the save on (30 more agent steps; the game ended after 38 decisions)
OLD_CONTINUATION = (38, "d8ea81585470cd7800084627b31fc1ef")


def _events_hash(events: list[Event]) -> str:
    return hashlib.sha256("\n".join(repr(e) for e in events).encode()).hexdigest()[:32]


def _play_on(session: PlaySession, steps: int = 30) -> tuple[int, str]:
    for _ in range(steps):
        if session.combat.is_terminal():
            break
        session.agent_step()
    return len(session.combat.history), _events_hash(session.combat.events)


def test_an_old_save_replays_and_plays_on_as_the_old_code_did(tmp_path: Path) -> None:
    saved = load_saved(OLD_SAVE)
    assert saved.cwenv_save == 1 and saved.dice_stream == LEGACY_STREAM
    session = PlaySession(load_scenario("duell"), saved)
    assert isinstance(session.combat.dice, MersenneDice)
    assert _play_on(session) == OLD_CONTINUATION
    # saved again it says which stream it is, and stays the same game
    session = PlaySession(load_scenario("duell"), saved)
    session.save(tmp_path / "again.yaml")
    text = (tmp_path / "again.yaml").read_text(encoding="utf-8")
    assert "cwenv_save: 2" in text and "dice_stream: mt19937" in text
    again = PlaySession(load_scenario("duell"), load_saved(tmp_path / "again.yaml"))
    assert _play_on(again) == OLD_CONTINUATION


def test_a_new_save_names_the_documented_stream(tmp_path: Path) -> None:
    saved = SavedGame(scenario="duell", seed=5, runners="greedy", nscs="greedy")
    session = PlaySession(load_scenario("duell"), saved)
    assert isinstance(session.combat.dice, SeededDice)
    session.save(tmp_path / "neu.yaml")
    assert "dice_stream: pcg32-w10" in (tmp_path / "neu.yaml").read_text(encoding="utf-8")
    assert _play_on(session)[1] != OLD_CONTINUATION[1]  # other dice, another game


def test_a_save_with_an_unknown_stream_is_refused_by_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "fremd.yaml"
    path.write_text(OLD_SAVE.read_text(encoding="utf-8") + "dice_stream: xoshiro\n", "utf-8")
    with pytest.raises(ConfigError) as info:
        load_saved(path)
    assert "fremd.yaml" in str(info.value) and "dice_stream" in str(info.value)
    assert "pcg32-w10, mt19937" in str(info.value)


def test_an_old_tournament_database_replays_every_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "alt.sqlite"
    shutil.copy(OLD_DB, db)
    with Store(db, create=False) as store:
        games = store.games(store.latest_tournament())
    assert len(games) == 4 and {g.game.stream for g in games} == {LEGACY_STREAM}
    for stored in games:
        source = source_from_db(db, stored.game.game_id)
        assert source.stream == LEGACY_STREAM
        again = replay(source)
        assert again.matches is True and again.record.digest == stored.digest
    # read as today's stream they would be other games: the field is what keeps them
    source = dataclasses.replace(source_from_db(db, games[0].game.game_id), stream=STREAM)
    assert replay(source).matches is False


def test_a_stored_service_fight_without_a_stream_rebuilds_under_the_legacy_one() -> None:
    raw = json.loads(SavedGame(scenario="duell", seed=5, runners="human", nscs="human")
                     .model_dump_json(exclude={"dice_stream"}))  # fmt: skip
    old = SavedGame.model_validate(stored_save(raw))
    assert old.dice_stream == LEGACY_STREAM
    start = rebuild_start(OriginKind.SCENARIO, None, old)
    assert start.saved.dice_stream == LEGACY_STREAM
    assert isinstance(start.build(None).dice, MersenneDice)
    new = rebuild_start(OriginKind.SCENARIO, None, SavedGame.model_validate(raw))
    assert isinstance(new.build(None).dice, SeededDice)


def test_lookahead_on_a_legacy_combat_samples_legacy_futures() -> None:
    game = load_scenario("duell")
    with dice_stream(LEGACY_STREAM):
        old = game.new_combat(7)
    assert isinstance(old.dice, MersenneDice)
    sim = old.clone()
    sim.reseed_dice(11)
    assert isinstance(sim.dice, MersenneDice)
    ref = MersenneDice(11)
    assert [sim.dice.d10() for _ in range(20)] == [ref.d10() for _ in range(20)]
    assert isinstance(game.new_combat(7).dice, SeededDice)  # outside: today's stream


def test_an_unknown_stream_name_is_refused() -> None:
    with pytest.raises(UnknownStreamError, match="pcg32-w10, mt19937"):
        seeded_dice(1, "xoshiro")
    with pytest.raises(UnknownStreamError), dice_stream("xoshiro"):
        pass
