"""The README's example through the public ``Memory``: "I just started at Acme …", then "I quit
Acme; I work at Globex now." Acme and Globex are organisations in the space's graph, not
people (Level 0 reads "at X" and "quit X" as an organisation's slot, and the second turn
matches the now known Acme as the entity it is), and "Where does Alice work now?" is still
answered by the employer dimension with Globex first."""

from __future__ import annotations

from eywa.memory import Memory
from eywa.models import SignalKind
from eywa.portability.records import EntityLine

EARLIER = {"text": "I just started at Acme as a data engineer.", "speaker": "Alice",
           "session": "2024-03-02", "observed_at": "2024-03-02T10:15:00"}  # fmt: skip
LATER = {"text": "I quit Acme; I work at Globex now.", "speaker": "Alice",
         "session": "2024-09-10", "observed_at": "2024-09-10T09:00:00"}  # fmt: skip


def _entity_kinds(memory: Memory, space: str) -> dict[str, str]:
    return {line.entity.name: line.entity.kind for line in memory.export_space(space) if isinstance(line, EntityLine)}


def test_the_readme_employers_are_entities_and_globex_answers_where_alice_works_now(memory: Memory) -> None:
    space = "readme-orgs"
    memory.remember(space, [EARLIER])
    assert _entity_kinds(memory, space) == {"Alice": "person", "Acme": "entity"}

    (later_id,) = memory.remember(space, [LATER])  # a later batch: Acme is now a known name

    assert _entity_kinds(memory, space) == {"Alice": "person", "Acme": "entity", "Globex": "entity"}
    turn = memory.evidence(space, later_id)
    assert [(s.kind, s.normalized) for s in turn.signals_of(SignalKind.PERSON, SignalKind.ENTITY)] == [
        (SignalKind.ENTITY, "Acme"), (SignalKind.ENTITY, "Globex")
    ]  # fmt: skip
    first = memory.recall(space, "Where does Alice work now?", k=5).items[0]
    assert first.kind == "dimension" and "employer: Globex" in first.text, first.text
