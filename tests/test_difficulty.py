"""Difficulty levels (#20): ``BASE@LEVEL`` agents, their sampling and mistakes, and the
measured ladder of ``cwenv difficulty``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents.difficulty import (
    DifficultyAgent,
    DifficultyError,
    Level,
    difficulty_agent,
    draw,
    sampling_weights,
)
from agents.mistakes import Mistake, forget_cover
from cwenv.agent import Agent, DecisionView
from cwenv.agent_registry import make_agent
from cwenv.cli.main import app
from cwenv.content import load_scenario
from cwenv.engine.actions import Action, ActionKind, DecisionKind, mumm_price
from cwenv.play.situation import load_situation

ROOT = Path(__file__).resolve().parents[1]


def _trace(spec: str | Agent, scenario: str, seed: int) -> list[Action]:
    """Every action of a seeded game with ``spec`` on both sides."""
    game = load_scenario(scenario)
    combat = game.new_combat(seed)
    agents = {side: make_agent(spec) if isinstance(spec, str) else spec for side in (0, 1)}
    rngs = {side: random.Random(seed * 2 + side) for side in (0, 1)}
    view, out = DecisionView(combat), []
    while not combat.is_terminal():
        side = int(combat.fighters[combat.current_fighter()].side)
        action = agents[side].act(view, combat.legal_actions(), rngs[side])
        out.append(action)
        combat.apply(action)
    return out


def test_same_seed_same_choices() -> None:
    assert _trace("taktiker@3", "duell", 5) == _trace("taktiker@3", "duell", 5)


def test_level_zero_is_the_plain_agent() -> None:
    assert _trace("taktiker@0", "duell", 3) == _trace("taktiker", "duell", 3)
    assert _trace("taktiker@0", "duell", 3) != _trace("taktiker@3", "duell", 3)


def _values(n: int) -> dict[Action, float]:
    return {Action(ActionKind.MOVE, 0, cell=i): float(i) for i in range(n)}


def test_infinite_temperature_draws_uniformly_among_the_top_k() -> None:
    """T = ∞, k = 3 over five actions: the three best each 1/3, the others never
    (20 000 draws, seed 7: within 0.015 of the exact frequency, > 4 standard errors)."""
    values = _values(5)
    weights = sampling_weights(values, float("inf"), 3, log_of=False)
    rng = random.Random(7)
    counts = Counter(draw(weights, rng).cell for _ in range(20_000))
    assert set(counts) == {2, 3, 4}
    for cell in (2, 3, 4):
        assert abs(counts[cell] / 20_000 - 1 / 3) < 0.015


def test_temperature_follows_the_softmax_of_the_spread() -> None:
    """Values 0, 1, 2 (spread 2) at T = 0.5: weights exp(−2), exp(−1), 1."""
    import math

    weights = sampling_weights(_values(3), 0.5, None, log_of=False)
    total = 1 + math.exp(-1) + math.exp(-2)
    rng = random.Random(11)
    counts = Counter(draw(weights, rng).cell for _ in range(20_000))
    for cell, w in ((0, math.exp(-2)), (1, math.exp(-1)), (2, 1.0)):
        assert abs(counts[cell] / 20_000 - w / total) < 0.015


def test_probabilities_are_tempered_by_their_logarithm() -> None:
    """A policy's p = 0.8, 0.2 at T = 1 stay 0.8, 0.2; at T = 2 become 2/3, 1/3."""
    probs = {Action(ActionKind.MOVE, 0, cell=0): 0.8, Action(ActionKind.MOVE, 0, cell=1): 0.2}
    for t, want in ((1.0, 0.8), (2.0, 2 / 3)):
        w = sampling_weights(probs, t, None, log_of=True)
        assert abs(w[Action(ActionKind.MOVE, 0, cell=0)] / sum(w.values()) - want) < 1e-12


class _Recorder:
    """Plays ``agent`` and records, per decision, the plain base's choice beside it."""

    def __init__(self, agent: DifficultyAgent) -> None:
        self.agent, self.name = agent, agent.name
        self.made: list[tuple[DecisionView, Sequence[Action], Action, Action, list[Mistake]]] = []

    def act(self, view: DecisionView, legal: Sequence[Action], rng: random.Random) -> Action:
        twin = random.Random()
        twin.setstate(rng.getstate())
        plain = self.agent.base.act(view, legal, twin)
        chosen = self.agent.act(view, legal, rng)
        if self.agent.last_mistakes:
            self.made.append((view, legal, plain, chosen, list(self.agent.last_mistakes)))
        return chosen


def _made(mistake: Mistake, scenario: str) -> list[tuple[DecisionView, Action, Action]]:
    levels = {0: Level(), 1: Level(mistakes={mistake: 1.0})}
    recorder = _Recorder(difficulty_agent("taktiker@1", levels))  # type: ignore[arg-type]
    found = []
    for seed in range(3):
        game = load_scenario(scenario)
        combat = game.new_combat(seed)
        view = DecisionView(combat)
        rngs = {side: random.Random(seed * 2 + side) for side in (0, 1)}
        while not combat.is_terminal():
            side = int(combat.fighters[combat.current_fighter()].side)
            before = len(recorder.made)
            action = recorder.act(view, combat.legal_actions(), rngs[side])
            if len(recorder.made) > before:
                _, legal, plain, chosen, names = recorder.made[-1]
                assert names == [mistake] and chosen != plain and chosen in legal
                found.append((DecisionView(combat.clone()), plain, chosen))
            combat.apply(action)
    assert found, f"{mistake} never applied"
    return found


