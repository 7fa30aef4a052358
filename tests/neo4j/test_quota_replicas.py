"""Two replicas (two ``Memory`` objects, each with its own driver, as two API processes
would be) write to one space of one Neo4j at the same moment: its quota still holds exactly.

The check runs in each batch's Level 0 transaction after the space's ``:Backlog`` lock
(``Neo4jEvidenceStore.add(..., quota=)``), a lock Neo4j holds across connections, so the
replicas' batches are checked one after the other. Before, each replica checked a read
made before its write: all eight two-turn batches landed in a space of five turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from eywa import Memory
from tests.conformance.conftest import replica_settings, server_settings
from tests.conformance.test_quota_races import NAMES, _batch, _check_race, used_by
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j


def _replicas(request: pytest.FixtureRequest, tmp_path: Path, **quota: int) -> list[Memory]:
    """Replicas A and B over the test server (emptied), each with its own local Qdrant."""
    embedder = HashEmbedder()
    settings = server_settings(request, tmp_path).model_copy(update=quota)
    a = Memory.connect(settings, embedder=embedder)
    b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)
    return [a, b]


@pytest.fixture
def opened() -> Iterator[list[Memory]]:
    """The memories a test opens, closed after it."""
    memories: list[Memory] = []
    yield memories
    for mem in memories:
        mem.close()


def test_two_replicas_never_take_a_space_over_its_turn_quota(
    request: pytest.FixtureRequest, tmp_path: Path, opened: list[Memory],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened.extend(_replicas(request, tmp_path, space_max_turns=5))
    for round_ in range(3):
        space = f"replicas-{round_}"

        def turns(m: Memory, space: str = space) -> int:
            return int(m.stats(space)["evidence"])

        assert _check_race(opened, space, "turns", 5, turns, monkeypatch) == 2


def test_two_replicas_never_take_a_space_over_its_bytes_quota(
    request: pytest.FixtureRequest, tmp_path: Path, opened: list[Memory],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limit = used_by(_batch(NAMES[0]), "bytes") * 5 // 2
    opened.extend(_replicas(request, tmp_path, space_max_bytes=limit))
    for round_ in range(3):
        space = f"replica-bytes-{round_}"

        def held(m: Memory, space: str = space) -> int:
            return m._stores.evidence.usage(space).bytes  # noqa: SLF001 - the figure the quota counts

        assert _check_race(opened, space, "bytes", limit, held, monkeypatch) == 2
