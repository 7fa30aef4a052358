"""Backpressure on the embedding backlog (``EYWA_MAX_EMBED_BACKLOG``), through every surface.

Writes acknowledged after Level 0 leave their embedding to a background pass; while more
turns of the deployment wait for it than the bound, a new batch is refused before anything
is written: 503 ``overloaded`` (``stage`` ``embed``) with ``Retry-After`` over HTTP,
``OverloadedError`` from ``Memory``, ``eywa.Client`` and ``eywa.AsyncClient``, an
``overloaded:`` tool error over MCP. The backlog and its bound are reported by ``/readyz``
and ``/metrics``. Once the embedder catches up the same batch is accepted, and every turn is
stored once and found by the vector route: nothing was lost or half written.

The embedder is held by a gate the test opens, so the backlog is there for as long as the
test needs it (no timing).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import numpy.typing as npt
import pytest
from mcp import Client as McpClient

from eywa.async_client import AsyncClient
from eywa.client import Client
from eywa.errors import OverloadedError
from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.api.app import serve_in_thread
from services.mcp.server import build_server
from tests.reliability.support import HashEmbedder
from tests.services.conftest import Service, build_service

SPACE = "bp"
BOUND = 3
RETRY_AFTER_S = 7
FIRST = [{"text": f"Turn {i}: I moved to city number {i}.", "speaker": "Ana", "external_id": f"m-{i}"} for i in range(4)]
LATE = [{"text": "I adopted a grey cat called Miso.", "speaker": "Ana", "external_id": "m-late"}]


class GatedEmbedder(HashEmbedder):
    """``HashEmbedder`` whose calls wait until the test opens ``gate`` (at most a minute)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not self.gate.wait(timeout=60):
            raise TimeoutError("the test never opened the embedder's gate")
        return super().embed(texts)


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[tuple[Memory, GatedEmbedder, Service]]:
    """A memory acknowledging after Level 0, its embedder held, bounded at ``BOUND`` turns."""
    settings = EywaSettings(
        data_dir=tmp_path / "mem", extractor="none", level1_wait=False, max_embed_backlog=BOUND,
        backlog_retry_after_s=RETRY_AFTER_S, rate_limit_per_minute=0,
    )  # fmt: skip
    embedder = GatedEmbedder()
    mem = Memory.open(settings.data_dir, settings=settings, embedder=embedder)
    svc = build_service(mem, tmp_path, settings)
    try:
        yield mem, embedder, svc
    finally:
        embedder.gate.set()  # never leave the background pass waiting
        svc.client.close()
        svc.keys.close()
        mem.close()


def _mcp_remember(mem: Memory) -> tuple[bool, str]:
    async def call() -> tuple[bool, str]:
        async with McpClient(build_server(mem)) as client:
            result = await client.call_tool("remember", {"space": SPACE, "turns": LATE})
        return bool(result.is_error), "".join(getattr(part, "text", "") for part in result.content)

    return anyio.run(call)


def test_writes_over_the_embedding_bound_are_refused_everywhere_then_accepted_once_drained(
    gated: tuple[Memory, GatedEmbedder, Service],
) -> None:
    mem, embedder, svc = gated
    headers = svc.headers([SPACE])
    first = svc.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": FIRST}, headers=headers)
    assert first.status_code == 201, first.text
    assert mem.pending(SPACE).embed == len(FIRST)  # acknowledged after Level 0, not embedded yet

    refused = svc.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": LATE}, headers=headers)
    assert refused.status_code == 503 and refused.headers["Retry-After"] == str(RETRY_AFTER_S)
    problem: dict[str, Any] = refused.json()
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert problem["code"] == "overloaded" and problem["stage"] == "embed"
    assert (problem["backlog"], problem["limit"]) == (len(FIRST), BOUND)
    assert "embedding backlog of 4 turns" in problem["detail"]

    with pytest.raises(OverloadedError) as raised:
        mem.remember(SPACE, LATE, wait=False)
    assert raised.value.stage == "embed" and raised.value.code == "overloaded"
    is_error, text = _mcp_remember(mem)
    assert is_error and "overloaded: embedding backlog of 4 turns" in text

    with serve_in_thread(svc.app) as url:
        secret = headers["Authorization"].removeprefix("Bearer ")
        slept: list[float] = []
        with Client(url, secret, retries=1, sleep=slept.append) as client, pytest.raises(OverloadedError) as sync:
            client.remember(SPACE, LATE)
        assert slept == [RETRY_AFTER_S]  # the client waited what the server asked, once
        assert (sync.value.stage, sync.value.backlog, sync.value.limit) == ("embed", len(FIRST), BOUND)

        async def remember_async() -> None:
            async def no_sleep(seconds: float) -> None:
                slept.append(seconds)

            async with AsyncClient(url, secret, retries=0, sleep=no_sleep) as client:
                await client.remember(SPACE, LATE)

        with pytest.raises(OverloadedError) as asynchronous:
            anyio.run(remember_async)
        assert asynchronous.value.stage == "embed" and asynchronous.value.retry_after_s == RETRY_AFTER_S

    # Reported while it lasts, and nothing of the refused batch was written.
    ready = svc.client.get("/readyz").json()
    assert ready["backlog"]["embed_evidence"] == len(FIRST) and ready["backlog_bounds"]["embed"] == BOUND
    metrics = svc.client.get("/metrics").text
    assert f'eywa_stage_backlog{{stage="embed_evidence"}} {float(len(FIRST))}' in metrics
    assert 'eywa_writes_refused_total{stage="embed"} 4.0' in metrics  # POST, Client (2 tries), AsyncClient
    assert mem.stats(SPACE)["evidence"] == len(FIRST)

    embedder.gate.set()
    mem.wait()
    assert mem.pending(SPACE).embed == 0
    accepted = svc.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": LATE}, headers=headers)
    assert accepted.status_code == 201, accepted.text
    mem.wait()

    ids = first.json()["ids"] + accepted.json()["ids"]
    assert mem.stats(SPACE)["evidence"] == len(ids) == len(set(ids))
    assert [mem.evidence(SPACE, i).external_id for i in ids] == [t["external_id"] for t in FIRST + LATE]
    found = svc.client.post(f"/v1/spaces/{SPACE}/recall", json={"query": LATE[0]["text"], "k": 5}, headers=headers)
    vector_ids = {hit["id"] for hit in found.json()["trace"]["routes"]["vector"]}
    assert accepted.json()["ids"][0] in vector_ids
    assert mem.pending(SPACE).embed == 0


def test_without_a_bound_the_embedding_backlog_never_refuses(tmp_path: Path) -> None:
    settings = EywaSettings(data_dir=tmp_path / "mem", extractor="none", level1_wait=False)
    embedder = GatedEmbedder()
    with Memory.open(settings.data_dir, settings=settings, embedder=embedder) as mem:
        try:
            for n in range(3):
                mem.remember(SPACE, [{**turn, "external_id": f"{turn['external_id']}-{n}"} for turn in FIRST], wait=False)
            assert mem.pending(SPACE).embed == 3 * len(FIRST)
        finally:
            embedder.gate.set()
        mem.wait()
        assert mem.pending(SPACE).embed == 0 and mem.stats(SPACE)["evidence"] == 3 * len(FIRST)
