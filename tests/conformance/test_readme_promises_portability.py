"""README, Portability: "Turns keep their ``recorded_at``, so retention periods count from when
they were first stored" (audit of s25). The round trip's exports were compared record for
record, but no test imported a space later than it was stored and applied a retention:
an import that stamped its own time would have kept an expired space for another period.

The source is an embedded memory; the import goes to each backend, 40 days after the turns
were stored, and a 30-day period erases them at once while a 60-day one keeps them.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import time_machine

from eywa import Memory
from eywa.embedding import Embedder
from eywa.portability import record_json
from tests.conformance.conftest import MemoryFactory

SPACE = "kept"
TURNS = [  # said long ago, stored on the first day
    {"text": "I adopted a cat named Miso.", "speaker": "Ana", "observed_at": "2020-03-01T10:00:00Z"},
    {"text": "I live in Lyon now.", "speaker": "Ana", "observed_at": "2020-03-01T10:01:00Z"},
]
STORED = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)


def _export(tmp_path: Path, embedder: Embedder) -> tuple[list[str], list[str]]:
    """The export's lines and the turns' ids (derived from the space, so the copy's too)."""
    with time_machine.travel(STORED, tick=False), Memory.open(tmp_path / "source", embedder=embedder) as source:
        ids = source.remember(SPACE, TURNS, wait=True)
        return [record_json(r) for r in source.export_space(SPACE)], ids


@pytest.mark.parametrize(("days", "erased"), [(30, True), (60, False)])
def test_an_imported_space_keeps_when_its_turns_were_first_stored_for_retention(
    open_memory: MemoryFactory, tmp_path: Path, embedder: Embedder, days: int, erased: bool
) -> None:
    lines, ids = _export(tmp_path, embedder)
    mem = open_memory()
    imported = STORED + timedelta(days=40)
    with time_machine.travel(imported, tick=False):
        report = mem.import_space(SPACE, lines, wait=True)
        assert report.counts["turn"] == len(TURNS)
        mem.remember("fresh", [{"text": "I started a pottery class.", "speaker": "Bo"}], wait=True)
        assert [mem.evidence(SPACE, i).recorded_at for i in ids] == [STORED] * len(TURNS)
        reports = mem.apply_retention({SPACE: days, "fresh": days})
    if erased:
        assert [(r.space, r.counts["turns"]) for r in reports] == [(SPACE, len(TURNS))]
        assert mem.stats(SPACE)["evidence"] == 0
    else:
        assert reports == [] and mem.stats(SPACE)["evidence"] == len(TURNS)
    assert mem.stats("fresh")["evidence"] == 1  # stored on the import's day: within any period

