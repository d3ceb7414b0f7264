"""cwenv serve's typed answers (#17 section 1): the OpenAPI document describes every answer
of every operation field by field (the fight state, an action's result, the browser's board,
focus and stored games included), and the JSON the service writes is byte for byte what it
wrote before the models (int stays int, a waiting setup's absent parts stay absent)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cwenv.cli.serve import agent_maker
from cwenv.content import load_scenario
from cwenv.service.app import create_app, state_json
from cwenv.service.board import board_json, focus_json
from cwenv.service.bodies import Settings
from cwenv.service.fights import advice_for
from cwenv.service.replays import games_json, replay_json
from cwenv.service.wire import advice_json, event_json
from tests.test_browser_api import tournament_db


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db=tmp_path / "f.sqlite"), agent_maker)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        yield c


def schema_of(doc: dict[str, Any], path: str) -> dict[str, Any]:
    ref = doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    if ref.get("type") == "array":
        ref = ref["items"]
    name = ref["$ref"].rsplit("/", 1)[-1]
    return dict(doc["components"]["schemas"][name])


def test_the_openapi_document_names_every_field_of_the_main_answers(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    advice = schema_of(doc, "/v1/fights/{fight_id}/advice")
    assert {"recommended", "alternatives", "plan", "score_kind", "step"} <= set(
        advice["properties"]
    )
    assert set(advice["required"]) == set(advice["properties"])
    assert {"service", "agents", "limits"} <= set(schema_of(doc, "/v1")["properties"])
    assert set(schema_of(doc, "/v1/agents")["properties"]) == {"agent", "description"}
    assert {"id", "step", "over"} <= set(schema_of(doc, "/v1/fights")["properties"])
    assert {"since", "count", "events"} <= set(
        schema_of(doc, "/v1/fights/{fight_id}/events")["properties"]
    )


def test_the_typed_answers_are_the_json_the_service_wrote_before(client: TestClient) -> None:
    r = client.post("/v1/fights", json={"scenario": "feuergefecht", "seed": 3})
    fid = r.json()["id"]
    client.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy"})
    c = load_scenario("feuergefecht").new_combat(3)
    c.apply(advice_for(c.clone(), agent_maker("greedy", c.game), 1, 3).recommended.action)
    for agent in ("taktiker", "mcts-spiegel"):
        got = client.get(f"/v1/fights/{fid}/advice", params={"agent": agent, "top": 3})
        want = advice_json(c, agent, advice_for(c.clone(), agent_maker(agent, c.game), 3, 3))
        assert got.text == json.dumps(want | {"step": 1}, ensure_ascii=False, separators=(",", ":"))
    log = client.get(f"/v1/fights/{fid}/events").json()
    names = list(c.game.names)
    assert log["events"] == [event_json(e, names) for e in c.events]
    assert [type(v) for v in log["events"][0]["data"].values()] == [
        type(v) for v in event_json(c.events[0], names)["data"].values()
    ]


def compact(value: Any) -> str:
    """JSON as the service writes it (Starlette's JSONResponse)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_every_answer_of_every_operation_is_described_in_the_document(
    client: TestClient,
) -> None:
    doc = client.get("/openapi.json").json()
    untyped = []
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            for status, answer in op["responses"].items():
                schema = answer.get("content", {}).get("application/json", {}).get("schema")
                if status.startswith("2") and schema is not None:
                    items = schema.get("items", schema)
                    if "$ref" not in items:
                        untyped.append(f"{method.upper()} {path} {status}")
    assert untyped == []
    state = doc["components"]["schemas"]["StateOut"]["properties"]
    assert {"id", "step", "waiting_for_die", "map", "fighters", "legal_actions"} <= set(state)
    result = doc["components"]["schemas"]["ResultOut"]["properties"]
    assert {"events", "needs_die", "needs_die_purpose", "state"} <= set(result)


def test_the_typed_state_answers_are_the_json_the_service_wrote_before(
    client: TestClient,
) -> None:
    registry = client.app.state.registry  # type: ignore[attr-defined]

    def state_now(fid: str) -> str:
        with registry.use(fid) as fight:
            return compact(state_json(fight))

    made = client.post("/v1/fights", json={"scenario": "feuergefecht", "dice": "table"})
    fid = made.json()["id"]
    assert "map" not in made.json() and made.text == state_now(fid)  # setup waits: absent
    first = client.post(f"/v1/fights/{fid}/dice", json={"dice": [5] * 30})
    assert first.json()["unused_dice"] == 10 and first.json()["needs_die"] is None
    assert compact(first.json()["state"]) == state_now(fid)
    for _ in range(6):
        step = client.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy", "dice": [7] * 3})
        assert step.status_code == 200, step.text
        if step.json()["needs_die"] is not None:
            assert step.json()["needs_die_purpose"]["text"] == step.json()["needs_die"]
            break
    assert client.get(f"/v1/fights/{fid}").text == state_now(fid)
    with registry.use(fid) as fight:
        board = state_json(fight) | board_json(fight.live())
        focus = focus_json(fight.live(), 0)
        saved = fight.saved().model_dump(mode="json")
    assert client.get(f"/v1/fights/{fid}/board").text == compact(board)
    assert client.get(f"/v1/fights/{fid}/fighters/0/focus").text == compact(focus)
    assert client.get(f"/v1/fights/{fid}/save").json() == saved
    undone = client.post(f"/v1/fights/{fid}/undo")
    assert undone.text == state_now(fid)


def test_the_typed_watch_answers_are_the_json_the_service_wrote_before(tmp_path: Path) -> None:
    db = tournament_db(tmp_path)
    app = create_app(Settings(games=db), agent_maker)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        listed = c.get("/v1/games")
        assert listed.text == compact(games_json(db, 100))
        game_id = listed.json()["games"][0]["game_id"]
        replay = c.get(f"/v1/games/{game_id}/replay")
        assert replay.text == compact(replay_json(db, game_id))
        assert replay.json()["frames"][-1]["lines"] is not None
