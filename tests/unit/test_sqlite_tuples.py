"""``SqliteDatabase.tuples``: the read path's hot statements read plain tuples, not
``sqlite3.Row``s (cheaper to make and to read by position), with ``query``'s guarantees:
the thread's read-only connection beside a writer, the writing connection inside a
transaction, a read never writes, a closed database refuses. A recall reads its turns,
their mentions, beliefs' subjects and cited turns and the graph's edges this way."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from eywa.errors import ClosedError, StoreError
from eywa.stores.embedded.database import SqliteDatabase


@pytest.fixture
def database(tmp_path: Path) -> SqliteDatabase:
    db = SqliteDatabase(tmp_path / "eywa.sqlite3")
    db.ensure_schema(["CREATE TABLE IF NOT EXISTS t (k TEXT, v INTEGER)"])
    with db.transaction() as conn:
        conn.executemany("INSERT INTO t VALUES (?, ?)", [("globex", 1), ("initech", 2)])
    return db


def test_tuples_are_plain_tuples_in_the_statements_column_order(database: SqliteDatabase) -> None:
    rows = database.tuples("SELECT v, k FROM t WHERE v IN (?, ?) ORDER BY v", [1, 2])
    assert rows == [(1, "globex"), (2, "initech")]
    assert all(type(row) is tuple for row in rows)
    # ``query`` still gives named rows: the connection's own factory is left as it was.
    named = database.query("SELECT k FROM t ORDER BY v")
    assert isinstance(named[0], sqlite3.Row)
    assert [row["k"] for row in named] == ["globex", "initech"]
    database.close()


def test_tuples_inside_a_transaction_see_its_own_rows(database: SqliteDatabase) -> None:
    seen: list[list[tuple[object, ...]]] = []
    with database.transaction() as conn:
        conn.execute("INSERT INTO t VALUES ('umbrella', 3)")
        seen.append(database.tuples("SELECT k FROM t ORDER BY v"))
        # Another thread reads the last committed state.
        other = threading.Thread(target=lambda: seen.append(database.tuples("SELECT k FROM t ORDER BY v")))
        other.start()
        other.join(10)
    assert seen == [[("globex",), ("initech",), ("umbrella",)], [("globex",), ("initech",)]]
    database.close()


def test_tuples_never_write_and_refuse_once_closed(database: SqliteDatabase) -> None:
    with pytest.raises(StoreError):
        database.tuples("INSERT INTO t VALUES ('sneaked', 9) RETURNING k")
    with pytest.raises(StoreError):
        database.tuples("SELECT missing FROM t")
    assert database.tuples("SELECT COUNT(*) FROM t") == [(2,)]
    database.close()
    with pytest.raises(ClosedError):
        database.tuples("SELECT k FROM t")
