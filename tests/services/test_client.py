"""``eywa.Client`` against a live uvicorn server, and its retry/backoff over a mock transport."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import httpx
import pytest
import uvicorn

from eywa import Client, InvalidTurnError, Memory, NotFoundError, RecallResult
from eywa.errors import ClosedError, ConfigurationError, StoreError
from tests.services.conftest import Service, build_service, free_port

TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]


@pytest.fixture
def live(memory: Memory, tmp_path: Path) -> Iterator[tuple[str, Service]]:
    """The app served by uvicorn on a free local port, in a thread."""
    svc = build_service(memory, tmp_path)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(svc.app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", svc
    server.should_exit = True
    thread.join(timeout=10)
    svc.client.close()
    svc.keys.close()


def test_client_round_trip_matches_memory_types(live: tuple[str, Service], memory: Memory) -> None:
    url, svc = live
    key = svc.headers(["client"])["Authorization"].removeprefix("Bearer ")
    with Client(url, key) as client:
        ids = client.remember("client", TURNS)
        assert ids == memory.remember("client", TURNS)  # idempotent: same ids, nothing new
        result = client.recall("client", "Where does Cecilia work?", k=5)
        assert isinstance(result, RecallResult) and "Google" in result.context
        assert client.evidence("client", ids[0]) == memory.evidence("client", ids[0])
        assert client.beliefs("client") == memory.beliefs("client")
        belief = client.beliefs("client", attribute="employer")[0]
        assert client.explain("client", belief.id) == memory.explain("client", belief.id)
        assert client.dimension("client", "Cecilia", "employer").mode == "Google"
        assert client.dimensions("client") == memory.dimensions("client")
        assert client.deltas("client", "Cecilia", "residence") == memory.deltas("client", "Cecilia", "residence")
        assert client.stats("client")["evidence"] == 2
        with pytest.raises(NotFoundError):
            client.evidence("client", "ev_missing")
        with pytest.raises(InvalidTurnError) as bad:
            client.remember("client", [{"text": "fine"}, {"text": " "}])
        assert bad.value.index == 1
        with pytest.raises(ConfigurationError):
            client.recall("someone-else", "anything")


@pytest.mark.parametrize("form", ["seconds", "date"])
def test_client_retries_429_and_503_honouring_retry_after(form: str) -> None:
    """RFC 9110 allows delta-seconds or an HTTP-date; a date fell back to the backoff."""
    answers = iter([
        httpx.Response(429, headers={"Retry-After": retry_after(form, 2)}),
        httpx.Response(503),
        httpx.Response(201, json={"ids": ["ev_1"], "job": {"id": "j", "status": "done"}, "author": "k"}),
    ])
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["Authorization"])
        return next(answers)

    slept: list[float] = []
    client = Client("http://eywa.test", "eyw_a_b", transport=httpx.MockTransport(handler), backoff_s=0.1, sleep=slept.append)
    assert client.remember("s", [{"text": "hi"}]) == ["ev_1"]
    assert seen == ["Bearer eyw_a_b"] * 3
    assert (slept[0] == 2.0 if form == "seconds" else 1.0 < slept[0] <= 2.0) and 0.2 <= slept[1] <= 0.3


def retry_after(form: str, seconds: int) -> str:
    """A ``Retry-After`` asking for ``seconds`` as a number or as the HTTP-date that far ahead
    (whole seconds: the wait read back is within the last second)."""
    if form == "seconds":
        return str(seconds)
    return format_datetime(datetime.now(timezone.utc) + timedelta(seconds=seconds), usegmt=True)


def test_client_gives_up_after_its_retries() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(503, json={"code": "store_unavailable", "detail": "down"})

    client = Client("http://eywa.test", "eyw_a_b", retries=2, transport=httpx.MockTransport(handler), sleep=lambda s: None)
    with pytest.raises(StoreError, match="down"):
        client.recall("s", "q")
    assert calls == 3
    client.close()
    with pytest.raises(ClosedError):
        client.recall("s", "q")
