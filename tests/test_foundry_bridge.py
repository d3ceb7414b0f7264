"""The Foundry VTT bridge's contract with cwenv serve (#17 section 1; integrations/foundry/).

Foundry cannot run here, so the exchanges of one NSC turn the bridge makes (its HTTP layer,
scripts/cwenv-client.mjs, run by tools/record.mjs) are recorded in
tests/fixtures/foundry/turn.json. They are replayed against a real ``cwenv serve`` in a
second process, with the browser's Origin of a Foundry page the service was told about:
every answer must have the status recorded and every field the bridge reads. Where node is
installed, the JS request builders are run on the recorded answers and must make exactly
the recorded requests (so the fixture is what the module sends, not a copy that drifted).

Re-record after a change of the service's answers (docs/foundry.md)::

    cwenv serve --no-db --port 8799 &
    node integrations/foundry/tools/record.mjs http://127.0.0.1:8799 \\
        tests/fixtures/foundry/turn.json
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchmarks.service_load import running_service

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "foundry" / "turn.json"
RECORDER = ROOT / "integrations" / "foundry" / "tools" / "record.mjs"
FOUNDRY = "http://localhost:30000"  # Foundry's default address, given to --origin
FIGHT = "FIGHT"  # the fixture's stand-in for the fight id (tools/record.mjs)


def recorded() -> dict[str, Any]:
    return dict(json.loads(FIXTURE.read_text(encoding="utf-8")))


def values_at(value: Any, path: str) -> list[Any]:
    """Every value a READS path names in ``value``; raises KeyError naming the part that
    is missing (``a[]``: each element of list a)."""
    head, _, rest = path.partition(".")
    many = head.endswith("[]")
    key = head[:-2] if many else head
    if not isinstance(value, dict) or key not in value:
        raise KeyError(path)
    inner = value[key]
    items = inner if many else [inner]
    if many and not isinstance(inner, list):
        raise KeyError(f"{path} (not a list)")
    if not rest:
        return list(items)
    return [v for item in items if item is not None for v in values_at(item, rest)]


def kind(value: Any) -> str:
    """The JSON type of a value (an int and a float are both numbers)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "number"
    return type(value).__name__


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    with running_service(extra=("--origin", FOUNDRY)) as base:
        yield base


def test_the_recorded_turn_replays_with_every_field_the_bridge_reads(service: str) -> None:
    fixture = recorded()
    names = [e["name"] for e in fixture["exchanges"]]
    assert names[:2] == ["about", "create"] and "accept" in names and "undo" in names
    fight = ""
    with httpx.Client(base_url=service, timeout=120, headers={"origin": FOUNDRY}) as http:
        for exchange in fixture["exchanges"]:
            request = exchange["request"]
            path = request["path"].replace(FIGHT, fight)
            r = http.request(request["method"], path, params=request["query"],
                             json=request["body"])  # fmt: skip
            assert r.status_code == exchange["status"], (exchange["name"], r.text)
            assert r.headers.get("access-control-allow-origin") == FOUNDRY
            got = r.json()
            if exchange["name"] == "create":
                fight = got["id"]
            for read in fixture["reads"][request["reads"]]:
                live = values_at(got, read)  # KeyError: a field the bridge reads is gone
                then = values_at(exchange["response"], read)
                then_kinds = {kind(v) for v in then if v is not None}
                live_kinds = {kind(v) for v in live if v is not None}
                if then_kinds:  # a field the bridge reads keeps its JSON type
                    assert live_kinds <= then_kinds, (exchange["name"], read, live_kinds)


def test_a_foundry_page_may_send_its_json_posts(service: str) -> None:
    """The browser asks before each JSON POST (CORS preflight); the service must allow the
    page's origin, method and content-type, or the bridge never gets past the request."""
    r = httpx.options(
        f"{service}/v1/fights",
        headers={
            "origin": FOUNDRY,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
    )
    assert r.is_success
    assert r.headers["access-control-allow-origin"] == FOUNDRY
    assert "content-type" in r.headers["access-control-allow-headers"].lower()
    assert httpx.get(f"{service}/v1", headers={"origin": "https://evil.example"}).status_code == 403


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_js_builders_make_exactly_the_recorded_requests() -> None:
    node = shutil.which("node") or "node"
    run = subprocess.run(
        [node, str(RECORDER), "--from", str(FIXTURE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    built = json.loads(run.stdout)
    fixture = recorded()
    assert built["reads"] == fixture["reads"]
    assert [b["name"] for b in built["requests"]] == [e["name"] for e in fixture["exchanges"]]
    for b, e in zip(built["requests"], fixture["exchanges"], strict=True):
        assert b["request"] == e["request"], b["name"]


def test_values_at_names_what_is_missing() -> None:
    state = {"fighters": [{"cell": {"x": 1}}, {"cell": None}], "decision": None}
    assert values_at(state, "fighters[].cell") == [{"x": 1}, None]
    assert values_at(state, "fighters[].cell.x") == [1]
    assert values_at(state, "decision") == [None]
    with pytest.raises(KeyError):
        values_at(state, "fighters[].lp")
