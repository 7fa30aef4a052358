"""README, "What the offline extractor reads": the examples its sentences give, through
``Memory`` (the default rule extractor and validator, as a user meets them).

They were shown for the rule extractor's proposals alone (tests/unit/test_rules_*.py) or the
validator alone (test_validator_polarity.py), where a belief the validator then refuses, or a
subject the store resolves differently, would still pass (audit of s32):

- "a relative the speaker never names ("my sister works at Globex", "my dad just retired":
  the subjects "Ana's sister", "Ana's father" ...; no name is guessed for them)";
- "past habits ("I used to …", a bare "years ago") yield nothing; a counted "two years ago"
  dates what is said ("I moved to Lisbon two years ago")";
- "A negation or a hedge belongs to its own first-person clause: "I don't eat meat and I love
  hiking" keeps hiking";
- a dropped "I" is read "unless ... names someone else (... a name greeted alone, "Hey Ben!
  Moved to Lisbon", is the listener, not someone else)"; "Been working at Initech since
  March"; "the casual "me" in a subject of two ("Me and Sam broke up") as "I"".
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa import Memory

SAID = "2024-04-10T10:00:00Z"


def _beliefs(memory: Memory, space: str, text: str) -> set[tuple[str, str, str, str]]:
    memory.remember(space, [{"text": text, "speaker": "Ana", "observed_at": SAID}], wait=True)
    return {(b.subject, str(b.attribute), str(b.value), str(b.polarity)) for b in memory.beliefs(space)}


@pytest.mark.parametrize(
    ("text", "subject", "attribute", "value"),
    [("My dad just retired.", "Ana's father", "employer", "retired"),
     ("My sister works at Globex.", "Ana's sister", "employer", "Globex")],
)  # fmt: skip
def test_a_relative_never_named_is_a_person_of_their_own(
    memory: Memory, text: str, subject: str, attribute: str, value: str
) -> None:
    space = f"kin-{attribute}-{value}".lower()
    assert _beliefs(memory, space, text) == {(subject, attribute, value, "positive")}  # not Ana's, no name guessed
    (dimension,) = memory.dimensions(space)
    assert (dimension.entity, dimension.attribute, dimension.mode) == (subject, attribute, value)


def test_a_bare_years_ago_yields_nothing_and_a_counted_one_dates_what_is_said(memory: Memory) -> None:
    assert _beliefs(memory, "ago-bare", "I lived in Rome years ago.") == set()
    assert memory.candidates("ago-bare", status=None) == [] and memory.dimensions("ago-bare") == []

    found = _beliefs(memory, "ago-two", "I moved to Lisbon two years ago.")
    assert ("Ana", "residence", "Lisbon", "positive") in found
    (residence,) = memory.beliefs("ago-two", "Ana", "residence")
    assert residence.valid_from is not None and residence.valid_from.year == 2022  # two years before 2024
    assert residence.valid_from < datetime(2024, 4, 10, tzinfo=timezone.utc)


def test_a_negation_belongs_to_its_own_clause(memory: Memory) -> None:
    found = _beliefs(memory, "clauses", "I don't eat meat and I love hiking.")
    assert {("Ana", "diet", "meat", "negative"), ("Ana", "hobbies", "hiking", "positive")} <= found
    assert ("Ana", "hobbies", "hiking", "negative") not in found


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Hey Ben! Moved to Lisbon last week.", ("Ana", "residence", "Lisbon", "positive")),
     ("Been working at Initech since March.", ("Ana", "employer", "Initech", "positive")),
     ("Me and Sam broke up.", ("Ana", "partner", "Sam", "negative"))],
)  # fmt: skip
def test_a_chat_sentence_is_read_as_the_speaker_s(memory: Memory, text: str, expected: tuple[str, ...]) -> None:
    space = "chat-" + text.split()[0].strip("!").lower()
    found = _beliefs(memory, space, text)
    assert expected in found
    assert all(subject == "Ana" for subject, *_ in found), found  # not Ben, not Sam
