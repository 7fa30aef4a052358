"""A correction sent again after its answer was lost (a dropped connection, a replica killed
after its commit, ``eywa.Client`` retrying) is answered by the record it made and changes
nothing more, on every backend, as a retried ``forget`` is answered by its erasure
(test_erasure.py). A retried retraction was refused with ``ConflictError`` (409 over HTTP),
a retried acceptance with ``NotFoundError``, a retried dismissal with ``ConflictError``; a
retried confirmation confirmed twice (the reliability rose again); a retried merge moved its
time and a retried undo answered "not merged". A *different* correction of an item whose
state no longer allows it is still refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from eywa import Memory
from eywa.errors import ConflictError, NotFoundError
from eywa.stores.corrections import CorrectionRecord
from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor
from tests.conformance.test_corrections import SPACE, _belief_id, _candidate_id, _opened
from tests.conformance.test_merges import FACTS as MERGE_FACTS
from tests.conformance.test_merges import TURNS as MERGE_TURNS


BELIEF_CORRECTIONS: dict[str, Callable[[Memory, str, str, str], CorrectionRecord]] = {
    "retract": lambda mem, belief, reason, author: mem.retract_belief(SPACE, belief, reason=reason, author=author),
    "confirm": lambda mem, belief, reason, author: mem.confirm_belief(SPACE, belief, reason=reason, author=author),
}


@pytest.mark.parametrize("kind", sorted(BELIEF_CORRECTIONS))
def test_a_retried_belief_correction_answers_with_its_record(open_memory: MemoryFactory, kind: str) -> None:
    correct = BELIEF_CORRECTIONS[kind]
    mem, _ = _opened(open_memory)
    initech = _belief_id(mem, "Initech")
    record = correct(mem, initech, "checked with Ana", "key_1")
    beliefs, employer = mem.beliefs(SPACE, status=None), mem.dimension(SPACE, "Ana", "employer")

    assert correct(mem, initech, "checked with Ana", "key_1") == record

    assert mem.corrections(SPACE) == [record]
    assert mem.beliefs(SPACE, status=None) == beliefs and mem.dimension(SPACE, "Ana", "employer") == employer


def test_another_retraction_of_a_retracted_belief_is_refused(open_memory: MemoryFactory) -> None:
    mem, _ = _opened(open_memory)
    initech = _belief_id(mem, "Initech")
    record = mem.retract_belief(SPACE, initech, reason="Ana never worked there", author="key_1")
    with pytest.raises(ConflictError, match="already retracted"):
        mem.retract_belief(SPACE, initech, reason="another reason", author="key_1")
    with pytest.raises(ConflictError, match="already retracted"):
        mem.retract_belief(SPACE, initech, reason="Ana never worked there", author="key_2")
    assert mem.corrections(SPACE) == [record]


def test_another_persons_confirmation_is_recorded(open_memory: MemoryFactory) -> None:
    mem, _ = _opened(open_memory)
    initech = _belief_id(mem, "Initech")
    first = mem.confirm_belief(SPACE, initech, reason="checked", author="key_1")
    second = mem.confirm_belief(SPACE, initech, reason="checked", author="key_2")
    assert second.id != first.id and second.reliability_before == first.reliability_after
    assert mem.corrections(SPACE) == [first, second]


def test_a_retried_acceptance_or_dismissal_answers_with_its_record(open_memory: MemoryFactory) -> None:
    mem, _ = _opened(open_memory)
    hiking, chess = _candidate_id(mem, "hiking"), _candidate_id(mem, "chess")
    accepted = mem.accept_candidate(SPACE, hiking, reason="the repair is right", author="key_3")
    dismissed = mem.dismiss_candidate(SPACE, chess, author="key_3")
    beliefs = mem.beliefs(SPACE, status=None)

    assert mem.accept_candidate(SPACE, hiking, reason="the repair is right", author="key_3") == accepted
    assert mem.dismiss_candidate(SPACE, chess, author="key_3") == dismissed

    assert mem.corrections(SPACE) == [accepted, dismissed]
    assert mem.beliefs(SPACE, status=None) == beliefs
    with pytest.raises(ConflictError, match=f"already accepted as {accepted.belief_id}"):
        mem.accept_candidate(SPACE, hiking, author="key_4")
    with pytest.raises(ConflictError, match="not in the repair queue"):
        mem.dismiss_candidate(SPACE, chess, reason="another reason", author="key_3")
    with pytest.raises(NotFoundError):
        mem.accept_candidate(SPACE, "cand_unknown", author="key_3")
    assert mem.corrections(SPACE) == [accepted, dismissed]


def test_a_retried_merge_or_undo_answers_as_the_first(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(MERGE_FACTS))
    mem.remember(SPACE, MERGE_TURNS, wait=True)
    edge = mem.accept_merge(SPACE, "Ana", "Anna", 0.9, author="key_1")

    assert mem.accept_merge(SPACE, "Ana", "Anna", 0.9, author="key_1") == edge  # not merged anew, later
    assert mem.merges(SPACE, include_removed=True) == [edge]
    assert mem.undo_merge(SPACE, "Ana", "Anna", author="key_1") is True
    undone = mem.merges(SPACE, include_removed=True)

    assert mem.undo_merge(SPACE, "Ana", "Anna", author="key_1") is True  # the undo it made
    assert mem.merges(SPACE, include_removed=True) == undone
    assert mem.undo_merge(SPACE, "Ana", "Anna", author="key_2") is False  # another's: nothing to undo


def test_an_acceptance_cut_short_before_its_candidate_went_is_finished_by_the_same_call(
    open_memory: MemoryFactory,
) -> None:
    """On Neo4j an acceptance's steps are transactions of their own. It removed the candidate
    before writing its record, so a crash between the two left a belief without a record and
    no candidate: calling it again was refused as an unknown candidate. The record now comes
    first; the state a crash after it leaves (the candidate still held) is made here with the
    store call the acceptance makes, and the same call finishes it."""
    mem, _ = _opened(open_memory)
    hiking = _candidate_id(mem, "hiking")
    (candidate,) = [c for c in mem.candidates(SPACE, "repair") if c.id == hiking]
    record = mem.accept_candidate(SPACE, hiking, reason="the repair is right", author="key_3")
    beliefs = mem.beliefs(SPACE, status=None)
    mem._stores.beliefs.add([], [candidate])  # the candidate as a crash before its removal left it

    assert mem.accept_candidate(SPACE, hiking, reason="the repair is right", author="key_3") == record

    assert hiking not in {c.id for c in mem.candidates(SPACE, status=None)}  # finished: the candidate went
    assert mem.corrections(SPACE) == [record] and mem.beliefs(SPACE, status=None) == beliefs
