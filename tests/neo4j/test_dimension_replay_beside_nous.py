"""A dimension replayed by one process (a retraction, an erasure) while another process's Nous
step updates the same dimension: no update is lost (audit of s21: the replay was).

README, Corrections: after ``retract_belief`` "the dimension equals the one held before the
belief came"; README, Erasure: every dimension the erased turns touched "equals ... the
dimension of a memory that never saw the erased turns". The per-dimension lock (a Redis lease)
serialises the workers' Nous updates with each other only: the API's replays do not take it,
and ``DimensionStore.save`` overwrote the state whatever was saved since it was read. So a
Nous update that read the state before the replay and saved after it put the retracted (or
erased) belief's weight back into the state (Google 0.44, Zephyrwick 0.48), while the delta
log no longer held it. Every writer of a dimension now saves only the state it read
(``DimensionMoved`` otherwise, and ``eywa.nous.ledger`` computes it again).

Here replica A's Nous step is held between reading Ana's employer dimension and saving it
(inside the replay it runs), while replica B retracts (or erases) what that state holds.
The other way round, B's confirmation is held between its read and its save while A saves
Initech into the dimension: the confirmation's save overwrote it (the state held Google
alone, the delta log Initech too) until it checked what it read as well.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pydantic import SecretStr

from eywa import Memory
from eywa.nous import engine
from eywa.settings import EywaSettings
from tests.conformance.conftest import replica_settings, server_settings
from tests.conformance.scripted import ScriptedExtractor
from tests.conformance.test_corrections import FACTS, FIRST, LATER, SPACE
from tests.neo4j_server import Neo4jServer
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j

BO = {"text": "Ana now works at Zephyrwick, she told me.", "speaker": "Bo", "session": "s1",
      "observed_at": "2023-01-10T09:01:00"}  # fmt: skip
ZEPHYRWICK = {"works at Zephyrwick": [{"statement": "Ana works at Zephyrwick.", "subject": "Ana",
                                       "attribute": "employer", "value": "Zephyrwick"}]}  # fmt: skip


@pytest.fixture
def replicas(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """(A with the scripted extractor, B, the held-replay events, a fresh-memory factory)."""
    settings = server_settings(request, tmp_path)
    embedder = HashEmbedder()
    reading, answer = threading.Event(), threading.Event()
    replay, main = engine.replay, threading.get_ident()

    def held(*args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() != main and not reading.is_set():  # A's background Nous step
            reading.set()
            assert answer.wait(60)
        return replay(*args, **kwargs)

    facts = {**FACTS, **ZEPHYRWICK}
    a = Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor(facts))
    b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)

    def arm() -> None:
        monkeypatch.setattr(engine, "replay", held)

    def fresh(turns: list[dict[str, Any]]) -> Any:
        monkeypatch.setattr(engine, "replay", replay)
        c = replica_settings(settings, tmp_path, "c")
        b_facts = Memory.connect(c, embedder=embedder, extractor=ScriptedExtractor(facts))
        try:
            b_facts.remember("fresh", turns, wait=True)
            return b_facts.dimension("fresh", "Ana", "employer").distribution
        finally:
            b_facts.close()

    yield a, b, arm, reading, answer, fresh
    answer.set()
    a.close()
    b.close()


def test_a_retraction_beside_a_nous_update_leaves_the_retracted_belief_out_of_the_state(replicas: Any) -> None:
    a, b, arm, reading, answer, fresh = replicas
    a.remember(SPACE, FIRST, wait=True)
    google = next(x.id for x in a.beliefs(SPACE) if x.value == "Google")
    arm()
    a.remember(SPACE, LATER[:1], wait=False)  # Initech: the same dimension
    assert reading.wait(60)
    b.retract_belief(SPACE, google, reason="wrong", author="key_1")
    answer.set()
    a.wait()
    assert [d.belief_id for d in b.deltas(SPACE, "Ana", "employer") if d.belief_id == google] == []
    assert b.dimension(SPACE, "Ana", "employer").distribution == pytest.approx(fresh(LATER[:1]))


def test_an_erasure_beside_a_nous_update_leaves_the_erased_value_out_of_the_state(replicas: Any) -> None:
    a, b, arm, reading, answer, fresh = replicas
    a.remember(SPACE, [*FIRST, BO], wait=True)
    arm()
    a.remember(SPACE, LATER[:1], wait=False)  # Ana's own turn: the same dimension
    assert reading.wait(60)
    b.forget(SPACE, speaker="Bo")
    answer.set()
    a.wait()
    assert "Zephyrwick" not in b.dimension(SPACE, "Ana", "employer").distribution


def test_a_confirmation_beside_a_nous_update_keeps_the_update_in_the_state(
    replicas: Any, neo4j_server: Neo4jServer, tmp_path: Path
) -> None:
    a, b, arm, reading, answer, _ = replicas
    a.remember(SPACE, FIRST, wait=True)
    google = next(x.id for x in a.beliefs(SPACE) if x.value == "Google")
    arm()  # B's confirmation, on a thread of its own, is held between its read and its save
    confirming = threading.Thread(target=lambda: b.confirm_belief(SPACE, google, reason="checked"), name="confirm")
    confirming.start()
    assert reading.wait(60)
    a.remember(SPACE, LATER[:1], wait=True)  # meanwhile A saves Initech into the same dimension
    answer.set()
    confirming.join(60)
    assert not confirming.is_alive()
    held = b.dimension(SPACE, "Ana", "employer").distribution
    # A memory told the same with nothing in between: the confirmation, then Initech.
    settings = EywaSettings(data_dir=tmp_path / "ref", neo4j_uri=neo4j_server.uri, neo4j_user=neo4j_server.user,
                            neo4j_password=SecretStr(neo4j_server.password), neo4j_database=neo4j_server.database,
                            qdrant_path=tmp_path / "qdrant-ref")  # fmt: skip
    with Memory.connect(settings, embedder=HashEmbedder(), extractor=ScriptedExtractor(FACTS)) as ref:
        ref.remember("ref", FIRST, wait=True)
        ref.confirm_belief("ref", next(x.id for x in ref.beliefs("ref") if x.value == "Google"), reason="checked")
        ref.remember("ref", LATER[:1], wait=True)
        expected = ref.dimension("ref", "Ana", "employer").distribution
    assert "Initech" in held and held == pytest.approx(expected)
