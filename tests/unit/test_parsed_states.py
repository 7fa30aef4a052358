"""The dimension store keeps the records it parsed for the read path and gives them again
for rows equal in every column (``ParsedStates``): a write of a row is seen at the next read."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from eywa.stores.dimensions import DimensionRecord
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore

T0 = datetime(2024, 3, 2, 9, 30, tzinfo=timezone.utc)


def _state(value: str) -> dict[str, object]:
    return {"cardinality": "single", "probabilities": {value: 1.0}, "cited": []}


def _record(attribute: str, value: str, at: datetime) -> DimensionRecord:
    return DimensionRecord(
        space="home", entity_key="priya", entity="Priya", attribute=attribute, cardinality="single",
        state=_state(value), distribution={value: 0.9, "__unseen__": 0.1}, mode=value, entropy_bits=0.47,
        updated_at=at, recorded_at=at, delta_count=1,
    )  # fmt: skip


def test_the_read_path_keeps_parsed_states_while_their_rows_stay_the_same(tmp_path: Path) -> None:
    db = SqliteDatabase(tmp_path / "eywa.sqlite3")
    store = SqliteDimensionStore(db)
    store.save(_record("employer", "Initech", T0), [])
    store.save(_record("pets", "cat", T0), [])

    first = store.recall_dimensions("home", ["priya"], [("priya", "employer")], "cited")
    again = store.recall_dimensions("home", ["priya"], [("priya", "employer")], "cited")
    # Unchanged rows: the records parsed before are given again (before: parsed anew).
    assert [a is b for a, b in zip(first.dimensions["priya"], again.dimensions["priya"], strict=True)] == [True, True]

    # A write of one row is seen at the next read: that record is made anew, the other kept.
    store.save(_record("employer", "Globex", T0 + timedelta(days=3)), [])
    later = store.recall_dimensions("home", ["priya"], [("priya", "employer")], "cited")
    employer, pets = later.dimensions["priya"]
    assert employer == store.get("home", "priya", "employer") and employer.mode == "Globex"
    assert employer.state == _state("Globex") and pets is first.dimensions["priya"][1]
    # A pair whose entity is not listed reads its state alone, kept the same way.
    alone = store.recall_dimensions("home", [], [("priya", "pets")], "cited")
    assert alone.deltas == {("priya", "pets"): []} and alone.cited == {("priya", "pets")}
    db.close()


def test_a_state_written_or_deleted_here_is_not_kept_parsed(tmp_path: Path) -> None:
    """An erasure's replay rewrites or deletes the states it touched: the parse of an erased
    value is dropped with them, not kept in memory until its row is read again."""
    db = SqliteDatabase(tmp_path / "eywa.sqlite3")
    store = SqliteDimensionStore(db)
    store.save(_record("employer", "Initech", T0), [])
    store.save(_record("pets", "cat", T0), [])
    store.recall_dimensions("home", ["priya"], [], "cited")
    assert ("home", "priya", "employer") in store._parsed and ("home", "priya", "pets") in store._parsed  # noqa: SLF001
    store.delete_dimension("home", "priya", "employer")
    store.save(_record("pets", "dog", T0 + timedelta(days=1)), [])
    assert ("home", "priya", "employer") not in store._parsed and ("home", "priya", "pets") not in store._parsed  # noqa: SLF001
    (pets,) = store.recall_dimensions("home", ["priya"], [], "cited").dimensions["priya"]
    assert pets.mode == "dog" and ("home", "priya", "pets") in store._parsed  # noqa: SLF001
    db.close()
