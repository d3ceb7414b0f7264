"""Golden digests: seeded games and env episodes must replay byte for byte.

Performance work (issue #9) may change how the engine, the agents and the observation
encoder compute, never what they compute. Each digest folds the ``events_hash`` of the
game records (every event's ``repr``) or the raw bytes of every observation and mask.
When a rule change alters play on purpose, regenerate them with
``python tests/test_golden_digests.py`` and say so in the commit.

Issue #14 item 2 made the event fields code reads enums and ids, which changes every
event's ``repr``; the digests were re-recorded once, and ``LEGACY`` keeps the ones taken
before: the same games, with their events written the old way
(:func:`tests.golden.legacy.legacy_repr`), give exactly those, so only the field types
changed, not a die, a choice or an outcome.

The Moved-metres fix re-recorded the three feuergefecht digests: ``Moved.metres`` is the
metres of Bewegung spent (X48 hurdles, B03 climbs, X49), not the cells entered. ``LEGACY``
writes the cells entered again and stayed as it was, so nothing else changed.

Issue #16 replaced the dice stream (Python's Mersenne Twister) by the documented PCG32 of
both engines (cwenv/rules/stream.py, docs/dice.md), which re-recorded ``GAMES`` and
``ENV``: every die is different. ``MERSENNE`` keeps the digests of before; the same
scenarios, rules and agents played under the legacy stream (``dice_stream("mt19937")``,
as a replay of an old record does) give exactly those, and ``LEGACY`` on top of them, so
nothing but the dice changed.

Issue #16 then typed ``Acted`` (its ``act``, ``index`` and ``value`` instead of the German
``what``), which re-recorded ``GAMES`` of the feuergefecht games (the duels act without
one); ``MERSENNE`` is compared over the events with ``Acted`` written as before
(:func:`cwenv.rulesets.cw_record.events_hash` ``acted_untyped``, as a replay of an old
record does), so nothing but that event's fields changed.
"""

from __future__ import annotations

import hashlib

import pytest

from cwenv.rules.dice import LEGACY_STREAM, dice_stream
from cwenv.rulesets.cw_record import events_hash
from cwenv.runner.task import load_game, play_combat, record_of
from tests.golden.legacy import legacy_events_hash

GAMES = {
    # (scenario, rules, agent, games): digest of the events hashes of seeds 1..games
    ("duell", None, "greedy", 20): "5392dbfdc260ac15928b857075324c50",
    ("feuergefecht", None, "greedy", 20): "52aa3fd64873cfaec888110f32b05a7f",
    ("strassenschlacht", None, "greedy", 20): "3af6534fd5dc80b4fc9fdf3a899aab4c",
    ("feuergefecht", "passes", "greedy", 10): "d529940d14ae3a6631df5fb713c2c5e6",
    ("duell", None, "taktiker", 6): "21f76b2478ad63165ae7457698322e29",
    ("feuergefecht", None, "taktiker", 3): "f607af90168655cd0aac709543c4df45",
}
MERSENNE = {
    # the same games' digests under the legacy stream (before issue #16)
    ("duell", None, "greedy", 20): "d1ccbe950ecf0cf55bae566697f2cdc3",
    ("feuergefecht", None, "greedy", 20): "aee3672d559bdf497015daff593894e2",
    ("strassenschlacht", None, "greedy", 20): "a9e36712e2c9f5eacc90104f560c02d8",
    ("feuergefecht", "passes", "greedy", 10): "0df8415a09f7715908d564298f68c7fe",
    ("duell", None, "taktiker", 6): "e97a5db889d62fa0546370d63d712a10",
    ("feuergefecht", None, "taktiker", 3): "b9066e6364e037c7a1e1d5ef0b8b9c94",
}
LEGACY = {
    # the same games' digests before issue #14 item 2, over the events written the old way
    ("duell", None, "greedy", 20): "b782e6276c7e614d7e5068ad630633cc",
    ("feuergefecht", None, "greedy", 20): "8085f6c61a218d4f131d47d8c95bbc24",
    ("strassenschlacht", None, "greedy", 20): "a9e36712e2c9f5eacc90104f560c02d8",
    ("feuergefecht", "passes", "greedy", 10): "b11c0889ed699376059469b3cd5a6c44",
    ("duell", None, "taktiker", 6): "60cc7de60303e097a5f6c0e8c5c28b34",
    ("feuergefecht", None, "taktiker", 3): "ced66acf126dc79b8656eca07f322042",
}
ENV = {
    # (scenario, steps): digest of every observation array and mask of a random-masked run
    # (encoding 2, issue #14: padded capacities)
    ("feuergefecht", 300): "2400dbf54e85e57e10b15099b257dabf",
}
ENV_MERSENNE = {
    # the same run under the legacy stream (before #16); with the padding taken out it is
    # encoding 1's a4e99ea5bf553fa232ef5ddecd9466c8, see tests/test_encoding_fingerprint.py
    ("feuergefecht", 300): "defead45fa39fcd44b3d30532abb75f6",
}


