"""One Neo4j driver and database shared by the server stores, with error translation.

Every store runs its Cypher through :class:`Neo4jGraph`: reads with ``read`` (one
auto-retried read transaction), writes with ``write`` (one managed write transaction,
``session.execute_write``, so a batch commits or rolls back as a whole and is retried on
transient errors). Driver exceptions never cross this boundary: they become
``StoreError`` chained with ``from exc``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

from neo4j import Driver, ManagedTransaction, Session
from neo4j.exceptions import DriverError, Neo4jError

from eywa.errors import ClosedError, StoreError

BACKEND = "neo4j"
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
    """

    def __init__(self, driver: Driver, database: str, *, owns_driver: bool = True) -> None:
        self.driver = driver
        self.database = database
        self._owns_driver = owns_driver
        self._closed = False
        self._lock = threading.Lock()

    def read(self, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        """Rows of one read query.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        self._check_open()
        with mapped(operation), self._session() as session:
            return session.execute_read(run, query, **params)

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
        with mapped(operation), self._session() as session:
            return session.execute_write(work, *args, **kwargs)

    def close(self) -> None:
        """Close the driver (when owned); later use raises ``ClosedError``. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._owns_driver:
            with mapped("close"):
                self.driver.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _session(self) -> Session:
        return self.driver.session(database=self.database, notifications_min_severity="OFF")

    def _check_open(self) -> None:
        if self._closed:
            raise ClosedError("Neo4j stores")
