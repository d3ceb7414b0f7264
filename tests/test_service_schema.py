"""cwenv serve against its own OpenAPI document (#17 section 1): for every operation,
schemathesis generates at least 200 distinct requests, valid and invalid ones, derandomized
(the same cases on every run); none may get a 5xx, and every answer must match the document
(the typed answers of 2xx, the error shape of 4xx). The service runs with a token, so every
case carries a generated ``Authorization`` header (the gate gets garbage too); two of every
three cases get the real token and aim at a real fight (one rolling its dice, one taking
them from the table) or a real stored game, so the routes are exercised past the gate and
their 404."""

from __future__ import annotations

import collections
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, assume, given, settings, strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import response_schema_conformance

from cwenv.cli.serve import agent_maker
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings
from tests.test_browser_api import tournament_db

CASES = 200
"""Generated cases per operation (the issue's bar)."""
BASE = "http://127.0.0.1:8765"
HOSTS = ("testserver",)  # the Host schemathesis's ASGI client sends
TOKEN = "schemathesis"


def operations() -> list[Any]:
    app = create_app(Settings(allowed_hosts=HOSTS, token=TOKEN), agent_maker)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


OPERATIONS = operations()


class Targets:
    """The real fights and game the cases aim at, on one service for the whole module."""

    def __init__(self, games_db: Path) -> None:
        self.app = create_app(
            Settings(games=games_db, allowed_hosts=HOSTS, token=TOKEN), agent_maker
        )
        self.schema = schemathesis.openapi.from_asgi("/openapi.json", self.app)
        self.client = TestClient(
            self.app, base_url=BASE, headers={"Authorization": f"Bearer {TOKEN}"}
        )
        self.fights = [
            self.new_fight("seeded"),
            self.new_fight("table"),
        ]
        self.game = self.client.get("/v1/games").json()["games"][0]["game_id"]

    def new_fight(self, dice: str) -> str:
        made = self.client.post("/v1/fights", json={"scenario": "duell", "seed": 2, "dice": dice})
        return str(made.json()["id"])

    def aim(self, case: Any, n: int) -> None:
        """Case ``n``: as generated (n % 3 == 2), or with the token at a real fight or the
        stored game. A DELETE gets a fight of its own, so the others stay."""
        if n % 3 == 2:
            return
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {TOKEN}"}
        params = case.path_parameters or {}
        if "fight_id" in params:
            delete = case.method.upper() == "DELETE"
            params["fight_id"] = self.new_fight("seeded") if delete else self.fights[n % 3]
        if "game_id" in params:
            params["game_id"] = self.game
        if "fighter" in params:  # one of the duel's two
            params["fighter"] = n % 2


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Targets]:
    found = Targets(tournament_db(tmp_path_factory.mktemp("games")))
    yield found
    found.client.close()


TALLY: dict[str, collections.Counter[int]] = {}


@pytest.mark.parametrize("label", [op.label for op in OPERATIONS])
def test_generated_cases_of_each_operation_get_no_server_error(
    label: str, targets: Targets
) -> None:
    operation = targets.schema.find_operation_by_label(label)
    assert operation is not None
    strategy = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )
    statuses: collections.Counter[int] = collections.Counter()
    seen: set[str] = set()

    @given(case=strategy)
    @settings(
        max_examples=CASES,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        key = repr((case.method, case.path_parameters, case.query, case.headers, case.body))
        assume(key not in seen)  # a repeat does not count: hypothesis draws another
        seen.add(key)
        targets.aim(case, statuses.total())
        response = case.call()
        statuses[response.status_code] += 1
        checks = [not_a_server_error]
        if response.status_code != 405:  # a method the path lacks: Starlette's answer
            checks.append(response_schema_conformance)
        case.validate_response(response, checks=checks)

    run()
    TALLY[label] = statuses
    print(label, statuses.total(), len(seen), dict(sorted(statuses.items())))
    assert statuses.total() >= CASES and len(seen) >= CASES, (statuses, len(seen))
    assert not any(status >= 500 for status in statuses)
