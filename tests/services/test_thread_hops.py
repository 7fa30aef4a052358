"""The API's request path hops threads only where it does blocking I/O.

FastAPI runs every sync dependency in its thread pool, and validates a sync route's answer
there too: a thread hop each, which was most of a small request's CPU (docs/service.md, "What
a request costs the API process"). So every dependency of a ``/v1`` route is ``async def``
(they read only the request), and the routes agents call in a loop (write, job, read) are
``async def`` that call the core through one ``run_in_threadpool``.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from services.api import routes_read, routes_write
from services.api.app import V1_ROUTERS

HOT = (routes_write.router, routes_read.router)


def _dependencies(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _dependencies(sub)


def _is_async(call: object) -> bool:
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(getattr(call, "__call__", None))


def test_no_v1_route_has_a_sync_dependency_and_hot_routes_are_async() -> None:
    routes = [r for router in V1_ROUTERS for r in router.routes if isinstance(r, APIRoute)]
    assert len(routes) >= 20 and all(r.path.startswith("/v1") for r in routes)
    sync = sorted(
        f"{route.path}: {getattr(dep.call, '__qualname__', dep.call)}"
        for route in routes for dep in _dependencies(route.dependant) if not _is_async(dep.call)
    )  # fmt: skip
    assert sync == []
    hot = [r for router in HOT for r in router.routes if isinstance(r, APIRoute)]
    assert {r.path for r in hot} >= {"/v1/spaces/{space}/turns", "/v1/spaces/{space}/recall", "/v1/jobs/{job_id}"}
    assert [r.path for r in hot if not inspect.iscoroutinefunction(r.endpoint)] == []
