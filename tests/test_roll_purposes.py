"""Table dice say what each W10 is for (issue #20, the terminal game, last bullet): whose
roll, which die of how many, and what it decides — never a frame class or a bare index."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pexpect

import cwenv
from cwenv.content import load_scenario
from cwenv.engine.actions import ActionKind
from cwenv.engine.frames import Frame
from cwenv.engine.roll_purposes import (
    NEVER_ROLLS,
    ROLL_PURPOSES,
    RollKind,
    RollPurpose,
    next_die,
    unnamed_frames,
)
from cwenv.play.roll_text import roll_text
from cwenv.rules.dice import SeededDice

ROOT = os.pathsep.join([str(Path(cwenv.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class _Watching:
    """Seeded dice that ask the combat, before every W10, what it is for."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededDice(seed)
        self.combat = None
        self.current: RollPurpose | None = None
        self.seen: list[RollPurpose] = []

    def attach(self, combat) -> None:  # type: ignore[no-untyped-def]
        self.combat = combat

    def d10(self) -> int:
        purpose = self.combat.resolving()  # type: ignore[attr-defined]
        assert purpose is not None
        self.current = next_die(self.current, purpose)
        self.seen.append(self.current)
        return self.inner.d10()

    def clone(self) -> SeededDice:
        return self.inner.clone()


def test_every_frame_class_is_classified() -> None:
    assert unnamed_frames() == []
    assert not set(ROLL_PURPOSES) & NEVER_ROLLS


def test_a_new_frame_without_an_entry_is_named(tmp_path: Path) -> None:
    class NewFrame(Frame):
        pass

    assert "NewFrame" in unnamed_frames()
    del NewFrame


def test_next_die_counts_the_dice_of_one_roll() -> None:
    damage = RollPurpose(RollKind.DAMAGE, 0, 3, target=1, qs=3, label="Katana")
    first = next_die(None, damage)
    second = next_die(first, damage)
    third = next_die(second, damage)
    again = next_die(third, damage)
    assert [p.index for p in (first, second, third, again)] == [0, 1, 2, 0]
    names = ["Akame", "Kenji"]
    assert roll_text(second, names) == "Schaden Akame → Kenji (Katana, QS 3): W10 2 von 3"


def test_seeded_games_name_every_die() -> None:
    """Every die of whole games on shipped scenarios has a purpose whose count is the
    number of dice that roll takes (each roll's dice come as 1..count)."""
    kinds: set[RollKind] = set()
    for name in ("feuergefecht", "duell", "boss", "dach", "hinterhalt", "tiefgarage"):
        game = load_scenario(name)
        for seed in range(6):
            dice = _Watching(seed)
            combat = game.new_combat(dice=dice)  # type: ignore[arg-type]
            rng = random.Random(seed)
            while not combat.is_terminal():
                combat.apply(rng.choice(combat.legal_actions()))
            for p in dice.seen:
                assert 0 <= p.index < p.count
                text = roll_text(p, game.names)
                assert "Frame" not in text and "?" not in text, text
            kinds |= {p.kind for p in dice.seen}
    assert {RollKind.INITIATIVE, RollKind.CHECK, RollKind.DAMAGE} <= kinds


def test_a_feuergefecht_refereed_from_typed_dice(tmp_path: Path) -> None:
    """A whole table-dice game in a real pty: every prompt names the fighter, the die of
    how many and what it is for; damage is asked after the hit is told with its QS."""
    child = pexpect.spawn(
        f"{sys.executable} -m cwenv.cli.main play feuergefecht --dice table "
        "--runners greedy --nscs greedy --no-autosave",
        encoding="utf-8",
        timeout=90,
        dimensions=(60, 220),
        cwd=str(tmp_path),
        env={**os.environ, "COLUMNS": "220", "LINES": "60", "PYTHONPATH": ROOT},
    )
    names = load_scenario("feuergefecht").names
    rng = random.Random(7)
    prompts: list[tuple[str, str]] = []
    while child.expect([r"([^\n>]*) > ", pexpect.EOF]) == 0:
        line = ANSI.sub("", child.match.group(1)).strip()
        prompts.append((ANSI.sub("", child.before or ""), line))
        child.sendline(str(rng.randint(1, 10)))
        assert len(prompts) < 3000
    assert len(prompts) > 20, child.before
    damage = 0
    told = ""
    for before, line in prompts:
        told += before
        assert "Frame" not in line and not re.search(r"\bvon \d+ auf \d+\b", line), line
        match = re.search(r"(.*): W10 (\d+) von (\d+)$", line)
        assert match, line
        assert any(n in match.group(1) for n in names), line
        assert 1 <= int(match.group(2)) <= int(match.group(3))
        if line.startswith("Schaden") and match.group(2) == "1" and "QS" in line:
            damage += 1
            qs = re.search(r"→ (.*) \(.*QS (\d+)\)", line)
            assert qs is not None
            hits = re.findall(r"Treffer(?: \(abgeschwächt\))? gegen (.*): QS (\d+)", told)
            assert hits and hits[-1] == (qs.group(1), qs.group(2)), (told[-300:], line)
    assert damage > 0
    assert prompts[0][1].startswith("Initiative ")


def test_a_two_dice_medkit_asks_for_two_healing_dice() -> None:
    """H04: the Veteran's Medkit heals 2W10, so the table asks for die 1 and 2 of 2 (the
    purpose read the item's dice off the Acted event's German text once, and said 1)."""
    game = load_scenario("dach")
    veteran = next(i for i, f in enumerate(game.roster) if f.items and f.items[0].amount == 2)
    dice = _Watching(3)
    combat = game.new_combat(dice=dice)  # type: ignore[arg-type]
    rng = random.Random(3)
    while not combat.is_terminal():
        legal = combat.legal_actions()
        use = [a for a in legal if a.kind is ActionKind.USE_ITEM and a.actor == veteran]
        if use:
            before = len(dice.seen)
            combat.apply(use[0])
            healing = [p for p in dice.seen[before:] if p.kind is RollKind.HEALING]
            assert [(p.index, p.count, p.fighter) for p in healing] == [
                (0, 2, veteran),
                (1, 2, veteran),
            ]
            return
        combat.apply(rng.choice(legal))
    raise AssertionError("the Veteran never had the Medkit to use")
