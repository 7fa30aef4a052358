"""``eywa.AsyncClient`` is ``eywa.Client`` for asyncio: the same methods and signatures, and
one scenario run through both against a live server gives the same answers and errors."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from eywa import AsyncClient, Client, EywaError, RecallResult
from eywa.errors import ClosedError, StoreError
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401  (the live-server fixture)
from tests.services.test_client import retry_after

TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]
SPACE = "twins"
# (method, args, kwargs): every read and write of the client, a refused input, a missing id,
# a space the key may not use. Ids found by earlier steps are filled in as "{ev0}", "{belief}".
SCENARIO: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("remember", (SPACE, TURNS), {}),
    ("remember", (SPACE, TURNS), {}),  # idempotent: the same ids again
    ("recall", (SPACE, "Where does Cecilia work?"), {"k": 5}),
    ("evidence", (SPACE, "{ev0}"), {}),
    ("beliefs", (SPACE,), {"attribute": "employer"}),
    ("candidates", (SPACE,), {"status": None}),
    ("explain", (SPACE, "{belief}"), {}),
    ("dimension", (SPACE, "Cecilia", "employer"), {}),
    ("dimensions", (SPACE,), {}),
    ("deltas", (SPACE, "Cecilia", "residence"), {}),
    ("stats", (SPACE,), {}),
    ("evidence", (SPACE, "ev_missing"), {}),
    ("remember", (SPACE, [{"text": "fine"}, {"text": " "}]), {}),
    ("recall", (SPACE, "x"), {"k": 0}),
    ("recall", ("someone-else", "anything"), {}),
]


def _comparable(value: Any) -> Any:
    """What must be equal across the two clients (a recall's timings are not)."""
    if isinstance(value, RecallResult):
        return value.context, [item.id for item in value.items]
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    if isinstance(value, BaseModel):
        return value.model_dump()
    return value


def _outcome(value: Any = None, error: EywaError | None = None) -> Any:
    return ("error", type(error).__name__, error.code) if error is not None else ("ok", _comparable(value))


def _fill(args: tuple[Any, ...], found: dict[str, str]) -> tuple[Any, ...]:
    return tuple(a.format(**found) if isinstance(a, str) and "{" in a else a for a in args)


def _remember_found(step: str, value: Any, found: dict[str, str]) -> None:
    if step == "remember" and isinstance(value, list) and value:
        found.setdefault("ev0", value[0])
    if step == "beliefs" and value:
        found.setdefault("belief", value[0].id)


def run_sync(url: str, key: str) -> list[Any]:
    found: dict[str, str] = {}
    outcomes = []
    with Client(url, key) as client:
        for step, args, kwargs in SCENARIO:
            try:
                value = getattr(client, step)(*_fill(args, found), **kwargs)
            except EywaError as exc:
                outcomes.append(_outcome(error=exc))
                continue
            _remember_found(step, value, found)
            outcomes.append(_outcome(value))
    return outcomes


async def run_async(url: str, key: str) -> list[Any]:
    found: dict[str, str] = {}
    outcomes = []
    async with AsyncClient(url, key) as client:
        for step, args, kwargs in SCENARIO:
            try:
                value = await getattr(client, step)(*_fill(args, found), **kwargs)
            except EywaError as exc:
                outcomes.append(_outcome(error=exc))
                continue
            _remember_found(step, value, found)
            outcomes.append(_outcome(value))
    return outcomes


def test_one_scenario_through_both_clients_gives_the_same_answers_and_errors(live: tuple[str, Service]) -> None:  # noqa: F811
    url, svc = live
    key = svc.headers([SPACE])["Authorization"].removeprefix("Bearer ")
    through_sync = run_sync(url, key)
    through_async = asyncio.run(run_async(url, key))
    assert through_async == through_sync
    assert through_sync[0] == through_sync[1] and through_sync[0][0] == "ok"
    assert [o[0] for o in through_sync].count("error") == 4  # the last four steps are refusals
    assert ("error", "NotFoundError", "not_found") in through_sync


def test_the_async_client_has_the_clients_methods_and_signatures() -> None:
    def public(cls: type) -> dict[str, inspect.Signature]:
        return {n: inspect.signature(m) for n, m in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}

    sync, asynchronous = public(Client), public(AsyncClient)
    assert sync.keys() == asynchronous.keys()
    for name, signature in sync.items():
        assert str(asynchronous[name]) == str(signature), name
        assert inspect.iscoroutinefunction(getattr(AsyncClient, name)), name


@pytest.mark.parametrize("form", ["seconds", "date"])
def test_the_async_client_retries_honouring_retry_after_then_gives_up(form: str) -> None:
    answers = iter([
        httpx.Response(429, headers={"Retry-After": retry_after(form, 2)}),
        httpx.Response(201, json={"ids": ["ev_1"], "job": {"id": "j", "status": "done"}, "author": "k"}),
    ])  # fmt: skip
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def scenario() -> None:
        transport = httpx.MockTransport(lambda request: next(answers))
        async with AsyncClient("http://eywa.test", "eyw_a_b", transport=transport, sleep=sleep) as client:
            assert await client.remember("s", [{"text": "hi"}]) == ["ev_1"]
        down = httpx.MockTransport(lambda request: httpx.Response(503, json={"detail": "down"}))
        client = AsyncClient("http://eywa.test", "eyw_a_b", retries=1, transport=down, sleep=sleep)
        with pytest.raises(StoreError, match="down"):
            await client.recall("s", "q")
        await client.close()
        with pytest.raises(ClosedError):
            await client.recall("s", "q")

    asyncio.run(scenario())
    assert (slept[0] == 2.0 if form == "seconds" else 1.0 < slept[0] <= 2.0) and len(slept) == 2
