"""Retention on every backend: turns older than a space's period, measured on ``recorded_at``
(so an import of old conversations is kept for the period from its import), are erased
through the cascade with one record per space (author ``retention``) and zero residue; a
space without a period, or with nothing past it, is untouched; bad periods are refused. The
clock is moved with time-machine."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from eywa.errors import InvalidInputError
from tests.conformance.conftest import MemoryFactory

OLD_CONVERSATION = [  # said in 2020, imported today
    {"text": "I adopted a cat named Miso.", "speaker": "Ana", "observed_at": "2020-03-01T10:00:00Z"},
    {"text": "I live in Lyon now.", "speaker": "Ana", "observed_at": "2020-03-01T10:01:00Z"},
]
RECENT = [{"text": "I started running every morning.", "speaker": "Ana"}]


def test_retention_erases_on_recorded_at_through_the_cascade(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    today = datetime.now(timezone.utc)
    mem.remember("kept", OLD_CONVERSATION, wait=True)
    old = mem.remember("short", OLD_CONVERSATION, wait=True)
    with pytest.raises(InvalidInputError):
        mem.apply_retention({"short": 0})
    with pytest.raises(InvalidInputError):
        mem.apply_retention({"short": "30"})  # type: ignore[dict-item]
    assert mem.apply_retention({"short": 30}) == []  # observed in 2020, recorded today: kept

    with time_machine.travel(today + timedelta(days=20), tick=False):
        new = mem.remember("short", RECENT, wait=True)
    with time_machine.travel(today + timedelta(days=31), tick=False):
        (report,) = mem.apply_retention({"short": 30})
    assert report.space == "short" and report.counts["turns"] == len(old) and report.state == "done"
    assert [e.author for e in mem.erasures("short")] == ["retention"]
    assert mem.erasure_proof("short", report.erasure_id).total == 0
    assert [t.id for t in (mem.evidence("short", i) for i in new)] == new
    assert mem.stats("kept")["evidence"] == len(OLD_CONVERSATION)  # no period: untouched
    with time_machine.travel(today + timedelta(days=31), tick=False):
        assert mem.apply_retention({"short": 30}) == []  # nothing more: no new record
