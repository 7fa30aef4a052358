"""The embedded evidence store keeps turns' speakers in memory between recalls
(``eywa.stores.embedded.speakers``): a second lookup reads no row, and a turn written or
erased since, by this connection or another, is seen at once (an erased turn's speaker is
never answered)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.evidence import SqliteEvidenceStore
from eywa.stores.embedded.speakers import SpeakerMemo
from tests.contract.conftest import HashEmbedder

SPACE = "memo"


@pytest.fixture()
def memory(tmp_path: Path) -> Iterator[Memory]:
    mem = Memory.open(tmp_path / "mem", settings=EywaSettings(data_dir=tmp_path / "mem"), embedder=HashEmbedder())
    yield mem
    mem.close()


def turn(n: int, speaker: str, session: str = "s1") -> dict[str, Any]:
    return {"text": f"turn number {n} about the garden", "speaker": speaker, "session": session,
            "observed_at": f"2024-01-{n + 1:02d}T10:00:00Z"}  # fmt: skip


def rows_read(store: SqliteEvidenceStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of turns each speaker read of ``store`` asks the table for."""
    db = store._db  # noqa: SLF001 - count the store's reads
    asked: list[int] = []
    for method in ("query", "tuples"):  # named rows or plain tuples (``SqliteDatabase.tuples``)
        read = getattr(db, method)

        def counting(sql: str, params: Any = (), read: Any = read) -> Any:
            if sql.startswith("SELECT id, speaker FROM evidence"):
                asked.append(len(params) - 1)
            return read(sql, params)

        monkeypatch.setattr(db, method, counting)
    return asked


def test_a_second_lookup_reads_no_row_and_an_erased_turn_is_never_answered(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = memory.remember(SPACE, [turn(0, "Ana"), turn(1, "Ben"), turn(2, "Ana")])
    store = memory._stores.evidence  # noqa: SLF001 - the embedded store under test
    assert isinstance(store, SqliteEvidenceStore)
    asked = rows_read(store, monkeypatch)
    expected = dict(zip(ids, ["Ana", "Ben", "Ana"], strict=True))

    assert store.speakers(SPACE, ids) == expected
    assert store.speakers(SPACE, ids) == expected
    assert asked == [3]  # the second lookup was answered from memory
    assert store.speakers("another-space", ids) == {}  # kept per space

    memory.forget(SPACE, evidence_ids=[ids[1]])
    assert store.speakers(SPACE, ids) == {ids[0]: "Ana", ids[2]: "Ana"}
    assert asked[-1] == 3  # the erasure emptied the memo: read again, the erased turn not found

    later = memory.remember(SPACE, [turn(3, "Ben", "s2")])
    assert store.speakers(SPACE, [*ids, *later]) == {ids[0]: "Ana", ids[2]: "Ana", later[0]: "Ben"}
    assert asked[-1] == 4  # a write empties it too (all four read again, the erased one included)


def test_a_turn_another_connection_erases_is_not_answered_from_memory(tmp_path: Path) -> None:
    # Another process (or connection) writing the same file: its erasure changes the
    # keyword table's version that every lookup reads in its own snapshot.
    path = tmp_path / "mem"
    mem = Memory.open(path, settings=EywaSettings(data_dir=path), embedder=HashEmbedder())
    try:
        ids = mem.remember(SPACE, [turn(0, "Ana"), turn(1, "Ben")])
        store = mem._stores.evidence  # noqa: SLF001
        assert isinstance(store, SqliteEvidenceStore)
        assert store.speakers(SPACE, ids) == {ids[0]: "Ana", ids[1]: "Ben"}
        other = SqliteDatabase(path / "eywa.sqlite3")
        try:
            with other.transaction() as conn:  # what an erasure does to a turn's two rows
                rowid = conn.execute("SELECT rowid FROM evidence WHERE id = ?", (ids[1],)).fetchone()[0]
                conn.execute("DELETE FROM evidence_fts WHERE rowid = ?", (rowid,))
                conn.execute("DELETE FROM signals WHERE evidence_id = ?", (ids[1],))
                conn.execute("DELETE FROM mentions WHERE evidence_id = ?", (ids[1],))
                conn.execute("DELETE FROM evidence WHERE id = ?", (ids[1],))
        finally:
            other.close()
        assert store.speakers(SPACE, ids) == {ids[0]: "Ana"}
    finally:
        mem.close()


def test_the_memo_keeps_only_what_was_read_at_its_version() -> None:
    memo = SpeakerMemo()
    v1, v2 = (b"a", b"1"), (b"a", b"2")
    assert memo.known(v1, SPACE, ["x"]) == {}
    memo.keep(v1, SPACE, {"x": "Ana"})
    assert memo.known(v1, SPACE, ["x", "y"]) == {"x": "Ana"}
    memo.keep(v2, SPACE, {"y": "Ben"})  # read at another version than the memo's: not kept
    assert memo.known(v1, SPACE, ["y"]) == {}
    assert memo.known(v2, SPACE, ["x"]) == {}  # a newer version empties it
    memo.keep(v1, SPACE, {"x": "Ana"})  # the older read finishing late is not kept
    assert memo.known(v2, SPACE, ["x"]) == {}
