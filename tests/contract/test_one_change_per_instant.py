"""A change said once is news once: "I quit Acme; I work at Globex now." gives the employer
two observations at one event time (Acme ended, Globex positive). Each released the change
hazard, so the second decayed the first's news toward uniform and the memory answered
"Where does Alice work now?" with Globex at p 0.55, below the answer threshold: the
occupation ranked first and the employer fourth. An instant now releases its change once.
Through the public ``Memory``; the fold's math is in ``eywa.nous.engine.replay``."""

from __future__ import annotations

from typing import Any

import pytest

from eywa.memory import Memory
from eywa.read.answers import ANSWER_THRESHOLD

EARLIER = {"text": "I just started at Acme as a data engineer.", "speaker": "Alice",
           "session": "2024-03-02", "observed_at": "2024-03-02T10:15:00"}  # fmt: skip


def _employer(memory: Memory, space: str) -> dict[str, float]:
    (employer,) = [d for d in memory.dimensions(space, "Alice") if d.attribute == "employer"]
    return dict(employer.distribution)


@pytest.mark.parametrize(
    "later",
    [
        [{"text": "I quit Acme; I work at Globex now.", "speaker": "Alice", "session": "2024-09-10",
          "observed_at": "2024-09-10T09:00:00"}],
        # The same news in two turns of one batch, stamped with one time.
        [{"text": "I quit Acme.", "speaker": "Alice", "session": "2024-09-10", "observed_at": "2024-09-10T09:00:00"},
         {"text": "I work at Globex now.", "speaker": "Alice", "session": "2024-09-10",
          "observed_at": "2024-09-10T09:00:00"}],
    ],
    ids=["one turn", "two turns at one time"],
)  # fmt: skip
def test_where_someone_works_now_after_one_sentence_that_says_they_changed(
    memory: Memory, later: list[dict[str, Any]], request: pytest.FixtureRequest
) -> None:
    space = f"instant-{request.node.callspec.id.replace(' ', '-')}"
    memory.remember(space, [EARLIER])
    assert max(_employer(memory, space), key=_employer(memory, space).__getitem__) == "Acme"

    memory.remember(space, later)

    employer = _employer(memory, space)
    assert employer["Globex"] >= ANSWER_THRESHOLD, employer
    assert employer.get("Acme", 0.0) < 0.05, employer
    first = memory.recall(space, "Where does Alice work now?", k=5).items[0]
    assert first.kind == "dimension" and "employer: Globex" in first.text, first.text
