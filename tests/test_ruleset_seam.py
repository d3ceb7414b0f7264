"""The ruleset seam (issue #14 item 8): simulate, tournaments, the store, ratings, reports
and restricted play run any :class:`cwenv.ruleset.Ruleset`, with Corporate Wars as the
first one and the dice duel of ``tests/dice_duel.py`` as the second.

The dice duel is installed the way a user's package would be: a ``.dist-info`` folder on
the path whose entry points register the ruleset (group ``cwenv.rulesets``) and its agent
(group ``cwenv.agents``), found by the real ``importlib.metadata`` lookup.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cwenv.agent_registry as agent_registry
from cwenv import rulesets
from cwenv.agent import DecisionView, play_out, play_through
from cwenv.ruleset import GameRecord, Ruleset
from cwenv.runner.seeds import side_rngs
from cwenv.runner.task import load, load_game, make_agents, play_game, record_of
from tests import dice_duel
from tests.helpers import dump_db, run_cwenv

ROOT = Path(__file__).resolve().parent.parent


def install(site: Path, dist: str, points: dict[str, dict[str, str]]) -> None:
    """The metadata ``pip install`` writes for a distribution with these entry points."""
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    text = "".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
        for group, entries in points.items()
    )
    (info / "entry_points.txt").write_text(text, encoding="utf-8")


DICE = {
    rulesets.GROUP: {"dice": "tests.dice_duel:RULESET"},
    agent_registry.GROUP: {"dice": "tests.dice_duel:AGENTS"},
}


def _fresh_registries() -> None:
    rulesets.clear_cache()
    agent_registry.resolvers.cache_clear()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on ``sys.path`` for fake installed packages (the registries read it)."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    _fresh_registries()
    yield folder
    _fresh_registries()


@pytest.fixture
def dice(site: Path) -> Path:
    install(site, "dice_duel", DICE)
    return site


def cli(site: Path, *args: str) -> tuple[int, str, str]:
    """``cwenv ARGS`` in a fresh interpreter that sees the packages of ``site``."""
    path = os.pathsep.join([str(site), str(ROOT), *sys.path])
    done = run_cwenv(*args, env={**os.environ, "PYTHONPATH": path}, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


# -- the protocol ----------------------------------------------------------------------


def test_both_rulesets_implement_the_protocol(dice: Path) -> None:
    assert isinstance(rulesets.default(), Ruleset)
    assert isinstance(dice_duel.RULESET, Ruleset)
    assert rulesets.get("dice") is dice_duel.RULESET
    assert rulesets.split("dice:duel-5") == (dice_duel.RULESET, "duel-5")
    assert rulesets.split("duell") == (rulesets.default(), "duell")
    assert rulesets.split("cw:duell") == (rulesets.default(), "duell")
    assert rulesets.known() == ["cw", "dice"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_corporate_wars_through_the_seam_is_the_engine_game(seed: int) -> None:
    """The seam's loop (``play_through`` with the Corporate Wars ruleset) plays the very
    game the engine's own loop (``play_out``) plays: the same record, roll for roll."""
    game = load_game("duell")
    direct = game.new_combat(seed)
    play_out(direct, make_agents("greedy", "random"), side_rngs(seed))
    cw = rulesets.default()
    state = cw.new_state(game, seed)
    play_through(cw, state, make_agents("greedy", "random"), side_rngs(seed))
    assert cw.record(state) == record_of(direct)
    assert isinstance(cw.view(state), DecisionView)
    assert cw.narrate(state)[-1] == cw.narrate(direct)[-1]


def test_restricted_play_goes_through_the_ruleset(dice: Path) -> None:
    loaded = load("dice:duel")
    record: GameRecord = loaded.ruleset.record(play_game(loaded, "first!AIM", "first", 7))
    assert "AIM" not in record.tactics["A"]  # forbidden to side A …
    assert record.tactics["A"]["BLUFF"] > 0  # … which takes its next choice instead
    assert record.tactics["B"]["AIM"] == record.counters["action:AIM"] > 0


# -- the commands ----------------------------------------------------------------------


