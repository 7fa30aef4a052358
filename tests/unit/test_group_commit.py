"""Level 0 batches that wait for the embedded writing connection together are committed
together (``eywa.stores.embedded.group_commit``): one transaction, each caller answered
after its commit, a refused batch refused alone, a batch SQLite fails failing alone.

The writers are made to wait by holding the writing connection in the test's thread until
every one of them is inside ``add``; nothing is timed.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from eywa.contract import SpaceQuota
from eywa.errors import QuotaExceededError, StoreError
from eywa.ids import content_hash
from eywa.models import Evidence
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.evidence import SqliteEvidenceStore

WRITERS = 6
WAIT_S = 30.0


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[SqliteDatabase, SqliteEvidenceStore]]:
    db = SqliteDatabase(tmp_path / "memory.sqlite")
    try:
        yield db, SqliteEvidenceStore(db)
    finally:
        db.close()


def _turn(space: str, n: int, *, ident: str | None = None) -> Evidence:
    text = f"Turn {n} of {space} mentions nothing much."
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Evidence(
        id=ident or f"ev_{space}_{n}", space=space, session="s", seq=n, speaker=None, role="user", text=text,
        observed_at=at, recorded_at=at, content_hash=content_hash(text),
    )  # fmt: skip


def inside_add() -> int:
    """How many threads are inside ``SqliteEvidenceStore.add`` now and queued there: waiting
    for their group (an event's ``wait``) or leading it (``_lead``, waiting for the writing
    connection). A thread only inside ``add`` may not have queued its batch yet, and one
    released then would be committed in a transaction of its own (a flaky count of commits
    on a loaded machine)."""
    count = 0
    for frame in sys._current_frames().values():
        names: list[tuple[str, str]] = []
        walked: FrameType | None = frame
        while walked is not None:
            names.append((walked.f_code.co_name, walked.f_code.co_filename))
            walked = walked.f_back
        in_add = any(name == "add" and file.endswith("evidence.py") for name, file in names)
        queued = any(
            (name == "_lead" and file.endswith("group_commit.py")) or (name == "wait" and file.endswith("threading.py"))
            for name, file in names
        )
        count += in_add and queued
    return count


def wait_until_inside_add(writers: int) -> None:
    """Wait until ``writers`` threads wait inside ``add`` (fails the test after ``WAIT_S``)."""
    pause = threading.Event()
    for _ in range(int(WAIT_S / 0.01)):
        if inside_add() >= writers:
            return
        pause.wait(0.01)
    pytest.fail(f"{writers} writers did not all reach add")


def _held_then_released(db: SqliteDatabase, calls: Sequence[Callable[[], Any]]) -> tuple[list[Any], int, bool]:
    """Run ``calls`` in threads while the test holds the writing connection; release it once
    all are waiting inside ``add``. Returns each call's result (or error), the number of
    commits made after the release, and whether any call returned while the connection was
    held (an acknowledgement before the commit)."""
    outcomes: list[Any] = [None] * len(calls)
    commits = [0]
    db.add_commit_hook(lambda _conn: commits.__setitem__(0, commits[0] + 1), lambda: None)

    def run(i: int) -> None:
        try:
            outcomes[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - returned to the test, which asserts on it
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i,), name=f"writer-{i}") for i in range(len(calls))]
    with db.locked():
        for thread in threads:
            thread.start()
        wait_until_inside_add(len(calls))
        early = any(not thread.is_alive() for thread in threads)
        before = commits[0]
    for thread in threads:
        thread.join(WAIT_S)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes, commits[0] - before, early


def test_waiting_batches_are_committed_in_one_transaction_and_each_answered_after_it(
    store: tuple[SqliteDatabase, SqliteEvidenceStore],
) -> None:
    db, evidence = store
    batches = [[_turn(f"space-{i}", 0), _turn(f"space-{i}", 1)] for i in range(WRITERS)]
    calls = [lambda batch=batch: evidence.add(batch, []) for batch in batches]

    outcomes, commits, early = _held_then_released(db, calls)

    assert not early  # nobody was answered while its batch could not be committed
    assert outcomes == [[t.id for t in batch] for batch in batches]
    assert commits == 1  # one transaction for the six batches (one each before)
    for i in range(WRITERS):
        assert evidence.count(f"space-{i}") == 2


def test_a_refused_batch_is_refused_alone_and_the_others_are_committed(
    store: tuple[SqliteDatabase, SqliteEvidenceStore],
) -> None:
    db, evidence = store
    full = SpaceQuota(turns=1)
    batches = [[_turn(f"space-{i}", 0), _turn(f"space-{i}", 1)] for i in range(WRITERS)]
    calls = [
        lambda batch=batch, i=i: evidence.add(batch, [], quota=full if i == 2 else None)
        for i, batch in enumerate(batches)
    ]  # fmt: skip

    outcomes, commits, _ = _held_then_released(db, calls)

    assert isinstance(outcomes[2], QuotaExceededError)
    assert evidence.count("space-2") == 0
    assert [o for i, o in enumerate(outcomes) if i != 2] == [[t.id for t in b] for i, b in enumerate(batches) if i != 2]
    assert all(evidence.count(f"space-{i}") == 2 for i in range(WRITERS) if i != 2)
    assert commits == 1


def test_a_batch_sqlite_fails_fails_alone_and_the_others_are_retried_and_committed(
    store: tuple[SqliteDatabase, SqliteEvidenceStore],
) -> None:
    db, evidence = store
    batches = [[_turn(f"space-{i}", 0), _turn(f"space-{i}", 1)] for i in range(WRITERS)]
    # Two turns under one id: the primary key refuses the second insert, inside SQLite.
    batches[3] = [_turn("space-3", 0, ident="ev_twice"), _turn("space-3", 1, ident="ev_twice")]
    calls = [lambda batch=batch: evidence.add(batch, []) for batch in batches]

    outcomes, _, _ = _held_then_released(db, calls)

    assert isinstance(outcomes[3], StoreError)
    assert evidence.count("space-3") == 0
    assert all(evidence.count(f"space-{i}") == 2 for i in range(WRITERS) if i != 3)
    assert [o for i, o in enumerate(outcomes) if i != 3] == [[t.id for t in b] for i, b in enumerate(batches) if i != 3]


def test_a_write_inside_the_threads_own_transaction_joins_it(store: tuple[SqliteDatabase, SqliteEvidenceStore]) -> None:
    db, evidence = store
    with pytest.raises(RuntimeError), db.transaction():
        evidence.add([_turn("space", 0)], [])
        raise RuntimeError("roll the outer transaction back")
    assert evidence.count("space") == 0  # it was part of the outer transaction, rolled back with it
    with db.transaction():
        assert evidence.add([_turn("space", 0)], []) == ["ev_space_0"]
    assert evidence.count("space") == 1


def test_the_next_group_commits_while_the_last_one_finishes_after_the_release(
    store: tuple[SqliteDatabase, SqliteEvidenceStore],
) -> None:
    # Given a leader whose group is committed while another batch waits behind it, and whose
    # release hook (the keyword index applying its change) has not finished,
    db, evidence = store
    release, first_released = threading.Event(), threading.Event()
    commits = [0]

    def committed(_conn: object) -> None:
        commits[0] += 1
        if commits[0] == 1:
            wait_until_inside_add(2)  # the second batch is queued while the first holds the connection

    def released() -> None:
        if not first_released.is_set():
            first_released.set()
            assert release.wait(WAIT_S)

    db.add_commit_hook(committed, lambda: None)
    db.add_release_hook(released)
    first = threading.Thread(target=lambda: evidence.add([_turn("first", 0)], []), name="first")
    second = threading.Thread(target=lambda: evidence.add([_turn("second", 0)], []), name="second")
    first.start()
    for _ in range(int(WAIT_S / 0.01)):
        if inside_add() == 1:
            break
        release.wait(0.01)
    second.start()
    # when the first leader lets the connection go, the lead has passed on: the second batch
    # is committed and answered while the first leader's hook still runs,
    assert first_released.wait(WAIT_S)
    second.join(WAIT_S)
    assert not second.is_alive()
    assert first.is_alive()  # answered only once its release hook is done
    assert evidence.count("second") == 1
    # and the first is answered once its hook is done.
    release.set()
    first.join(WAIT_S)
    assert not first.is_alive()
    assert evidence.count("first") == 1
