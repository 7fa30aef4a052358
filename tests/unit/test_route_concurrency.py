"""With a pool, the routes of one recall run at once; the result and the trace are those of
a sequential run (each route's own time, plus the phase's)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any

import numpy as np
import numpy.typing as npt

from eywa.models import Entity, ItemKind, RouteName
from eywa.read.items import Hydrated
from eywa.read.reader import Reader
from eywa.read.routes import Query, RouteHit

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)
QUESTION = "What did we talk about last week?"


class MeetingRoute:
    """Returns its hits only once every route of the recall has started (a barrier): it
    can finish only when the routes run concurrently."""

    def __init__(self, name: RouteName, ids: Sequence[str], barrier: threading.Barrier | None) -> None:
        self.name: RouteName = name
        self._ids = ids
        self._barrier = barrier

    def run(self, query: Query) -> list[RouteHit]:
        if self._barrier is not None:
            self._barrier.wait()
        return [RouteHit("evidence", i, 1.0 / (rank + 1)) for rank, i in enumerate(self._ids)]


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (), "s1", AT, None, ()) for i in ids}


def ones(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    return np.ones((len(texts), 4), np.float32)


def reader(
    barrier: threading.Barrier | None,
    pool: ThreadPoolExecutor | None,
    routes: list[MeetingRoute] | None = None,
    embed: Callable[[Sequence[str]], npt.NDArray[np.float32]] = ones,
) -> Reader:
    return Reader(
        routes=routes or [MeetingRoute("keyword", ["a", "b", "c"], barrier), MeetingRoute("vector", ["c", "d"], barrier)],
        sources=[Turns()],
        embed_queries=embed,
        entities_named=lambda space, names: [],
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
        pool=pool,
    )


def test_routes_run_at_once_in_the_pool_and_answer_as_one_by_one() -> None:
    # timeout: a sequential run would leave the barrier waiting; it fails instead of hanging.
    barrier = threading.Barrier(2, timeout=30)
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = reader(barrier, pool).recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)
    alone = reader(None, None).recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)

    assert [i.id for i in together.items] == [i.id for i in alone.items]
    assert together.trace["routes"] == alone.trace["routes"]
    timings = together.trace["timings_ms"]
    assert {"route.keyword", "route.vector", "routes"} <= set(timings)
    # ``total`` is the recall's elapsed time: at least its phases one after the other; the
    # routes' own times overlap inside ``routes``, the embedding's inside ``plan`` and ``routes``.
    phases = sum(ms for stage, ms in timings.items() if stage not in {"total", "embed"} and not stage.startswith("route."))
    # (No upper bound: how long the untimed glue between phases takes is the machine's load,
    # not the reader's behaviour; a timed bound here failed under a loaded CI.)
    assert phases <= timings["total"]


def test_the_query_embedding_runs_while_the_other_routes_do() -> None:
    # The embedding returns only once the keyword route has started (a barrier): it can
    # finish only when it overlaps the routes that do not need it. timeout: fail, not hang.
    barrier = threading.Barrier(2, timeout=30)
    seen: list[str] = []

    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        barrier.wait()
        seen.extend(texts)
        return np.ones((len(texts), 4), np.float32)

    class Vector(MeetingRoute):
        def run(self, query: Query) -> list[RouteHit]:
            assert query.vector.shape == (4,)  # the embedding, not the placeholder
            return super().run(query)

    class Keyword(MeetingRoute):
        def run(self, query: Query) -> list[RouteHit]:
            barrier.wait()
            return super().run(query)

    overlapping = Reader(
        routes=[Keyword("keyword", ["a", "b", "c"], None), Vector("vector", ["c", "d"], None)],
        sources=[Turns()],
        embed_queries=embed,
        entities_named=lambda space, names: [],
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
    )
    try:
        result = overlapping.recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)
    finally:
        overlapping.close()
    alone = reader(None, None).recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)

    assert seen == [QUESTION]
    assert [i.id for i in result.items] == [i.id for i in alone.items]
    assert result.trace["timings_ms"]["embed"] > 0


def test_the_person_route_searches_with_the_question_without_names_embedded_in_the_same_call() -> None:
    calls: list[list[str]] = []
    seen: dict[str, float] = {}

    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        calls.append(list(texts))
        return np.array([[float(len(t))] * 4 for t in texts], np.float32)  # a row tells its text

    class Seeing(MeetingRoute):
        def run(self, query: Query) -> list[RouteHit]:
            seen[self.name] = float(query.vector[0])
            return super().run(query)

    ana = Entity(id="ent_ana", space="s", name="Ana", kind="person")
    # No turn has neighbours (an empty mapping is also an empty sequence: the test holds
    # whether the reader asks for one turn's neighbours or for several turns' at once).
    no_neighbours: Any = lambda space, ids: {}  # noqa: E731
    question = "What did Ana paint?"
    named = Reader(
        routes=[MeetingRoute("keyword", ["a"], None), Seeing("vector", ["b"], None), Seeing("person", ["c"], None)],
        sources=[Turns()],
        embed_queries=embed,
        entities_named=lambda space, names: [ana],
        neighbours=no_neighbours,
        rrf_k=20,
        max_k=50,
    )
    try:
        named.recall("s", question, k=4, budget_tokens=None, policy="balanced", as_of=None)
    finally:
        named.close()

    assert calls == [[question, "What did paint?"]]  # one call for both
    assert seen == {"vector": float(len(question)), "person": float(len("What did paint?"))}


class SharedSearch:
    """A keyword index whose search returns only once the entity lookup has started (a
    barrier, ``None`` for none), counting its searches."""

    def __init__(self, barrier: threading.Barrier | None) -> None:
        self.calls: list[tuple[str, str, int, tuple[str, ...]]] = []
        self._barrier = barrier

    def search(
        self, space: str, query: str, limit: int, kinds: Sequence[str] = ("evidence",)
    ) -> list[tuple[str, str, float]]:
        if self._barrier is not None:
            self._barrier.wait()
        self.calls.append((space, query, limit, tuple(kinds)))
        return [("evidence", "a", 2.0), ("belief", "b1", 1.5), ("evidence", "c", 1.0)]


class Searching(MeetingRoute):
    """Ranks the shared keyword search's evidence hits (as the graph or temporal route does)."""

    def __init__(self, name: RouteName, index: SharedSearch) -> None:
        super().__init__(name, [], None)
        self._index = index

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", i, s) for _, i, s in query.keyword_hits(self._index, "evidence")]


