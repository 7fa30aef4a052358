"""An erasure's Neo4j reads do not grow with the number of turns it erases.

Erasing a speaker re-embeds every turn an erased one replied to; each such turn sits at the
edge of a run of the batch, and its neighbours were read one turn per round trip (1,304
reads of 1,340 erased turns out of 10,000 in ``eywa bench erasure --backend server``, 1.4 s
of its 9.7 s). Here the same erasure on a space of 8 turns and on one of 48 must make the
same number of reads: they are batched per space, whatever the selection.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.bench.erasure import HashVectors
from eywa.stores.neo4j.graph import Neo4jGraph
from tests.conformance.conftest import server_settings
from tests.conformance.test_erasure import ScriptedExtractor

pytestmark = pytest.mark.neo4j


def _turns(pairs: int) -> list[dict[str, str]]:
    """Ana and Bo in turn, each of Ana's turns replied to by Bo, over sessions of 8 turns."""
    return [
        {"text": f"{speaker} says line {n}.", "speaker": speaker, "session": f"s{n // 8}",
         "observed_at": f"2023-01-{1 + n // 8:02d}T09:{n % 60:02d}:00"}
        for n in range(2 * pairs) for speaker in ["Ana" if n % 2 == 0 else "Bo"]
    ]  # fmt: skip


def test_a_speakers_erasure_reads_neo4j_as_often_for_48_turns_as_for_8(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = server_settings(request, tmp_path)
    reads: Counter[str] = Counter()
    read = Neo4jGraph.read

    def counted(self: Neo4jGraph, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        reads[operation] += 1
        return read(self, operation, query, **params)

    with Memory.connect(settings, embedder=HashVectors(), extractor=ScriptedExtractor()) as mem:
        mem.remember("small", _turns(4), wait=True)
        mem.remember("large", _turns(24), wait=True)
        monkeypatch.setattr(Neo4jGraph, "read", counted)
        small = mem.forget("small", speaker="Bo")
        small_reads = Counter(reads)
        reads.clear()
        large = mem.forget("large", speaker="Bo")
        large_reads = Counter(reads)
        monkeypatch.undo()
        assert (small.counts["turns"], large.counts["turns"]) == (4, 24)
        assert large_reads == small_reads, large_reads - small_reads
        for space, report in (("small", small), ("large", large)):  # vectors: the remaining turns', none erased
            assert mem.erasure_proof(space, report.erasure_id).total == 0
            assert mem._stores.vectors.count("evidence", space) == mem._stores.evidence.count(space) > 0