def _exposure(view: DecisionView, cell: int) -> int:
    from agents.board import Board

    board = Board(view)
    return sum(int(board.cover_of_cell(cell, e)) for e in board.enemies)


def test_forget_cover_leaves_cover() -> None:
    """Every forgotten cover ends on a cell with less terrain cover against the enemies
    than the doctrine's own choice, or stays standing instead of dropping prone."""
    for view, plain, chosen in _made("forget_cover", "feuergefecht"):
        if plain.kind is ActionKind.DROP_PRONE:
            assert chosen.kind is ActionKind.STAY_UP
        else:
            assert plain.kind is chosen.kind is ActionKind.MOVE
            assert _exposure(view, chosen.cell) < _exposure(view, plain.cell)


def test_forget_cover_in_the_rooftop_situation() -> None:
    """dach-scharfschuetze: moving to the covered cell is turned into a move to open ground."""
    _, combat, _ = load_situation(ROOT / "configs/situations/dach-scharfschuetze.yaml")
    view, legal = DecisionView(combat), combat.legal_actions()
    moves = [a for a in legal if a.kind is ActionKind.MOVE]
    covered = max(moves, key=lambda a: _exposure(view, a.cell))
    worse = forget_cover(view, legal, covered)
    assert worse is not None and _exposure(view, worse.cell) == 0 < _exposure(view, covered.cell)


def test_split_fire_shoots_another_enemy() -> None:
    for view, plain, chosen in _made("split_fire", "feuergefecht"):
        assert plain.kind is chosen.kind is ActionKind.ATTACK and plain.arg == chosen.arg
        others = [
            a.target
            for a in view.legal_actions()
            if a.kind is ActionKind.ATTACK and a.arg == plain.arg and a.target != plain.target
        ]
        standing = [t for t in others if view.fighters[t].standing]
        assert chosen.target in standing
        assert view.fighters[chosen.target].lp == max(view.fighters[t].lp for t in standing)


def test_waste_mumm_spends_what_the_doctrine_keeps() -> None:
    for view, plain, chosen in _made("waste_mumm", "feuergefecht"):
        assert mumm_price(plain) == 0 < mumm_price(chosen)
        assert view.decision.kind is not DecisionKind.DEATH


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("taktiker@9", "allowed levels: 0, 1, 2, 3"),
        ("taktiker@leicht", "allowed levels: 0, 1, 2, 3"),
        ("@2", "names no agent"),
        ("taktiker@1@2", "names a level twice"),
    ],
)
def test_bad_level_specs_name_the_allowed_values(spec: str, words: str) -> None:
    with pytest.raises(DifficultyError, match=words):
        make_agent(spec)


def test_a_tiny_ladder_writes_the_table(tmp_path: Path) -> None:
    config = tmp_path / "ladder.yaml"
    config.write_text(
        "base: taktiker\nlevels: [0, 3]\nreferences: [greedy]\nscenarios: [duell]\n"
        "games: 2\nseed: 1\nname: tiny\n"
    )
    doc, db = tmp_path / "difficulty.md", tmp_path / "r.sqlite"
    doc.write_text("# Stufen\n\nText davor.\n")
    args = ["difficulty", "--config", str(config), "--db", str(db), "--doc", str(doc)]
    result = CliRunner().invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert text.startswith("# Stufen\n\nText davor.")
    assert "| 0 | `taktiker@0` |" in text and "| 3 | `taktiker@3` |" in text
    assert "wastes Mumm (100%)" in text and "reference parties" in text
    assert "| temperature ∞ |" in text and "| none | none |" in text
    assert (tmp_path / "r.config.json").is_file()
    again = CliRunner().invoke(app, [*args, "--no-progress"])  # resumed: nothing to play
    assert again.exit_code == 0 and doc.read_text() == text


def test_blunders_draw_uniformly_among_all_legal_actions() -> None:
    """blunder 1: every one of nahkampf-duell's 64 legal actions 1/64 (32 000 draws,
    seed 3: each share within 0.003 of 1/64, 4.3 standard errors)."""
    _, combat, _ = load_situation(ROOT / "configs/situations/nahkampf-duell.yaml")
    view, legal = DecisionView(combat), combat.legal_actions()
    agent = difficulty_agent("taktiker@1", {0: Level(), 1: Level(blunder=1.0)})
    rng = random.Random(3)
    counts = Counter(agent.act(view, legal, rng) for _ in range(32_000))
    assert len(legal) == 64 and set(counts) == set(legal)
    assert all(abs(n / 32_000 - 1 / 64) < 0.003 for n in counts.values())


def test_level_zero_must_be_the_plain_agent(tmp_path: Path) -> None:
    from agents.difficulty import load_levels

    bad = tmp_path / "levels.yaml"
    bad.write_text("levels:\n  0: {temperature: 1.0}\n  1: {blunder: 0.5}\n")
    with pytest.raises(DifficultyError, match="level 0 must exist and be the plain agent"):
        load_levels(bad)
    bad.write_text("levels:\n  0: {}\n  1: {mistakes: {forget_armour: 0.5}}\n")
    with pytest.raises(ValueError, match="forget_cover"):
        load_levels(bad)