def digests(scenario: str, rules: str | None, agent: str, games: int) -> tuple[str, str, str]:
    """The digest of the games' events hashes, the same with ``Acted`` written untyped, and
    the same over the event reprs of before issue #14 item 2."""
    game = load_game(scenario, rules)
    h, untyped, old = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    for seed in range(1, games + 1):
        combat = play_combat(game, agent, agent, seed)
        h.update(record_of(combat).events_hash.encode())
        untyped.update(events_hash(combat.events, acted_untyped=True).encode())
        old.update(legacy_events_hash(combat.events).encode())
    return h.hexdigest()[:32], untyped.hexdigest()[:32], old.hexdigest()[:32]


def games_digest(scenario: str, rules: str | None, agent: str, games: int) -> str:
    return digests(scenario, rules, agent, games)[0]


def env_digest(scenario: str, steps: int) -> str:
    import numpy as np

    from cwenv.envs.kampfrunde import KampfrundeEnv

    env = KampfrundeEnv(scenario=scenario, opponent="greedy")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    h = hashlib.sha256()
    for _ in range(steps):
        mask = env.action_masks()
        for key in sorted(obs):
            h.update(np.ascontiguousarray(obs[key]).tobytes())
        h.update(mask.tobytes())
        obs, reward, term, trunc, _ = env.step(rng.choice(np.flatnonzero(mask)))
        h.update(np.float64(reward).tobytes())
        if term or trunc:
            obs, _ = env.reset()
    return h.hexdigest()[:32]


@pytest.mark.parametrize("key", list(GAMES), ids=lambda k: "-".join(map(str, k)))
def test_seeded_games_replay_identically(key: tuple[str, str | None, str, int]) -> None:
    assert games_digest(*key) == GAMES[key]


@pytest.mark.parametrize("key", list(GAMES), ids=lambda k: "-".join(map(str, k)))
def test_the_legacy_stream_replays_the_games_recorded_before_it(
    key: tuple[str, str | None, str, int],
) -> None:
    with dice_stream(LEGACY_STREAM):
        assert digests(*key)[1:] == (MERSENNE[key], LEGACY[key])


@pytest.mark.parametrize("key", list(ENV), ids=lambda k: "-".join(map(str, k)))
def test_env_observations_replay_identically(key: tuple[str, int]) -> None:
    assert env_digest(*key) == ENV[key]
    with dice_stream(LEGACY_STREAM):
        assert env_digest(*key) == ENV_MERSENNE[key]


def test_fighter_copy_covers_every_slot() -> None:
    """FighterState.copy is written out slot by slot for speed; none may be forgotten."""
    from cwenv.engine.fighter import FighterState

    combat = load_game("feuergefecht", None).new_combat(1)
    fighter = combat.fighters[0]
    for name in FighterState.__slots__:  # a distinct marker in every slot
        setattr(fighter, name, [name])
    twin = fighter.copy()
    for name in FighterState.__slots__:
        assert getattr(twin, name) == [name], name


def test_clone_keeps_dice_and_play_identical() -> None:
    game = load_game("feuergefecht", None)
    first = game.new_combat(3)
    for _ in range(40):
        first.apply(first.legal_actions()[-1])
    twin = first.clone()
    for _ in range(200):
        if first.is_terminal():
            break
        first.apply(first.legal_actions()[0])
        twin.apply(twin.legal_actions()[0])
    assert [repr(e) for e in first.events] == [repr(e) for e in twin.events]


if __name__ == "__main__":  # print the digests (to update after an intended rule change)
    for k in GAMES:
        print(k, games_digest(*k))
    for e in ENV:
        print(e, env_digest(*e))
