"""Regenerate docs/play-screenshot.svg: a recorded `cwenv play` session (rich SVG export).

The Runners play as the advisor (greedy) proposes until Mara can shoot; the picture shows
that decision as `cwenv play feuergefecht --seed 4 --hint` draws it (the map with her
reachable cells and targets, the status, the menu with its odds, the hint, the Enter
choice) and the quick attack `a 1` that follows.

Run: python docs/make_play_screenshot.py
"""

from __future__ import annotations

import random
from pathlib import Path

from rich.console import Console

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.content import load_scenario
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.play.assist import Assistant
from cwenv.play.table_game import PlaySession, SavedGame
from cwenv.play.tui import TerminalGame

OUT = Path(__file__).resolve().parent / "play-screenshot.svg"
SEED = 4


def main() -> None:
    console = Console(record=True, width=150, force_terminal=True)
    saved = SavedGame(scenario="feuergefecht", seed=SEED, runners="human", nscs="greedy")
    session = PlaySession(load_scenario("feuergefecht"), saved)
    hand = make_agent("greedy")

    def can_shoot() -> bool:
        c = session.combat
        d = c.decision
        return (
            session.human_to_move()
            and d is not None
            and d.kind is DecisionKind.TURN
            and any(a.kind is ActionKind.ATTACK for a in c.legal_actions())
        )

    while not can_shoot():  # off the record: the Runners play as the advisor would
        c = session.combat
        if session.human_to_move():
            session.human_step(hand.act(DecisionView(c), c.legal_actions(), random.Random(0)))
        else:
            session.agent_step()
    answers = iter(["a 1"])

    def read(prompt: str) -> str:
        answer = next(answers, "")
        console.print(f"{prompt}{answer}", markup=False, highlight=False)
        return answer

    game = TerminalGame(session, console, read, assistant=Assistant(hand, SEED), hint=True)
    game.shown = len(session.combat.events) - 3  # the last lines of narration before it
    game.step()
    while game.quick is not None and not session.combat.is_terminal():
        game.step()  # the attack's own Mumm prompts are answered by `a 1`
    while not session.combat.is_terminal() and not session.human_to_move():
        session.agent_step()
    game.narrate_new()
    console.save_svg(str(OUT), title=f"cwenv play feuergefecht --seed {SEED} --hint")


if __name__ == "__main__":
    main()
