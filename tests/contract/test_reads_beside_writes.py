"""A recall does not queue behind a write (README "Read path": the embedded store's reads do
not wait for its writer). A ``remember`` is stopped while it holds the embedded store's
writing connection (at its Level 0 commit point); a recall of the same space from another
thread still answers, from what was committed before, and the write then finishes. Before,
every read took the writer's lock, so that recall waited for the whole write."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from eywa import crashpoints
from eywa.crashpoints import CrashPoint
from eywa.memory import Memory

SPACE = "reads-beside-writes"


@pytest.fixture
def held_write(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event, threading.Event]]:
    """(armed, holding, release): once ``armed``, the write path stops at its Level 0
    commit, inside the writer's hold, until ``release`` is set; ``holding`` says it got there."""
    armed, holding, release = threading.Event(), threading.Event(), threading.Event()

    def stop_there(point: CrashPoint) -> None:
        if point == "level0_committed" and armed.is_set():
            holding.set()
            release.wait(30)

    monkeypatch.setattr(crashpoints, "reached", stop_there)
    yield armed, holding, release
    release.set()


def test_a_recall_answers_while_a_write_holds_the_store(
    memory: Memory, held_write: tuple[threading.Event, threading.Event, threading.Event]
) -> None:
    armed, holding, release = held_write
    (kept,) = memory.remember(SPACE, [{"text": "Ana adopted a kitten called Miso.", "speaker": "Ana"}])
    armed.set()
    with ThreadPoolExecutor(2) as pool:
        write = pool.submit(memory.remember, SPACE, [{"text": "Ana took Miso to the vet.", "speaker": "Ana"}])
        assert holding.wait(10), "the write never reached its commit point"
        asked = pool.submit(memory.recall, SPACE, "What is the name of Ana's kitten?")
        answer = asked.result(timeout=10)  # before: waited for the write, which waits for us
        assert kept in {item.id for item in answer.items}
        release.set()
        (written,) = write.result(timeout=30)
    assert written in {item.id for item in memory.recall(SPACE, "Who went to the vet?").items}
