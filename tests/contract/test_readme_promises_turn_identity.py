"""README, "Python API": "re-sending a turn (same ``external_id``, or, for a turn sent without
one, the same space, session, speaker, time and text) returns the same id and writes nothing.
A turn's ``external_id`` is its identity when it has one: the same words sent with another
external id, or without one, are another turn" (audit of s40: the README said "same
``external_id``, or the same space, session, speaker, time and text", which read as if the
same words under another external id were a re-send; they never were).
"""

from __future__ import annotations

from eywa.memory import Memory

TURN = {"text": "I keep bees on the roof.", "speaker": "Odo", "session": "s1", "observed_at": "2024-05-01T09:00:00Z"}


def test_the_external_id_is_a_turns_identity_when_it_has_one(memory: Memory) -> None:
    space = "identity"
    (plain,) = memory.remember(space, [TURN])
    (first,) = memory.remember(space, [{**TURN, "external_id": "msg-1"}])
    (other,) = memory.remember(space, [{**TURN, "external_id": "msg-2"}])
    assert len({plain, first, other}) == 3 and memory.stats(space)["evidence"] == 3
    # re-sent: the same ids, nothing written (with an external id, whatever the text now says)
    assert memory.remember(space, [TURN]) == [plain]
    assert memory.remember(space, [{**TURN, "external_id": "msg-1", "text": "I keep wasps."}]) == [first]
    assert memory.stats(space)["evidence"] == 3
    assert memory.evidence(space, first).text == TURN["text"]  # evidence is never edited
