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


PARIS = {"text": "I live in Paris.", "speaker": "Alice", "session": "2024-01-02", "observed_at": "2024-01-02T10:00:00"}
OSLO = {"text": "I moved to Oslo.", "speaker": "Alice", "session": "2024-09-02", "observed_at": "2024-09-02T10:00:00"}
PORTO = {"text": "I live in Porto now.", "speaker": "Alice", "session": "2024-09-02",
         "observed_at": "2024-09-02T10:00:00"}  # fmt: skip
LIMA = {"text": "I live in Lima.", "speaker": "Alice", "session": "2024-09-02", "observed_at": "2024-09-02T10:00:00"}


def _residence(memory: Memory, space: str) -> tuple[dict[str, float], str | None, str | None, list[str]]:
    (home,) = [d for d in memory.dimensions(space, "Alice") if d.attribute == "residence"]
    order = [d.observed for d in memory.deltas(space, "Alice", "residence")]
    return {k: round(v, 9) for k, v in home.distribution.items()}, home.mode, home.previous, order


def test_two_places_said_at_one_time_give_one_answer_whatever_the_space_is_called(memory: Memory) -> None:
    """Two turns stamped with one time name two new places. Folded one by one, the first
    took the larger share, and which was first follows the delta ids, i.e. the space's name:
    one space answered Oslo (0.55 against 0.41), another Porto. The instant now enters at
    once (``eywa.nous.math.categorical_instant``): the same state in every space, whichever
    path wrote it: one batch, the second turn in a later batch (a replay, since it does not
    come after the last event), or a third turn of that time written and then forgotten."""
    outcomes = {}
    for space in ("instant-a", "instant-d"):
        memory.remember(space, [PARIS])
        memory.remember(space, [OSLO, PORTO])
        outcomes[space] = _residence(memory, space)
    # The two spaces fold the instant in the two orders, so the check is not vacuous.
    assert outcomes["instant-a"][3][1:] == ["Oslo", "Porto"] and outcomes["instant-d"][3][1:] == ["Porto", "Oslo"]
    distribution, mode, previous, _ = outcomes["instant-a"]
    assert outcomes["instant-d"][:3] == (distribution, mode, previous)
    assert abs(distribution["Oslo"] - distribution["Porto"]) < 0.05 and previous == "Paris", distribution

    memory.remember("instant-b", [PARIS])
    memory.remember("instant-b", [OSLO])
    memory.remember("instant-b", [PORTO])
    assert _residence(memory, "instant-b")[:3] == (distribution, mode, previous)

    memory.remember("instant-c", [PARIS])
    lima, *_ = memory.remember("instant-c", [LIMA, OSLO, PORTO])
    memory.forget("instant-c", evidence_ids=[lima])
    assert _residence(memory, "instant-c")[:3] == (distribution, mode, previous)
