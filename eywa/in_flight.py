"""Calls in flight on a memory, so that closing it waits for them.

``Memory.close`` shuts the read path's thread pools down and closes the stores. A call that
had passed the open check in another thread went on using them: it met a pool's
``RuntimeError`` ("cannot schedule new futures after shutdown") instead of ``ClosedError``,
or, worse, a SQLite connection closed while it executed on it, which ends the process with
a segfault. So each public call runs inside ``InFlight.call``: ``close`` first refuses new
calls (``ClosedError``), then waits for those in progress, then tears down.

A call made from inside another on the same thread (a method that calls another) joins it,
even while the memory is closing, so that the outer call can finish; and ``close`` called from
inside a call does not wait for itself. An iterator a method returns (``export_space``) is
a call at each step, not for its whole life: an abandoned iterator never holds a close off.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from eywa.errors import ClosedError

T = TypeVar("T")

__all__ = ["InFlight"]


class InFlight:
    """The count of calls in progress, and whether the owner is closing."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._active = 0
        self._closing = False
        self._local = threading.local()

    @contextmanager
    def call(self) -> Iterator[None]:
        """One call, counted until it ends.

        Raises:
            ClosedError: the owner is closed or closing (and this thread is in no call).
        """
        depth: int = getattr(self._local, "depth", 0)
        with self._changed:
            if self._closing and depth == 0:
                raise ClosedError()
            self._active += 1
        self._local.depth = depth + 1
        try:
            yield
        finally:
            self._local.depth = depth
            with self._changed:
                self._active -= 1
                self._changed.notify_all()

    def each(self, items: Iterator[T]) -> Iterator[T]:
        """``items``, each step of it a call."""
        while True:
            with self.call():
                try:
                    item = next(items)
                except StopIteration:
                    return
            yield item

    @property
    def closing(self) -> bool:
        """Whether the owner is closed or closing (new calls are refused)."""
        return self._closing

    def close(self) -> bool:
        """Refuse new calls, and wait until the calls of other threads have ended; False when
        it was already closing (a second close has nothing to wait for)."""
        own: int = getattr(self._local, "depth", 0)
        with self._changed:
            if self._closing:
                return False
            self._closing = True
            while self._active > own:
                self._changed.wait()
        return True
