"""``cwenv stress tactics``: restricted play catches a planted degenerate option.

The setup is the cheapest that separates reliably: a 1-against-1 pistol duel across a hall
(Fernkampf 8, so every point on the attack counts) played by a cautious Schütze
(``aim_weight`` 0.4: it aims only when the aimed shot is worth well over two plain ones).
Under the planted variant (Zielen stacks without limit, +4 per stack) it aims in every
game and losing Zielen costs it a large share of its wins; under the default rules aiming
is a side choice without effect. Nobody uses Entwaffnen in a pure pistol duel.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from agents.board import Board
from agents.estimates import weapon_estimate
from cwenv.agent import DecisionView
from cwenv.content import load_scenario
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.runner.store import Store
from cwenv.stress.tactics import TacticsConfig, TacticsConfigError, build_tactics_plan, run_tactics
from cwenv.stress.tactics_report import write_report


def _fighter(name: str, side: str) -> str:
    return f"""  - archetype: runner-profi
    name: {name}
    side: {side}
    skills: {{Fernkampf: 8}}
    lp: 16
    weapons: [pistole]
    items: []
    backpack: []
    spawn: {side}
"""


SCENARIO = (
    """name: Fernduell
description: Zwei Pistolen über eine lange Halle.
map:
  name: Lange Halle
  grid: |
    ######################
    #....................#
    #.R................G.#
    #....................#
    ######################
  spawn_chars:
    R: runner
    G: gegner
round_limit: 12
fighters:
"""
    + _fighter("Mara", "runner")
    + _fighter("Vex", "gegner")
)
AGENT = "kind: schuetze\nname: vorsichtig\naim_weight: 0.4\n"
PLANTED = """name: zielen-planted
description: Zielen stacks without limit, +4 per stack (a planted degenerate option).
options:
  zielen_max_stacks: 99
  zielen_bonus: 4
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("tactics")
    out = {}
    for key, text in (("scenario", SCENARIO), ("agent", AGENT), ("planted", PLANTED)):
        path = folder / f"{key}.yaml"
        path.write_text(text, encoding="utf-8")
        out[key] = str(path)
    return out


def _config(files: dict[str, str], tactics: tuple[str, ...], **kw: object) -> TacticsConfig:
    return TacticsConfig(files["agent"], (files["scenario"],), tactics, **kw)  # type: ignore[arg-type]


def test_planted_zielen_is_dominant_and_entwaffnen_dead(
    files: dict[str, str], tmp_path: Path
) -> None:
    config = _config(files, ("ZIELEN", "ENTWAFFNEN"), games=40, seed=0, rules=files["planted"])
    run = run_tactics(config, tmp_path / "p.sqlite")
    assert run.complete and run.played_now == 40 * 5
    rows = {r.tag: r for r in run.rows()}
    zielen, entwaffnen = rows["ZIELEN"], rows["ENTWAFFNEN"]
    assert zielen.verdict == "dominant", zielen.to_json()
    assert zielen.holm and zielen.diff.diff <= -0.10 and zielen.share_using > 0.5
    assert zielen.pairs == 80 and zielen.side_games == 80
    assert entwaffnen.verdict == "dead" and entwaffnen.reason == "never chosen"
    # the forbidden side never used its tactic (the legality function filtered it)
    for g in run.games:
        assert g.record is not None
        for side, spec in (("RUNNER", g.game.runners), ("GEGNER", g.game.nscs)):
            if "!" in spec:
                assert g.record.tactics.get(side, {}).get(spec.split("!")[1], 0) == 0
    written = write_report(run, tmp_path / "out")
    assert {p.name for p in written} == {"report.md", "tactics.png", "tactics.json", "config.json"}
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "| ZIELEN |" in report and "**dominant**" in report
    assert "- **dominant**: ZIELEN" in report and "- **dead**: ENTWAFFNEN" in report
    data = json.loads((tmp_path / "out" / "tactics.json").read_text(encoding="utf-8"))
    assert [t["verdict"] for t in data["tactics"]] == ["dominant", "dead"]
    saved = json.loads((tmp_path / "out" / "config.json").read_text(encoding="utf-8"))
    assert saved["rules"] == files["planted"] and saved["threshold"] == 0.10
    assert (tmp_path / "out" / "tactics.png").read_bytes()[:4] == b"\x89PNG"


def test_default_rules_zielen_is_not_dominant(files: dict[str, str], tmp_path: Path) -> None:
    run = run_tactics(_config(files, ("ZIELEN",), games=40, seed=0), tmp_path / "d.sqlite")
    (zielen,) = run.rows()
    assert zielen.uses > 0
    assert zielen.verdict != "dominant", zielen.to_json()
    assert zielen.diff.diff > -0.10


def test_stacking_variant_values_another_zielen(files: dict[str, str]) -> None:
    """The doctrines' odds count a further Zielen only where the rules let it stack."""
    for rules, stacks in ((None, False), (files["planted"], True)):
        game = load_scenario(files["scenario"], rules=rules)
        c = game.new_combat(3)
        aimed = False
        while c.decision is not None:
            legal = c.legal_actions()
            if c.decision.fighter == 0 and c.decision.kind is DecisionKind.TURN:
                if aimed:
                    break  # Mara has aimed once and may act again
                c.apply(next(a for a in legal if a.kind is ActionKind.ZIELEN))
                aimed = True
                continue
            ends = [a for a in legal if a.kind is ActionKind.END_TURN]
            c.apply(ends[0] if ends else legal[0])
        me, foe = c.fighters[0], c.fighters[1]
        assert me.aim_stacks == 1
        board = Board(DecisionView(c))
        now = weapon_estimate(board, me, foe, me.drawn)
        more = weapon_estimate(board, me, foe, me.drawn, aim=True)
        assert now is not None and more is not None
        assert (more.hit > now.hit) is stacks


