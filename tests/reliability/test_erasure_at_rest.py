"""Erasure at rest, on the embedded store: after ``forget``, ``drop_space`` or retention, the
erased words are gone from the bytes of the files under the data directory, not only from
every read (README "Erasure", "On disk").

A forensic scan, as a data-protection request would run it: a distinctive word is said in
the turns' text and metadata and lands in a belief, a candidate, the keyword index and the
neighbours' keyword context; after the erasure every file under the directory is read and
searched for the word (any case) — the SQLite file, its ``-wal`` and ``-shm``, the vector
shards. Before the fixes it was found in the FTS5 segments (FTS5 keeps a deleted row's
terms until its segments are merged), in free pages (where the SQLite build does not zero
them: simulated here by turning ``secure_delete`` off on every new connection, as a build
without ``SQLITE_SECURE_DELETE`` has it), in the ``-wal`` and the main file while the memory
stayed open (the erasure's page images are in the WAL until a checkpoint), and in the vector
shards' segments and write-ahead logs (the erased vectors and their ids).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from eywa import Memory
from eywa.models import CandidateFact, Evidence
from eywa.settings import EywaSettings
from eywa.stores.vector_points import point_id
from tests.contract.conftest import HashEmbedder

WORD = "Zq7unicornword"
SPACE = "home"


class ScriptedExtractor:
    """Proposes a fact with the word for each turn that says it (a belief and a candidate)."""

    name = "scripted"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            if "now works at" in turn.text:
                yield CandidateFact(evidence_ids=(turn.id,), statement=f"Ana works at {WORD}.", subject="Ana",
                                    attribute="employer", value=WORD)  # fmt: skip
            if "owns a yacht" in turn.text:  # refused by the validator: a candidate holding the word
                yield CandidateFact(evidence_ids=(turn.id,), statement=f"Ana owns a {WORD} boat.", subject="Ana",
                                    attribute="owns", value=f"{WORD} boat")  # fmt: skip


def turns(n: int = 12) -> list[dict[str, Any]]:
    """Ana's turns between Bo's; each of Bo's says the word (text and metadata)."""
    out: list[dict[str, Any]] = []
    for i in range(n):
        at = datetime(2023, 1, 1, 9, tzinfo=UTC) + timedelta(hours=i)
        out.append({"text": f"I work at Google as designer number {i}.", "speaker": "Ana", "session": f"s{i % 3}",
                    "observed_at": at.isoformat()})  # fmt: skip
        said = f"Ana now works at {WORD}, she told me." if i % 2 else f"Everyone at {WORD} owns a yacht."
        out.append({"text": said, "speaker": "Bo", "session": f"s{i % 3}", "metadata": {"tag": f"{WORD.lower()}-{i}"},
                    "observed_at": (at + timedelta(minutes=1)).isoformat()})  # fmt: skip
    return out


def spellings(word: str) -> list[bytes]:
    """The word as written, as the keyword index folds it, and in capitals (UTF-8)."""
    return [w.encode() for w in dict.fromkeys((word, word.lower(), word.upper()))]


def found(directory: Path, needles: Sequence[bytes]) -> dict[str, int]:
    """File (relative path) -> occurrences of any needle in its bytes."""
    hits: dict[str, int] = {}
    longest = max((len(needle) for needle in needles), default=0)
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            # Qdrant preallocates its files (a 32 MB log segment, mmap storage) and leaves them
            # zeros past what it wrote: scanning only up to the last non-zero byte (and a
            # needle's length more, for a needle ending in zeros) makes the same count in a
            # fraction of the time, with many needles.
            data = data[: len(data.rstrip(b"\0")) + longest]
            count = sum(data.count(needle) for needle in needles)
            if count:
                hits[str(path.relative_to(directory))] = count
    return hits


def vector_bytes(mem: Memory, ids: Sequence[str]) -> list[bytes]:
    """The stored vectors of ``ids`` as the shards write them: little-endian float32 in the
    segments, CBOR (``0xfa`` + big-endian float32 per value) in the write-ahead log."""
    shard = mem._stores.vectors._shards["evidence"]  # type: ignore[attr-defined]
    needles = []
    for record in shard.retrieve([point_id(i) for i in ids], with_payload=False, with_vector=True):
        values = record.vector[""] if isinstance(record.vector, dict) else record.vector
        head = np.asarray(values, dtype=np.float32)[:4]
        needles.append(head.tobytes())
        needles.append(b"".join(b"\xfa" + v.astype(">f4").tobytes() for v in head))
    return needles


