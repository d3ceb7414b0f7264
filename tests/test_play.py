"""cwenv play (issue #8): a terminal game with undo and save/load, and table-dice mode."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine.narration import narrate_all
from cwenv.model.types import Side
from cwenv.play.table_game import DiceMode, PlaySession, SavedGame, load_saved
from cwenv.play.tui import TerminalGame
from cwenv.rules.dice import ScriptedDice
from cwenv.yamlio import ConfigError

CWENV = shutil.which("cwenv") or f"{sys.executable} -m cwenv.cli.main"


def scripted_read(lines: list[str]):  # type: ignore[no-untyped-def]
    queue = list(lines)

    def read(prompt: str) -> str:
        return queue.pop(0) if queue else "1"

    return read


def test_play_through_a_pty_with_undo_and_save_load(tmp_path: Path) -> None:
    """Drive `cwenv play` like a player: choose, undo, save, quit; load and finish."""
    save = tmp_path / "partie.yaml"
    child = pexpect.spawn(
        f"{CWENV} play duell --nscs greedy --seed 3",
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
        cwd=str(tmp_path),  # the autosave lands there, not in the checkout
    )
    child.expect("Kenji — ")
    child.expect("> ")
    child.sendline("1")  # the first choice (defend, or attack on Kenji's turn)
    child.expect("> ")
    child.sendline("u")  # take it back
    child.expect("zurückgenommen")
    child.expect("> ")
    child.sendline("1")
    child.expect("> ")
    child.sendline(f"s {save}")
    child.expect("Gespeichert")
    child.expect("> ")
    child.sendline("q")
    child.expect("beenden")
    child.sendline("j")
    child.expect(pexpect.EOF)
    assert save.exists() and "scenario: duell" in save.read_text(encoding="utf-8")

    child = pexpect.spawn(
        f"{CWENV} play --load {save}",
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 200),
        cwd=str(tmp_path),
    )
    transcript = ""
    while True:
        i = child.expect(["> ", "ERGEBNIS: .*", pexpect.EOF])
        transcript += child.before or ""
        if i == 0:
            child.sendline("1")
        else:
            if i == 1:
                transcript += child.after
            break
    assert "greift" in transcript and "ERGEBNIS:" in transcript

    # The same game played in-process from the saved file ends the same way.
    saved = load_saved(save)
    session = PlaySession(load_scenario("duell"), saved)
    console = Console(record=True, width=200)
    TerminalGame(session, console, scripted_read([])).run()
    expected = console.export_text().strip().splitlines()[-1]
    assert expected in transcript


def _auto_session(dice: DiceMode, typed: list[int] | None = None) -> PlaySession:
    saved = SavedGame(scenario="duell", seed=11, runners="greedy", nscs="greedy", dice=dice)
    queue = list(typed or [])
    return PlaySession(load_scenario("duell"), saved, ask_die=lambda: queue.pop(0))


def test_table_dice_mode_equals_the_engine_with_scripted_dice() -> None:
    """Table-dice mode: every W10 is typed; the result equals a scripted-dice engine run."""
    rng = random.Random(99)
    dice = [rng.randint(1, 10) for _ in range(4000)]
    session = _auto_session(DiceMode.TABLE, dice)
    while not session.combat.is_terminal():
        session.agent_step()
    # The engine alone, same dice, same agents, same per-decision agent generators.
    game = load_scenario("duell")
    c = game.new_combat(dice=ScriptedDice(dice))
    agents = {Side.RUNNER: make_agent("greedy"), Side.GEGNER: make_agent("greedy")}
    while not c.is_terminal():
        side = c.fighters[c.current_fighter()].side
        agent_rng = random.Random(11 * 1_000_003 + len(c.history))
        c.apply(agents[side].act(DecisionView(c), c.legal_actions(), agent_rng))
    assert c.outcome == session.combat.outcome
    assert narrate_all(c.events, game.names) == narrate_all(session.combat.events, game.names)


def test_table_dice_survive_undo_and_save(tmp_path: Path) -> None:
    """Undo keeps the dice typed before the undone decision; a save carries them."""
    saved = SavedGame(scenario="duell", seed=1, runners="human", nscs="greedy", dice=DiceMode.TABLE)
    typed = iter([5] * 500)
    session = PlaySession(load_scenario("duell"), saved, ask_die=lambda: next(typed))
    while not session.human_to_move():
        session.agent_step()
    first = session.combat.legal_actions()[0]
    before = len(session.combat.events)
    session.human_step(first)
    assert session.undo()
    assert len(session.combat.events) == before
    session.save(tmp_path / "t.yaml")
    again = PlaySession(load_scenario("duell"), load_saved(tmp_path / "t.yaml"), ask_die=None)
    assert again.combat.events == session.combat.events


def test_a_tampered_save_is_rejected_with_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "cwenv_save: 1\nscenario: duell\nseed: 1\nrunners: human\nnscs: greedy\n"
        "actions:\n  - {kind: TELEPORT, actor: 0}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"bad.yaml:7: actions\.0\.kind"):
        load_saved(path)
    path.write_text(
        "cwenv_save: 1\nscenario: duell\nseed: 1\nrunners: human\nnscs: greedy\n"
        "actions:\n  - {kind: ATTACK, actor: 0, target: 1, index: 0}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="not legal when replayed"):
        PlaySession(load_scenario("duell"), load_saved(path))