def test_resume_after_interrupt(files: dict[str, str], tmp_path: Path) -> None:
    config = _config(files, ("M02",), games=3, seed=4)
    seen = 0

    def stop() -> None:
        nonlocal seen
        seen += 1
        if seen == 5:
            raise KeyboardInterrupt

    db = tmp_path / "r.sqlite"
    with pytest.raises(KeyboardInterrupt):
        run_tactics(config, db, batch=1, on_game=stop)
    plan = build_tactics_plan(config)
    with Store(db) as store:
        assert len(store.missing(plan.tournament_id)) == len(plan.games) - 5
    resumed = run_tactics(config, db)
    assert resumed.played_now == len(plan.games) - 5 and resumed.complete
    fresh = run_tactics(config, tmp_path / "f.sqlite")
    assert [r.to_json() for r in resumed.rows()] == [r.to_json() for r in fresh.rows()]
    again = run_tactics(config, db)
    assert again.played_now == 0


def test_bad_requests_name_the_value(files: dict[str, str]) -> None:
    with pytest.raises(TacticsConfigError, match=r"unknown tactics \['ZIELN'\].*ZIELEN"):
        _config(files, ("ZIELN",)).validate()
    with pytest.raises(TacticsConfigError, match="unrestricted"):
        TacticsConfig("schuetze!M02", ("duell",)).validate()
    with pytest.raises(TacticsConfigError, match="listed twice: M02"):
        _config(files, ("M02", "M02")).validate()
    with pytest.raises(TacticsConfigError, match="threshold"):
        _config(files, ("M02",), threshold=1.5).validate()


def test_cli_writes_the_report_and_resumes(files: dict[str, str], tmp_path: Path) -> None:
    from cwenv.cli.stress_tactics import tactics

    app = typer.Typer()
    app.command("tactics")(tactics)
    app.command("noop")(lambda: None)
    args = [
        "tactics",
        "--scenarios",
        files["scenario"],
        "--agent",
        files["agent"],
        "--tactic",
        "M02,SPRINTEN",
        "--games",
        "2",
        "--db",
        str(tmp_path / "c.sqlite"),
        "--out",
        str(tmp_path / "out"),
        "--no-progress",
    ]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "10 neu" in " ".join(first.output.split())  # the table is German (issue #19)
    assert (tmp_path / "out" / "report.md").exists()
    assert (tmp_path / "out" / "command.txt").exists()
    second = CliRunner().invoke(app, args)
    assert second.exit_code == 0 and "0 neu" in " ".join(second.output.split())
    bad = CliRunner().invoke(app, [*args[:5], "--tactic", "NOPE", *args[7:]])
    assert bad.exit_code == 1 and "NOPE" in bad.output


def test_candidates_are_actions_the_learner_overuses() -> None:
    from collections import Counter

    from cwenv.stress.exploit import ExploitConfig, Tally, candidates

    config = ExploitConfig("duell", "schuetze", 1000)
    learner = Tally("learner", actions=Counter({"ZIELEN": 30, "ATTACK": 50, "SPRINT": 20}))
    doctrines = [
        Tally("schuetze", actions=Counter({"ZIELEN": 5, "ATTACK": 90, "MOVE": 5})),
        Tally("stuermer", actions=Counter({"ATTACK": 60, "MOVE": 40})),
    ]
    found = candidates(config, learner, doctrines)
    assert [c.kind for c in found] == ["SPRINT", "ZIELEN"]  # never used by a doctrine first
    assert found[0].ratio == float("inf")
    assert found[1].learner_share == pytest.approx(0.3)
    assert found[1].doctrine_share == pytest.approx(0.05)


def test_exploit_smoke(files: dict[str, str], tmp_path: Path) -> None:
    """A tiny training run end to end: the report has the learner's win rate with its
    interval and its action distribution beside the doctrines' and the opponent's."""
    pytest.importorskip("sb3_contrib")
    from cwenv.cli.stress_tactics import exploit

    app = typer.Typer()
    app.command("exploit")(exploit)
    app.command("noop")(lambda: None)
    out = tmp_path / "exploit"
    args = [
        "exploit",
        "--scenario",
        files["scenario"],
        "--against",
        "schuetze",
        "--side",
        "runner",
        "--budget",
        "128",
        "--seed",
        "1",
        "--out",
        str(out),
        "--eval-games",
        "2",
        "--envs",
        "2",
        "--no-progress",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "learner win rate" in result.output
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "**Learner win rate:" in report and "95 % Wilson" in report
    assert "| action | learner | stuermer | schuetze | taktiker | opponent (schuetze) |" in report
    data = json.loads((out / "exploit.json").read_text(encoding="utf-8"))
    assert data["learner"]["games"] == 2 and sum(data["learner"]["actions"].values()) > 0
    assert [d["player"] for d in data["doctrines"]] == ["stuermer", "schuetze", "taktiker"]
    assert sum(data["learner"]["opponent_actions"].values()) > 0
    training = (out / "training.yaml").read_text(encoding="utf-8")
    assert "total_timesteps: 128" in training and "agent: schuetze" in training
    assert (out / "runs" / "exploit" / "bundle" / "manifest.json").exists()
    assert (out / "exploit.png").read_bytes()[:4] == b"\x89PNG"
    for e in data["examples"]:
        assert (out / "examples" / f"{e['kind']}-{e['seed']}.txt").exists()
