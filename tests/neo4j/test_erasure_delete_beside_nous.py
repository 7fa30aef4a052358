"""An erasure that leaves a dimension without deltas deletes its state only if it is still the
state it read: a Nous save of another process landing between is kept (audit of s21).

README, Erasure: every dimension the erased turns touched "equals ... the dimension of a
memory that never saw the erased turns". When the erased turns held all of a dimension's
deltas, the erasure's replay (``eywa.nous.ledger.forget_beliefs``) reads the state, finds
no delta left and deletes the state. That delete did not check what it read (the saves do,
``DimensionMoved``): replica A's Nous update saving Ana's own employer between the replay's
read and its delete lost its state, the delta log holding Initech and no state at all.

Here replica B's erasure of Bo's turn is held as it goes to delete the dimension (it read
the state and found no delta left), while replica A remembers Ana's own turn about the same dimension.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.stores.neo4j.dimensions import Neo4jDimensionStore
from tests.conformance.conftest import replica_settings, server_settings
from tests.conformance.scripted import ScriptedExtractor
from tests.conformance.test_corrections import FACTS, LATER, SPACE
from tests.neo4j.test_dimension_replay_beside_nous import BO, ZEPHYRWICK
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j


@pytest.fixture
def replicas(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Memory, Memory]]:
    """(A, with the scripted extractor; B) on one Neo4j, each with its own local Qdrant."""
    settings = server_settings(request, tmp_path)
    embedder = HashEmbedder()
    a = Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor({**FACTS, **ZEPHYRWICK}))
    b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)
    yield a, b
    a.close()
    b.close()


def test_an_erasure_emptying_a_dimension_keeps_a_nous_save_landing_before_its_delete(
    replicas: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = replicas
    a.remember(SPACE, [BO], wait=True)  # Bo: Ana works at Zephyrwick, the dimension's only delta
    assert b.dimension(SPACE, "Ana", "employer").mode == "Zephyrwick"
    held, release = threading.Event(), threading.Event()
    delete = Neo4jDimensionStore.delete_dimension

    def holding(self: Neo4jDimensionStore, *args: Any, **kwargs: Any) -> Any:
        if not held.is_set():  # the replay has read the state and found no delta left
            held.set()
            assert release.wait(60)
        return delete(self, *args, **kwargs)

    monkeypatch.setattr(Neo4jDimensionStore, "delete_dimension", holding)
    erasing = threading.Thread(target=lambda: b.forget(SPACE, speaker="Bo"), name="erase")
    erasing.start()
    try:
        assert held.wait(60)
        a.remember(SPACE, LATER[:1], wait=True)  # Ana: Initech, saved into the same dimension
    finally:
        release.set()
        erasing.join(60)
    assert not erasing.is_alive()
    assert [d.observed for d in b.deltas(SPACE, "Ana", "employer")] == ["Initech"]
    # ``dimension`` replays the deltas when no state is stored; the listing reads the states.
    listed = {d.attribute: d for d in b.dimensions(SPACE, "Ana")}
    assert "employer" in listed, "the erasure deleted the state A saved meanwhile"
    assert listed["employer"].mode == "Initech" and "Zephyrwick" not in listed["employer"].distribution
