"""README, What survives a crash: "A failing stage keeps its mark, records the error and is
retried with backoff" (audit of s25). The ledger's own test pushes a mark back by hand
(test_stage_ledger.py) and the job tests read the error over HTTP; no test went through
``Memory`` from an extractor endpoint that fails to the belief made once it answers again,
nor showed that a pass inside the backoff leaves the mark alone rather than calling the
failing endpoint again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from eywa.errors import ExtractorError
from eywa.models import CandidateFact, Evidence
from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor

SPACE = "flaky"
TURN = {"text": "I work at Google as a designer.", "speaker": "Ana", "observed_at": "2023-01-10T09:00:00Z"}
FACTS = {"work at Google": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer",
                             "value": "Google"}]}  # fmt: skip


class EndpointDownThenUp(ScriptedExtractor):
    """The scripted extractor behind an endpoint that fails its first ``failures`` calls."""

    def __init__(self, failures: int) -> None:
        super().__init__(FACTS)
        self.failures, self.calls = failures, 0

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        self.calls += 1
        if self.calls <= self.failures:
            raise ExtractorError("extractor endpoint down")
        return super().propose(space, evidence)


def test_a_failed_level1_keeps_its_mark_waits_its_backoff_and_then_makes_the_belief(
    open_memory: MemoryFactory,
) -> None:
    extractor = EndpointDownThenUp(failures=1)
    mem = open_memory(extractor=extractor)
    start = datetime.now(timezone.utc)
    with time_machine.travel(start, tick=False):
        with pytest.raises(ExtractorError, match="endpoint down"):
            mem.remember(SPACE, [TURN], wait=True)
        assert mem.stats(SPACE)["evidence"] == 1 and mem.pending(SPACE).level1 == 1  # the mark is kept
        assert mem.beliefs(SPACE) == []

        early = mem.reconcile(SPACE)  # inside the backoff: the endpoint is not asked again
        assert early.completed.get("level1", 0) == 0 and extractor.calls == 1
        assert mem.pending(SPACE).level1 == 1

    with time_machine.travel(start + timedelta(minutes=11), tick=False):  # past any backoff (capped at 10 min)
        later = mem.reconcile(SPACE)
        assert later.completed["level1"] == 2 and extractor.calls == 2  # its level1 and nous marks
        assert [b.value for b in mem.beliefs(SPACE, "Ana", "employer")] == ["Google"]
        assert mem.dimension(SPACE, "Ana", "employer").mode == "Google"
        assert mem.pending(SPACE).level1 == 0
