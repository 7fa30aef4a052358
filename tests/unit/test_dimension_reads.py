"""DimensionReads: one recall's reads of the dimension store are made once, and answer as
the store does."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eywa.nous import ledger as nous
from eywa.read.routes.dimension import DimensionReads
from eywa.models import Delta
from eywa.stores.dimensions import DimensionRecord, DimensionStore, DimensionView, SameAsEdge
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore
from tests.unit.test_dimension_store import T0, delta, record


class Counting(SqliteDimensionStore):
    """The embedded store, counting its reads."""

    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__(db)
        self.calls: Counter[str] = Counter()

    def get(self, *args: Any) -> DimensionRecord | None:
        self.calls["get"] += 1
        return super().get(*args)

    def dimensions(self, *args: Any) -> list[DimensionRecord]:
        self.calls["dimensions"] += 1
        return super().dimensions(*args)

    def same_as(self, *args: Any) -> list[SameAsEdge]:
        self.calls["same_as"] += 1
        return super().same_as(*args)

    def deltas(self, *args: Any) -> list[Delta]:
        self.calls["deltas"] += 1
        return super().deltas(*args)

    def recall_dimensions(self, *args: Any) -> DimensionView:
        self.calls["recall_dimensions"] += 1
        return super().recall_dimensions(*args)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Counting]:
    db = SqliteDatabase(tmp_path / "eywa.db")
    counting = Counting(db)
    counting.save(record(), [delta("d1", T0)])
    counting.save(record(attribute="hobbies"), [delta("d2", T0, attribute="hobbies", observed="chess")])
    yield counting
    db.close()


def test_reads_answer_as_the_store_and_are_made_once(store: Counting) -> None:
    reads: DimensionStore = DimensionReads(store)
    direct = nous.list_dimensions(store, "s", "Caroline")
    store.calls.clear()

    assert nous.list_dimensions(reads, "s", "Caroline") == direct
    assert nous.get_dimension(reads, "s", "Caroline", "employer") == direct[0]
    assert nous.list_deltas(reads, "s", "Caroline", "employer") == nous.list_deltas(store, "s", "Caroline", "employer")
    # The listing read the entity's states once; its states were then served from it.
    assert store.calls["dimensions"] == 1 and store.calls["get"] == 0
    assert reads.get("s", "caroline", "pets") is None and store.calls["get"] == 0
    assert store.calls["same_as"] == 1 + 1  # once through the reads, once by the direct list_deltas


def test_writes_go_through(store: Counting) -> None:
    reads = DimensionReads(store)
    reads.save(record(attribute="pets"), [delta("d3", T0, attribute="pets", observed="cat")])
    assert store.get("s", "caroline", "pets") is not None


def test_a_prefetch_reads_the_routes_first_reads_at_once_and_answers_as_the_store(store: Counting) -> None:
    direct = nous.list_dimensions(store, "s", "Caroline")
    employer = nous.list_deltas(store, "s", "Caroline", "employer")
    reads = DimensionReads(store)
    reads.prefetch("s", ["Caroline", "Ben"], ["employer", "pets"])
    assert store.calls["recall_dimensions"] == 1
    store.calls.clear()
    assert nous.list_dimensions(reads, "s", "Caroline") == direct
    assert nous.list_deltas(reads, "s", "Caroline", "employer") == employer
    assert nous.list_deltas(reads, "s", "Caroline", "pets") == [] and nous.list_dimensions(reads, "s", "Ben") == []
    # Nothing read again but the deltas of the one dimension not asked about (replayed: no history).
    assert store.calls == Counter({"deltas": 1})


def test_a_history_prefetch_reads_the_replays_of_an_earlier_time_at_once(store: Counting) -> None:
    before = T0 - timedelta(seconds=1)
    direct = nous.list_dimensions(store, "s", "Caroline", as_of=T0)
    reads = DimensionReads(store)
    reads.prefetch("s", ["Caroline"], [])
    reads.prefetch_history("s", ["Caroline"], before)  # both states changed after it
    reads.prefetch_history("s", ["Caroline"], before)  # already read: no read
    assert store.calls["recall_dimensions"] == 2
    store.calls.clear()
    assert nous.list_dimensions(reads, "s", "Caroline", as_of=T0) == direct
    assert nous.list_dimensions(reads, "s", "Caroline", as_of=before) == []  # nothing observed by then
    assert store.calls == Counter()
