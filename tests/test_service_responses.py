"""cwenv serve's typed answers (#17 section 1): the OpenAPI document describes the advice,
the about page, the agents, the fight list and the event log field by field, and the JSON
the service writes is byte for byte what it wrote before the models (int stays int)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cwenv.cli.serve import agent_maker
from cwenv.content import load_scenario
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings
from cwenv.service.fights import advice_for
from cwenv.service.wire import advice_json, event_json


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
