"""The stages after Level 0 run on a thread at a lowered priority, and requests do not wait
for them (``eywa.threads``, ``eywa.reconcile.Reconciler``).

A write acknowledged after Level 0 leaves its embedding and Level 1 to the background
thread, which runs at ``EYWA_BACKGROUND_NICE``; work a caller waits for (a write with
``wait``, a query's embedding) keeps the caller's priority. While the background thread is
held in the middle of a batch, a recall and further writes are still answered over HTTP, and
once it is let go every turn is embedded and through Level 1. The embedder records the nice
value of each thread that calls it and holds only lowered threads, so nothing is timed.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa.memory import Memory
from eywa.models import CandidateFact, Evidence
from eywa.reconcile import ReconcileReport
from eywa.settings import EywaSettings
from eywa.threads import current_nice
from tests.reliability.support import HashEmbedder
from tests.services.conftest import Service, build_service

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="per-thread priorities are Linux's")

NICE = 7
SPACE = "prio"


def turns(tag: str, n: int = 4) -> list[dict[str, str]]:
    return [{"text": f"Turn {tag}-{i}: I moved to city {i}.", "speaker": "Ana", "external_id": f"{tag}-{i}"} for i in range(n)]


class PriorityEmbedder(HashEmbedder):
    """Records (nice value, texts) of every call; a lowered thread (nice ``NICE`` or more)
    waits for ``release``. Not any nice above 0: a suite run under ``nice -n 5`` has every
    thread at 5, and a recall's embedding was then held as if it were background work (its
    request failed after the hold's 60 s)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[int, list[str]]] = []
        self.holding = threading.Event()
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        nice = current_nice()
        self.calls.append((nice, list(texts)))
        if nice >= NICE:
            self.holding.set()
            if not self.release.wait(timeout=60):
                raise TimeoutError("the test never let the background thread go")
        return super().embed(texts)

    def nice_of(self, fragment: str) -> set[int]:
        """The nice values of the calls that embedded a text containing ``fragment``."""
        return {nice for nice, texts in self.calls if any(fragment in text for text in texts)}


@pytest.fixture
def prioritised(tmp_path: Path) -> Iterator[tuple[Memory, PriorityEmbedder, Service]]:
    """A memory acknowledging after Level 0 whose background thread runs at ``NICE``, with
    the rule-based extractor, and an API over it."""
    settings = EywaSettings(
        data_dir=tmp_path / "mem", level1_wait=False, background_nice=NICE, rate_limit_per_minute=0, reconcile_batch=5
    )  # fmt: skip
    embedder = PriorityEmbedder()
    mem = Memory.open(settings.data_dir, settings=settings, embedder=embedder)
    svc = build_service(mem, tmp_path, settings)
    try:
        yield mem, embedder, svc
    finally:
        embedder.release.set()  # never leave the background thread waiting
        svc.client.close()
        svc.keys.close()
        mem.close()


def test_background_stages_run_lowered_and_waited_work_does_not(
    prioritised: tuple[Memory, PriorityEmbedder, Service],
) -> None:
    mem, embedder, _ = prioritised
    embedder.release.set()
    assert current_nice() < NICE  # the test itself runs at full priority
    mem.remember(SPACE, turns("bg"), wait=False)
    mem.wait()
    assert embedder.nice_of("Turn bg-0:") == {NICE}
    mem.remember(SPACE, turns("fg"), wait=True)
    assert embedder.nice_of("Turn fg-0:") == {current_nice()}
    mem.recall(SPACE, "Where did Ana move?")
    assert embedder.nice_of("Where did Ana move?") == {current_nice()}
    assert mem.pending(SPACE).embed == 0 and mem.pending(SPACE).level1 == 0


