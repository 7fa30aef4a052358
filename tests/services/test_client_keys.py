"""``Client.create_key`` / ``AsyncClient.create_key`` are retry-safe: a creation whose answer
is lost on the way back (the server committed it) is retried with the same
``Idempotency-Key``, and the caller ends with one key and the one secret that works."""

from __future__ import annotations

import asyncio

import httpx

from eywa import AsyncClient, Client
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture


class _LosesFirstAnswer(httpx.HTTPTransport):
    """Sends every request; the first ``POST /v1/keys`` answer is dropped (a read error
    after the server answered), as a connection cut on the way back drops it."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.method == "POST" and request.url.path == "/v1/keys":
            self.sent.append(request)
            if len(self.sent) == 1:
                response.read()
                raise httpx.ReadError("answer lost", request=request)
        return response


class _AsyncLosesFirstAnswer(httpx.AsyncHTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if request.method == "POST" and request.url.path == "/v1/keys":
            self.sent.append(request)
            if len(self.sent) == 1:
                await response.aread()
                raise httpx.ReadError("answer lost", request=request)
        return response


async def _no_wait(_: float) -> None:
    return None


def test_a_lost_creation_answer_is_retried_into_one_key(live: tuple[str, Service]) -> None:  # noqa: F811
    url, svc = live
    admin = svc.headers(["*"], "admin")["Authorization"].removeprefix("Bearer ")
    before = len(svc.keys.list())
    transport = _LosesFirstAnswer()
    with Client(url, admin, transport=transport, sleep=lambda _: None) as client:
        record, secret = client.create_key(["ckeys"], ["read"], name="agent")
    first, second = transport.sent
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"]  # one logical call
    assert len(svc.keys.list()) == before + 1 and record.name == "agent"
    assert svc.keys.authenticate(secret) == svc.keys.get(record.id)

    async def create() -> tuple[str, str]:
        transport = _AsyncLosesFirstAnswer()
        async with AsyncClient(url, admin, transport=transport, sleep=_no_wait) as client:
            made, token = await client.create_key(["ckeys"], ["read", "write"], expires_at="2999-01-01T00:00:00Z")
        assert transport.sent[0].headers["Idempotency-Key"] == transport.sent[1].headers["Idempotency-Key"]
        return made.id, token

    key_id, token = asyncio.run(create())
    assert len(svc.keys.list()) == before + 2 and svc.keys.authenticate(token) == svc.keys.get(key_id)
    with Client(url, admin) as client:  # two calls are two keys: each call has its own Idempotency-Key
        assert client.create_key(["ckeys"], ["read"])[0].id != client.create_key(["ckeys"], ["read"])[0].id
