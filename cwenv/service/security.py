"""The service's gate, in front of every route: request size, Host header, token, CORS and
Private Network Access.

* Host: a browser page on another site can rebind its own name to 127.0.0.1 (DNS
  rebinding) and then talk to the service as "same origin"; its requests still carry the
  attacker's name in the Host header, so only the loopback names, the bound address and the
  names the GM allows are accepted. Bound to every address (``0.0.0.0``) the service needs a
  token anyway, and any Host is accepted.
* Token: when one is configured every ``/v1`` request carries ``Authorization: Bearer
  TOKEN`` (a CORS preflight carries none and is answered without it).
* Origin: a request from a browser page names its origin. Only the service's own pages and
  the configured VTT origins get through, with the CORS headers and, for a page on the
  internet talking to a loopback service, ``Access-Control-Allow-Private-Network``.
* Size: bodies above the limit are refused with 413 before they are read to the end.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type"


@dataclass(frozen=True, slots=True)
class Gate:
    """What the gate lets through."""

    host: str = "127.0.0.1"
    token: str | None = None
    origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    max_body: int = 1_000_000
    open_paths: frozenset[str] = field(
        default_factory=lambda: frozenset({"/openapi.json", "/docs", "/redoc", "/"})
    )

    def host_ok(self, header: str) -> bool:
        if self.host in WILDCARD_HOSTS:
            return True
        name = _host_name(header)
        return name in LOOPBACK_NAMES or name == self.host or name in self.allowed_hosts


def is_loopback(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.startswith("127.")


def _host_name(header: str) -> str:
    """``example.org:8000`` → ``example.org``; ``[::1]:8000`` → ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


async def _answer(
    send: Send, status: int, body: dict[str, object] | None, extra: list[Any]
) -> None:
    payload = b"" if body is None else json.dumps(body).encode()
    headers = [*extra, (b"content-length", str(len(payload)).encode())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def _refusal(code: str, message: str, field_name: str) -> dict[str, object]:
    return {
        "error": code,
        "message": message,
        "issues": [{"field": field_name, "message": message}],
    }


class GateMiddleware:
    """Pure ASGI middleware applying a :class:`Gate`."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        gate = self.gate
        headers = _headers(scope)
        host = headers.get("host", "")
        if not gate.host_ok(host):
            msg = f"Host {host!r} is not this service's (allowed: loopback, {gate.host})"
            await _answer(send, 421, _refusal("bad_host", msg, "header.host"), [])
            return
        origin = headers.get("origin")
        cors: list[Any] = []
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            if origin not in gate.origins:
                msg = f"origin {origin!r} is not allowed (cwenv serve --origin)"
                await _answer(send, 403, _refusal("bad_origin", msg, "header.origin"), [])
                return
            cors = [(b"access-control-allow-origin", origin.encode()), (b"vary", b"Origin")]
            if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
                cors += [
                    (b"access-control-allow-methods", ALLOWED_METHODS.encode()),
                    (b"access-control-allow-headers", ALLOWED_HEADERS.encode()),
                    (b"access-control-max-age", b"600"),
                ]
                if headers.get("access-control-request-private-network") == "true":
                    cors.append((b"access-control-allow-private-network", b"true"))
                await _answer(send, 204, None, cors)
                return
        if gate.token is not None and scope["path"] not in gate.open_paths:
            given = headers.get("authorization", "")
            expected = f"Bearer {gate.token}"
            if not secrets.compare_digest(given.encode(), expected.encode()):
                msg = "a token is required: Authorization: Bearer TOKEN (cwenv serve --token)"
                await _answer(send, 401, _refusal("bad_token", msg, "header.authorization"), cors)
                return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > gate.max_body):
            msg = f"the body is larger than {gate.max_body} bytes"
            await _answer(send, 413, _refusal("too_large", msg, "body"), cors)
            return
        await self._pass(scope, receive, send, cors)

    async def _pass(self, scope: Scope, receive: Receive, send: Send, cors: list[Any]) -> None:
        """Read the body first (up to the limit; requests are small) and hand it on whole,
        so a body without a Content-Length cannot grow past the limit either."""
        limit = self.gate.max_body
        body = b""
        more = scope["method"] in ("POST", "PUT", "PATCH")
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > limit:
                msg = f"the body is larger than {limit} bytes"
                await _answer(send, 413, _refusal("too_large", msg, "body"), cors)
                return
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def with_cors(message: Message) -> None:
            if message["type"] == "http.response.start" and cors:
                message["headers"] = [*message.get("headers", []), *cors]
            await send(message)

        await self.app(scope, replay, with_cors)
