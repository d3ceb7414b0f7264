"""Regenerate docs/play-screenshot.svg: a recorded `cwenv play` session (rich SVG export).

Run: python docs/make_play_screenshot.py
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from cwenv.content import load_scenario
from cwenv.play.table_game import PlaySession, SavedGame
from cwenv.play.tui import TerminalGame, render_map, status_table

OUT = Path(__file__).resolve().parent / "play-screenshot.svg"


def main() -> None:
    console = Console(record=True, width=100, force_terminal=True)
    saved = SavedGame(scenario="feuergefecht", seed=4, runners="human", nscs="greedy")
    session = PlaySession(load_scenario("feuergefecht"), saved)
    answers = iter(["b 7 5", "1", "k"])
    game = TerminalGame(session, console, lambda prompt: next(answers, "q"))
    console.print(render_map(session.combat))
    console.print(status_table(session.combat))
    while not session.human_to_move():
        session.agent_step()
    for _ in range(2):
        game.narrate_new()
        console.print("> ", end="")
        game.human_decision()
        while not session.combat.is_terminal() and not session.human_to_move():
            session.agent_step()
    game.narrate_new()
    console.save_svg(str(OUT), title="cwenv play feuergefecht --nscs greedy --seed 4")


if __name__ == "__main__":
    main()
