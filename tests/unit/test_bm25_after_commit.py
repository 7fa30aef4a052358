"""The keyword index applies a committed write after the writing connection is let go
(``Bm25Index.catch_up``, ``SqliteDatabase.add_release_hook``): other writers commit
meanwhile, changes are applied in commit order, a search in between never sees a turn that
is not committed nor misses one that is, and a write returns only once its change is in the
index."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from eywa.stores.bundle import Stores
from eywa.stores.embedded import bm25_index, keyword
from eywa.stores.embedded.factory import open_embedded
from tests.unit.test_bm25_index import assert_same, db_of, memory_of, write

WAIT_S = 10.0


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    bundle = open_embedded(tmp_path / "embedded", 8)
    assert memory_of(bundle).wait_ready(30)
    write(bundle, "ana", [{"text": "kayak river", "session": "s1"}])
    yield bundle
    bundle.close()


class HeldApply:
    """The index's apply step stopped on its first call until ``release`` is set, recording
    whether the applying thread held the writing connection: ``_State.apply`` (the
    tokenising, under the index's lock) or ``Bm25Index._apply`` (before that lock: searches
    go on meanwhile)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, stores: Stores, *, before_lock: bool = False) -> None:
        self.started, self.release = threading.Event(), threading.Event()
        self.held_writer: list[bool] = []
        owner: Any = bm25_index.Bm25Index if before_lock else bm25_index._State
        name = "_apply" if before_lock else "apply"
        real: Callable[..., None] = getattr(owner, name)
        db = db_of(stores)

        def apply(*args: Any) -> None:
            self.held_writer.append(db.holds_writer())
            if not self.started.is_set():
                self.started.set()
                assert self.release.wait(WAIT_S)
            real(*args)

        monkeypatch.setattr(owner, name, apply)


def in_thread(target: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


def test_another_write_commits_while_the_index_applies_the_last_one(stores: Stores, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a write whose change the index is still applying,
    held = HeldApply(monkeypatch, stores)
    first = in_thread(lambda: write(stores, "ana", [{"text": "red kayak club", "session": "s2"}]))
    assert held.started.wait(WAIT_S)
    assert held.held_writer == [False]  # the writing connection was let go first
    # when another batch is written, it commits without waiting for that apply;
    second = in_thread(lambda: write(stores, "bo", [{"text": "kayaks on the river", "session": "s1"}]))
    for _ in range(200):
        if stores.evidence.count("bo") == 1:
            break
        second.join(0.05)
    assert stores.evidence.count("bo") == 1
    # neither write has returned: each returns once its change is in the index.
    assert first.is_alive() and second.is_alive()
    builds = memory_of(stores).builds
    held.release.set()
    first.join(WAIT_S)
    second.join(WAIT_S)
    assert not first.is_alive() and not second.is_alive()
    # Then both changes were applied, in commit order, with no rebuild, and the index answers.
    assert memory_of(stores).builds == builds
    assert_same(stores)


def test_a_search_between_commit_and_apply_sees_the_committed_turn(stores: Stores, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a committed write that the index has not applied yet,
    held = HeldApply(monkeypatch, stores, before_lock=True)
    writer = in_thread(lambda: write(stores, "ana", [{"text": "paddled the kayak", "session": "s2"}]))
    assert held.started.wait(WAIT_S)
    index, fts5 = memory_of(stores), keyword.SqliteKeywordIndex(db_of(stores))
    builds = index.builds
    # a search meanwhile answers as FTS5 does, the new turn included (FTS5 answers it),
    match = keyword.fts_query("paddled kayak")
    assert match is not None
    assert index.ranked("ana", match, 10) is None
    found = stores.keyword.search("ana", "paddled kayak", 10)
    assert found == fts5.search("ana", "paddled kayak", 10)
    assert len(found) == 2
    # and once the write returned, the index answers it, without a rebuild.
    held.release.set()
    writer.join(WAIT_S)
    assert not writer.is_alive()
    assert index.builds == builds
    assert index.ranked("ana", match, 10) is not None
    assert_same(stores)


def test_a_search_applies_a_change_committed_by_a_thread_still_holding_the_connection(stores: Stores) -> None:
    # A thread holding the writing connection across transactions (Level 1 does) lets it go
    # later: a search finding the index one queued change behind applies the queue itself.
    db, index = db_of(stores), memory_of(stores)
    answered, builds = [], index.builds
    match = keyword.fts_query("club")
    assert match is not None
    with db.locked():
        write(stores, "ana", [{"text": "red kayak club", "session": "s2"}])
        searcher = in_thread(lambda: answered.append(index.ranked("ana", match, 10)))
        searcher.join(WAIT_S)
    assert answered and answered[0] is not None and len(answered[0]) == 1
    assert index.builds == builds
