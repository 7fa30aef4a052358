"""A dropped space leaves nothing of itself in the graph store but its audit trail (the
erasure record, the tombstones of its turn ids, the correction records with their reasons
cleared), on every backend. ``ErasureStore.remains`` lists every node or row still carrying
the space besides those; after a drop it is empty.

Before, a drop on Neo4j left the space's ``:Session`` nodes (with the caller's session
names), its ``:Space`` node, its ``:Backlog`` counters and its ``:Job`` records (with the
erased turn ids); the embedded store left the job rows, the usage and backlog counters and
one ``level1_runs`` row per erased turn id (which a ``forget`` left too, as Neo4j left the
sessions a ``forget`` emptied)."""

from __future__ import annotations

from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor
from tests.conformance.test_corrections import FACTS, FIRST, LATER, SPACE, _belief_id

KEPT = {"erasures", "tombstones", "corrections"}  # the audit trail: what remains lists none of them


def test_a_dropped_space_leaves_nothing_but_its_audit_trail(open_memory: MemoryFactory) -> None:
    mem = open_memory(extractor=ScriptedExtractor(FACTS))
    mem.remember(SPACE, FIRST, wait=True)
    _, job = mem.remember_job(SPACE, LATER, wait=True)  # a job record, sessions, usage counters
    mem.remember("elsewhere", FIRST, wait=True)
    mem.confirm_belief(SPACE, _belief_id(mem, "Initech"), reason="checked", author="key_1")
    stores = mem._stores
    held = stores.erasure.remains(SPACE)
    assert {"turns", "beliefs"} <= set(held) and not set(held) & KEPT
    elsewhere = stores.erasure.remains("elsewhere")

    report = mem.drop_space(SPACE)

    assert stores.erasure.remains(SPACE) == {}
    assert stores.erasure.remains("elsewhere") == elsewhere  # another space keeps all it had
    assert mem.drop_space(SPACE) == report  # a retried drop still answers with the first
    assert [r.id for r in mem.erasures(SPACE)] == [report.erasure_id]
    assert [c.reason for c in mem.corrections(SPACE)] == [None]
    mem.remember(SPACE, [{**FIRST[0], "session": "s9"}], wait=True)  # the space comes back as new
    assert stores.evidence.usage(SPACE).turns == 1 and stores.erasure.remains(SPACE)["turns"] == 1


def test_a_forget_leaves_what_a_space_that_never_held_the_turns_holds(open_memory: MemoryFactory) -> None:
    """Per kind, the space a forget left holds as much as a space that only ever held the
    turns it kept (the embedded store kept a Level 1 row per erased turn id; Neo4j the
    sessions the forget emptied)."""
    mem = open_memory(extractor=ScriptedExtractor(FACTS))
    mem.remember(SPACE, [*FIRST, *LATER], wait=True)
    mem.remember("clean", FIRST, wait=True)

    mem.forget(SPACE, session="s2")

    assert mem._stores.erasure.remains(SPACE) == mem._stores.erasure.remains("clean")
