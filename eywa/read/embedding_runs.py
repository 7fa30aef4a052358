"""The query embedding and the routes that search with it, shared by two threads.

A recall embeds its question in a thread of its own while the asking thread makes the plan
and runs the routes that need no embedding. The routes that do (vector, person) used to run
in the asking thread after those, one after the other, while the embedding thread sat idle:
on 10k synthetic turns the embedding (~5 ms) and the other routes (~5-6 ms) end at about the
same time, and then ~4 ms of searches followed on one thread. Now whichever of the two
threads is free first takes the next such route: the embedding thread as soon as its
vectors are computed, the asking thread once its own routes are done. Each route runs once;
Qdrant Edge's searches and SQLite's reads release the GIL, so the two run at once.

Example (one thread does everything when no other is there)::

    runs = EmbeddingRuns(embed, ("q", "q"))
    runs.compute()                  # in the embedding thread
    runs.plan([vector_route], query)  # in the asking thread, once the plan is made
    vectors, ms, done = runs.result()
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Final

import numpy as np
import numpy.typing as npt

from eywa.errors import EmbedderError, EywaError, StoreError
from eywa.models import RouteName
from eywa.read.routes import Query, Route, RouteHit

__all__ = ["EMBEDDING_ROUTES", "EmbeddingRuns", "RouteOutcome", "RouteRun", "timed"]

# The routes that search with a query embedding, and which: the question's (0) or the
# question's without the people it names (1).
EMBEDDING_ROUTES: Final[Mapping[RouteName, int]] = {"vector": 0, "person": 1}

RouteOutcome = list[RouteHit] | StoreError
# One route's run: the route, its hits or its store's failure, its own time (ms).
RouteRun = tuple[Route, RouteOutcome, float]
Vectors = tuple[npt.NDArray[np.float32], ...]


class EmbeddingRuns:
    """One recall's query embeddings and the runs of its routes that search with them.

    ``compute`` runs in the embedding thread: the embeddings, then any of the planned routes
    not taken yet. ``plan`` names those routes once the plan is made (``cancel``: none, the
    plan failed); until it is called the embedding thread waits after computing, so a recall
    must call one of the two. ``result``, in the asking thread, takes the routes still left
    and returns once every planned route has run.
    """

    def __init__(self, embed: Callable[[Sequence[str]], npt.NDArray[np.float32]], texts: tuple[str, ...]) -> None:
        self._embed = embed
        self._texts = texts
        self.started = threading.Event()
        """Set when ``compute`` begins (the reader waits for it: ``Reader._start_embedding``)."""
        self._vectors: Future[tuple[Vectors | EywaError, float]] = Future()
        self._planned: Future[Query | None] = Future()
        self._runs: list[tuple[Route, Future[RouteRun]]] = []
        self._left: deque[tuple[Route, Future[RouteRun]]] = deque()

    def compute(self) -> None:
        """The embeddings (``embedded``), then the planned routes left: in the embedding
        thread. An unexpected error is kept for ``result`` to raise."""
        self.started.set()
        try:
            self._vectors.set_result(embedded(self._embed, self._texts))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the asking thread by ``result``
            self._vectors.set_exception(exc)
            return
        self._take()

    def plan(self, routes: Sequence[Route], query: Query) -> None:
        """The routes that search with the embedding (a subset of ``EMBEDDING_ROUTES``), and
        the query they run with (its ``vector`` replaced by each route's own)."""
        self._runs = [(route, Future()) for route in routes if route.name in EMBEDDING_ROUTES]
        self._left.extend(self._runs)
        self._planned.set_result(query)

    def cancel(self) -> None:
        """No route runs (the plan was not made): the embedding thread is free once computed."""
        if not self._planned.done():
            self._planned.set_result(None)

    def result(self) -> tuple[Vectors | EywaError, float, list[RouteRun]]:
        """(The vectors or the failure to degrade on, the embedding's own ms, the planned
        routes' runs in the order planned): waits for the embedding, runs the routes no
        thread has taken yet, then waits for those the embedding thread took."""
        vectors, ms = self._vectors.result()
        if isinstance(vectors, EywaError):
            return vectors, ms, []
        self._take()
        return vectors, ms, [run.result() for _, run in self._runs]

    def _take(self) -> None:
        """Run the planned routes no thread has taken yet, one at a time (``deque.popleft``
        is atomic: each route is taken once)."""
        query = self._planned.result()
        vectors, _ = self._vectors.result()
        if query is None or isinstance(vectors, EywaError):
            return
        while True:
            try:
                route, run = self._left.popleft()
            except IndexError:
                return
            try:
                run.set_result(timed(route, replace(query, vector=vectors[EMBEDDING_ROUTES[route.name]])))
            except BaseException as exc:  # noqa: BLE001 - raised by ``result`` in the asking thread
                run.set_exception(exc)


def timed(route: Route, query: Query) -> RouteRun:
    """Runs one route; a store failure is returned, not raised, so that the others still count."""
    clock = time.perf_counter()
    try:
        hits: RouteOutcome = route.run(query)
    except StoreError as exc:
        hits = exc
    return route, hits, round((time.perf_counter() - clock) * 1000.0, 3)


def embedded(
    embed: Callable[[Sequence[str]], npt.NDArray[np.float32]], texts: tuple[str, ...]
) -> tuple[Vectors | EywaError, float]:
    """Runs the query embeddings in one call (a batch of two costs about 1.5 times one: 13.0
    against 8.4 ms CPU per question on the loaded machine, 16.0 for two calls); each distinct
    text once. Their failure is returned, to be traced as the vector route's reason for
    being skipped."""
    clock = time.perf_counter()
    try:
        distinct = list(dict.fromkeys(texts))
        rows = embed(distinct)
        vector: Vectors | EywaError = tuple(np.asarray(rows[distinct.index(text)], dtype=np.float32) for text in texts)
    except (EmbedderError, StoreError) as exc:
        vector = exc
    return vector, round((time.perf_counter() - clock) * 1000.0, 3)
