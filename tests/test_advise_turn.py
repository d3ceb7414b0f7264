"""cwenv advise for the whole turn, by the agent's own scores, with reasons (issue #20)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from cwenv.agent import DecisionView
from cwenv.agent_registry import make_agent
from cwenv.cli.main import app
from cwenv.content import load_scenario
from cwenv.engine.actions import ActionKind, DecisionKind
from cwenv.play.advise import advise, decision_seed, load_table_file
from cwenv.play.savefile import SavedAction, SavedGame, write_save

SITUATIONS = Path(__file__).resolve().parents[1] / "configs" / "situations"
runner = CliRunner()


def cli_json(*args: str) -> dict:
    result = runner.invoke(app, ["advise", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_sniper_moves_then_shoots_with_reasons() -> None:
    """dach-scharfschuetze: the move to cover comes with the cover it gains against each
    Runner, and the shot that follows in the same turn with its hit chance and damage."""
    data = cli_json(str(SITUATIONS / "dach-scharfschuetze.yaml"), "--agent", "taktiker")
    first = data["options"][0]
    assert first["action"]["kind"] == "MOVE" and first["label"] == "Bewegen nach (21, 5)"
    assert "Runner (Profi) 1: keine Deckung → Dreiviertel-Deckung" in first["reason"]
    assert "three-quarter cover (gained)" in first["reason_en"]
    shot = next(s for s in data["plan"] if s["action"]["kind"] == "ATTACK")
    assert "Scharfschützengewehr → Runner (Profi) 1" in shot["label"]
    assert "Treffer 62 %" in shot["reason"] and "erwarteter Schaden ≈" in shot["reason"]
    assert "expected damage ≈" in shot["reason_en"]
    text = runner.invoke(app, ["advise", str(SITUATIONS / "dach-scharfschuetze.yaml")]).output
    assert "Grund: gegen Runner (Profi) 1" in text and "dann 2. Angriff" in text


def test_the_plan_is_what_the_agent_plays_in_a_game() -> None:
    """Playing the agent's own choices with the game's seeds gives the advised turn."""
    table = load_table_file(SITUATIONS / "dach-scharfschuetze.yaml")
    c = table.combat
    agent = make_agent("taktiker")
    found = advise(c, agent, 3, decision_seed(table.seed, c))
    me = c.decision.fighter
    played = []
    while c.decision is not None and len(played) < 1 + len(found.plan):
        legal = c.legal_actions()
        a = agent.act(DecisionView(c), legal, random.Random(decision_seed(table.seed, c)))
        if c.decision.fighter == me and c.decision.kind in (DecisionKind.TURN,):
            played.append(a)
        c.apply(a)
    turn_steps = [found.recommended.action] + [
        o.action for o in found.plan if o.action.kind not in _PROMPT_KINDS
    ]
    assert played[: len(turn_steps)] == turn_steps


_PROMPT_KINDS = (ActionKind.PRE_NONE, ActionKind.PRE_IMPROVE)


def test_the_duel_is_ranked_by_the_doctrines_own_value() -> None:
    """nahkampf-duell: the Taktiker strikes with the Katana because its own value says so;
    the Mantis-Klinge (higher hit chance and expected QS) ranks below it, and every
    option's score is the doctrine's, in descending order."""
    data = cli_json(str(SITUATIONS / "nahkampf-duell.yaml"), "--agent", "taktiker", "--top", "8")
    assert data["score_kind"] == "Doktrinwert (LP-Äquivalent)"
    labels = [o["label"] for o in data["options"]]
    katana = next(i for i, s in enumerate(labels) if "Katana" in s)
    mantis = next(i for i, s in enumerate(labels) if "Mantis-Klinge" in s)
    assert katana == 0 < mantis
    scores = [o["score"] for o in data["options"]]
    assert scores == sorted(scores, reverse=True)
    assert data["options"][0]["score"] > data["options"][mantis]["score"]


def _reaction_save(path: Path) -> None:
    """A feuergefecht save that stops at a Gegner's defence against a rolled attack."""
    game = load_scenario("feuergefecht")
    c = game.new_combat(0)
    agent = make_agent("taktiker")
    while c.decision is not None:
        d = c.decision
        if d.kind is DecisionKind.DEFEND and len(c.legal_actions()) > 1:
            break
        c.apply(agent.act(DecisionView(c), c.legal_actions(), random.Random(len(c.history))))
    actions = [SavedAction.of(a) for a in c.history]
    write_save(
        path,
        SavedGame(
            scenario="feuergefecht", seed=0, runners="human", nscs="taktiker", actions=actions
        ),
    )


