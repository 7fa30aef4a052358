"""The online backup of the embedded directory (``Memory.backup``), taken while a writer
thread keeps remembering batches: the copy opens as a memory of its own, holds whole batches
only (each batch is one transaction), every turn of it has its keyword row and signals,
its ledger owes nothing once the copy has embedded the vectors again, and recall finds the
turns by vector too. A non-empty destination and the server backends are refused."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError
from eywa.extraction.rules import RuleExtractor
from eywa.stores.embedded.factory import DATABASE_FILE
from tests.reliability.support import HashEmbedder

SPACE = "bk"


def batch(i: int) -> list[dict[str, str]]:
    return [
        {"text": f"I moved to Town{i} on 3 May 2023.", "speaker": "Ana", "session": f"s{i}"},
        {"text": f"Town{i} is lovely, I went there on 4 May 2023.", "speaker": "Bo", "session": f"s{i}"},
    ]


def test_a_backup_taken_while_a_writer_runs_is_consistent(tmp_path: Path) -> None:
    embedder = HashEmbedder()
    written: list[list[str]] = []
    stop = threading.Event()
    with Memory.open(tmp_path / "live", embedder=embedder, extractor=RuleExtractor()) as mem:

        def writer() -> None:
            for i in range(200):
                if stop.is_set():
                    return
                written.append(mem.remember(SPACE, batch(i), wait=True))

        thread = threading.Thread(target=writer)
        thread.start()
        deadline = time.monotonic() + 60
        while len(written) < 3 and time.monotonic() < deadline and thread.is_alive():
            time.sleep(0.01)
        report = mem.backup(tmp_path / "copy")
        stop.set()
        thread.join(timeout=60)
        with pytest.raises(InvalidInputError, match="not an empty directory"):
            mem.backup(tmp_path / "copy")
        with pytest.raises(InvalidInputError, match="inside"):
            mem.backup(tmp_path / "live" / "nested")

    assert report.turns >= 6 and DATABASE_FILE in report.files
    with Memory.open(tmp_path / "copy", embedder=embedder, extractor=RuleExtractor()) as copy:
        copy.wait()
        copy.reconcile(SPACE)
        stored = {record.evidence.id for record in copy.export_space(SPACE) if record.kind == "turn"}
        assert len(stored) == report.turns
        assert all(set(ids) <= stored or not set(ids) & stored for ids in written)  # whole batches only
        backlog = copy.pending(SPACE)
        assert backlog.embed == 0 and backlog.level1 == 0
        found = copy.recall(SPACE, "Where did Ana move to?", k=5)
        assert found.items and any("vector" in item.routes for item in found.items)

    with closing(sqlite3.connect(tmp_path / "copy" / DATABASE_FILE)) as db:
        no_keyword_row = "SELECT COUNT(*) FROM evidence e WHERE NOT EXISTS (SELECT 1 FROM evidence_fts f WHERE f.id = e.id)"
        no_signal = "SELECT COUNT(*) FROM evidence e WHERE NOT EXISTS (SELECT 1 FROM signals s WHERE s.evidence_id = e.id)"
        assert db.execute(no_keyword_row).fetchone()[0] == 0
        assert db.execute(no_signal).fetchone()[0] == 0


def test_the_copy_carries_the_erasure_secret_born_0600_and_its_records_stay_checkable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README, Online backup: "The erasure secret is copied too" (README, Erasure: the key
    file is mode 0600, outside the database). The copy's proof and ``same_text_kept`` key
    the remaining turns with it; a copy made world-readable first, even for an instant,
    hands the secret that keys the erasure records to anyone on the machine."""
    seen: list[int] = []  # the key file's mode whenever the backup changes a mode
    chmod = os.chmod

    def spy(path: Any, mode: int, *args: Any, **kwargs: Any) -> None:
        if Path(path).name == "erasure.key":
            seen.append(stat.S_IMODE(os.stat(path).st_mode))
        chmod(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "chmod", spy)
    source, copy = tmp_path / "mem", tmp_path / "copy"
    with Memory.open(source, embedder=HashEmbedder(), extractor=None) as mem:
        mem.remember("home", [{"text": "yes", "speaker": "Ana"}, {"text": "yes", "speaker": "Bo"}], wait=True)
        report = mem.forget("home", speaker="Bo")
        old = os.umask(0o022)
        try:
            mem.backup(copy)
        finally:
            os.umask(old)
    key = copy / "erasure.key"
    assert key.read_bytes() == (source / "erasure.key").read_bytes()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert all(mode & 0o077 == 0 for mode in seen)  # never readable by others, not even before a chmod
    with Memory.open(copy, embedder=HashEmbedder(), extractor=None) as restored:
        proof = restored.erasure_proof("home", report.erasure_id)
        assert proof.total == 0 and proof.same_text_kept == 1  # Ana's "yes", keyed with the same secret
