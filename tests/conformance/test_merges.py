"""Identity merges on every backend, through ``Memory``: two names whose dimensions agree are
proposed with their KL evidence, an accepted merge makes reads of either name see both, an
undo restores them (kept for audit), and bad input merges nothing. (Moved here from
``test_erasure.py``, with two entities that really exist: merging unknown names is now refused.)"""

from __future__ import annotations

import pytest

from eywa.errors import InvalidInputError, NotFoundError
from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor

SPACE = "home"
TURNS = [
    {"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:00:00"},
    {"text": "Anna works at Google too, she said.", "speaker": "Bo", "session": "s1",
     "observed_at": "2023-01-10T09:01:00"},
]  # fmt: skip
FACTS = {
    "work at Google as": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer", "value": "Google"}],
    "Anna works at Google": [{"statement": "Anna works at Google.", "subject": "Anna", "attribute": "employer",
                              "value": "Google"}],
}  # fmt: skip


def test_identity_merges_are_proposed_accepted_and_undone(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(FACTS))
    mem.remember(SPACE, TURNS, wait=True)
    assert mem.merges(SPACE) == []
    (proposal,) = [p for p in mem.propose_merges(SPACE) if {p.source, p.target} == {"Ana", "Anna"}]
    assert proposal.shared_attributes == ("employer",) and proposal.divergence_bits < 1.0 and proposal.name_score > 0.9

    with pytest.raises(NotFoundError):
        mem.accept_merge(SPACE, "Ana", "Zed")
    with pytest.raises(InvalidInputError):
        mem.accept_merge(SPACE, "Ana", " ana ")
    with pytest.raises(InvalidInputError):
        mem.accept_merge(SPACE, "Ana", "Anna", score=2.0)
    assert mem.merges(SPACE) == []

    edge = mem.accept_merge(SPACE, proposal.source, proposal.target, score=proposal.score)
    assert edge.active and {edge.source, edge.target} == {"ana", "anna"} and edge.author == "local"
    assert len(mem.deltas(SPACE, "Ana", "employer")) == 2  # reads follow SAME_AS
    assert mem.propose_merges(SPACE) == []  # merged pairs are not proposed again
    assert mem.undo_merge(SPACE, "Anna", "Ana") is True and mem.merges(SPACE) == []
    assert mem.undo_merge(SPACE, "Anna", "Ana") is True  # sent again: answered as the undo it made
    assert mem.undo_merge(SPACE, "Anna", "Ana", author="key_9") is False  # another's: nothing to undo
    assert len(mem.deltas(SPACE, "Ana", "employer")) == 1
    assert [e.removed_at is not None for e in mem.merges(SPACE, include_removed=True)] == [True]
    assert mem.accept_merge(SPACE, "Ana", "Anna", author="key_1").author == "key_1"
    assert mem.undo_merge(SPACE, "Ana", "Anna", author="key_2")
    assert [(e.author, e.removed_by) for e in mem.merges(SPACE, include_removed=True)] == [("key_1", "key_2")]