def _searching_reader(index: SharedSearch, barrier: threading.Barrier | None, pool: ThreadPoolExecutor | None) -> Reader:
    def named(space: str, names: Sequence[str]) -> list[Entity]:
        if barrier is not None:
            barrier.wait()
        return []

    return Reader(
        routes=[Searching("keyword", index), Searching("temporal", index), Searching("graph", index)],
        sources=[Turns()],
        embed_queries=lambda texts: np.ones((len(texts), 4), np.float32),
        entities_named=named,
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
        pool=pool,
        keyword=index,
        disabled=frozenset({"vector", "person"}),
    )


def test_the_shared_keyword_search_runs_while_the_entities_are_looked_up_and_once() -> None:
    # The search returns only once the lookup has started and the lookup only once the
    # search has: the recall finishes only if they overlap. timeout: fail, not hang.
    barrier = threading.Barrier(2, timeout=30)
    index = SharedSearch(barrier)
    question = "When did we go to Lisbon?"
    with ThreadPoolExecutor(max_workers=4) as pool:
        early = _searching_reader(index, barrier, pool).recall(
            "s", question, k=4, budget_tokens=None, policy="balanced", as_of=None
        )
    late_index = SharedSearch(None)
    late = _searching_reader(late_index, None, None).recall(
        "s", question, k=4, budget_tokens=None, policy="balanced", as_of=None
    )

    assert index.calls == late_index.calls == [("s", question, 200, ("evidence", "belief"))]  # one search, same one
    assert [i.id for i in early.items] == [i.id for i in late.items] == ["a", "c"]
    assert early.trace["routes"] == late.trace["routes"]


class Meeting:
    """An item source whose loads return only once the other kind's load has started."""

    def __init__(self, kind: ItemKind, barrier: threading.Barrier) -> None:
        self.kind: ItemKind = kind
        self._barrier = barrier

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        self._barrier.wait()
        return {i: Hydrated(self.kind, i, f"{self.kind} {i}", (), "s1", AT, None, ()) for i in ids}


