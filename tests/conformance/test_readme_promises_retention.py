"""README promises of Retention and Portability that no test showed (audit of s21):

- Retention: ``EYWA_RETENTION_DAYS='{"alice": 30, "*": 365}'`` — ``"*"``: every space without
  its own; unset: kept forever; ``Memory.apply_retention(policy=None)`` reads the setting.
  test_retention.py passes one space's period explicitly.
- Portability: "a space that already holds data (turns, beliefs, dimensions, merges,
  corrections or erasure records) is a SpaceNotEmptyError ... (dropping it leaves an
  erasure record, which counts too)". test_portability.py refuses a space holding turns.

Both backends, through ``Memory``; the clock is moved with time-machine.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import time_machine

from eywa import Memory
from eywa.embedding import Embedder
from eywa.errors import SpaceNotEmptyError
from eywa.portability import record_json
from tests.conformance.conftest import MemoryFactory

TURNS = [{"text": "I adopted a cat named Miso.", "speaker": "Ana"}, {"text": "I live in Lyon now.", "speaker": "Ana"}]


def test_star_is_the_period_of_every_space_without_its_own_and_unset_keeps_everything(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    today = datetime.now(timezone.utc)
    for space in ("alice", "bob", "carol"):
        mem.remember(space, TURNS, wait=True)
    with time_machine.travel(today + timedelta(days=3650), tick=False):
        assert mem.apply_retention() == []  # EYWA_RETENTION_DAYS unset: kept forever
    with time_machine.travel(today + timedelta(days=40), tick=False):
        reports = mem.apply_retention({"alice": 365, "*": 30})
    assert sorted(r.space for r in reports) == ["bob", "carol"]
    assert all(r.counts["turns"] == len(TURNS) and r.state == "done" for r in reports)
    assert mem.stats("alice")["evidence"] == len(TURNS) and mem.erasures("alice") == []


def test_apply_retention_without_a_policy_reads_eywa_retention_days(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The setting is read by ``Memory`` whatever the backend (the server variant's settings
    are made before a test runs, so this one opens the embedded store)."""
    monkeypatch.setenv("EYWA_RETENTION_DAYS", '{"alice": 30}')
    today = datetime.now(timezone.utc)
    with Memory.open(tmp_path / "mem", embedder=embedder) as mem:
        for space in ("alice", "bob"):
            mem.remember(space, TURNS, wait=True)
        with time_machine.travel(today + timedelta(days=40), tick=False):
            (report,) = mem.apply_retention()
        assert report.space == "alice" and [e.author for e in mem.erasures("alice")] == ["retention"]
        assert mem.stats("bob")["evidence"] == len(TURNS)


def test_a_dropped_space_still_refuses_an_import_its_erasure_record_counts(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember("home", TURNS, wait=True)
    lines = "\n".join(record_json(r) for r in mem.export_space("home"))
    mem.drop_space("home")
    assert mem.stats("home")["evidence"] == 0
    with pytest.raises(SpaceNotEmptyError, match="erasure"):
        mem.import_space("home", lines.splitlines())
    assert mem.stats("home")["evidence"] == 0 and len(mem.erasures("home")) == 1
