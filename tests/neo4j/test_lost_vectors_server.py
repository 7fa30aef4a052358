"""Vectors the Qdrant collections lost behind the ledger's back are noticed at connect and
embedded again (``eywa.stores.neo4j.lost_vectors``), as the embedded store's open does.

Before, a server-mode memory whose Qdrant lost its points (a volume recreated, a collection
dropped; here local mode's folder deleted) reconnected without a word: the ledger still
counted every turn as embedded, nothing embedded them again, and the vector route found
nothing for ever. Each damaged memory is first reconnected with ``embed_writes=False`` so
the backlog the connect found stays to be looked at; a normal connect then reconciles it.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from eywa import Memory
from eywa.settings import EywaSettings
from eywa.stores.vector_points import point_id
from tests.conformance.conftest import server_settings
from tests.conformance.test_read_contract import CONVERSATION
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j

QUERIES = ("Which pet did she get?", "Who is coming to visit?", "What race is Tom running?", "home decoration")
Hits = list[list[tuple[str, str]]]


def _vector_hits(mem: Memory) -> Hits:
    return [[(hit["kind"], hit["id"]) for hit in mem.recall("home", q, k=5).trace["routes"]["vector"]] for q in QUERIES]


def _stored(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[EywaSettings, list[str], Hits]:
    # Local mode stands in for a Qdrant server (``auto`` checks only with ``EYWA_QDRANT_URL``).
    settings = server_settings(request, tmp_path).model_copy(update={"qdrant_count_check": "on"})
    with Memory.connect(settings, embedder=HashEmbedder()) as mem:
        ids = mem.remember("home", CONVERSATION, wait=True)
        mem.reconcile()
        assert mem.backlog()["embed_evidence"] == 0
        before = _vector_hits(mem)
    assert all(before)
    return settings, list(ids), before


def _reconnect_damaged(settings: EywaSettings, caplog: pytest.LogCaptureFixture) -> tuple[dict[str, int], list[str]]:
    caplog.clear()
    with caplog.at_level(logging.WARNING), Memory.connect(settings, embedder=HashEmbedder(), embed_writes=False) as mem:
        backlog = mem.backlog()
    return backlog, [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def _healed(settings: EywaSettings) -> tuple[dict[str, int], Hits]:
    with Memory.connect(settings, embedder=HashEmbedder()) as mem:
        mem.reconcile()
        return mem.backlog(), _vector_hits(mem)


def test_a_lost_qdrant_is_rebuilt_from_the_turns(
    request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings, ids, before = _stored(request, tmp_path)
    assert settings.qdrant_path is not None
    shutil.rmtree(settings.qdrant_path)
    backlog, warnings = _reconnect_damaged(settings, caplog)
    assert backlog["embed_evidence"] == len(ids) and backlog["embed_belief"] > 0
    assert len(warnings) == 1 and f"evidence: 0 points of {len(ids)}" in warnings[0]
    assert _reconnect_damaged(settings, caplog)[1] == []  # the ledger says so itself now
    left, after = _healed(settings)
    assert left["embed_evidence"] == left["embed_belief"] == 0
    assert after == before


def test_a_collection_short_of_some_points_marks_only_those(
    request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings, ids, before = _stored(request, tmp_path)
    lost = ids[:2]
    client = QdrantClient(path=str(settings.qdrant_path))  # the damage: two points gone
    client.delete("eywa_evidence", points_selector=[point_id(i) for i in lost])
    client.close()
    backlog, warnings = _reconnect_damaged(settings, caplog)
    assert backlog["embed_evidence"] == len(lost) and backlog["embed_belief"] == 0
    assert len(warnings) == 1 and f"evidence: {len(ids) - 2} points of {len(ids)}, 2 marked" in warnings[0]
    left, after = _healed(settings)
    assert left["embed_evidence"] == 0
    assert after == before


def test_local_mode_is_not_checked_unless_asked(
    request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``auto``: local mode is one process's folder (each replica of a test, each pass of a
    benchmark has its own over one Neo4j), so an empty one says nothing of the others'."""
    settings, _, _ = _stored(request, tmp_path)
    other = settings.model_copy(update={"qdrant_count_check": "auto", "qdrant_path": tmp_path / "qdrant-b"})
    backlog, warnings = _reconnect_damaged(other, caplog)
    assert warnings == [] and backlog["embed_evidence"] == backlog["embed_belief"] == 0


def test_an_intact_store_connects_without_a_warning_or_a_mark(
    request: pytest.FixtureRequest, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings, _, _ = _stored(request, tmp_path)
    backlog, warnings = _reconnect_damaged(settings, caplog)
    assert warnings == [] and backlog["embed_evidence"] == backlog["embed_belief"] == 0
