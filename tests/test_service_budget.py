"""cwenv serve's advice with a search budget (#17): ``GET …/advice?budget=N`` is ``cwenv
advise --budget N`` (MCTS iterations, lookahead rollouts; no wall clock), the agent's
proposal applied with the same budget is that advice's choice, and a budget out of range or
for an agent that does not search is a 422 naming the field and what it allows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cwenv.cli.main import app as cli
from cwenv.cli.serve import agent_maker
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings

SITUATION = Path(__file__).resolve().parents[1] / "configs" / "situations" / "nahkampf-duell.yaml"
BASE = "http://127.0.0.1:8765"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(max_budget=500), agent_maker), base_url=BASE) as c:
        yield c


@pytest.fixture
def fight(client: TestClient) -> str:
    made = client.post("/v1/fights", json={"situation": SITUATION.read_text(encoding="utf-8")})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def cli_advice(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["advise", str(SITUATION), "--json", *args])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output))


def test_the_budget_is_cwenv_advise_budget(client: TestClient, fight: str) -> None:
    for budget in (8, 24):
        r = client.get(
            f"/v1/fights/{fight}/advice", params={"agent": "mcts", "top": 4, "budget": budget}
        )
        assert r.status_code == 200, r.text
        got = r.json()
        served = [got["recommended"], *got["alternatives"]]
        want = cli_advice("--agent", "mcts", "--budget", str(budget), "--top", "4")["options"]
        assert isinstance(want, list)
        assert [(o["label"], o["visits"], o["score"]) for o in served] == [
            (o["label"], o["visits"], o["score"]) for o in want
        ]
        assert 0 < sum(o["visits"] for o in served) <= budget  # the search took the budget


def test_the_agent_s_proposal_applied_with_a_budget_is_that_advice(
    client: TestClient, fight: str
) -> None:
    advice = client.get(f"/v1/fights/{fight}/advice", params={"agent": "mcts", "budget": 8}).json()
    applied = client.post(
        f"/v1/fights/{fight}/actions", json={"agent": "mcts", "budget": 8, "expect_step": 0}
    )
    assert applied.status_code == 200, applied.text
    assert applied.json()["action"] == advice["recommended"]["action"]


def test_a_bad_budget_is_a_422_naming_the_field_and_its_range(
    client: TestClient, fight: str
) -> None:
    advice = f"/v1/fights/{fight}/advice"
    for bad in (0, 501, "viel"):
        r = client.get(advice, params={"agent": "mcts", "budget": bad})
        assert r.status_code == 422, r.text
        assert [i["field"] for i in r.json()["issues"]] == ["budget"]
    assert "500" in client.get(advice, params={"agent": "mcts", "budget": 501}).json()["message"]
    r = client.get(advice, params={"agent": "greedy", "budget": 5})
    assert r.status_code == 422 and r.json()["issues"][0]["field"] == "budget"
    assert "does not search" in r.json()["message"]
    r = client.post(f"/v1/fights/{fight}/actions", json={"agent": "mcts", "budget": 501})
    assert r.status_code == 422 and r.json()["issues"][0]["field"] == "budget"
    assert "1–500" in r.json()["message"]
    r = client.post(f"/v1/fights/{fight}/actions", json={"action_id": 0, "budget": 5})
    assert r.status_code == 422 and r.json()["issues"][0]["field"] == "budget"
    doc = client.get("/openapi.json").json()
    params = doc["paths"]["/v1/fights/{fight_id}/advice"]["get"]["parameters"]
    budget = next(p for p in params if p["name"] == "budget")
    assert budget["schema"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 500}
