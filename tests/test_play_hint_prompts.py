"""The advisor at a prompt in a real terminal (issue #20, the advisor and the terminal
game): with ``--hint`` a reaction prompt (Verteidigen or not) and a Mumm prompt show the
advisor's proposal with a reason built from engine facts, and Enter takes that proposal;
the game saved at the defence prompt is answered the same by ``cwenv advise``, also in a
terminal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pexpect

from tests.test_hardening_play import spawn
from tests.test_play_table import ANSI, play

DEFENCE = "— Verteidigung"
MUMM = "— Mumm vor der Probe"


def _tip(screen: str) -> tuple[str, str]:
    """The advisor's proposal (its menu label, then its value where the agent scores the
    choice) and its reason."""
    tip = re.search(r"^Tipp \(taktiker\): (.+)$", screen, re.M)
    why = re.search(r"^  Grund: (.+)$", screen, re.M)
    assert tip is not None and why is not None, screen
    return tip[1], why[1]


def _enter_took(tip: str, screen: str, after: str) -> bool:
    """Enter chose the proposal: the menu said Enter takes the advisor's number, and the
    choice echoed after Enter is that number with the tip's label."""
    number = re.search(r"Enter = (\d+) — Vorschlag des Beraters", screen)
    taken = re.search(r"^  → (\d+)\) (.+)$", after, re.M)
    if number is None or taken is None or taken[1] != number[1]:
        return False
    return re.fullmatch(re.escape(taken[2]) + r"( \(.+ -?\d+\.\d\d\))?", tip) is not None


def test_the_hint_answers_a_defence_and_a_mumm_prompt_and_enter_takes_it(
    tmp_path: Path,
) -> None:
    seen: dict[str, int] = {}  # prompt → the index of its (first) screen
    state: dict[str, int] = {}

    def answer(screen: str) -> str | None:
        n = state["n"] = state.get("n", 0) + 1
        if len(seen) == 2 and n > max(seen.values()) + 1:
            return None  # the screen after Enter at the last of them is there
        if DEFENCE in screen and DEFENCE not in seen and "saved" not in state:
            state["saved"] = n
            return "s reaktion.yaml"  # the same prompt is asked again after the save
        for prompt in (DEFENCE, MUMM):
            if prompt in screen or (prompt == DEFENCE and n == state.get("saved", -1) + 1):
                seen.setdefault(prompt, n - 1)
        return ""  # Enter, at every decision

    screens = play(
        "feuergefecht --nscs greedy --seed 4 --hint --advisor taktiker", tmp_path, answer, 400
    )
    assert set(seen) == {DEFENCE, MUMM}, "the game showed no defence or no Mumm prompt"

    at = seen[DEFENCE]
    assert "Gespeichert: reaktion.yaml" in screens[at]
    tip, why = _tip(screens[at - 1])  # the prompt's screen, before the save
    assert tip.startswith(("Verteidigen mit", "Nicht verteidigen"))
    # The reason is the engine's: the defence's chance against the roll, or the sure hit.
    assert re.search(r"wehrt den Wurf \d+ zu \d+ % ab|Treffer sicher mit QS \d", why), why
    assert "Reaktionen" in why
    assert _enter_took(tip, screens[at - 1] + screens[at], screens[at + 1])

    # The save, read by cwenv advise in a terminal: the same proposal and reason.
    child = spawn("advise reaktion.yaml --agent taktiker", tmp_path)
    child.expect(pexpect.EOF)
    advice = ANSI.sub("", child.before or "").replace("\r", "")
    assert f"(Verteidigung): empfohlen → {tip}" in advice, advice
    assert f"Grund: {why}" in advice, advice

    at = seen[MUMM]
    tip, why = _tip(screens[at])
    assert tip.startswith(("Kein Mumm", "Probe verbessern", "Den grossen Wurf", "Actionbonus"))
    assert re.search(r"(Treffer|Abwehr|Erfolg) \d+ %", why), why  # the roll's exact chance
    if tip.startswith("Kein Mumm"):
        assert re.search(r"Mumm \d+ bleibt für ", why), why  # what the Mumm is kept for
    else:
        assert re.search(r"kostet \d Mumm \(bleiben \d\)", why), why
    assert _enter_took(tip, screens[at], screens[at + 1])