def test_a_reaction_prompt_from_a_play_save_is_answered_with_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "reaktion.yaml"
    _reaction_save(path)
    data = cli_json(str(path), "--agent", "taktiker")
    assert data["decision"] == "Verteidigung"
    kinds = {o["action"]["kind"] for o in data["options"]}
    assert kinds == {"DEFEND", "NO_DEFENCE"}
    first = data["options"][0]
    assert "wehrt den Wurf" in first["reason"] and "erwartete QS" in first["reason"]
    assert "stops the roll" in first["reason_en"]
    assert data["score_kind"].startswith("Gewinn der Verteidigung")
    text = runner.invoke(app, ["advise", str(path), "--english"]).output
    assert "(defence): recommended → Defend with " in text and "Reason: Probenwert" in text
    assert data["decision_en"] == "defence"


def test_mcts_advice_shows_visit_counts() -> None:
    data = cli_json(
        str(SITUATIONS / "nahkampf-duell.yaml"), "--agent", "mcts", "--budget", "24", "--top", "4"
    )
    assert data["score_kind_en"] == "search value"
    visits = [o["visits"] for o in data["options"]]
    assert all(isinstance(v, int) and v > 0 for v in visits) and sum(visits) <= 24
    assert visits[1:] == sorted(visits[1:], reverse=True)
    text = runner.invoke(
        app,
        ["advise", str(SITUATIONS / "nahkampf-duell.yaml"), "--agent", "mcts", "--budget", "24"],
    ).output
    assert "Besuche)" in text
    again = cli_json(
        str(SITUATIONS / "nahkampf-duell.yaml"), "--agent", "mcts", "--budget", "24", "--top", "4"
    )
    assert again == data  # no wall clock: the same advice every time


def test_a_budget_for_an_agent_that_does_not_search_is_refused() -> None:
    result = runner.invoke(
        app,
        ["advise", str(SITUATIONS / "nahkampf-duell.yaml"), "--agent", "greedy", "--budget", "5"],
    )
    assert result.exit_code == 2 and "does not search" in result.output


def test_every_reason_has_its_english_text() -> None:
    for name in ("wache-am-zug", "nahkampf-duell", "dach-scharfschuetze"):
        data = cli_json(str(SITUATIONS / f"{name}.yaml"), "--top", "5")
        for o in data["options"] + data["plan"]:
            assert bool(o["reason"]) == bool(o["reason_en"]), o
            assert o["reason_en"] != o["reason"] or not any(c in o["reason"] for c in "äöüß")


def test_an_agent_without_scores_ranks_nothing() -> None:
    data = cli_json(str(SITUATIONS / "wache-am-zug.yaml"), "--agent", "greedy", "--top", "4")
    assert len(data["options"]) == 1 and data["options"][0]["score"] is None
    assert data["options"][0]["reason"]  # the choice still comes with its engine facts


def test_a_bad_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "kaputt.yaml"
    path.write_text("scenario: duell\nturn: Akame\nactions: [1]\n", encoding="utf-8")
    result = runner.invoke(app, ["advise", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = [s for s in result.output.splitlines() if s.strip()]
    assert len(lines) >= 1 and "kaputt.yaml" in lines[0]


def test_the_service_returns_the_english_reason_and_the_plan(tmp_path: Path) -> None:
    """cwenv serve's advice is this advisor's: the English reason and the rest of the turn
    come back as cwenv advise gives them."""
    from cwenv.service.bodies import Settings
    from tests.test_service import client_for, new_fight

    path = SITUATIONS / "dach-scharfschuetze.yaml"
    with client_for(Settings(db=tmp_path / "fights.sqlite")) as client:
        state = new_fight(client, situation=path.read_text(encoding="utf-8"))
        r = client.get(f"/v1/fights/{state['id']}/advice", params={"agent": "taktiker"})
    assert r.status_code == 200, r.text
    got = r.json()
    expected = cli_json(str(path), "--agent", "taktiker")
    assert got["recommended"]["reason_en"] == expected["options"][0]["reason_en"]
    assert [s["label"] for s in got["plan"]] == [s["label"] for s in expected["plan"]]
    assert got["score_kind_en"] == "doctrine value (LP equivalents)"
    # The English labels too (#20): the same as cwenv advise --json gives them.
    assert got["recommended"]["label_en"] == expected["options"][0]["label_en"]
    assert got["recommended"]["label_en"].startswith("Move to (")
    assert [s["label_en"] for s in got["plan"]] == [s["label_en"] for s in expected["plan"]]
    assert got["decision_en"] == expected["decision_en"] == "turn"
