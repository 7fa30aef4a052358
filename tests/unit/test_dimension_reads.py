"""DimensionReads: one recall's reads of the dimension store are made once, and answer as
the store does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from eywa.nous import ledger as nous
from eywa.read.items import DimensionSource, dimension_key
from eywa.read.routes.dimension import DimensionReads
from eywa.models import Delta
from eywa.stores.dimensions import DimensionRecord, DimensionStore, DimensionView, SameAsEdge
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore
from eywa.stores.evidence import RecallTurn
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

    # The read path's own reads of states (``recall_dimensions``), counted as the public ones.
    def _listed(self, *args: Any) -> list[DimensionRecord]:
        self.calls["dimensions"] += 1
        return super()._listed(*args)

    def _read_state(self, *args: Any) -> DimensionRecord | None:
        self.calls["get"] += 1
        return super()._read_state(*args)

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
    direct = nous.list_dimensions(store, "s", "Cecilia")
    store.calls.clear()

    assert nous.list_dimensions(reads, "s", "Cecilia") == direct
    assert nous.get_dimension(reads, "s", "Cecilia", "employer") == direct[0]
    assert nous.list_deltas(reads, "s", "Cecilia", "employer") == nous.list_deltas(store, "s", "Cecilia", "employer")
    # The listing read the entity's states once; its states were then served from it.
    assert store.calls["dimensions"] == 1 and store.calls["get"] == 0
    assert reads.get("s", "cecilia", "pets") is None and store.calls["get"] == 0
    assert store.calls["same_as"] == 1 + 1  # once through the reads, once by the direct list_deltas


def test_writes_go_through(store: Counting) -> None:
    reads = DimensionReads(store)
    reads.save(record(attribute="pets"), [delta("d3", T0, attribute="pets", observed="cat")])
    assert store.get("s", "cecilia", "pets") is not None


def test_a_prefetch_reads_the_routes_first_reads_at_once_and_answers_as_the_store(store: Counting) -> None:
    direct = nous.list_dimensions(store, "s", "Cecilia")
    employer = nous.list_deltas(store, "s", "Cecilia", "employer")
    reads = DimensionReads(store)
    reads.prefetch("s", ["Cecilia", "Ben"], ["employer", "pets"])
    assert store.calls["recall_dimensions"] == 1
    store.calls.clear()
    assert nous.list_dimensions(reads, "s", "Cecilia") == direct
    assert nous.list_deltas(reads, "s", "Cecilia", "employer") == employer
    assert nous.list_deltas(reads, "s", "Cecilia", "pets") == [] and nous.list_dimensions(reads, "s", "Ben") == []
    # Nothing read again but the deltas of the one dimension not asked about (replayed: no history).
    assert store.calls == Counter({"deltas": 1})


def test_a_history_prefetch_reads_the_replays_of_an_earlier_time_at_once(store: Counting) -> None:
    before = T0 - timedelta(seconds=1)
    direct = nous.list_dimensions(store, "s", "Cecilia", as_of=T0)
    reads = DimensionReads(store)
    reads.prefetch("s", ["Cecilia"], [])
    reads.prefetch_history("s", ["Cecilia"], before)  # both states changed after it
    reads.prefetch_history("s", ["Cecilia"], before)  # already read: no read
    assert store.calls["recall_dimensions"] == 2
    store.calls.clear()
    assert nous.list_dimensions(reads, "s", "Cecilia", as_of=T0) == direct
    assert nous.list_dimensions(reads, "s", "Cecilia", as_of=before) == []  # nothing observed by then
    assert store.calls == Counter()


class Turns:
    """The evidence store's recall read, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def recall_turns(self, space: str, ids: Sequence[str]) -> list[RecallTurn]:
        self.calls += 1
        return [RecallTurn(i, "s1", n, "Cecilia", T0, f"turn {i}", {}, ()) for n, i in enumerate(ids)]


@pytest.mark.parametrize("as_of", [None, T0 - timedelta(seconds=1), T0 + timedelta(days=1)])
def test_dimension_items_are_loaded_from_one_read_of_states_and_deltas(store: Counting, as_of: datetime | None) -> None:
    ids = ["dim:Cecilia:employer", "ev_x", "dim:Cecilia:hobbies", "dim:Ben:pets"]
    # What loading the items one by one from the store gives (``answer`` then ``item``).
    one_by_one = DimensionSource(store, Turns())  # type: ignore[arg-type]
    expected = {}
    for item_id in ids:
        if (key := dimension_key(item_id)) is not None:
            answer = one_by_one.answer("s", key[0], key[1], "", as_of)
            if answer is not None and (item := one_by_one.item("s", answer, as_of)) is not None:
                expected[item_id] = item
    store.calls.clear()
    turns = Turns()
    found = DimensionSource(store, turns).hydrate("s", ids, as_of)  # type: ignore[arg-type]
    assert found == expected and (as_of is not None and as_of < T0 or len(found) == 2)
    # One read of the states, merge edges and deltas (the embedded one makes the single
    # reads inside: the merge edges, each entity's states, and each pair's deltas, as these
    # states cite none; each pair's state is its entity's, not read again), nothing after it;
    # the turns of every line in one more.
    assert store.calls == Counter({"recall_dimensions": 1, "same_as": 1, "dimensions": 2, "deltas": 3})
    assert turns.calls == (1 if found else 0)
