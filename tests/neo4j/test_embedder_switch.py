"""A change of embedder on Neo4j is carried out space by space: each space's turns and
beliefs are marked for re-embedding in a transaction of its own and the space is stamped
with the new embedder, the store's record changes once every space is marked, and a switch
cut short between two spaces is finished by the next one without marking a space twice."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from neo4j import Driver

from eywa.batches import coerce_turns, prepare_batch
from eywa.errors import StoreError
from eywa.signals import detect_signals
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.ledger import Neo4jStageLedger
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

AT = datetime(2024, 3, 2, 10, 0, tzinfo=timezone.utc)


def wipe_graph(driver: Driver, database: str) -> None:
    """Everything but the migration ledger: the switch concerns every space of the store
    (the conformance tests start from an empty graph the same way)."""
    driver.execute_query(f"MATCH (n) WHERE NOT n:{Label.SCHEMA_MIGRATION} DETACH DELETE n", database_=database)


def store_turns(store: Neo4jEvidenceStore, space: str, count: int) -> list[str]:
    turns = coerce_turns([{"text": f"Turn {n} of {space}.", "speaker": "Ana"} for n in range(count)])
    batch = prepare_batch(space, turns, store, detect_signals)
    store.add(batch.new, batch.mentions)
    return batch.ids


def to_embed(ledger: Neo4jStageLedger, space: str, ids: list[str]) -> set[str]:
    return {m.item_id for m in ledger.pending_for(space, ids) if m.stage == "embed_evidence"}


def test_a_switch_marks_space_by_space_and_a_cut_short_one_is_finished_once(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    wipe_graph(neo4j_driver, neo4j_server.database)
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    evidence, ledger = Neo4jEvidenceStore(graph), Neo4jStageLedger(graph)
    assert ledger.switch_embedder("model-a/8", AT) == 0  # an empty store: nothing to redo
    home, work = store_turns(evidence, "home", 3), store_turns(evidence, "work", 2)
    ledger.complete("home", "embed_evidence", home)
    ledger.complete("work", "embed_evidence", work)
    assert ledger.switch_embedder("model-a/8", AT) == 0  # the same embedder: nothing marked

    # The process stops after the first space's transaction ("home", in name order).
    switch_space = ledger._switch_space
    done: list[str] = []

    def stops_after_one(space: str, embedder_id: str, at: datetime) -> int:
        if done:
            raise StoreError("neo4j", "switch embedder", "the process stopped")
        done.append(space)
        return switch_space(space, embedder_id, at)

    monkeypatch.setattr(ledger, "_switch_space", stops_after_one)
    with pytest.raises(StoreError):
        ledger.switch_embedder("model-b/8", AT)
    assert done == ["home"]
    assert to_embed(ledger, "home", home) == set(home)  # committed with its own transaction
    assert to_embed(ledger, "work", work) == set()
    assert ledger.embedder() == "model-a/8"  # recorded only once every space is marked

    # Meanwhile "home" was re-embedded; the next open finishes the switch with "work" alone.
    monkeypatch.undo()
    ledger.complete("home", "embed_evidence", home)
    assert ledger.switch_embedder("model-b/8", AT) == len(work)
    assert to_embed(ledger, "home", home) == set()
    assert to_embed(ledger, "work", work) == set(work)
    assert ledger.embedder() == "model-b/8"

    # A space written after the switch was embedded by the recorded embedder: not marked.
    later = store_turns(evidence, "later", 2)
    ledger.complete("later", "embed_evidence", later)
    assert ledger.switch_embedder("model-b/8", AT) == 0
    assert to_embed(ledger, "later", later) == set()
    graph.close()


def test_a_switch_cut_short_then_reverted_marks_the_switched_spaces_again(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening with the old embedder after a cut-short switch: the spaces already stamped
    with the new one were marked for it, so they are stamped back and owe their vectors
    to the old one again (their marks, if still pending, are kept)."""
    wipe_graph(neo4j_driver, neo4j_server.database)
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    evidence, ledger = Neo4jEvidenceStore(graph), Neo4jStageLedger(graph)
    ledger.switch_embedder("model-a/8", AT)
    home, work = store_turns(evidence, "home", 2), store_turns(evidence, "work", 2)
    for space, ids in (("home", home), ("work", work)):
        ledger.complete(space, "embed_evidence", ids)
    switch_space = ledger._switch_space

    def stops_after_home(space: str, embedder_id: str, at: datetime) -> int:
        if space != "home":
            raise StoreError("neo4j", "switch embedder", "the process stopped")
        return switch_space(space, embedder_id, at)

    monkeypatch.setattr(ledger, "_switch_space", stops_after_home)
    with pytest.raises(StoreError):
        ledger.switch_embedder("model-b/8", AT)
    monkeypatch.undo()
    ledger.complete("home", "embed_evidence", home)  # re-embedded by model-b meanwhile
    assert ledger.switch_embedder("model-a/8", AT) == len(home)
    assert to_embed(ledger, "home", home) == set(home) and to_embed(ledger, "work", work) == set()
    assert ledger.embedder() == "model-a/8"
    ledger.complete("home", "embed_evidence", home)
    assert ledger.switch_embedder("model-a/8", AT) == 0
    graph.close()
