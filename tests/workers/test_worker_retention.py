"""The beat's retention task, run in-process over an embedded directory: it erases what is
past the period through the cascade without a vector store (the erasure stays ``pending``),
and the next open of the memory (the process with the vectors) finishes it with zero residue."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import time_machine

from eywa import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.factory import open_embedded_graph
from workers import tasks

TURNS = [{"text": "I adopted a cat named Miso.", "speaker": "Ana", "observed_at": "2020-03-01T10:00:00Z"}]


def test_the_beat_task_erases_past_retention(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory.open(tmp_path / "mem") as mem:
        mem.remember("s", TURNS, wait=True)
    stores = open_embedded_graph(tmp_path / "mem")
    try:
        monkeypatch.setenv("EYWA_REDIS_URL", "redis://127.0.0.1:1/0")  # the app's config needs one; never dialled
        monkeypatch.setattr(tasks, "worker_stores", lambda: stores)
        monkeypatch.setattr(tasks, "worker_settings", lambda: EywaSettings(retention_days={"*": 7}))
        assert tasks.apply_retention.run() == {"erased": {}}
        with time_machine.travel(datetime.now(timezone.utc) + timedelta(days=8), tick=False):
            assert tasks.apply_retention.run() == {"erased": {"s": 1}}
        assert [r.state for r in stores.erasure.erasures("s")] == ["pending"]  # no vectors in a worker
    finally:
        stores.close()
    with Memory.open(tmp_path / "mem") as mem:  # the reconciler finishes it on open
        (record,) = mem.erasures("s")
        assert record.state == "done" and mem.erasure_proof("s", record.id).total == 0
