"""Level 0 of a new turn beside an erasure of an earlier turn of its session: the new turn's
keyword context never borrows the erased turn's words (session 22's audit, item 2).

README, Erasure: after ``forget`` no keyword search finds the erased words. A turn's keyword
row holds its neighbours' words too (``near_text``/``far_text``, ``eywa.stores.context``).
Level 0 on Neo4j reads the stored turns around a new turn and writes its context in one
transaction (``eywa.stores.neo4j.level0``); the erasure rebuilds the context of the turns
around an erased one from those it reads in its own. Neither read takes a lock, so a Level 0
that read the session before the erasure committed wrote the erased words into the new
turn's context, and the erasure, which read the session before that turn existed, never
rebuilt it.

Here replica A's Level 0 of Ana's next turn is held between its read and its write while
replica B erases Bo's turn before it; then A writes. (With the sessions locked, B's erasure
waits for A's transaction instead, and rebuilds the new turn's context.)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.stores.context import contexts_around as context_contexts_around
from eywa.stores.neo4j import erasure, level0
from tests.conformance.conftest import replica_settings, server_settings
from tests.conformance.test_erasure import SPACE, TURNS, WORD
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j


@pytest.fixture
def replicas(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Memory, Memory]]:
    """(A, B) on one Neo4j, each with its own local Qdrant (the graph is what is shared)."""
    settings = server_settings(request, tmp_path)
    embedder = HashEmbedder()
    a = Memory.connect(settings, embedder=embedder)
    b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)
    yield a, b
    a.close()
    b.close()


def test_a_turn_written_beside_the_erasure_of_its_neighbour_keeps_none_of_its_words(
    replicas: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = replicas
    ids = a.remember(SPACE, TURNS[:2], wait=True)  # s1: Ana, then Bo saying the word
    assert WORD in TURNS[1]["text"] and WORD not in TURNS[2]["text"]
    held, release = threading.Event(), threading.Event()
    read_batch = level0.read_batch

    def holding(tx: Any, rows: Sequence[dict[str, Any]]) -> Any:
        found = read_batch(tx, rows)
        if any(r["props"]["text"] == TURNS[2]["text"] for r in rows) and not held.is_set():
            held.set()  # A's Level 0 has read the session, Bo's turn included
            assert release.wait(60)
        return found

    monkeypatch.setattr(level0, "read_batch", holding)
    written: list[str] = []
    writing = threading.Thread(target=lambda: written.extend(a.remember(SPACE, TURNS[2:3], wait=True)), name="write")
    erasing = threading.Thread(target=lambda: b.forget(SPACE, evidence_ids=[ids[1]]), name="erase")
    writing.start()
    try:
        assert held.wait(60)
        erasing.start()
        # Unlocked, the erasure commits while A is held (0.2 s here); once the session is
        # locked, it waits for A's transaction, and A goes on.
        erasing.join(5)
    finally:
        release.set()
        writing.join(120)
        erasing.join(120)
    assert not erasing.is_alive()
    assert not writing.is_alive() and len(written) == 1
    for mem in (a, b):
        assert mem._stores.keyword.search(SPACE, WORD, 10) == [], "the erased word is in a keyword row"
        result = mem.recall(SPACE, WORD, k=10)
        assert WORD not in result.context + "".join(item.model_dump_json() for item in result.items)
    assert a.recall(SPACE, "Google commute", k=5).items  # the new turn is there and found


def test_a_turn_written_while_the_erasure_of_its_neighbour_commits_keeps_none_of_its_words(
    replicas: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other order: B's erasure is held inside its transaction (it has read the session
    and removed Bo's turn, not committed) while A writes Ana's next turn."""
    a, b = replicas
    ids = a.remember(SPACE, TURNS[:2], wait=True)
    held, release = threading.Event(), threading.Event()
    contexts_around = context_contexts_around  # what erasure.contexts_around is until patched below

    def holding(*args: Any, **kwargs: Any) -> Any:
        if not held.is_set():  # inside the erasure's transaction (on its reconciler's thread)
            held.set()
            assert release.wait(60)
        return contexts_around(*args, **kwargs)

    monkeypatch.setattr(erasure, "contexts_around", holding)
    written: list[str] = []
    erasing = threading.Thread(target=lambda: b.forget(SPACE, evidence_ids=[ids[1]]), name="erase")
    writing = threading.Thread(target=lambda: written.extend(a.remember(SPACE, TURNS[2:3], wait=True)), name="write")
    erasing.start()
    try:
        assert held.wait(60)
        writing.start()
        writing.join(5)  # unlocked, A read Bo's turn (not yet deleted for it) and wrote
    finally:
        release.set()
        erasing.join(120)
        if writing.ident is not None:
            writing.join(120)
    assert not erasing.is_alive() and not writing.is_alive() and len(written) == 1
    for mem in (a, b):
        assert mem._stores.keyword.search(SPACE, WORD, 10) == [], "the erased word is in a keyword row"
    assert a.recall(SPACE, "Google commute", k=5).items
