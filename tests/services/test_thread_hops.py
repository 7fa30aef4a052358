"""The API's request path hops threads only where it does blocking I/O.

FastAPI runs every sync dependency in its thread pool, and validates a sync route's answer
there too: a thread hop each, which was most of a small request's CPU (docs/service.md, "What
a request costs the API process"). So every dependency of a ``/v1`` route is ``async def``
(they read only the request), and the routes agents call in a loop (write, job, read) are
``async def`` that call the core through one ``run_in_threadpool``. The gate looks the key up
on the event loop when the key store and the rate limiter answer in the process (the
embedded key file, no Redis), and in the thread pool when they wait on a server.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fastapi.dependencies.models import Dependant
from fastapi.testclient import TestClient
from fastapi.routing import APIRoute

from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api import routes_read, routes_write
from services.api.app import V1_ROUTERS, create_app
from services.ratelimit import Decision, NoRateLimiter

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


class LoopRecordingKeys(SqliteKeyStore):
    """The embedded key store, noting for each lookup whether it ran on the event loop."""

    on_loop: list[bool]

    def authenticate(self, token: str) -> Any:
        try:
            asyncio.get_running_loop()
            self.on_loop.append(True)
        except RuntimeError:  # a worker thread has no running loop
            self.on_loop.append(False)
        return super().authenticate(token)


class ServerLimiter(NoRateLimiter):
    """A limiter that says it waits on a server (as Redis's does)."""

    in_process = False

    def hit(self, key_id: str) -> Decision:
        return super().hit(key_id)


@pytest.mark.parametrize(("limiter", "on_loop"), [(NoRateLimiter(), True), (ServerLimiter(), False)])
def test_the_gate_looks_an_in_process_key_up_on_the_event_loop(
    memory: Memory, tmp_path: Path, limiter: NoRateLimiter, on_loop: bool
) -> None:
    keys = LoopRecordingKeys(tmp_path / "keys.sqlite")
    keys.on_loop = []
    _, secret = keys.create(["hops"], ["read"])
    with TestClient(create_app(memory, EywaSettings(data_dir=tmp_path), keys, rate_limiter=limiter)) as client:
        answer = client.get("/v1/spaces/hops/stats", headers={"Authorization": f"Bearer {secret}"})
        refused = client.get("/v1/spaces/hops/stats", headers={"Authorization": "Bearer eyw_nokey_x"})
    keys.close()
    assert answer.status_code == 200 and refused.status_code == 401
    assert keys.on_loop == [on_loop, on_loop]
