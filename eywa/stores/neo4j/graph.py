"""One Neo4j driver and database shared by the server stores, with error translation.

Every store runs its Cypher through :class:`Neo4jGraph`: reads with ``read``, writes with
``write`` (one managed write transaction, ``session.execute_write``, so a batch commits or
rolls back as a whole and is retried on transient errors). Driver exceptions never cross
this boundary: they become ``StoreError`` chained with ``from exc``.

A read is one statement, so it runs as an auto-commit query: one round trip (RUN and PULL
pipelined) where a managed read transaction costs two (BEGIN, RUN and PULL, then COMMIT),
on a session each thread keeps (``threading.local``) rather than one opened per read; a
session lends a pooled connection only while its query runs. What the managed transaction
gave, the retry of a transient failure (a server restarting, a leader switch), ``read``
does itself, for up to ``retry_s`` seconds, like the driver's ``max_transaction_retry_time``.

``read`` builds each row as a plain dict of the values the driver decoded: the stores' read
queries return values (``properties(n)``, map projections, lists), never nodes,
relationships or paths, so the driver's ``Record.data()`` export, which walks every nested
list and map with abstract-class checks, is not needed (it was about a fifth of a server
recall's busy samples in a profile). A row whose column is a graph entity is still exported, so nothing
breaks if a query returns one; queries from elsewhere (the audit cookbook) use
``read_exported``, which exports every row as the driver does.

A write transaction sends its BEGIN with its first statement (``_pipelined_begin``, as the
driver's ``execute_query`` does), so an acknowledged API write, whose Level 0 is one
transaction, waits on one round trip less.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from typing import Any, Concatenate, ParamSpec, TypeVar

from neo4j import READ_ACCESS, Driver, ManagedTransaction, Query, Result, Session, unit_of_work
from neo4j.exceptions import DriverError, Neo4jError
from neo4j.graph import Node, Path, Relationship

from eywa.errors import ClosedError, StoreError

BACKEND = "neo4j"
# Read retries: the first wait, and the longest (the waits double in between).
_FIRST_WAIT_S = 0.05
_LONGEST_WAIT_S = 1.0
P = ParamSpec("P")
T = TypeVar("T")


@contextmanager
def mapped(operation: str) -> Iterator[None]:
    """Translate the driver's exceptions into ``StoreError`` at the store boundary.

    Raises:
        StoreError: Neo4j or the driver failed; the driver error is the ``__cause__``.
    """
    try:
        yield
    except (Neo4jError, DriverError) as exc:
        raise StoreError(BACKEND, operation, str(exc)) from exc


_PARAMETER = re.compile(r"\$(\w+)")


def one_parameter(query: str) -> str:
    """``query`` with every parameter read from one map parameter, ``$b`` (``$ids`` becomes
    ``$b.ids``); run it with ``b={"ids": …}``.

    Neo4j caches a statement's plan per text and per size class of each list parameter (a
    list of 0, 1, 2-9, 10-99… elements is another plan), but does not look into a map: a
    statement of many lists whose lengths vary call by call (Level 0's) has one plan, not
    one per combination of sizes, each planned when it first comes. ``query`` is a
    caller's constant holding no ``$`` but its parameters'."""
    return _PARAMETER.sub(r"$b.\1", query)


def run(tx: ManagedTransaction, query: str, /, **params: Any) -> list[dict[str, Any]]:
    """Run one statement inside ``tx`` and return its rows as dicts."""
    # Queries are module constants formatted only with enum members (never caller input).
    return tx.run(query, params).data()


class Neo4jGraph:
    """The driver, the database name and the closed state the stores share.

    Args:
        driver: A connected ``neo4j.Driver``; closed by :meth:`close` when ``owns_driver``.
        database: The database every session opens.
        owns_driver: Whether :meth:`close` closes the driver too.
        retry_s: How long a read that failed transiently is tried again (the driver's
            ``max_transaction_retry_time`` for writes; ``EYWA_NEO4J_RETRY_S``).
        transaction_timeout_s: The server-side limit of each read query and write
            transaction (``EYWA_NEO4J_TRANSACTION_TIMEOUT_S``): Neo4j terminates one that
            runs longer, so a runaway query fails as a ``StoreError`` rather than holding
            a pooled connection; ``None`` (or 0) leaves the server's
            ``db.transaction.timeout``.
    """

    def __init__(
        self,
        driver: Driver,
        database: str,
        *,
        owns_driver: bool = True,
        retry_s: float = 5.0,
        transaction_timeout_s: float | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self._owns_driver = owns_driver
        self._retry_s = retry_s
        self._timeout_s = transaction_timeout_s or None  # 0 would mean "no limit at all" to Neo4j
        self._closed = False
        self._lock = threading.Lock()
        self._read_sessions: dict[threading.Thread, Session] = {}

    def read(self, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        """Rows of one read query: one auto-commit round trip on this thread's session,
        retried while the failure is transient and ``retry_s`` has not passed. Each row is
        a dict of the decoded values (see the module docstring: no export walk).

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        return self._read(operation, query, params, _plain_rows)

    def read_exported(self, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        """``read`` with every row exported by the driver (``Record.data()``: nodes as
        their properties, nested lists and maps copied): for queries not written by the
        stores, which may return graph entities anywhere.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        return self._read(operation, query, params, Result.data)

    def _read(
        self, operation: str, query: str, params: dict[str, Any], rows: Callable[[Result], list[dict[str, Any]]]
    ) -> list[dict[str, Any]]:
        self._check_open()
        deadline = time.monotonic() + self._retry_s
        wait = _FIRST_WAIT_S
        while True:
            try:
                # Queries are module constants formatted only with enum members (never caller input).
                return rows(self._read_session().run(Query(query, timeout=self._timeout_s), params))
            except (Neo4jError, DriverError) as exc:
                self._drop_read_session()  # a failed session is not reused
                if not exc.is_retryable() or time.monotonic() + wait > deadline or self._closed:
                    raise StoreError(BACKEND, operation, str(exc)) from exc
            time.sleep(wait)
            wait = min(wait * 2, _LONGEST_WAIT_S)

    def write(
        self,
        operation: str,
        work: Callable[Concatenate[ManagedTransaction, P], T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """Run ``work(tx, ...)`` in one write transaction (all or nothing).

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed; nothing of the transaction was committed.
        """
        self._check_open()
        with mapped(operation), self._session() as session, _pipelined_begin(session):
            return session.execute_write(unit_of_work(timeout=self._timeout_s)(work), *args, **kwargs)

    def rehearse(
        self,
        operation: str,
        work: Callable[Concatenate[ManagedTransaction, P], object],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> None:
        """Run ``work(tx, ...)`` in a write transaction that is always rolled back: nothing
        it writes is stored, but Neo4j plans (and caches the plan of) every statement it
        runs, as it does for a transaction that commits. The warm-up
        (``eywa.warm_up``) runs the hot write statements so; an ``EXPLAIN`` would not do,
        since on Neo4j 5.26 it does not fill the cache that runs use (measured).

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """

        def rolled_back(tx: ManagedTransaction) -> None:
            work(tx, *args, **kwargs)
            raise _RolledBack  # the managed transaction rolls back on any exception

        self._check_open()
        with suppress(_RolledBack), mapped(operation), self._session() as session:
            session.execute_write(unit_of_work(timeout=self._timeout_s)(rolled_back))

    def close(self) -> None:
        """Close the driver (when owned); later use raises ``ClosedError``. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            sessions, self._read_sessions = list(self._read_sessions.values()), {}
        _close_quietly(sessions)
        if self._owns_driver:
            with mapped("close"):
                self.driver.close()

    def __del__(self) -> None:
        # A graph dropped without ``close`` (one sharing a caller's driver) still closes its
        # idle read sessions, which would otherwise warn when collected.
        _close_quietly(list(getattr(self, "_read_sessions", {}).values()))

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _session(self) -> Session:
        return self.driver.session(database=self.database, notifications_min_severity="OFF")

    def _read_session(self) -> Session:
        """This thread's read session, opened on its first read (a session is not
        thread-safe). The sessions of threads that have ended are closed here, so that a
        server whose worker threads come and go keeps one session per live thread."""
        thread = threading.current_thread()
        session = self._read_sessions.get(thread)
        if session is not None:
            return session
        session = self.driver.session(
            database=self.database, default_access_mode=READ_ACCESS, notifications_min_severity="OFF"
        )
        with self._lock:
            ended = [self._read_sessions.pop(t) for t in list(self._read_sessions) if not t.is_alive()]
            self._read_sessions[thread] = session
        _close_quietly(ended)
        return session

    def _drop_read_session(self) -> None:
        """Forget and close this thread's session (after a failure: the next read opens another)."""
        with self._lock:
            session = self._read_sessions.pop(threading.current_thread(), None)
        _close_quietly([] if session is None else [session])

    def _check_open(self) -> None:
        if self._closed:
            raise ClosedError("Neo4j stores")


def _pipelined_begin(session: Session) -> AbstractContextManager[object]:
    """The driver's switch that sends a transaction's BEGIN with its first statement
    instead of awaiting BEGIN's answer first: one round trip less per write transaction.
    ``Driver.execute_query`` turns it on for its own transactions; ``execute_write`` leaves
    it off. A BEGIN that fails then fails the first statement, inside the managed
    transaction, which retries it as before. The switch is a private attribute of the
    driver's session: a driver without it awaits BEGIN as before."""
    switch = getattr(session, "_pipelined_begin", None)
    return switch if isinstance(switch, AbstractContextManager) else nullcontext()


class _RolledBack(Exception):
    """Raised at the end of a rehearsal's work so that its transaction rolls back."""


_GRAPH_TYPES = (Node, Relationship, Path)


def _plain_rows(result: Result) -> list[dict[str, Any]]:
    """The rows of ``result`` as dicts of their decoded values, without the driver's
    export walk; a row with a graph entity in a column is exported as the driver does."""
    keys = result.keys()
    return [
        record.data() if any(isinstance(v, _GRAPH_TYPES) for v in record) else dict(zip(keys, record))
        for record in result
    ]


def _close_quietly(sessions: list[Session]) -> None:
    """Close sessions that hold no running query; one already broken is let go."""
    for session in sessions:
        try:
            session.close()
        except (Neo4jError, DriverError, OSError):
            pass  # the failure that got it dropped, if any, is the one reported
