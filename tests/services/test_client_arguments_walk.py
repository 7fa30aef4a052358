"""Every argument of every ``eywa.Client`` and ``eywa.AsyncClient`` method, walked with
values of any type and size: a call answers or raises an ``EywaError``, never an exception
from below (README, "The input contract": ``eywa.Client`` checks each argument's shape
before it sends anything).

Found by this walk: ``create_key(spaces="alice", ...)`` sent the spaces a, l, i, c and e
(``list()`` of a string) and ``spaces=5`` raised ``TypeError``; ``remember(..., progress=[])``
stored the turns and then raised ``TypeError`` calling it; a path or query value past
httpx's 65,536 characters of URL raised httpx's ``InvalidURL`` from inside the client.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa import AsyncClient, Client
from eywa.errors import EywaError, InvalidInputError

HOSTILE = st.sampled_from([
    None, 0, -1, 2**70, 1.5, float("nan"), True, "", " ", "\ud800", "\x00", "a" * 70_000, "*", "/", "..", "%FF",
    b"bytes", ["x"], ("x",), {"a": 1}, {1: 2}, object(), 1j, frozenset(), iter([1]), datetime.max, date(2024, 1, 1),
    datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=23))), "9999-12-31T23:59:59-23:59", "Zed", [None], ["\ud800"],
    [{"text": "x"}], [{"text": "x", "metadata": {"a": float("nan")}}], [{"text": "x", "metadata": {"s": {1}}}],
])  # fmt: skip
VALID = {
    "space": "s", "query": "q", "evidence_id": "e", "belief_id": "b", "entity": "Zed", "attribute": "employer",
    "job_id": "j", "candidate_id": "c", "source": "x", "target": "y", "turns": [{"text": "hi"}], "reason": "r",
    "spaces": ["s"], "scopes": ["read"], "erasure_id": "x", "speaker": "Zed",
}  # fmt: skip


def _arguments(cls: type) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, argument, the method's required arguments with valid values) of ``cls``."""
    walked = []
    for name, method in inspect.getmembers(cls, predicate=inspect.isfunction):
        if name.startswith("_") or name in ("close", "wait"):
            continue
        parameters = list(inspect.signature(method).parameters.values())[1:]
        required = {p.name: VALID.get(p.name, "x") for p in parameters if p.default is inspect.Parameter.empty}
        if name == "forget":
            required["speaker"] = "Zed"  # a forget needs one selector
        walked += [(name, p.name, required) for p in parameters]
    return walked


def _answer(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={}, request=request)  # not the answer a call reads: a StoreError


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(call=st.sampled_from(_arguments(Client)), value=HOSTILE)
def test_any_argument_of_client_is_sent_or_refused_with_an_eywa_error(call: tuple[str, str, dict[str, Any]], value: object) -> None:
    name, argument, required = call
    with Client("http://eywa.test", "eyw_a_b", retries=0, transport=httpx.MockTransport(_answer)) as client:
        try:
            getattr(client, name)(**{**required, argument: value})
        except EywaError:
            pass


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(call=st.sampled_from(_arguments(AsyncClient)), value=HOSTILE)
def test_any_argument_of_async_client_is_sent_or_refused_with_an_eywa_error(
    call: tuple[str, str, dict[str, Any]], value: object
) -> None:
    name, argument, required = call

    async def run() -> None:
        async with AsyncClient("http://eywa.test", "eyw_a_b", retries=0, transport=httpx.MockTransport(_answer)) as client:
            try:
                await getattr(client, name)(**{**required, argument: value})
            except EywaError:
                pass

    asyncio.run(run())


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda c: c.create_key("alice", ["read"]), "spaces"),
        (lambda c: c.create_key(["alice"], "read"), "scopes"),
        (lambda c: c.create_key(5, ["read"]), "spaces"),
        (lambda c: c.remember("s", [{"text": "hi"}], progress=[]), "progress"),
    ],
)
def test_a_wrong_shape_is_refused_before_anything_is_sent(call: Callable[[Client], object], field: str) -> None:
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda request: sent.append(request) or _answer(request))  # type: ignore[func-returns-value]
    with Client("http://eywa.test", "eyw_a_b", retries=0, transport=transport) as client:
        with pytest.raises(InvalidInputError) as refused:
            call(client)
    assert refused.value.problems[0].field == field and not sent


def test_a_value_too_long_for_a_url_is_a_limit() -> None:
    with Client("http://eywa.test", "eyw_a_b", retries=0, transport=httpx.MockTransport(_answer)) as client:
        with pytest.raises(InvalidInputError) as refused:
            client.evidence("s", "e" * 70_000)
    assert refused.value.code == "limit_exceeded" and "too long to travel in a URL" in str(refused.value)
