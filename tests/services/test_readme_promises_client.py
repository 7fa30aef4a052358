"""docs/service.md, "Python client" promises no other test walked (audit of s16).

- "413 ``quota_exceeded`` → ``QuotaExceededError``", with the figures a ``Memory`` gives,
  against a live server, for ``Client`` and ``AsyncClient``.
- "honouring ``Retry-After`` (capped at 60 s)": a server asking for an hour is waited a minute.
- "Turns are checked against the ``Turn`` model before they are sent (a malformed turn is
  refused locally with the code the server would answer)": no request leaves.
- "bodies travel as ASCII-escaped JSON".
The last three watch the client's own side of the wire, so they use httpx's mock transport
as the retry tests of ``test_client.py`` do.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from eywa import AsyncClient, Client, Memory
from eywa.errors import InvalidTurnError, QuotaExceededError
from eywa.settings import EywaSettings
from services.api.app import serve_in_thread
from tests.contract.conftest import HashEmbedder
from tests.services.conftest import Service, build_service

WRITTEN = {"ids": ["ev_1"], "job": {"id": "j", "status": "done"}, "author": "k"}


@pytest.fixture
def quota_server(tmp_path: Path) -> Iterator[tuple[str, Service]]:
    settings = EywaSettings(data_dir=tmp_path, space_max_turns=2)
    with Memory.open(tmp_path / "m", settings=settings, embedder=HashEmbedder()) as memory:
        service = build_service(memory, tmp_path, settings)
        try:
            with serve_in_thread(service.app) as url:
                yield url, service
        finally:
            service.client.close()
            service.keys.close()


def test_a_full_space_is_a_quota_exceeded_error_on_both_clients(quota_server: tuple[str, Service]) -> None:
    url, service = quota_server
    secret = service.headers(["full"])["Authorization"].removeprefix("Bearer ")
    with Client(url, secret) as client:
        client.remember("full", [{"text": "one"}])
        with pytest.raises(QuotaExceededError) as sync:
            client.remember("full", [{"text": "two"}, {"text": "three"}])

    async def over_async() -> QuotaExceededError:
        async with AsyncClient(url, secret) as client:
            with pytest.raises(QuotaExceededError) as raised:
                await client.remember("full", [{"text": "two"}, {"text": "three"}])
            return raised.value

    asynchronous = asyncio.run(over_async())
    for error in (sync.value, asynchronous):
        assert error.code == "quota_exceeded"
        assert (error.space, error.quota, error.limit, error.used, error.wanted) == ("full", "turns", 2, 1, 2)
    with Client(url, secret) as client:
        assert client.stats("full")["evidence"] == 1


def _busy_then_written(seen: list[httpx.Request]) -> httpx.MockTransport:
    answers = iter([httpx.Response(503, headers={"Retry-After": "3600"}), httpx.Response(201, json=WRITTEN)])

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return next(answers)

    return httpx.MockTransport(handler)


def test_retry_after_is_honoured_up_to_a_minute_on_both_clients() -> None:
    slept: list[float] = []
    seen: list[httpx.Request] = []
    with Client("http://eywa.test", "eyw_a_b", transport=_busy_then_written(seen), sleep=slept.append) as client:
        assert client.remember("s", [{"text": "hi"}]) == ["ev_1"]
    assert slept == [60.0] and len(seen) == 2

    async_slept: list[float] = []

    async def record(seconds: float) -> None:
        async_slept.append(seconds)

    async def run() -> list[str]:
        seen_async: list[httpx.Request] = []
        answers = iter([httpx.Response(503, headers={"Retry-After": "3600"}), httpx.Response(201, json=WRITTEN)])

        async def handler(request: httpx.Request) -> httpx.Response:
            seen_async.append(request)
            return next(answers)

        async with AsyncClient("http://eywa.test", "eyw_a_b", transport=httpx.MockTransport(handler), sleep=record) as c:
            return await c.remember("s", [{"text": "hi"}])

    assert asyncio.run(run()) == ["ev_1"] and async_slept == [60.0]


def test_a_malformed_turn_is_refused_before_any_request_leaves() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(201, json=WRITTEN)

    with Client("http://eywa.test", "eyw_a_b", transport=httpx.MockTransport(handler)) as client:
        with pytest.raises(InvalidTurnError) as blank:
            client.remember("s", [{"text": "fine"}, {"text": "  "}])
        with pytest.raises(InvalidTurnError) as surrogate:
            client.remember("s", [{"text": "fine", "metadata": {"k": "\ud800"}}])
    assert blank.value.code == "invalid_turn" and blank.value.problems[0].field == "turns.1.text"
    assert surrogate.value.problems[0].field.startswith("turns.0.metadata")
    assert seen == []


def test_bodies_travel_as_ascii_escaped_json() -> None:
    bodies: list[bytes] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(request.content)
        return httpx.Response(201, json=WRITTEN)

    text = "Zoë moved to 東京 🙂"
    with Client("http://eywa.test", "eyw_a_b", transport=httpx.MockTransport(handler)) as client:
        client.remember("s", [{"text": text, "metadata": {"ключ": "значение"}}])
    (body,) = bodies
    assert body.isascii() and b"\\u" in body
    sent = json.loads(body)["turns"][0]
    assert sent["text"] == text and sent["metadata"] == {"ключ": "значение"}
