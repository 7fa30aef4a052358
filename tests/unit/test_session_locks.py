"""``eywa.session_locks``: one lock per (space, session), made on demand and dropped unused.

The locks were 256 fixed stripes chosen by a hash of space and session, so two unrelated
sessions whose hashes met (here "morning" and "evening-1471" of one space) waited on each
other's writes: the second batch's write began only once the first's had committed. Each
session now has a lock of its own while a batch holds or awaits it.
"""

from __future__ import annotations

import threading

from eywa.session_locks import SessionLocks

_WAIT_S = 5.0


def test_a_session_held_does_not_hold_up_another_session() -> None:
    locks = SessionLocks()
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with locks.held("garden", ["morning"]):
            holding.set()
            assert release.wait(_WAIT_S)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(_WAIT_S)
        entered = threading.Event()

        def other() -> None:
            with locks.held("garden", ["evening-1471"]):  # shared a stripe with "morning"
                entered.set()

        writer = threading.Thread(target=other)
        writer.start()
        assert entered.wait(2), "the other session's write waited for this one"
        writer.join(_WAIT_S)
    finally:
        release.set()
        holder.join(_WAIT_S)


def test_batches_of_one_session_wait_for_each_other_and_the_locks_go_when_unused() -> None:
    locks = SessionLocks()
    holding, release, entered = threading.Event(), threading.Event(), threading.Event()

    def hold() -> None:
        with locks.held("garden", ["morning", "noon"]):
            holding.set()
            assert release.wait(_WAIT_S)

    def same() -> None:
        with locks.held("garden", ["noon"]):
            entered.set()

    holder, waiter = threading.Thread(target=hold), threading.Thread(target=same)
    holder.start()
    assert holding.wait(_WAIT_S)
    waiter.start()
    assert not entered.wait(0.3)  # "noon" is held: the batch waits
    assert len(locks) == 2  # "morning" and "noon", the latter awaited too
    release.set()
    assert entered.wait(_WAIT_S)
    holder.join(_WAIT_S)
    waiter.join(_WAIT_S)
    assert len(locks) == 0  # none kept for sessions nobody writes
    with locks.held("garden", ["noon"]), locks.held("garden", ["morning"]):
        assert len(locks) == 2
    assert len(locks) == 0
