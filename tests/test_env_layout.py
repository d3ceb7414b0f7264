"""The action layout: every legal engine action has exactly one index and back (issue #4)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from cwenv.content import list_scenarios, load_scenario
from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.game import Game
from cwenv.envs.errors import EncodingError, InvalidActionError, LimitError
from cwenv.envs.game_encoder import Session
from cwenv.envs.layout import (
    DEFAULT_MOVE_RADIUS,
    ENEMY_SLOT0,
    ActionLayout,
    Slots,
    max_turn_displacement,
)
from tests.zoo import ALL_GAMES, VARIANTS

SEEN: Counter[ActionKind] = Counter()


def _games() -> list[tuple[str, Game]]:
    out = [(name, load_scenario(name)) for name in list_scenarios()]
    for name in sorted(ALL_GAMES):
        for variant in sorted(VARIANTS):
            out.append((f"zoo:{name}:{variant}", ALL_GAMES[name](VARIANTS[variant])))
    return out


GAMES = _games()


def _check_roundtrip(session: Session, seed: int, max_decisions: int) -> int:
    c = session.game.new_combat(seed)
    rng = random.Random(seed)
    decisions = 0
    while not c.is_terminal() and decisions < max_decisions:
        enc = session.encode(c)  # raises on a collision or an action that does not fit
        d = c.decision
        assert d is not None
        assert len(enc.legal) == int(enc.mask.sum()) == len(set(enc.indices.tolist()))
        for action, index in zip(enc.legal, enc.indices.tolist(), strict=True):
            assert action.actor == d.fighter
            assert session.decode(enc, index) == action
            assert session.layout.describe(index).startswith(action.kind.name)
            SEEN[action.kind] += 1
        c.apply(enc.legal[rng.randrange(len(enc.legal))])
        decisions += 1
    return decisions


@pytest.mark.parametrize(("name", "game"), GAMES, ids=[n for n, _ in GAMES])
def test_every_legal_action_maps_to_a_distinct_index_and_back(name: str, game: Game) -> None:
    session = Session(game)
    total = sum(_check_roundtrip(session, seed, 400) for seed in range(2))
    assert total > 20


def test_many_action_kinds_are_exercised() -> None:
    if not SEEN:
        pytest.skip("runs after the round-trip tests")
    must = {
        ActionKind.END_TURN, ActionKind.MOVE, ActionKind.ATTACK, ActionKind.DEFEND,
        ActionKind.NO_DEFENCE, ActionKind.MANEUVER, ActionKind.ZIELEN, ActionKind.RELOAD,
        ActionKind.DRAW, ActionKind.PRE_NONE, ActionKind.POST_ACCEPT, ActionKind.SPRINT,
    }  # fmt: skip
    assert must <= set(SEEN), sorted(k.name for k in must - set(SEEN))


def test_slots_match_allies_then_enemies() -> None:
    game = load_scenario("korridor")  # Runner, Gegner and neutrals
    slots = Slots(game)
    for d in range(len(game.roster)):
        assert slots.fighter_at(d, 0) == d
        for k, i in enumerate(slots.allies[d]):
            assert slots.slot_of[d][i] == 1 + k == slots.slot_of[d][i]
            assert game.roster[i].side is game.roster[d].side
        for k, i in enumerate(slots.enemies[d]):
            assert slots.slot_of[d][i] == ENEMY_SLOT0 + k
            assert slots.fighter_at(d, ENEMY_SLOT0 + k) == i
        assert slots.fighter_at(d, ENEMY_SLOT0 + len(slots.enemies[d])) == -1


def test_a_move_outside_the_window_fails_loudly() -> None:
    layout = ActionLayout(move_radius=2)
    xs, ys = [0, 1, 2, 3, 4], [0, 0, 0, 0, 0]
    near = Action(ActionKind.MOVE, 0, cell=2)
    far = Action(ActionKind.MOVE, 0, cell=4)
    assert layout.encode_all([near], 0, 0, xs, ys, [0]).tolist() == [5 + 2 * 5 + 4]
    with pytest.raises(EncodingError, match="move_radius=2 is too small"):
        layout.encode_all([near, far], 0, 0, xs, ys, [0])


def test_index_beyond_its_slots_fails_loudly() -> None:
    layout = ActionLayout()
    with pytest.raises(EncodingError, match="exceeds 8 slots"):
        layout.encode_all([Action(ActionKind.DRAW, 0, arg=8)], 0, 0, [0], [0], [0])
    with pytest.raises(EncodingError, match="names no target"):
        layout.encode_all([Action(ActionKind.ZIELEN, 0)], 0, 0, [0], [0], [0])


def test_the_window_is_sized_from_the_maximum_movement() -> None:
    for _name, game in GAMES:
        assert max_turn_displacement(game) <= DEFAULT_MOVE_RADIUS
    with pytest.raises(LimitError, match="pass move_radius >= 19"):
        Session("feuergefecht", move_radius=10)


def test_decode_refuses_masked_indices() -> None:
    session = Session("duell")
    enc = session.encode(session.game.new_combat(0))
    masked = int(np.flatnonzero(~enc.mask)[0])
    with pytest.raises(InvalidActionError, match="not legal"):
        session.decode(enc, masked)
    with pytest.raises(InvalidActionError):
        session.decode(enc, session.layout.size)
    assert issubclass(InvalidActionError, ValueError)


def test_layout_table_covers_the_index_space() -> None:
    layout = ActionLayout()
    rows = layout.table()
    assert rows[0][0] == 0 and rows[-1][1] == layout.size - 1 == 6323
    for (_, end, _, _), (start, _, _, _) in itertools.pairwise(rows):
        assert start == end + 1
    assert {r[2] for r in rows} == {k.name for k in ActionKind} | {"RESERVED"}


def test_rare_prompt_answers_have_their_own_indices() -> None:
    """Kinds random play rarely reaches still encode to distinct, named indices."""
    layout = ActionLayout()
    acts = [
        Action(ActionKind.CATCH_FALL, 0, mumm=0),
        Action(ActionKind.CATCH_FALL, 0, mumm=1),
        Action(ActionKind.NO_CATCH, 0),
        Action(ActionKind.MUMM_PROBE, 0),
        Action(ActionKind.PRE_ACTIONBONUS, 0),
        Action(ActionKind.DEFEND, 0, 1, arg=13, mumm=1),
        Action(ActionKind.DOOR, 0, cell=0),
    ]
    idx = layout.encode_all(acts, 1, 1, [0, 1], [0, 1], [0, 1]).tolist()
    assert len(set(idx)) == len(acts)
    names = [layout.describe(i) for i in idx]
    assert names[:2] == ["CATCH_FALL mumm=0", "CATCH_FALL mumm=1"]
    assert names[5] == "DEFEND index=13 mumm=1"
    assert names[6] == "DOOR dx=-1 dy=-1"


def test_docs_table_matches_the_layout() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "env.md").read_text(encoding="utf-8")
    layout = ActionLayout()
    assert f"`Discrete({layout.size})`" in doc
    for start, end, kind, _ in layout.table():
        assert kind in doc, kind
        if end - start > 1:  # multi-index sections have their own row
            assert f"| {start}–{end} | {kind} |" in doc, kind
