"""A batch whose session other writers keep taking the seqs of is refused with 503
``session_busy`` and ``Retry-After``, never a 500, after ``Memory`` numbered it again
``NUMBERING_ATTEMPTS`` times; nothing of it is written.

The store refuses a batch numbered before another writer (another API replica over one
Neo4j) added turns to its session (``SessionBusyError``, ``EvidenceStore.add(...,
numbered=True)``; the race itself: ``tests/neo4j/test_session_numbering_replicas.py``).
Here the store refuses every try, as when a session is written non-stop by other replicas.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from eywa import AsyncClient, Client
from eywa.errors import SessionBusyError
from eywa.memory import Memory
from eywa.session_locks import NUMBERING_ATTEMPTS
from services.api.app import serve_in_thread
from tests.services.conftest import Service


def test_a_batch_refused_as_busy_every_time_gets_503_with_retry_after_and_writes_nothing(
    service: Service, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = memory._stores.evidence  # noqa: SLF001 - the store's refusal is what is simulated
    tries: list[bool] = []

    def busy(evidence: Any, mentions: Any, **kwargs: Any) -> list[str]:
        tries.append(kwargs["numbered"])
        raise SessionBusyError(evidence[0].space, [evidence[0].session])

    monkeypatch.setattr(store, "add", busy)
    monkeypatch.setattr("eywa.memory.renumber_pause", lambda attempt: 0.0)
    turns = [{"text": "Vera booked the ferry.", "speaker": "Vera", "session": "trip"}]
    refused = service.client.post("/v1/spaces/busy/turns", json={"turns": turns}, headers=service.headers(["busy"]))
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    problem = refused.json()
    assert problem["code"] == "session_busy" and "'trip'" in problem["detail"]
    assert f"tried {NUMBERING_ATTEMPTS} times" in problem["detail"]
    assert tries == [True] * NUMBERING_ATTEMPTS  # numbered again each time, then refused
    monkeypatch.undo()
    assert memory.stats("busy")["evidence"] == 0


def test_the_clients_raise_the_busy_session_as_memory_does(
    service: Service, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``eywa.Client`` and ``eywa.AsyncClient`` retried the 503 and then raised a generic
    ``StoreError`` ("503: …"): now the ``SessionBusyError`` ``Memory`` raised, with its space
    and sessions, after the retries."""
    store = memory._stores.evidence  # noqa: SLF001 - the store's refusal is what is simulated

    def busy(evidence: Any, mentions: Any, **kwargs: Any) -> list[str]:
        raise SessionBusyError(evidence[0].space, [evidence[0].session])

    monkeypatch.setattr(store, "add", busy)
    monkeypatch.setattr("eywa.memory.renumber_pause", lambda attempt: 0.0)
    turns = [{"text": "Vera booked the ferry.", "speaker": "Vera", "session": "trip"}]
    secret = service.headers(["busy-client"])["Authorization"].removeprefix("Bearer ")
    slept: list[float] = []
    with serve_in_thread(service.app) as url:
        with Client(url, secret, retries=1, sleep=slept.append) as client, pytest.raises(SessionBusyError) as sync:
            client.remember("busy-client", turns)

        async def remember_async() -> None:
            async def no_sleep(seconds: float) -> None:
                slept.append(seconds)

            async with AsyncClient(url, secret, retries=0, sleep=no_sleep) as client:
                await client.remember("busy-client", turns)

        with pytest.raises(SessionBusyError) as asynchronous:
            anyio.run(remember_async)
    assert slept == [1.0]  # the sync client waited the Retry-After once, then gave up
    for raised in (sync.value, asynchronous.value):
        assert raised.code == "session_busy" and raised.space == "busy-client" and raised.sessions == ("trip",)
        assert raised.attempts == NUMBERING_ATTEMPTS
    monkeypatch.undo()
    assert memory.stats("busy-client")["evidence"] == 0
