"""The grouped space counts (``SpaceCatalog.counts``, ``Memory.space_counts``) equal, for
every space asked, what the per-space reads answer for it alone: ``stats`` (turns, beliefs
and candidates by status, dimensions as ``list_dimensions`` gives them), ``erasures``,
``pending`` and the ``touched_between`` audit's turns, on spaces with different contents,
erased ones, an emptied one and one never written."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError
from eywa.models import utc_now
from eywa.stores.bundle import Stores
from eywa.stores.ledger import SpaceBacklog
from eywa.stores.spaces import SpaceCounts
from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor

FACTS: dict[str, list[dict[str, Any]]] = {
    "work at Google": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer",
                        "value": "Google"}],
    "live in Lisbon": [{"statement": "Ana lives in Lisbon.", "subject": "Ana", "attribute": "lives_in",
                        "value": "Lisbon"}],
    "weather is nice": [{"statement": "Ana owns a sailing boat.", "subject": "Ana", "attribute": "owns",
                         "value": "sailing boat"}],  # nothing in the turn supports it: refused
}  # fmt: skip
ASKED = ["ana", "bo", "cy", "dee", "never"]


def _turns(space: str, texts: list[str]) -> list[dict[str, str]]:
    return [
        {"text": text, "speaker": "Ana", "session": f"{space}-s1", "observed_at": f"2024-03-0{i + 1}T09:00:00"}
        for i, text in enumerate(texts)
    ]


def _fill(mem: Memory) -> None:
    """Spaces with different contents: beliefs, a refused candidate and dimensions (ana, one
    turn erased); plain turns (bo); everything dropped (cy); one turn (dee); nothing (never)."""
    mem.remember("ana", _turns("ana", ["I work at Google now.", "I live in Lisbon.", "The weather is nice today.",
                                       "Just some chatter."]))  # fmt: skip
    ana_ids = mem.remember("ana", _turns("ana", ["Just some chatter."]))
    mem.forget("ana", evidence_ids=ana_ids)
    mem.remember("bo", _turns("bo", ["Hello there.", "Nothing to see.", "Still nothing."]))
    mem.remember("cy", _turns("cy", ["I work at Google now.", "Bye."]))
    mem.drop_space("cy")
    mem.remember("dee", _turns("dee", ["I live in Lisbon."]))


def _one_by_one(mem: Memory, space: str, start: datetime, stop: datetime) -> SpaceCounts:
    """What the per-space reads answer for ``space`` alone (the list of spaces' old path)."""
    stats = mem.stats(space)
    recent = mem.audit("touched_between", {"space": space, "from": start.isoformat(), "to": stop.isoformat()})
    return SpaceCounts(
        turns=int(stats["evidence"]),
        turns_recorded=sum(1 for row in recent.rows if row[0] == "Evidence"),
        statuses=dict(stats["beliefs"]),
        dimensions=int(stats["dimensions"]),
        erasures=len(mem.erasures(space)),
        backlog=mem.pending(space),
    )


def test_grouped_counts_equal_the_per_space_reads(open_memory: MemoryFactory) -> None:
    mem = open_memory(extractor=ScriptedExtractor(FACTS))
    _fill(mem)
    now = utc_now()
    for start, stop in ((now - timedelta(hours=1), now + timedelta(minutes=1)),
                        (now - timedelta(hours=2), now - timedelta(hours=1))):  # fmt: skip
        grouped = mem.space_counts(ASKED, start, stop)
        assert list(grouped) == ASKED
        for space in ASKED:
            assert grouped[space] == _one_by_one(mem, space, start, stop), space
    counts = mem.space_counts(ASKED, now - timedelta(hours=1), now + timedelta(minutes=1))
    # The data is what the comparison is meant to cover: the fields differ between spaces.
    assert counts["ana"].turns == 4 and counts["ana"].erasures == 1 and counts["ana"].turns_recorded == 4
    assert counts["ana"].statuses.get("belief_active", 0) >= 2 and counts["ana"].dimensions >= 2
    assert counts["ana"].statuses.get("candidate_rejected", 0) + counts["ana"].statuses.get("candidate_repair", 0) == 1
    assert counts["bo"] == SpaceCounts(turns=3, turns_recorded=3)
    assert counts["cy"] == SpaceCounts(erasures=1)
    assert counts["dee"].turns == 1 and counts["dee"].dimensions == 1
    assert counts["never"] == SpaceCounts()
    assert mem.space_counts(["bo"], now - timedelta(hours=2), now - timedelta(hours=1))["bo"].turns_recorded == 0


def test_grouped_backlog_equals_space_backlog(stores: Stores) -> None:
    at = utc_now()
    stores.ledger.mark("ana", "embed_evidence", ["e1", "e2", "e3"], "new", at)
    stores.ledger.mark("ana", "level1", ["e1", "e2"], "new", at)
    stores.ledger.mark("ana", "nous", ["e2", "e4"], "new", at)
    stores.ledger.mark("bo", "nous", ["e9"], "new", at)
    stores.ledger.mark("bo", "embed_belief", ["b1"], "new", at)  # owed by a belief: neither count
    grouped = stores.catalog.counts(["ana", "bo", "cy"], at - timedelta(hours=1), at)
    assert {space: c.backlog for space, c in grouped.items()} == {
        space: stores.ledger.space_backlog(space) for space in ("ana", "bo", "cy")
    }
    assert grouped["ana"].backlog == SpaceBacklog(embed=3, level1=3)
    assert grouped["bo"].backlog == SpaceBacklog(embed=0, level1=1)
    assert stores.catalog.counts([], at, at) == {}


@pytest.mark.parametrize("bound", [None, 10**20, "yesterday", "2024-02-30"])
def test_a_bound_that_is_no_time_is_refused_as_input(memory: Memory, bound: object) -> None:
    """An integer reached the Neo4j driver and failed there (``OverflowError``, no EywaError)."""
    with pytest.raises(InvalidInputError) as refused:
        memory.space_counts(["home"], bound, utc_now())  # type: ignore[arg-type]
    assert refused.value.problems[0].field == "recorded_from"
    assert memory.space_counts(["home"], "2024-01-01T00:00:00+02:00", utc_now())["home"].turns == 0  # type: ignore[arg-type]