def test_simulate_plays_the_dice_duel(dice: Path) -> None:
    code, out, err = cli(
        dice, "simulate", "dice:duel", "--runners", "random", "--nscs", "first",
        "--games", "20", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 20 and set(data["sides"]) == {"A", "B"}
    assert data["sides"]["B"]["agent"] == "first"
    assert data["sides"]["A"]["wins"] + data["sides"]["B"]["wins"] + data["draws"] == 20
    assert set(data["actions"]) == {"AIM", "BLUFF", "ROLL"}


def test_the_dice_duel_plays_a_tournament_that_resumes(dice: Path, tmp_path: Path) -> None:
    db = tmp_path / "dice.sqlite"
    args = ("tournament", "--agents", "random,first", "--scenarios", "dice:duel,dice:duel-5")
    args += ("--games", "8", "--db", str(db), "--no-progress")
    code, out, err = cli(dice, *args)
    assert code == 0, err
    assert "Wertung (openskill PlackettLuce)" in out and "32/32 Spiele" in out
    ranked = [line.split("│")[2].strip() for line in out.splitlines() if "│ 1 │" in line]
    assert ranked == ["first"]  # always aiming beats choosing at random
    stored = dump_db(db)
    code, out, err = cli(dice, *args, "--json")
    assert code == 0, err
    again = json.loads(out)
    assert again["played_now"] == 0 and again["games_done"] == 32
    assert again["ratings"]["first"]["mu"] > again["ratings"]["random"]["mu"]
    assert [r for r in dump_db(db) if 'INSERT INTO "results"' in r] == [
        r for r in stored if 'INSERT INTO "results"' in r
    ]
    report = tmp_path / "report"
    csv = tmp_path / "g.csv"
    code, _, err = cli(dice, "report", str(db), "--out", str(report), "--csv", str(csv))
    assert code == 0, err
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "## Ratings" in text and "### dice:duel-5" in text
    rows = csv.read_text(encoding="utf-8").splitlines()[1:]
    assert len(rows) == 32 and all(r.split(",")[10] in ("first", "random", "") for r in rows)


def test_stress_tactics_flags_the_dominant_tactic_of_the_dice_duel(
    dice: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "tactics"
    code, out, err = cli(
        dice, "stress", "tactics", "--scenarios", "dice:duel", "--agent", "first",
        "--games", "50", "--db", str(tmp_path / "t.sqlite"), "--out", str(out_dir),
        "--no-progress",
    )  # fmt: skip
    assert code == 0, err
    verdicts = {
        r["tag"]: r["verdict"]
        for r in json.loads((out_dir / "tactics.json").read_text(encoding="utf-8"))["tactics"]
    }
    assert verdicts == {"AIM": "dominant", "BLUFF": "dead"}  # every tag of the ruleset
    assert "dominant" in out
    assert "**dominant**: AIM" in (out_dir / "report.md").read_text(encoding="utf-8")


# -- bad input ---------------------------------------------------------------------------


def test_an_unknown_ruleset_is_named_with_the_known_ones(dice: Path) -> None:
    code, _, err = cli(dice, "simulate", "dcie:duel", "--games", "1")
    assert code == 1 and "Traceback" not in err
    assert "unknown ruleset 'dcie' (did you mean 'dice'?); known: cw, dice" in err


def test_an_agent_that_cannot_play_the_ruleset_stops_the_run_before_any_game(
    dice: Path, tmp_path: Path
) -> None:
    db = tmp_path / "t.sqlite"
    code, _, err = cli(
        dice, "tournament", "--agents", "greedy,random", "--scenarios", "dice:duel",
        "--games", "1", "--db", str(db), "--no-progress",
    )  # fmt: skip
    assert code == 1 and "Traceback" not in err
    assert "agent 'greedy' cannot play Würfelduell (ruleset 'dice')" in err
    assert not db.exists()
    code, _, err = cli(dice, "simulate", "duell", "--runners", "first", "--games", "1")
    assert code == 1 and "agent 'first' cannot play Corporate Wars" in err


def test_one_run_cannot_mix_rulesets(dice: Path, tmp_path: Path) -> None:
    code, _, err = cli(
        dice, "tournament", "--agents", "random,first", "--scenarios", "duell,dice:duel",
        "--games", "1", "--db", str(tmp_path / "t.sqlite"), "--no-progress",
    )  # fmt: skip
    assert code == 1 and "Traceback" not in err
    assert "one ruleset, got duell (Corporate Wars), dice:duel (Würfelduell)" in err


def test_a_broken_ruleset_plugin_is_named_and_never_stops_corporate_wars(site: Path) -> None:
    install(site, "kaputt", {rulesets.GROUP: {"kaputt": "gibt_es_nicht:RULESET"}})
    code, _, err = cli(site, "simulate", "kaputt:duel", "--games", "1")
    assert code == 1 and "Traceback" not in err
    assert "entry point 'kaputt' = 'gibt_es_nicht:RULESET'" in err and "gibt_es_nicht" in err
    code, out, err = cli(site, "simulate", "duell", "--games", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 1


def test_a_plugin_whose_object_is_no_ruleset_is_named(site: Path) -> None:
    install(site, "falsch", {rulesets.GROUP: {"falsch": "tests.dice_duel:AGENTS"}})
    with pytest.raises(rulesets.RulesetPluginError) as exc:
        rulesets.get("falsch")
    assert "entry point 'falsch'" in str(exc.value) and "is not a ruleset" in str(exc.value)
    install(site, "anders", {rulesets.GROUP: {"anders": "tests.dice_duel:RULESET"}})
    rulesets.clear_cache()
    with pytest.raises(rulesets.RulesetPluginError, match="calls itself 'dice'"):
        rulesets.get("anders")


def test_a_dice_scenario_error_names_what_is_allowed(dice: Path) -> None:
    code, _, err = cli(dice, "simulate", "dice:duel-0", "--runners", "random", "--games", "1")
    assert code == 1 and "Traceback" not in err
    assert "unknown dice scenario 'duel-0'; known: duel, duel-N" in err