@pytest.fixture
def without_compiled_secure_delete(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SQLite connection opened during the test starts with ``secure_delete`` off, as
    on a build without ``SQLITE_SECURE_DELETE`` (python.org's and macOS's, unlike Debian's):
    what the store sets itself is then all there is."""
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = real(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)


def _forget(mem: Memory) -> None:
    mem.forget(SPACE, speaker="Bo")


def _drop(mem: Memory) -> None:
    mem.drop_space(SPACE)


def _retention(mem: Memory) -> None:
    (report,) = mem.apply_retention({SPACE: 1}, now=datetime.now(UTC) + timedelta(days=2))
    assert report.state == "done"


ERASURES: dict[str, Callable[[Memory], None]] = {"forget": _forget, "drop_space": _drop, "retention": _retention}


@pytest.fixture
def stored(tmp_path: Path, without_compiled_secure_delete: None) -> Iterator[tuple[Path, Memory, list[bytes]]]:
    """A memory holding the turns (the word in a belief, a candidate, the keyword index and
    context, the vectors), with the byte patterns of Bo's turns' vectors."""
    directory = tmp_path / "mem"
    mem = Memory.open(directory, settings=EywaSettings(data_dir=directory), embedder=HashEmbedder(),
                      extractor=ScriptedExtractor())  # fmt: skip
    ids = mem.remember(SPACE, turns(), wait=True)
    mem.remember("other", [{"text": "Another space, other words.", "speaker": "Cy"}], wait=True)
    assert any(WORD in b.statement for b in mem.beliefs(SPACE)) and mem.candidates(SPACE)
    vectors = vector_bytes(mem, ids[1::2])
    assert found(directory, spellings(WORD)) and found(directory, vectors)  # the scan can fail
    try:
        yield directory, mem, vectors
    finally:
        mem.close()


@pytest.mark.parametrize("erasure", list(ERASURES))
def test_the_erased_word_is_in_no_file_of_the_data_directory(stored: tuple[Path, Memory, list[bytes]], erasure: str) -> None:
    directory, mem, _ = stored
    ERASURES[erasure](mem)
    assert WORD not in str(mem.recall(SPACE, WORD, k=50).items)
    assert found(directory, spellings(WORD)) == {}  # open: the WAL was checkpointed and truncated
    mem.close()
    assert found(directory, spellings(WORD)) == {}


@pytest.mark.parametrize("erasure", list(ERASURES))
def test_the_erased_vectors_are_in_no_file_of_the_data_directory(stored: tuple[Path, Memory, list[bytes]], erasure: str) -> None:
    """Qdrant Edge keeps a deleted point's vector and payload in its segment files until a
    vacuum, and the upsert that wrote it in its write-ahead log until the log's 32 MB segment
    is recycled: before the erasure rewrote the shards it touched, both held the erased
    vectors (this test was a strict xfail). Also gone: the old vector of each remaining turn
    re-embedded without the erased reply (it was derived from the reply's words)."""
    directory, mem, vectors = stored
    kept = [turn.id for turn in mem._stores.evidence.get(SPACE, mem._stores.evidence.ids(SPACE)) if turn.speaker == "Ana"]
    before = dict(zip(kept, _heads(mem, kept), strict=True))
    ERASURES[erasure](mem)
    assert found(directory, vectors) == {}  # open: the old shard's files are deleted
    after = dict(zip(kept, _heads(mem, kept), strict=True)) if erasure == "forget" else {}
    stale = [v for i, v in before.items() if i in after and after[i] != v]
    assert erasure != "forget" or stale  # the neighbours were re-embedded: the check can fail
    mem.close()
    assert found(directory, vectors) == {}
    assert found(directory, [needle for pair in stale for needle in pair]) == {}
    assert not [p.name for p in (directory / "vectors").iterdir() if "." in p.name]  # no rewrite left over


def _heads(mem: Memory, ids: Sequence[str]) -> list[tuple[bytes, ...]]:
    """Per id, its vector's byte patterns (``vector_bytes``), in order."""
    return [tuple(vector_bytes(mem, [i])) for i in ids]


def test_an_operator_still_rebuilds_the_shards_by_deleting_them_while_closed(
    stored: tuple[Path, Memory, list[bytes]],
) -> None:
    """The remedy README "Erasure" gave before erasures rewrote the shards, still there for a
    copy of ``vectors/`` an erasure could not reach: with the memory closed, delete
    ``vectors/``; the next open finds the shards empty, marks every remaining turn and belief
    for embedding again (``eywa.stores.embedded.lost_vectors``) and embeds them; the erased
    ones are no longer there to embed."""
    directory, mem, vectors = stored
    _forget(mem)
    mem.close()
    shutil.rmtree(directory / "vectors")
    again = Memory.open(directory, settings=EywaSettings(data_dir=directory), embedder=HashEmbedder(),
                        extractor=ScriptedExtractor())  # fmt: skip
    try:
        again.wait()
        assert again._stores.vectors.count("evidence", SPACE) == again.stats(SPACE)["evidence"] == 12
        assert again.recall(SPACE, "Where does Ana work?", k=5).items
    finally:
        again.close()
    assert found(directory, vectors) == {} and found(directory, spellings(WORD)) == {}


@pytest.mark.parametrize("erasure", list(ERASURES))
def test_a_shard_set_aside_as_damaged_is_deleted_by_the_erasure(stored: tuple[Path, Memory, list[bytes]], erasure: str) -> None:
    """A shard found damaged at open is moved to ``<kind>.corrupt-<time>`` with every vector
    it held (``tests/reliability/test_lost_vectors.py``), and no erasure can delete points in a
    shard that does not load: before, the erased vectors stayed in that copy until an operator
    deleted it. The erasure that rewrites the shard now deletes its set-aside copies."""
    directory, mem, vectors = stored
    mem.close()
    (segment,) = (directory / "vectors" / "evidence" / "segments").glob("*/payload_storage/page_0.dat")
    with segment.open("r+b") as f:
        f.truncate(0)
    again = Memory.open(directory, settings=EywaSettings(data_dir=directory), embedder=HashEmbedder(),
                        extractor=ScriptedExtractor())  # fmt: skip
    try:
        again.reconcile()
        (moved,) = (directory / "vectors").glob("evidence.corrupt-*")
        assert found(moved, vectors)  # the copy holds Bo's vectors: the check can fail
        ERASURES[erasure](again)
        assert not moved.exists()
        assert found(directory, vectors) == {}
        assert again.recall("other", "Another space", k=5).items  # the other space still answers
    finally:
        again.close()
    assert found(directory, vectors) == {}
