"""``eywa.threads.PriorityTurn``: one holder at a time, and a waiting urgent holder goes before
any background one, even one that asks again right after releasing (a plain lock lets the
releasing thread take it straight back). Events, not timings."""

from __future__ import annotations

import threading

from eywa.threads import PriorityTurn


def _wait_until(predicate: object, thread: threading.Thread) -> None:
    for _ in range(100_000):
        if predicate():  # type: ignore[operator]
            return
        thread.join(timeout=0.001)
    raise AssertionError("never happened")


def test_urgent_work_goes_before_the_next_background_unit() -> None:
    turn, order = PriorityTurn(), []
    inside, let_go = threading.Event(), threading.Event()

    def background() -> None:
        for unit in range(3):  # asks again at once after each unit, as a drain does
            with turn.hold(urgent=False):
                order.append(f"background-{unit}")
                if unit == 0:
                    inside.set()
                    assert let_go.wait(timeout=60)

    def urgent() -> None:
        with turn.hold(urgent=True):
            order.append("urgent")

    worker = threading.Thread(target=background)
    worker.start()
    assert inside.wait(timeout=60)
    waiter = threading.Thread(target=urgent)
    waiter.start()
    _wait_until(lambda: turn.urgent_waiting == 1, waiter)
    let_go.set()
    worker.join(timeout=60)
    waiter.join(timeout=60)
    assert order == ["background-0", "urgent", "background-1", "background-2"]
    assert turn.urgent_waiting == 0


def test_the_turn_is_released_when_the_holder_raises() -> None:
    turn = PriorityTurn()
    try:
        with turn.hold(urgent=False):
            raise RuntimeError("unit failed")
    except RuntimeError:
        pass
    with turn.hold(urgent=True):  # not held any more: no deadlock
        pass
