"""README, Data model: each example of how Level 0 tells a person from another entity,
through ``Memory`` (the kinds an export carries), in a space of its own.

"a single capitalised word shaped like a given name ("Melinda") is a person unless the turn
puts it where a place or an organisation goes: after "at" or "in" (not "looked at Max", "mad
at Sam", "believe in Tom"), "works for", "joined" (not "joined Sam for lunch"), "quit",
"left" with nothing after the name ("left Acme", not "left Sam a message"), "moved / went /
been / a trip to" (not "talked to Sam") and "moved from"; never in the possessive ("dinner
at Ana's" is Ana)"; "a multi-word proper noun or an acronym ("New York", "NASA") is an
entity"; and what it still misreads: "a one-word organisation the space does not know yet,
in no such slot, is a person ("I heard Initech is hiring"), and a person's full name
("Patrick Rothfuss") is an entity".

tests/unit/test_signals_mentions.py reads some of them on the detector alone; half of them
(looked at, mad at, left … a message, talked to, went / been / a trip to, moved from, the
misreads) were in no test (audit of s32).
"""

from __future__ import annotations

import pytest

from eywa import Memory

CASES = [
    ("I looked at Max for a while.", "Max", "person"),
    ("I was mad at Sam yesterday.", "Sam", "person"),
    ("I believe in Tom.", "Tom", "person"),
    ("I joined Sam for lunch.", "Sam", "person"),
    ("I left Sam a message.", "Sam", "person"),
    ("I talked to Sam today.", "Sam", "person"),
    ("We had dinner at Ana's.", "Ana", "person"),
    ("I met Melinda today.", "Melinda", "person"),
    ("I started at Acme last week.", "Acme", "entity"),
    ("I live in Leeds.", "Leeds", "entity"),
    ("I work for Melinda now.", "Melinda", "entity"),
    ("I joined Globex in May.", "Globex", "entity"),
    ("I quit Initech.", "Initech", "entity"),
    ("I left Acme.", "Acme", "entity"),
    ("I moved to Lisbon.", "Lisbon", "entity"),
    ("We went to Paris.", "Paris", "entity"),
    ("I've been to Oslo.", "Oslo", "entity"),
    ("We took a trip to Rome.", "Rome", "entity"),
    ("I moved from Leeds.", "Leeds", "entity"),
    ("I live in New York.", "New York", "entity"),
    ("I work at NASA.", "NASA", "entity"),
    ("I heard Initech is hiring.", "Initech", "person"),  # the misread the README states
    ("I love Patrick Rothfuss.", "Patrick Rothfuss", "entity"),  # the other one
]


@pytest.mark.parametrize(("text", "name", "kind"), CASES, ids=[text for text, _, _ in CASES])
def test_a_name_is_a_person_or_an_entity_as_the_readme_says(memory: Memory, text: str, name: str, kind: str) -> None:
    space = f"kinds-{CASES.index((text, name, kind))}"
    memory.remember(space, [{"text": text, "speaker": "Bo"}])
    kinds = {record.entity.name: record.entity.kind for record in memory.export_space(space) if record.kind == "entity"}
    assert kinds.get(name) == kind, kinds
