"""Messages a new user reads (issue #19, item 14): did-you-mean, the option named in a
``--rules`` error, ``-h`` and ``--version``, German output without enum names, grammar."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cwenv import __version__
from cwenv.agent_registry import UnknownAgentError, make_agent
from cwenv.battlemap.grid import BattleMap, Terrain
from cwenv.content import ConfigError, load_scenario
from cwenv.content.render import _legend_handles
from cwenv.engine import events as ev
from cwenv.engine.actions import ActionKind
from cwenv.engine.game import Game, GameSetupError
from cwenv.engine.narration import counter_label, narrate, rounds_text
from cwenv.rules.variants import load_rule_variant, options_from_mapping
from tests.helpers import run_cwenv


def test_unknown_names_get_the_closest_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown scenario 'duel' \(did you mean 'duell'"):
        load_scenario("duel")
    with pytest.raises(UnknownAgentError, match=r"'taktikr' \(did you mean 'taktiker'\?\)"):
        make_agent("taktikr")
    with pytest.raises(ConfigError, match=r"pases: .*variant of that name \(did you mean 'passes'"):
        load_rule_variant("pases")
    with pytest.raises(ConfigError, match=r"unknown option \(did you mean 'initiative'\?\)"):
        options_from_mapping({"initiatve": "passes"})


def test_an_unknown_scenario_field_gets_the_closest_field(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "name: x\nmap: dojo\nround_limt: 5\nfighters:\n"
        "  - {archetype: runner-veteran, spawn: runner}\n"
        "  - {archetype: cyber-samurai, spawn: gegner}\n",
        encoding="utf-8",
    )
    with pytest.raises(
        ConfigError, match=r"round_limt: unknown field \(did you mean 'round_limit'"
    ):
        load_scenario(path)


def test_a_rules_option_error_names_the_option_not_the_scenario_file() -> None:
    out = run_cwenv("fight", "duell", "--rules", "pases")
    assert out.returncode == 1
    assert out.stderr.startswith("command line: --rules: unknown rule variant 'pases'")
    assert "duell.yaml" not in out.stderr


def test_short_help_and_version() -> None:
    assert run_cwenv("--version").stdout.strip() == f"cwenv {__version__}"
    short, long = run_cwenv("-h"), run_cwenv("--help")
    assert short.returncode == 0 and short.stdout == long.stdout and "fight" in short.stdout
    assert run_cwenv("fight", "-h").returncode == 0


def test_rounds_are_counted_in_german() -> None:
    assert rounds_text(1) == "1 Runde" and rounds_text(3) == "3 Runden"
    text = narrate(ev.CombatEnded("Gegner", "alle Runner ausgeschaltet", 1), ())
    assert text == "Kampfende nach 1 Runde: Gegner (alle Runner ausgeschaltet)"


def test_a_one_round_fight_says_nach_1_runde() -> None:
    out = run_cwenv("fight", "duell", "--seed", "2", "--quiet")
    assert out.returncode == 0
    assert "nach 1 Runde (" in out.stdout and "1 Runden" not in out.stdout


def test_zielen_is_narrated_with_its_preposition() -> None:
    line = narrate(ev.Acted(0, ev.Act.AIM, "Stufe 1", 1, value=1), ("Kira", "Wache"))
    assert line == "Kira zielt auf Wache: Stufe 1"
    game = load_scenario("feuergefecht")
    combat = game.new_combat(seed=5)
    while not combat.is_terminal():
        aims = [a for a in combat.legal_actions() if a.kind is ActionKind.ZIELEN]
        if aims:
            combat.apply(aims[0])
            break
        combat.apply(combat.legal_actions()[0])
    said = [narrate(e, game.names) for e in combat.events if isinstance(e, ev.Acted)]
    assert any(" zielt auf " in s for s in said)


def test_every_action_kind_and_mumm_spend_has_a_german_name() -> None:
    for kind in ActionKind:
        assert counter_label(kind.name) != kind.name
    assert counter_label("GROSSER_WURF") == "Den grossen Wurf landen"
    assert counter_label("MOVE") == "Bewegen"


def test_terrain_in_messages_is_a_word_not_an_enum_name() -> None:
    bm = BattleMap.from_rows(["#.."])
    assert Terrain.WALL.described == "a wall '#'"
    fighters = load_scenario("duell").roster
    with pytest.raises(GameSetupError, match=r"starts on a wall '#' at \(0, 0\)") as err:
        Game(bm, fighters, (0, 2))
    assert "WALL" not in str(err.value)


def test_rendered_maps_carry_a_legend_of_what_they_show() -> None:
    labels = [h.get_label() for h in _legend_handles(load_scenario("flucht"))]
    assert {"Boden", "Wand", "Runner", "Gegner", "Ausgang"} <= set(labels)
    labels = [h.get_label() for h in _legend_handles(load_scenario("dach"))]
    assert "Kletterkante" in labels and "Zahl im Feld: Höhe in m" in labels


def test_a_bundle_that_cannot_play_stops_simulate_and_tournament_before_any_game(
    tmp_path: Path,
) -> None:
    bundle = "policy:agents/policies/duell-nsc"
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-m", "cwenv.cli.main", "simulate", "feuergefecht", "--nscs", bundle],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.startswith("feuergefecht: agents/policies/duell-nsc: cannot play")
    db = tmp_path / "t.sqlite"
    args = ["tournament", "--agents", f"greedy,{bundle}", "--scenarios", "feuergefecht"]
    out = subprocess.run(
        [sys.executable, "-m", "cwenv.cli.main", *args, "--games", "1", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=root,
    )
    assert out.returncode == 1 and "cannot play" in out.stderr and not db.exists()


def test_stress_chart_titles_do_not_overlap_the_panels_above() -> None:
    from cwenv.stress.charts import Panel, Row, interval_figure

    panels = [
        Panel(f"metric {i}: variant − default", [Row("passes", 0.1 * i, -1.0, 2.0)], reference=0)
        for i in range(11)
    ]
    fig = interval_figure("scenario: difference from default", panels, ncols=3)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.axison]
    for ax in axes:
        title = ax.title.get_window_extent(renderer)
        for other in axes:
            if other is ax:
                continue
            for label in [*other.get_xticklabels(), other.xaxis.label]:
                if label.get_text():
                    assert not title.overlaps(label.get_window_extent(renderer)), ax.get_title()
        assert not title.overlaps(fig._suptitle.get_window_extent(renderer))
