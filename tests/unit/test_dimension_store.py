"""SqliteDimensionStore: round trips, ordering, idempotent upserts, space isolation, SAME_AS."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from eywa.models import Delta
from eywa.stores.dimensions import DimensionRecord, DimensionStore, SameAsEdge
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore

T0 = datetime(2023, 5, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[SqliteDatabase]:
    database = SqliteDatabase(tmp_path / "eywa.db")
    yield database
    database.close()


@pytest.fixture
def store(db: SqliteDatabase) -> DimensionStore:
    return SqliteDimensionStore(db)


def delta(ident: str, at: datetime, space: str = "s", belief: str = "b1", **kw: object) -> Delta:
    fields: dict[str, object] = {
        "id": ident, "space": space, "entity": "Cecilia", "attribute": "employer",
        "observed": "Google", "prior": {"Google": 0.5, "__unseen__": 0.5},
        "posterior": {"Google": 0.9, "__unseen__": 0.1}, "surprise_bits": 1.0, "hazard": 0.0,
        "reliability": 0.9, "at": at, "recorded_at": T0, "belief_id": belief,
        "evidence_ids": ("ev_1", "ev_2"),
    }  # fmt: skip
    fields.update(kw)
    return Delta.model_validate(fields)


def record(space: str = "s", entity_key: str = "cecilia", attribute: str = "employer") -> DimensionRecord:
    return DimensionRecord(
        space=space, entity_key=entity_key, entity="Cecilia", attribute=attribute,
        cardinality="single", state={"cardinality": "single", "probabilities": {"Google": 1.0}},
        distribution={"Google": 0.9, "__unseen__": 0.1}, mode="Google", entropy_bits=0.47,
        updated_at=T0, recorded_at=T0, delta_count=1,
    )  # fmt: skip


def test_deltas_and_state_round_trip_exactly(store: DimensionStore) -> None:
    original = delta("d1", T0, change_signal=True, modality="hedged", polarity="negative")
    store.save(record(), [original])
    assert store.deltas("s", "cecilia", "employer") == [original]
    assert store.get("s", "cecilia", "employer") == record()
    assert store.existing_deltas("s", ["d1", "d2"]) == {"d1"}


def test_deltas_come_back_in_event_time_order_with_ties_by_id(store: DimensionStore) -> None:
    late = delta("a_late", T0 + timedelta(days=3))
    tie_b = delta("b_tie", T0)
    tie_a = delta("a_tie", T0)
    micro = delta("z_micro", T0 - timedelta(microseconds=1))
    store.save(record(), [late, tie_b, tie_a, micro])
    assert [d.id for d in store.deltas("s", "cecilia", "employer")] == [
        "z_micro", "a_tie", "b_tie", "a_late",
    ]  # fmt: skip


def test_re_saving_a_delta_updates_derived_fields_but_keeps_recorded_at(
    store: DimensionStore,
) -> None:
    store.save(record(), [delta("d1", T0)])
    later = T0 + timedelta(days=1)
    store.save(record(), [delta("d1", T0, surprise_bits=2.5, recorded_at=later)])
    (stored,) = store.deltas("s", "cecilia", "employer")
    assert stored.surprise_bits == 2.5
    assert stored.recorded_at == T0


def test_every_read_is_scoped_to_its_space(store: DimensionStore) -> None:
    store.save(record("s"), [delta("d1", T0, space="s")])
    store.save(record("other"), [delta("d2", T0, space="other", belief="b2")])
    assert [d.id for d in store.deltas("s", "cecilia", "employer")] == ["d1"]
    assert store.existing_deltas("s", ["d1", "d2"]) == {"d1"}
    assert [r.space for r in store.dimensions("s")] == ["s"]
    assert [d.id for d in store.deltas_of_beliefs("other", ["b1", "b2"])] == ["d2"]


def test_dimensions_list_by_space_and_entity(store: DimensionStore) -> None:
    store.save(record(attribute="residence"), [])
    store.save(record(attribute="employer"), [])
    store.save(record(entity_key="mel"), [])
    assert [r.attribute for r in store.dimensions("s", "cecilia")] == ["employer", "residence"]
    assert [(r.entity_key, r.attribute) for r in store.dimensions("s")] == [
        ("cecilia", "employer"), ("cecilia", "residence"), ("mel", "employer"),
    ]  # fmt: skip


def test_remove_deltas_and_delete_dimension(store: DimensionStore) -> None:
    store.save(record(), [delta("d1", T0), delta("d2", T0, belief="b2")])
    assert store.remove_deltas("s", ["d1", "missing"]) == 1
    assert [d.id for d in store.deltas("s", "cecilia", "employer")] == ["d2"]
    store.delete_dimension("s", "cecilia", "employer")
    assert store.get("s", "cecilia", "employer") is None


def test_same_as_edges_are_reversible_and_kept_for_audit(store: DimensionStore) -> None:
    edge = SameAsEdge(space="s", source="mel", target="melinda", score=0.8, at=T0)
    store.add_same_as(edge)
    assert store.same_as("s") == [edge]
    assert store.same_as("other") == []
    assert store.remove_same_as("s", "melinda", "mel", T0 + timedelta(days=1))  # either direction
    assert store.same_as("s") == []
    (kept,) = store.same_as("s", include_removed=True)
    assert not kept.active and kept.removed_at == T0 + timedelta(days=1)
    assert not store.remove_same_as("s", "mel", "melinda", T0)
    store.add_same_as(edge)  # re-accepting re-activates
    assert store.same_as("s") == [edge]


def test_a_closed_database_refuses_use(db: SqliteDatabase) -> None:
    from eywa.errors import ClosedError

    store = SqliteDimensionStore(db)
    db.close()
    with pytest.raises(ClosedError):
        store.deltas("s", "cecilia", "employer")


def _steps_to_remove_and_find(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stored: int) -> int:
    """SQLite VM steps (in hundreds) to find and remove 5 deltas of a space holding ``stored``."""
    steps = [0]
    real = sqlite3.connect

    def counted(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = real(*args, **kwargs)
        conn.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1) or 0, 100)
        return conn

    monkeypatch.setattr(sqlite3, "connect", counted)
    database = SqliteDatabase(tmp_path / f"steps-{stored}.db")
    try:
        dims = SqliteDimensionStore(database)
        dims.save(record(), [delta(f"d{i:05d}", T0 + timedelta(minutes=i)) for i in range(stored)])
        gone = [f"d{i:05d}" for i in range(5)]
        steps[0] = 0
        assert dims.existing_deltas("s", gone) == set(gone)
        assert dims.remove_deltas("s", gone) == 5
        return steps[0]
    finally:
        database.close()


def test_removing_and_finding_deltas_by_id_does_not_scan_the_space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each delta removed by id was a scan of every delta (``+space`` kept SQLite off the
    (space, id) key): an erasure's cost grew with the deltas it removed times the deltas
    stored (50,000 turns: 6,700 erased, ~3,000 deltas removed, each scanning ~22,000)."""
    small = _steps_to_remove_and_find(tmp_path, monkeypatch, 50)
    large = _steps_to_remove_and_find(tmp_path, monkeypatch, 3_000)
    assert large <= 2 * small + 5, (small, large)