def test_level1_runs_on_the_lowered_thread(tmp_path: Path) -> None:
    seen: list[int] = []

    class Recording:
        name = "recording"
        version = "1"

        def propose(self, space: str, evidence: Sequence[Evidence]) -> list[CandidateFact]:
            seen.append(current_nice())
            return []

    settings = EywaSettings(data_dir=tmp_path / "mem", level1_wait=False, background_nice=NICE)
    with Memory.open(settings.data_dir, settings=settings, embedder=HashEmbedder(), extractor=Recording()) as mem:
        mem.remember(SPACE, turns("l1"), wait=False)
        mem.wait()
        assert seen and set(seen) == {NICE}
        assert mem.pending(SPACE).level1 == 0
        seen.clear()
        mem.remember(SPACE, turns("waited"), wait=True)  # a caller waits: full priority
        assert seen and set(seen) == {current_nice()}


def test_requests_are_served_while_the_background_thread_is_busy(
    prioritised: tuple[Memory, PriorityEmbedder, Service],
) -> None:
    mem, embedder, svc = prioritised
    headers = svc.headers([SPACE])
    first = svc.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": turns("a")}, headers=headers)
    assert first.status_code == 201, first.text
    assert embedder.holding.wait(timeout=30)  # the background thread is inside the batch's embedding
    for tag in ("b", "c", "d"):  # more than one bounded drain (``reconcile_batch`` 5) queues up
        answer = svc.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": turns(tag)}, headers=headers)
        assert answer.status_code == 201, answer.text
    recall = svc.client.post(f"/v1/spaces/{SPACE}/recall", json={"query": "Where did Ana move?"}, headers=headers)
    assert recall.status_code == 200, recall.text
    assert recall.json()["items"]  # found by keyword before any turn is embedded
    assert mem.pending(SPACE).embed == 16
    embedder.release.set()
    mem.wait()
    assert mem.pending(SPACE).embed == 0 and mem.pending(SPACE).level1 == 0
    assert all(embedder.nice_of(f"Turn {tag}-{i}:") == {NICE} for tag in "abcd" for i in range(4))


def test_close_stops_after_the_drain_in_progress_and_the_next_open_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process stopped during a backlog stops within one bounded drain (``reconcile_batch``
    turns); the ledger keeps the rest, which the next open finishes: nothing is lost.

    The held drain is let go only once ``close`` has asked the reconciler to stop (from the
    join ``Reconciler.close`` runs after setting its stop flag). Letting it go right after
    starting the closing thread raced the scheduler: under load that thread had not reached
    the flag when the drain ended, the next drain took batch b, and the backlog was 4, not 8
    (reproduced by a 0.3 s sleep before ``close``)."""
    from eywa.runtime import open_graph_stores

    settings = EywaSettings(
        data_dir=tmp_path / "mem", extractor="none", level1_wait=False, background_nice=NICE, reconcile_batch=4
    )  # fmt: skip
    embedder = PriorityEmbedder()
    mem = Memory.open(settings.data_dir, settings=settings, embedder=embedder)
    try:
        for tag in ("a", "b", "c"):
            mem.remember(SPACE, turns(tag), wait=False)
            assert embedder.holding.wait(timeout=30)  # the first drain holds the background thread
        reconciler = mem._reconciler  # the one look inside: when close has asked it to stop
        join = reconciler.wait

        def release_then_join() -> list[ReconcileReport]:
            embedder.release.set()
            return join()

        monkeypatch.setattr(reconciler, "wait", release_then_join)
        closing = threading.Thread(target=mem.close)
        closing.start()
        closing.join(timeout=60)
        assert not closing.is_alive()
    finally:
        embedder.release.set()
        mem.close()
    stores = open_graph_stores(settings)
    try:
        assert stores.ledger.space_backlog(SPACE).embed == 8  # batches b and c, left pending
    finally:
        stores.close()
    assert embedder.nice_of("Turn a-0:") == {NICE} and not embedder.nice_of("Turn b-0:")
    with Memory.open(settings.data_dir, settings=settings, embedder=HashEmbedder()) as reopened:
        reopened.wait()
        assert reopened.pending(SPACE).embed == 0
