"""cwenv serve's gate (#17 section 1): the Host header against DNS rebinding, the token off
loopback, CORS and Private Network Access for a configured VTT origin, the request size;
the service run for real on a loopback port; clients of different fights in parallel."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cwenv.cli.main import app as cli
from cwenv.cli.serve import agent_maker
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings

VTT = "https://vtt.example:30000"


def client(settings: Settings, base: str = "http://127.0.0.1:8765") -> TestClient:
    return TestClient(create_app(settings, agent_maker), base_url=base)


def test_a_foreign_host_header_is_refused() -> None:
    with client(Settings()) as c:
        assert c.get("/v1").status_code == 200
        assert c.get("/v1", headers={"host": "localhost:8765"}).status_code == 200
        assert c.get("/v1", headers={"host": "[::1]:8765"}).status_code == 200
        r = c.get("/v1", headers={"host": "evil.example:8765"})
        assert r.status_code == 421 and r.json()["issues"][0]["field"] == "header.host"
    with client(Settings(allowed_hosts=("gm-laptop.local",))) as c:
        assert c.get("/v1", headers={"host": "gm-laptop.local:8765"}).status_code == 200


def test_a_token_is_required_when_configured() -> None:
    with client(Settings(host="0.0.0.0", token="s3cret"), "http://192.168.1.5:8765") as c:
        r = c.get("/v1")
        assert r.status_code == 401 and r.json()["issues"][0]["field"] == "header.authorization"
        assert c.get("/v1", headers={"authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/v1", headers={"authorization": "Bearer s3cret"}).status_code == 200
        r = c.post("/v1/fights", json={"scenario": "duell"})
        assert r.status_code == 401
        assert c.get("/openapi.json").status_code == 200  # the document itself is public


def test_serve_refuses_another_address_without_a_token() -> None:
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--no-db"])
    assert result.exit_code != 0 and "--token" in result.output


def test_cors_and_private_network_access_for_the_configured_origin() -> None:
    preflight = {
        "origin": VTT,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
        "access-control-request-private-network": "true",
    }
    with client(Settings(origins=(VTT,))) as c:
        r = c.options("/v1/fights", headers=preflight)
        assert r.status_code == 204
        assert r.headers["access-control-allow-origin"] == VTT
        assert r.headers["access-control-allow-private-network"] == "true"
        assert "POST" in r.headers["access-control-allow-methods"]
        assert "Authorization" in r.headers["access-control-allow-headers"]
        r = c.post("/v1/fights", json={"scenario": "duell"}, headers={"origin": VTT})
        assert r.status_code == 201 and r.headers["access-control-allow-origin"] == VTT
        r = c.post(
            "/v1/fights", json={"scenario": "duell"}, headers={"origin": "https://evil.example"}
        )
        assert r.status_code == 403 and r.json()["issues"][0]["field"] == "header.origin"
        r = c.options("/v1/fights", headers=preflight | {"origin": "https://evil.example"})
        assert r.status_code == 403 and "access-control-allow-origin" not in r.headers
        # The service's own pages (same origin) need no configuration.
        r = c.get("/v1", headers={"origin": "http://127.0.0.1:8765"})
        assert r.status_code == 200
    with client(Settings()) as c:  # no origin configured: a VTT page is refused
        assert c.get("/v1", headers={"origin": VTT}).status_code == 403


def test_a_large_body_is_refused() -> None:
    with client(Settings(max_body=2048)) as c:
        big = {"scenario_file": "x" * 5000}
        r = c.post("/v1/fights", json=big)
        assert r.status_code == 413 and r.json()["error"] == "too_large"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted while read
            yield b'{"scenario_file": "'
            for _ in range(10):
                yield b"x" * 500
            yield b'"}'

        r = c.post("/v1/fights", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live() -> Iterator[str]:
    """The service run by uvicorn on a loopback port, as ``cwenv serve`` runs it."""
    port = _free_port()
    app = create_app(Settings(port=port), agent_maker)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_the_service_on_a_loopback_port_serves_clients_of_different_fights(live: str) -> None:
    with httpx.Client(base_url=live, timeout=60) as http:
        ids = [
            http.post("/v1/fights", json={"scenario": "feuergefecht", "seed": s}).json()["id"]
            for s in range(4)
        ]

    def play(fid: str) -> list[int]:
        with httpx.Client(base_url=live, timeout=60) as http:
            steps = []
            for _ in range(6):
                r = http.post(f"/v1/fights/{fid}/actions", json={"agent": "greedy"})
                assert r.status_code == 200, r.text
                steps.append(r.json()["state"]["step"])
            return steps

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(play, ids))
    assert results == [[1, 2, 3, 4, 5, 6]] * 4  # nobody's action landed in another's fight
    with httpx.Client(base_url=live, timeout=60) as http:
        saves = [http.get(f"/v1/fights/{fid}/save").json() for fid in ids]
    assert [len(s["actions"]) for s in saves] == [6] * 4
    assert [s["seed"] for s in saves] == [0, 1, 2, 3]


def test_two_clients_of_one_fight_cannot_both_take_the_same_step() -> None:
    with client(Settings()) as c:
        fid = c.post("/v1/fights", json={"scenario": "duell"}).json()["id"]

        def take() -> int:
            r = c.post(f"/v1/fights/{fid}/actions", json={"action_id": 0, "expect_step": 0})
            return r.status_code

        with ThreadPoolExecutor(4) as pool:
            codes = sorted(pool.map(lambda _: take(), range(4)))
        assert codes == [200, 409, 409, 409]
        assert c.get(f"/v1/fights/{fid}").json()["step"] == 1
