"""``InFlight``: a close waits for the calls of other threads, refuses new ones, and never
waits for itself or for an abandoned iterator."""

from __future__ import annotations

import threading
import time

import pytest

from eywa.errors import ClosedError
from eywa.in_flight import InFlight


def test_close_waits_for_a_call_in_progress_then_refuses_new_ones() -> None:
    gate, entered, release = InFlight(), threading.Event(), threading.Event()
    ended: list[float] = []

    def call() -> None:
        with gate.call():
            entered.set()
            release.wait(5)
            ended.append(time.monotonic())

    worker = threading.Thread(target=call)
    worker.start()
    assert entered.wait(5)
    closer = threading.Thread(target=gate.close)
    closer.start()
    closer.join(0.2)
    assert closer.is_alive()  # still waiting for the call
    release.set()
    closer.join(5)
    worker.join(5)
    assert not closer.is_alive() and ended
    with pytest.raises(ClosedError), gate.call():
        pass
    assert gate.close() is False  # already closed: nothing to wait for


def test_a_call_inside_a_call_joins_it_while_closing_and_close_inside_a_call_does_not_wait_for_itself() -> None:
    gate = InFlight()
    with gate.call():
        assert gate.close() is True  # returns: the only call in flight is this thread's own
        with gate.call():  # a method calling another finishes
            pass
    with pytest.raises(ClosedError), gate.call():
        pass


def test_an_abandoned_iterator_holds_no_close_off() -> None:
    gate = InFlight()
    items = gate.each(iter(range(10)))
    assert next(items) == 0
    closer = threading.Thread(target=gate.close)
    closer.start()
    closer.join(5)
    assert not closer.is_alive()
    with pytest.raises(ClosedError):
        next(items)
