"""A write the disk refuses is a ``StoreError`` (``store_unavailable``), and writes nothing.

Found by probing (s30) with a data directory on a full tmpfs: ``remember`` raised SQLite's
``OperationalError`` ("database or disk is full"; at commit time it was even "cannot
rollback - no transaction is active", since SQLite had rolled back by itself), not an
``EywaError``: over HTTP a 500. A full disk is made here by lowering the writing
connection's ``max_page_count`` to the pages the file holds, which SQLite reports with the
same ``SQLITE_FULL`` as a full file system.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eywa.errors import StoreError
from tests.contract.conftest import open_memory


def test_a_batch_the_disk_cannot_hold_is_a_store_error_and_writes_nothing(tmp_path: Path) -> None:
    with open_memory(tmp_path / "mem") as memory:
        memory.remember("s", [{"text": "I live in Porto.", "speaker": "Ana"}])
        writer = memory._stores.evidence._db.writer  # type: ignore[attr-defined]  # the disk, made full
        pages = writer.execute("PRAGMA page_count").fetchone()[0]
        writer.execute(f"PRAGMA max_page_count = {pages}")
        batch = [{"text": f"I moved to Lisbon, step {i}. " + "More words to store. " * 500, "speaker": "Ana"}
                 for i in range(20)]  # fmt: skip
        with pytest.raises(StoreError, match="database or disk is full") as refused:
            memory.remember("s", batch)
        assert refused.value.code == "store_unavailable"
        writer.execute("PRAGMA max_page_count = 1073741823")  # room again
        assert memory.stats("s")["evidence"] == 1  # the refused batch left nothing
        assert len(memory.remember("s", batch)) == 20 and memory.stats("s")["evidence"] == 21
