"""A write a caller waits for goes before the background backlog, between two of its units
(``eywa.reconcile.Reconciler``, ``eywa.threads.PriorityTurn``).

The background drain used to hold the stage-work lock for up to ``EYWA_RECONCILE_BATCH``
turns at once, so a waited write (``EYWA_LEVEL1_WAIT=true``, an erasure, a correction)
queued behind the whole drain. Here the background thread is held inside its first unit
(an extractor that waits for an event), a waited write starts and queues for the turn,
the hold is released, and the extraction log shows the waited write ran after that one unit
with background units still to come. Nothing is timed; afterwards every turn went through
Level 1 exactly once and nothing is pending.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from eywa.extraction.context import Earlier
from eywa.extraction.rules import RuleExtractor
from eywa.memory import Memory
from eywa.models import CandidateFact, Evidence
from eywa.settings import EywaSettings
from eywa.stores.ledger import SpaceBacklog
from tests.reliability.support import HashEmbedder, corpus

UNIT = 8
BULK = 12 * UNIT


class HoldingExtractor(RuleExtractor):
    """The rule extractor, logging (thread kind, space, turn ids) per call; the background
    thread's first call waits for ``release``."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, list[str]]] = []
        self.holding = threading.Event()
        self.release = threading.Event()

    def propose_after(self, space: str, evidence: Sequence[Evidence], earlier: Earlier) -> Iterable[CandidateFact]:
        kind = "background" if threading.current_thread().name.startswith("eywa-background") else "waited"
        self.calls.append((kind, space, [e.id for e in evidence]))
        if kind == "background" and not self.holding.is_set():
            self.holding.set()
            if not self.release.wait(timeout=120):
                raise TimeoutError("the test never let the background unit go")
        return super().propose_after(space, evidence, earlier)


def test_a_waited_write_runs_between_two_background_units(tmp_path: Path) -> None:
    extractor = HoldingExtractor()
    settings = EywaSettings(data_dir=tmp_path / "mem", level1_batch_size=UNIT, reconcile_batch=500)
    mem = Memory.open(settings.data_dir, settings=settings, embedder=HashEmbedder(), extractor=extractor)
    try:
        bulk = mem.remember("bulk", corpus(BULK), wait=False)  # acknowledged after Level 0
        assert extractor.holding.wait(timeout=120)  # the background thread is inside its first unit
        done: list[list[str]] = []
        waited = threading.Thread(
            target=lambda: done.append(mem.remember("urgent", [{"text": "I moved to Oslo.", "speaker": "Ana"}], wait=True))
        )
        waited.start()
        turn = mem._reconciler._turn  # the waited write queues for the turn the held unit has
        for _ in range(100_000):
            if turn.urgent_waiting or not waited.is_alive():
                break
            waited.join(timeout=0.001)
        assert turn.urgent_waiting == 1
        extractor.release.set()
        waited.join(timeout=120)
        assert done and not waited.is_alive()
        # The waited write's Level 1 came after the first background unit, before the others.
        kinds = [(kind, space) for kind, space, _ in extractor.calls]
        first_waited = kinds.index(("waited", "urgent"))
        assert all(k == ("background", "bulk") for k in kinds[:first_waited])
        assert 0 < sum(len(ids) for _, _, ids in extractor.calls[:first_waited]) <= UNIT
        mem.wait()
        assert kinds[first_waited:].count(("background", "bulk")) < len(extractor.calls) - first_waited
        assert [kind for kind, space, _ in extractor.calls if space == "bulk"].count("background") > 1
        # Nothing lost, nothing done twice: each bulk turn through Level 1 once; nothing pending.
        seen = Counter(i for _, space, ids in extractor.calls if space == "bulk" for i in ids)
        assert set(seen) == set(bulk) and set(seen.values()) == {1}
        assert mem.pending("bulk") == SpaceBacklog() and mem.pending("urgent") == SpaceBacklog()
    finally:
        extractor.release.set()
        mem.close()