def test_the_items_left_to_load_are_loaded_a_kind_per_thread_at_once() -> None:
    barrier = threading.Barrier(2, timeout=30)  # timeout: a load at a time fails instead of hanging

    class Mixed(MeetingRoute):
        def run(self, query: Query) -> list[RouteHit]:
            return [RouteHit("evidence", "a", 1.0), RouteHit("dimension", "d1", 0.5)]

    # Dimensions and turns are loaded after fusion (the beliefs the routes found are loaded
    # before it, as fusion maps a one-turn belief onto its turn).
    with ThreadPoolExecutor(max_workers=4) as pool:
        result = Reader(
            routes=[Mixed("keyword", [], None)],
            sources=[Meeting("evidence", barrier), Meeting("dimension", barrier)],
            embed_queries=lambda texts: np.ones((len(texts), 4), np.float32),
            entities_named=lambda space, names: [],
            neighbours=lambda space, ids: {},
            rrf_k=20,
            max_k=50,
            pool=pool,
            disabled=frozenset({"vector", "person"}),
        ).recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)

    assert [(i.kind, i.id) for i in result.items] == [("evidence", "a"), ("dimension", "d1")]


def test_the_neighbours_of_the_best_turns_are_read_while_the_items_load() -> None:
    barrier = threading.Barrier(2, timeout=30)  # timeout: a read after the other fails instead of hanging
    asked: list[list[str]] = []

    class Loading(Turns):
        def __init__(self, meet: threading.Barrier | None) -> None:
            self._meet = meet

        def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
            if self._meet is not None:
                self._meet.wait()
            return super().hydrate(space, ids, as_of)

    def around(meet: threading.Barrier | None) -> Any:
        def neighbours(space: str, ids: Sequence[str]) -> dict[str, list[Hydrated]]:
            if meet is not None:
                meet.wait()
            asked.append(list(ids))
            return {i: [Hydrated("evidence", f"{i}-next", f"after {i}", (), "s1", AT, None, ())] for i in ids}

        return neighbours

    def reading(meet: threading.Barrier | None, pool: ThreadPoolExecutor | None) -> Reader:
        return Reader(
            routes=[MeetingRoute("keyword", [f"t{n}" for n in range(12)], None)],
            sources=[Loading(meet)],
            embed_queries=lambda texts: np.ones((len(texts), 4), np.float32),
            entities_named=lambda space, names: [],
            neighbours=around(meet),
            rrf_k=20,
            max_k=50,
            pool=pool,
            disabled=frozenset({"vector", "person"}),
        )

    with ThreadPoolExecutor(max_workers=4) as pool:
        ahead = reading(barrier, pool).recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)
    assert asked == [[f"t{n}" for n in range(8)]]  # the best fused turns, read once: the parents among them
    asked.clear()
    after = reading(None, None).recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)
    assert asked == [["t0", "t1", "t2"]]  # without a pool, the parents alone, once adjusted
    assert [(i.id, i.score) for i in ahead.items] == [(i.id, i.score) for i in after.items]
    assert ahead.trace["changes"]["rescue"] == after.trace["changes"]["rescue"] != []


def test_the_query_embedding_starts_before_the_routes_hold_the_interpreter(monkeypatch: Any) -> None:
    # A route whose Python never lets go of the interpreter (a busy loop: the plan and the
    # keyword route's Python, in the real reader) kept a just-woken embedding thread from
    # starting for its switch interval (5 ms) or longer: the embedding began after the routes
    # had started, not beside them. The recall now waits for the embedding thread to start.
    import eywa.read.reader as reader_module

    monkeypatch.setattr(reader_module, "HANDOFF_WAIT_S", 30.0, raising=False)  # a loaded machine: no flaky bound
    began: dict[str, float] = {}

    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        began.setdefault("embed", time.perf_counter())
        return np.ones((len(texts), 4), np.float32)

    class Busy(MeetingRoute):
        def run(self, query: Query) -> list[RouteHit]:
            began.setdefault("route", time.perf_counter())
            until = time.perf_counter() + 0.05
            while time.perf_counter() < until:  # holds the interpreter, as pure Python does
                pass
            return super().run(query)

    busy = reader(None, None, [Busy("keyword", ["a", "b"], None), MeetingRoute("vector", ["b", "c"], None)], embed)
    for _ in range(3):  # each recall anew: the embedding thread idles between them
        began.clear()
        busy.recall("s", QUESTION, k=4, budget_tokens=None, policy="balanced", as_of=None)
        assert began["embed"] < began["route"]
    busy.close()
