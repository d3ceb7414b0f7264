"""The narrated golden playthroughs in ``tests/golden/`` are what the engine plays today.

A failure shows the start of the diff; if the change of play is meant, regenerate with
``python -m tests.golden.playthrough`` and commit the files with the rule change.
"""

from __future__ import annotations

import difflib

import pytest

from cwenv.runner.task import load_game, play_combat
from tests.golden.playthrough import PLAYTHROUGHS, Playthrough, render


@pytest.mark.parametrize("p", PLAYTHROUGHS, ids=lambda p: p.file.stem)
def test_playthrough_matches_its_golden_file(p: Playthrough) -> None:
    assert p.file.is_file(), f"missing {p.file}: run python -m tests.golden.playthrough"
    want = p.file.read_text(encoding="utf-8").splitlines()
    got = render(p).splitlines()
    diff = list(difflib.unified_diff(want, got, "golden", "today", lineterm="", n=2))
    assert not diff, "\n".join(diff[:80])


@pytest.mark.parametrize("p", PLAYTHROUGHS, ids=lambda p: p.file.stem)
def test_the_transcript_is_the_game_the_runner_plays(p: Playthrough) -> None:
    """Labels and odds shown for every choice must not change the game."""
    combat = play_combat(load_game(p.scenario, p.rules), p.runners, p.nscs, p.seed)
    text = p.file.read_text(encoding="utf-8")
    decisions = sum(1 for line in text.splitlines() if line.startswith("["))
    assert decisions == len(combat.history)
    assert text.rstrip().endswith(f"{len(combat.history)} Entscheidungen")
    assert f"({combat.outcome.reason})" in text.splitlines()[-1] if combat.outcome else False
