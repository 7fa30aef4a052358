"""README, Retention: "``Memory.apply_retention(policy=None, *, now=None)`` does the same
in-process: per space, the turns recorded before its cutoff are erased ... (one erasure
record per space, author ``retention``, selector ``recorded_before``)" — every test moved
the clock with time-machine; none passed ``now`` (audit of s25).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError


def test_now_sets_the_cutoff_as_a_datetime_or_an_iso_text(memory: Memory) -> None:
    memory.remember("kept-until", [{"text": "I adopted a cat named Miso.", "speaker": "Ana"}])
    stored = datetime.now(timezone.utc)
    policy = {"kept-until": 30}
    assert memory.apply_retention(policy, now=stored + timedelta(days=29)) == []
    with pytest.raises(InvalidInputError) as bad:
        memory.apply_retention(policy, now="next month")
    assert bad.value.problems[0].field == "now"
    assert memory.stats("kept-until")["evidence"] == 1

    later = stored + timedelta(days=31)
    (report,) = memory.apply_retention(policy, now=later.isoformat())
    assert report.space == "kept-until" and report.counts["turns"] == 1 and report.state == "done"
    (record,) = memory.erasures("kept-until")
    assert record.author == "retention" and record.selector.recorded_before == later - timedelta(days=30)
    assert memory.stats("kept-until")["evidence"] == 0
