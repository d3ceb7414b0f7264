"""cwenv serve (#17 section 1): every endpoint through FastAPI's TestClient: fights from a
shipped scenario, an upload, a situation and a save; state with exact odds; the advisor;
actions by id, as data and as the agent's proposal; events; undo; table dice; bad input
named by field."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cwenv.agent_registry import make_agent
from cwenv.cli.serve import agent_maker
from cwenv.content import load_scenario
from cwenv.engine.preview import preview_attack
from cwenv.play.advise import advise, load_situation
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings

ROOT = Path(__file__).resolve().parents[1]
BASE = "http://127.0.0.1:8765"


def client_for(settings: Settings) -> TestClient:
    return TestClient(create_app(settings, agent_maker), base_url=BASE)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(Settings(db=tmp_path / "fights.sqlite")) as c:
        yield c


def new_fight(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/v1/fights", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def fields(r: Any) -> list[str]:
    return [i["field"] for i in r.json()["issues"]]


def test_about_lists_scenarios_rules_and_agents(client: TestClient) -> None:
    about = client.get("/v1").json()
    assert "feuergefecht" in about["scenarios"] and "default" in about["rules"]
    assert "taktiker" in about["agents"] and "mcts" in about["agents"]
    listed = {row["agent"] for row in client.get("/v1/agents").json()}
    assert "greedy" in listed
    assert client.get("/openapi.json").json()["paths"]["/v1/fights"]


def test_state_has_map_fighters_decision_and_exact_odds(client: TestClient) -> None:
    state = new_fight(client, scenario="duell", seed=4)
    game = load_scenario("duell")
    combat = game.new_combat(4)
    assert state["step"] == 0 and state["outcome"] is None
    assert (
        state["map"]["width"] == combat.bm.width and len(state["map"]["rows"]) == combat.bm.height
    )
    assert [f["name"] for f in state["fighters"]] == [f.name for f in combat.fighters]
    assert state["decision"]["fighter"] == combat.current_fighter()
    legal = combat.legal_actions()
    assert len(state["legal_actions"]) == len(legal)
    for row, action in zip(state["legal_actions"], legal, strict=True):
        preview = preview_attack(combat, action)
        if preview is not None:  # the odds are the engine's exact ones, not rounded
            assert row["odds"]["hit"] == preview.hit
            assert row["odds"]["probenwert"] == preview.probenwert
    again = client.get(f"/v1/fights/{state['id']}").json()
    assert again["legal_actions"] == state["legal_actions"]
    assert (
        client.get(f"/v1/fights/{state['id']}", params={"legal": False}).json()["legal_actions"]
        == []
    )


def test_advice_is_the_advisor_of_cwenv_advise(client: TestClient) -> None:
    text = (ROOT / "configs" / "situations" / "nahkampf-duell.yaml").read_text(encoding="utf-8")
    state = new_fight(client, situation=text)
    r = client.get(f"/v1/fights/{state['id']}/advice", params={"agent": "taktiker", "top": 3})
    assert r.status_code == 200, r.text
    got = r.json()
    _, combat, _ = load_situation(ROOT / "configs" / "situations" / "nahkampf-duell.yaml")
    seed = 0 * 1_000_003 + len(combat.history)
    expected = advise(combat, make_agent("taktiker"), 3, seed)
    assert got["fighter"] == expected.fighter == "Akame"
    assert got["recommended"]["label"] == expected.recommended.label
    assert got["score_kind"] == expected.score_kind
    assert [o["label"] for o in got["alternatives"]] == [o.label for o in expected.alternatives]
    assert got["recommended"]["reason"] == (expected.recommended.reason or None)
    legal = client.get(f"/v1/fights/{state['id']}").json()["legal_actions"]
    assert legal[got["recommended"]["id"]]["action"] == got["recommended"]["action"]


def test_apply_by_id_by_action_and_by_agent_then_undo(client: TestClient) -> None:
    state = new_fight(client, scenario="feuergefecht", seed=2)
    fid = state["id"]
    advice = client.get(f"/v1/fights/{fid}/advice", params={"agent": "greedy"}).json()
    r = client.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy", "expect_step": 0})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["action"] == advice["recommended"]["action"]  # the proposal, not another
    assert done["events"] and all(e["text"] and e["type"] for e in done["events"])
    assert done["state"]["step"] == 1
    legal = done["state"]["legal_actions"]
    r = client.post(f"/v1/fights/{fid}/actions", json={"action": legal[-1]["action"]})
    assert r.status_code == 200 and r.json()["state"]["step"] == 2
    done_two = r.json()
    r = client.post(f"/v1/fights/{fid}/actions", json={"action_id": 0})
    assert r.status_code == 200 and r.json()["state"]["step"] == 3
    log = client.get(f"/v1/fights/{fid}/events").json()
    assert log["count"] == len(log["events"]) > 0
    assert (
        client.get(f"/v1/fights/{fid}/events", params={"since": log["count"]}).json()["events"]
        == []
    )
    at_two = done_two["state"]
    r = client.post(f"/v1/fights/{fid}/undo")
    assert r.status_code == 200 and r.json()["step"] == 2
    assert r.json()["fighters"] == at_two["fighters"]
    assert r.json()["legal_actions"] == at_two["legal_actions"]
    assert client.post(f"/v1/fights/{fid}/undo").json()["step"] == 1
    save = client.get(f"/v1/fights/{fid}/save").json()
    assert save["scenario"] == "feuergefecht" and save["seed"] == 2
    assert len(save["actions"]) == 1


def test_a_save_and_an_upload_start_a_fight(client: TestClient) -> None:
    first = new_fight(client, scenario="duell", seed=5)
    fid = first["id"]
    for _ in range(3):
        client.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy"})
    save = client.get(f"/v1/fights/{fid}/save").json()
    state = client.get(f"/v1/fights/{fid}").json()
    resumed = new_fight(client, save=save)
    assert resumed["step"] == 3 and resumed["fighters"] == state["fighters"]
    assert resumed["legal_actions"] == state["legal_actions"]
    text = (ROOT / "configs" / "scenarios" / "duell.yaml").read_text(encoding="utf-8")
    uploaded = new_fight(client, scenario_file=text, seed=5)
    assert uploaded["fighters"] == first["fighters"]


def test_bad_input_is_4xx_naming_the_field(client: TestClient) -> None:
    post = client.post
    r = post("/v1/fights", json={"scenario": "feuergefecht", "dice": "würfelbecher"})
    assert r.status_code == 422 and fields(r) == ["dice"]
    assert r.json()["issues"][0]["allowed"] == ["seeded", "table"]
    r = post("/v1/fights", json={"scenario": "feuergefech"})
    assert r.status_code == 422 and fields(r) == ["scenario"] and "feuergefecht" in r.text
    r = post("/v1/fights", json={"scenario": "../../etc/passwd"})
    assert r.status_code == 422 and fields(r) == ["scenario"]
    r = post("/v1/fights", json={"scenario": "duell", "rules": "nope"})
    assert r.status_code == 422 and fields(r) == ["rules"]
    r = post("/v1/fights", json={})
    assert r.status_code == 422 and "save" in r.json()["issues"][0]["allowed"]
    r = post("/v1/fights", json={"scenario": "duell", "save": "x"})
    assert r.status_code == 422 and fields(r) == ["save"]
    r = post("/v1/fights", json={"situation": "scenario: duell\nturn: Akame\nwetter: Regen\n"})
    assert r.status_code == 422 and fields(r) == ["situation.wetter"]
    r = post(
        "/v1/fights",
        json={
            "situation": {
                "scenario": "duell",
                "turn": "Akame",
                "fighters": {"Akame": {"at": [99, 1]}},
            }
        },
    )
    assert r.status_code == 422 and fields(r) == ["situation.fighters.Akame.at"]
    r = post("/v1/fights", json={"situation": "scenario: /etc/hosts\nturn: A\n"})
    assert r.status_code == 422 and fields(r) == ["situation.scenario"]
    r = post(
        "/v1/fights",
        json={
            "save": {
                "scenario": "duell",
                "seed": 0,
                "runners": "human",
                "nscs": "human",
                "actions": [{"kind": "FLY", "actor": 0}],
            }
        },
    )
    assert r.status_code == 422 and fields(r) == ["save.actions.0.kind"]
    r = post("/v1/fights", json={"scenario_file": "map: [1, 2]\n"})
    assert r.status_code == 422 and all(f.startswith("scenario_file") for f in fields(r))
    fid = new_fight(client, scenario="duell")["id"]
    r = post(f"/v1/fights/{fid}/actions", json={"action": {"kind": "FLY", "actor": 0}})
    assert r.status_code == 422 and fields(r) == ["action.kind"]
    r = post(f"/v1/fights/{fid}/actions", json={"action": {"kind": "ATTACK", "actor": 9}})
    assert r.status_code == 409 and fields(r) == ["action"]
    r = post(f"/v1/fights/{fid}/actions", json={"action_id": 10_000})
    assert r.status_code == 422 and fields(r) == ["action_id"]
    r = post(f"/v1/fights/{fid}/actions", json={"action_id": 0, "agent": "greedy"})
    assert r.status_code == 422 and fields(r) == ["agent"]
    r = post(f"/v1/fights/{fid}/actions", json={"action_id": 0, "expect_step": 7})
    assert r.status_code == 409 and fields(r) == ["expect_step"]
    r = post(f"/v1/fights/{fid}/actions", json={"action_id": 0, "dice": [4]})
    assert r.status_code == 422 and fields(r) == ["dice"]
    r = client.get(f"/v1/fights/{fid}/advice", params={"agent": "configs/agents/x.yaml"})
    assert (
        r.status_code == 422
        and fields(r) == ["agent"]
        and "taktiker" in r.json()["issues"][0]["allowed"]
    )
    r = client.get(f"/v1/fights/{fid}/advice", params={"top": 0})
    assert r.status_code == 422 and fields(r) == ["top"]
    r = post(f"/v1/fights/{fid}/undo")
    assert r.status_code == 409 and r.json()["error"] == "nothing_to_undo"
    r = client.get("/v1/fights/nope")
    assert r.status_code == 404 and r.json()["error"] == "no_such_fight"
    r = post("/v1/fights", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_table_dice_are_asked_for_and_used(client: TestClient) -> None:
    state = new_fight(client, scenario="duell", dice="table")
    fid = state["id"]
    assert state["waiting_for_die"] is not None and "decision" not in state
    r = client.post(f"/v1/fights/{fid}/dice", json={"dice": [11]})
    assert r.status_code == 422 and fields(r) == ["dice.0"]
    while state["waiting_for_die"] is not None:
        state = client.post(f"/v1/fights/{fid}/dice", json={"dice": [10]}).json()["state"]
    # Initiative from the table: every die is the 10 the client sent.
    dice = _initiative_dice(client, fid)
    assert dice and all(d == 10 for roll in dice for d in roll)
    rolled = steps = 0
    while rolled == 0 and steps < 40:  # play until a step rolls (the first attack)
        r = client.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy"})
        assert r.status_code == 200, r.text
        step, steps = r.json(), steps + 1
        while step["needs_die"] is not None:
            assert step["events"] == [] and step["state"]["waiting_for_die"]["for"]
            rolled += 1
            step = client.post(f"/v1/fights/{fid}/dice", json={"dice": [6]}).json()
    assert step["state"]["waiting_for_die"] is None and step["events"]
    checks = [e["data"] for e in step["events"] if e["type"] == "CheckRolled"]
    assert checks and (checks[0]["d1"], checks[0]["d2"]) == (6, 6)
    save = client.get(f"/v1/fights/{fid}/save").json()
    assert save["dice"] == "table" and rolled > 0
    assert save["typed_dice"][-rolled:] == [6] * rolled
    r = client.post(f"/v1/fights/{fid}/undo")  # back to before the attack: its dice go
    assert r.status_code == 200 and r.json()["step"] == steps - 1
    assert (
        client.get(f"/v1/fights/{fid}/save").json()["typed_dice"]
        == save["typed_dice"][: len(save["typed_dice"]) - rolled]
    )


def _initiative_dice(client: TestClient, fid: str) -> list[list[int]]:
    log = client.get(f"/v1/fights/{fid}/events").json()["events"]
    rolls = [e["data"] for e in log if e["type"] == "InitiativeRolled"]
    return [r["dice"] for r in sorted(rolls, key=lambda r: r["fighter"])]


def test_a_restart_resumes_fights_from_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "fights.sqlite"
    with client_for(Settings(db=db)) as first:
        fid = new_fight(first, scenario="feuergefecht", seed=9)["id"]
        for _ in range(4):
            first.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy"})
        before = first.get(f"/v1/fights/{fid}").json()
        table = new_fight(first, scenario="duell", dice="table")["id"]
        first.post(f"/v1/fights/{table}/dice", json={"dice": [3]})
        waiting = first.get(f"/v1/fights/{table}").json()["waiting_for_die"]
    with client_for(Settings(db=db)) as second:
        assert {row["id"] for row in second.get("/v1/fights").json()} == {fid, table}
        after = second.get(f"/v1/fights/{fid}").json()
        assert after == before and after["step"] == 4
        assert second.get(f"/v1/fights/{table}").json()["waiting_for_die"] == waiting
        assert second.post(f"/v1/fights/{fid}/undo").json()["step"] == 3
        assert second.delete(f"/v1/fights/{fid}").status_code == 204
    with client_for(Settings(db=db)) as third:
        assert [row["id"] for row in third.get("/v1/fights").json()] == [table]


def test_the_number_of_fights_is_bounded(tmp_path: Path) -> None:
    with client_for(Settings(max_fights=2)) as c:
        new_fight(c, scenario="duell")
        second = new_fight(c, scenario="duell")
        r = c.post("/v1/fights", json={"scenario": "duell"})
        assert r.status_code == 429 and r.json()["error"] == "too_many_fights"
        c.delete(f"/v1/fights/{second['id']}")
        new_fight(c, scenario="duell")
