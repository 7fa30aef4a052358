"""``GET /v1/spaces`` answers what it answered when it read each space on its own (the old
path, kept here as the reference), page by page, on spaces with different contents, erased
and emptied ones; and a page costs the same number of store reads whatever it lists."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from eywa.memory import Memory
from eywa.models import utc_now
from eywa.settings import EywaSettings
from eywa.stores.embedded.database import SqliteDatabase
from services.api import browse
from tests.conformance.scripted import ScriptedExtractor
from tests.conformance.test_space_counts import FACTS, _fill, _turns
from tests.services.conftest import Service, build_service

MANY = [f"many-{n:02d}" for n in range(20)]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    directory = tmp_path_factory.mktemp("space-list")
    mem = Memory.open(directory, settings=EywaSettings(data_dir=directory), extractor=ScriptedExtractor(FACTS))
    _fill(mem)
    for n, space in enumerate(MANY):
        mem.remember(space, _turns(space, ["I live in Lisbon."] * (n % 3 + 1) + ["Hello."]), wait=True)
    yield mem
    mem.close()


@pytest.fixture
def listing(filled: Memory, tmp_path: Path) -> Iterator[Service]:
    built = build_service(filled, tmp_path)
    with built.client:  # the lifespan: shutdown writes the buffered access log before the memory closes
        yield built
    built.keys.close()


def _old_summary(memory: Memory, space: str) -> dict[str, Any]:
    """The per-space path ``GET /v1/spaces`` took before the grouped read, verbatim."""
    stats = memory.stats(space)
    pending = memory.pending(space)
    now = utc_now()
    recent = memory.audit(
        "touched_between", {"space": space, "from": (now - timedelta(hours=1)).isoformat(), "to": now.isoformat()}
    )
    return browse.SpaceSummary(
        space=space,
        turns=int(stats["evidence"]),
        beliefs=int(stats["beliefs"].get("belief_active", 0)),
        dimensions=int(stats["dimensions"]),
        refused=int(stats["beliefs"].get("candidate_rejected", 0)) + int(stats["beliefs"].get("candidate_repair", 0)),
        erasures=len(memory.erasures(space)),
        turns_last_hour=sum(1 for row in recent.rows if row[0] == "Evidence"),
        not_embedded=pending.embed,
        level1_pending=pending.level1,
    ).model_dump(mode="json")


def test_pages_answer_as_the_per_space_reads_did(filled: Memory, listing: Service) -> None:
    readable = ["ana", "bo", "cy", "dee", *MANY]  # cy was dropped: no evidence, not listed
    headers = listing.headers(readable, "read")
    listed = sorted(s for s in filled.spaces() if s in readable)
    assert "cy" not in listed and len(listed) == len(readable) - 1
    for limit in (3, 50):
        offset: int | None = 0
        while offset is not None:
            page = listing.client.get("/v1/spaces", params={"offset": offset, "limit": limit}, headers=headers).json()
            assert page["items"] == [_old_summary(filled, s) for s in listed[offset : offset + limit]]
            assert page["offset"] == offset and page["limit"] == limit
            offset = page["next_offset"]
            assert offset is None or offset == page["offset"] + limit
    ana = browse.space_summaries(filled, ["ana"])[0]
    assert ana.beliefs >= 2 and ana.refused == 1 and ana.erasures == 1 and ana.turns_last_hour == 4


def test_a_page_costs_the_same_reads_whatever_it_lists(
    listing: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers = listing.headers(MANY, "read")
    reads = 0
    query = SqliteDatabase.query

    def counted(self: SqliteDatabase, *args: Any, **kwargs: Any) -> Any:
        nonlocal reads
        reads += 1
        return query(self, *args, **kwargs)

    monkeypatch.setattr(SqliteDatabase, "query", counted)
    costs: dict[int, int] = {}
    for limit in (1, 20, 1, 20):  # the second round: nothing cached by the first makes it cheaper
        reads = 0
        page = listing.client.get("/v1/spaces", params={"limit": limit}, headers=headers).json()
        assert len(page["items"]) == limit
        costs[limit] = reads
    assert costs[1] == costs[20], costs
