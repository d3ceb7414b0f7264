"""Turn state on the turn's frame, named stages, one victory module (issue #14 item 4).

``turn_actions`` used to write the turn's movement searches and its legal list onto the
combat (``c.routes``, ``c.hard_routes``, ``c.turn_legal``) for execution to read back;
frame stages were bare integers (the attack's jumped 5 → 7, the Patzer table tested
``mode in (0, 3)``); victory was decided in ``state.py``, ``roundflow.py`` and
``movement.py``. Now the turn frame holds its state, every frame names its stages with an
``IntEnum`` and ``cwenv/engine/victory.py`` holds every victory kind as a table entry.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from cwenv.battlemap.grid import BattleMap
from cwenv.content import load_scenario
from cwenv.engine import effects
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.engine.game import Game, Victory, VictoryKind
from cwenv.engine.state import Combat
from cwenv.engine.tables import RuleTableError, rule_table
from cwenv.engine.turn import TurnFrame
from cwenv.engine.victory import (
    ROUND_LIMIT_REASON,
    VICTORIES,
    VictoryRule,
    decide_after_change,
    decide_at_round_end,
)
from cwenv.model.types import AttackMode, Cell, Condition, Side
from tests.helpers import PISTOL, fighter, find, init_dice, make_game, scripted

ENGINE = Path(effects.__file__).resolve().parent


def _turn_combat(seed: int = 3) -> Combat:
    c = load_scenario("feuergefecht").new_combat(seed)
    while c.decision is not None and c.decision.kind is not DecisionKind.TURN:
        c.apply(c.legal_actions()[-1])
    return c


# -- turn state ------------------------------------------------------------------------------
def test_the_combat_holds_no_turn_state() -> None:
    c = _turn_combat()
    c.legal_actions()
    for name in ("routes", "hard_routes", "turn_legal"):
        assert not hasattr(c, name), name
    turn = c.turn_frame()
    assert isinstance(turn, TurnFrame) and turn.legal is c.legal_actions()
    moves = [a for a in c.legal_actions() if a.kind is ActionKind.MOVE]
    assert moves and all(a.cell in turn.routes for a in moves)


def test_a_clone_moves_by_its_own_turn_search() -> None:
    """The twin's turn frame is its own: moving the twin leaves the original's search and
    legal list as they were, and the same move plays the same in both."""
    c = _turn_combat()
    legal = list(c.legal_actions())
    turn = c.turn_frame()
    assert turn is not None
    routes = turn.routes
    move = next(a for a in legal if a.kind is ActionKind.MOVE)
    twin = c.clone()
    twin.apply(move)
    assert c.turn_frame() is turn and turn.routes is routes and c.legal_actions() == legal
    c.apply(move)
    assert [repr(e) for e in c.events] == [repr(e) for e in twin.events]
    assert c.legal_actions() == twin.legal_actions()


def test_editing_a_fighter_refreshes_the_turns_legal_list() -> None:
    """refresh_legal() forgets the list the turn frame cached (a GM's edit, a test): laid
    prone, the fighter has no metres left to walk (X40)."""
    c = _turn_combat()
    me = c.fighters[c.current_fighter()]
    assert any(a.kind is ActionKind.MOVE for a in c.legal_actions())
    me.conditions |= 1 << Condition.NIEDERGEWORFEN
    turn = c.turn_frame()
    assert turn is not None and turn.legal is not None
    c.refresh_legal()
    assert turn.legal is None
    assert not any(a.kind is ActionKind.MOVE for a in c.legal_actions())


# -- named stages ----------------------------------------------------------------------------
def _bare_stage_uses(source: str) -> list[int]:
    """Lines that set or compare a frame's stage (or an end-of-round phase) to an int."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        values: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, values = node.targets, [node.value]
        elif isinstance(node, ast.Compare):
            targets, values = [node.left], node.comparators
        bare = any(isinstance(v, ast.Constant) and isinstance(v.value, int) for v in values)
        if bare and any(
            isinstance(t, ast.Attribute) and t.attr in ("stage", "phase") for t in targets
        ):
            found.append(node.lineno)
    return found


def test_frames_name_their_stages() -> None:
    bare = {}
    for path in sorted(ENGINE.rglob("*.py")):
        lines = _bare_stage_uses(path.read_text(encoding="utf-8"))
        if path.name == "frames.py":  # Frame.__init__: stage 0, each enum's first member
            lines = lines[1:]
        if lines:
            bare[path.name] = lines
    assert bare == {}


def test_the_checker_finds_bare_stages() -> None:
    assert _bare_stage_uses("if self.stage == 7:\n    self.stage = 5\n") == [1, 2]
    assert _bare_stage_uses("self.stage = _ROLL\nif self.phase == _DONE: pass\n") == []


def test_the_patzer_table_takes_the_attack_mode() -> None:
    """A08 Waffe blockiert jams weapons only: it reads the AttackMode, not 0 and 3."""
    params = inspect.signature(effects.patzer_effects).parameters
    assert params["mode"].annotation in (AttackMode, "AttackMode")
    assert {m for m in AttackMode if m.with_weapon} == {AttackMode.WEAPON, AttackMode.BLOCKADE}


# -- one victory module ----------------------------------------------------------------------
def test_every_victory_kind_is_one_entry() -> None:
    assert set(VICTORIES) == set(VictoryKind)
    assert [k for k, rule in VICTORIES.items() if rule.always] == [VictoryKind.ELIMINATE]
    with pytest.raises(RuleTableError, match="no entry for PROTECT_VIP"):
        rule_table(
            VictoryKind,
            [VICTORIES[k] for k in VictoryKind if k is not VictoryKind.PROTECT_VIP],
            key=lambda r: r.kind,
            where="test",
        )
    assert isinstance(VICTORIES[VictoryKind.SURVIVE], VictoryRule)


def test_victory_is_decided_in_one_module() -> None:
    """No engine module but victory.py (and game.py, which declares the kinds) names a
    victory kind or a victory's reason."""
    named = {}
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name in ("victory.py", "game.py"):
            continue
        text = path.read_text(encoding="utf-8")
        hits = [
            word
            for word in ("VictoryKind", "Ausgang erreicht", "überstanden", "ausgeschaltet")
            if word in text
        ]
        if hits:
            named[path.name] = hits
    assert named == {}


def _duel(victory: tuple[Victory, ...], round_limit: int | None = None) -> Combat:
    game = make_game(
        [
            (fighter("Kira", fernkampf=14, weapons=(PISTOL,)), (0, 2)),
            (fighter("Vip", lp=5), (1, 2)),
            (fighter("Wache", Side.GEGNER, lp=5, weapons=(PISTOL,)), (6, 2)),
        ],
        victory=victory,
    )
    if round_limit is not None:
        from dataclasses import replace

        game = replace(game, round_limit=round_limit)
    return scripted(game, [*init_dice(game, 5), *[5] * 200])


def test_the_victory_rules() -> None:
    c = _duel((Victory(VictoryKind.PROTECT_VIP, Side.RUNNER, vip=1),))
    assert decide_after_change(c) is None
    c.fighters[1].down = True
    assert decide_after_change(c) == (Side.GEGNER, "Vip ist gefallen")
    c.fighters[2].down = True  # the listed condition is checked before elimination
    assert decide_after_change(c) == (Side.GEGNER, "Vip ist gefallen")
    c = _duel((Victory(VictoryKind.ELIMINATE),))
    c.fighters[2].down = True
    assert decide_after_change(c) == (Side.RUNNER, "alle Gegner ausgeschaltet")
    c = _duel((Victory(VictoryKind.SURVIVE, Side.RUNNER, rounds=2),), round_limit=2)
    c.round = 1
    assert decide_at_round_end(c) is None
    c.round = 2  # survived: the side wins before the round limit ends it undecided
    assert decide_at_round_end(c) == (Side.RUNNER, "2 Runden überstanden")
    c = _duel((Victory(VictoryKind.ELIMINATE),), round_limit=2)
    c.round = 2
    assert decide_at_round_end(c) == (None, ROUND_LIMIT_REASON)


def test_reaching_the_exit_leaves_the_map_and_wins() -> None:
    bm = BattleMap.from_rows(["." * 10] * 5, exits=[Cell(3, 2)])
    game = Game(
        bm,
        (fighter("Kira"), fighter("Wache", Side.GEGNER)),
        (bm.index(0, 2), bm.index(9, 0)),
        victory=(Victory(VictoryKind.REACH_EXIT, Side.RUNNER, count=1),),
    )
    c = scripted(game, [*init_dice(game, 5), *[5] * 50])
    c.apply(find(c, ActionKind.MOVE, cell=bm.index(3, 2)))
    assert c.fighters[0].fled and c.outcome is not None
    assert (c.outcome.winner, c.outcome.reason) == (Side.RUNNER, "Ausgang erreicht")
