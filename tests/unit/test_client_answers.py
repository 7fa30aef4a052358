"""``eywa.Client`` and ``eywa.AsyncClient`` read whatever comes back as untrusted: an answer
the API would not send (a proxy's HTML page, another service at the base URL, a server of
another version, a body whose encoding is broken) is an ``EywaError`` (``StoreError`` for a
success that is not the call's shape), never a JSONDecodeError, a pydantic ValidationError, a
KeyError or an httpx exception from below; and a base URL or key that cannot make a request
is refused when the client is made, naming the argument.

The answers come from an ``httpx.MockTransport``: the point is what the client does with
bytes, whatever server sent them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa import AsyncClient, Client
from eywa.errors import EywaError, InvalidInputError, StoreError

KEY = "eyw_0123abcd_secret-Token.x~y+z/w=="
# Every method of the clients with arguments the client itself accepts (so the request is sent).
CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("remember", ("s", [{"text": "I moved to Lisbon.", "speaker": "Ana"}]), {}),
    ("recall", ("s", "Where does Ana live?"), {}),
    ("evidence", ("s", "ev_1"), {}),
    ("beliefs", ("s",), {}),
    ("candidates", ("s",), {}),
    ("explain", ("s", "bl_1"), {}),
    ("dimension", ("s", "Ana", "residence"), {}),
    ("dimensions", ("s",), {}),
    ("deltas", ("s", "Ana", "residence"), {}),
    ("stats", ("s",), {}),
    ("job", ("jb_1",), {}),
    ("forget", ("s",), {"speaker": "Ana"}),
    ("drop_space", ("s",), {}),
    ("erasure_proof", ("s", "er_1"), {}),
    ("export_space", ("s",), {}),
    ("import_space", ("s", ['{"kind": "header"}']), {}),
    ("retract_belief", ("s", "bl_1"), {"reason": "wrong"}),
    ("confirm_belief", ("s", "bl_1"), {}),
    ("accept_candidate", ("s", "cd_1"), {}),
    ("dismiss_candidate", ("s", "cd_1"), {}),
    ("corrections", ("s",), {}),
    ("propose_merges", ("s",), {}),
    ("accept_merge", ("s", "Ana", "Ana Lima"), {}),
    ("undo_merge", ("s", "Ana", "Ana Lima"), {}),
    ("merges", ("s",), {}),
]

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20,
)
# What a server of the API's shape might almost send: objects with its member names.
API_LIKE = st.dictionaries(
    st.sampled_from(["ids", "items", "detail", "code", "errors", "id", "status", "limit", "used", "space", "stage"]),
    JSON_VALUES, max_size=6,
)  # fmt: skip
BODIES = (
    JSON_VALUES.map(lambda v: json.dumps(v).encode())
    | API_LIKE.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=40)
    | st.just(b"<html><body>502 Bad Gateway</body></html>")
    | st.just(b"[" * 5000 + b"]" * 5000)
)


def _answering(status: int, body: bytes, headers: dict[str, str] | None = None) -> Callable[[httpx.Request], httpx.Response]:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, content=body, headers={"content-type": "application/json", **(headers or {})})

    return answer


def _outcomes_sync(answer: Callable[[httpx.Request], httpx.Response]) -> list[tuple[str, BaseException | None]]:
    outcomes: list[tuple[str, BaseException | None]] = []
    with Client("http://eywa.test", KEY, retries=0, transport=httpx.MockTransport(answer)) as client:
        for name, args, kwargs in CALLS:
            try:
                getattr(client, name)(*args, **kwargs)
                outcomes.append((name, None))
            except Exception as exc:  # noqa: BLE001 - the test sorts what was raised
                outcomes.append((name, exc))
    return outcomes


def _outcomes_async(answer: Callable[[httpx.Request], httpx.Response]) -> list[tuple[str, BaseException | None]]:
    async def run() -> list[tuple[str, BaseException | None]]:
        outcomes: list[tuple[str, BaseException | None]] = []
        async with AsyncClient("http://eywa.test", KEY, retries=0, transport=httpx.MockTransport(answer)) as client:
            for name, args, kwargs in CALLS:
                try:
                    await getattr(client, name)(*args, **kwargs)
                    outcomes.append((name, None))
                except Exception as exc:  # noqa: BLE001 - the test sorts what was raised
                    outcomes.append((name, exc))
        return outcomes

    return asyncio.run(run())


def _escaped(outcomes: list[tuple[str, BaseException | None]]) -> list[str]:
    return [f"{name}: {type(exc).__module__}.{type(exc).__name__}: {exc}" for name, exc in outcomes
            if exc is not None and not isinstance(exc, EywaError)]  # fmt: skip


@pytest.mark.parametrize("outcomes", [_outcomes_sync, _outcomes_async], ids=["Client", "AsyncClient"])
@given(status=st.sampled_from([200, 201, 202, 204]), body=BODIES)
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_any_success_answer_is_a_value_or_an_eywa_error(
    outcomes: Callable[..., list[tuple[str, BaseException | None]]], status: int, body: bytes
) -> None:
    assert _escaped(outcomes(_answering(status, body))) == []


@pytest.mark.parametrize("outcomes", [_outcomes_sync, _outcomes_async], ids=["Client", "AsyncClient"])
@given(status=st.integers(400, 599), body=BODIES)
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_any_refusal_is_an_eywa_error(
    outcomes: Callable[..., list[tuple[str, BaseException | None]]], status: int, body: bytes
) -> None:
    found = outcomes(_answering(status, body))
    assert _escaped(found) == []
    # undo_merge documents a 404 as False ("the two were not merged directly"); nothing else
    # may read a refusal as a value.
    values = [name for name, exc in found if exc is None and not (name == "undo_merge" and status == 404)]
    assert values == [], f"a {status} answer was read as a value"


@pytest.mark.parametrize("outcomes", [_outcomes_sync, _outcomes_async], ids=["Client", "AsyncClient"])
def test_a_page_that_is_not_the_api_is_a_store_error_naming_the_call(
    outcomes: Callable[..., list[tuple[str, BaseException | None]]],
) -> None:
    page = _answering(200, b"<html>Welcome to nginx!</html>", {"content-type": "text/html"})
    for name, exc in outcomes(page):
        if name == "undo_merge":  # its answer is not read: 204 or anything, the merge is undone
            continue
        assert isinstance(exc, StoreError), (name, exc)
        assert "the answer is not the Eywa API's" in str(exc) or "expected" in str(exc), (name, exc)


def test_a_body_that_cannot_be_decoded_is_a_store_error_and_not_retried() -> None:
    seen: list[httpx.Request] = []

    def broken_gzip(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, content=b"not gzip", headers={"content-encoding": "gzip"})

    with Client("http://eywa.test", KEY, retries=3, transport=httpx.MockTransport(broken_gzip), sleep=lambda s: None) as client:
        with pytest.raises(StoreError, match="GET /v1/spaces/s/stats"):
            client.stats("s")
    assert len(seen) == 1  # the same bytes would come again


@pytest.mark.parametrize("make", [Client, AsyncClient], ids=["Client", "AsyncClient"])
@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"base_url": "eywa:8000"}, "base_url"),  # no scheme: httpx would fail on every call
        ({"base_url": ""}, "base_url"),
        ({"base_url": "ftp://eywa.test"}, "base_url"),
        ({"api_key": "eyw_clé"}, "api_key"),  # a header cannot carry it: UnicodeEncodeError on the first call
        ({"api_key": "eyw_a_b\r\nX-Admin: 1"}, "api_key"),
        ({"api_key": ""}, "api_key"),
        ({"timeout": 0}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"retries": -1}, "retries"),
        ({"backoff_s": float("inf")}, "backoff_s"),
    ],
)
def test_a_client_that_could_not_make_a_request_is_refused_when_made(
    make: Callable[..., Any], kwargs: dict[str, Any], field: str
) -> None:
    arguments: dict[str, Any] = {"base_url": "http://eywa.test", "api_key": KEY, **kwargs}
    with pytest.raises(InvalidInputError) as refused:
        make(arguments.pop("base_url"), arguments.pop("api_key"), **arguments)
    assert [p.field for p in refused.value.problems] == [field]


@pytest.mark.parametrize("make", [Client, AsyncClient], ids=["Client", "AsyncClient"])
def test_a_key_as_eywa_makes_them_and_an_https_url_are_accepted(make: Callable[..., Any]) -> None:
    make("https://memory.example.com:8443/prefix/", KEY)
    make("http://127.0.0.1:8000", "eyw_3f9a2c1d7b6e5a40_" + "Zm9v-YmFy_" * 4)


@pytest.mark.parametrize("answer", [{"ids": []}, {"ids": ["ev_1", "ev_2"]}, {"ids": "ev_1"}, {"ids": [1]}])
def test_a_write_answered_with_other_ids_than_turns_sent_is_a_store_error(answer: dict[str, Any]) -> None:
    """The caller pairs the ids with its turns by position: one id too few or too many would
    pair them wrongly (and ``{"ids": "ev_1"}`` was read as four ids, one per character)."""
    transport = httpx.MockTransport(lambda request: httpx.Response(201, json=answer))
    with Client("http://eywa.test", KEY, retries=0, transport=transport) as client:
        with pytest.raises(StoreError, match="1 evidence ids"):
            client.remember("s", [{"text": "I moved to Lisbon.", "speaker": "Ana"}])
    right = httpx.MockTransport(lambda request: httpx.Response(201, json={"ids": ["ev_1"]}))
    with Client("http://eywa.test", KEY, retries=0, transport=right) as client:
        assert client.remember("s", [{"text": "I moved to Lisbon.", "speaker": "Ana"}]) == ["ev_1"]


def test_a_404_reads_as_memorys_not_found_and_one_without_members_names_the_path() -> None:
    """The server's ``kind``, ``space`` and ``item_id`` members make Memory's message; a 404
    without them (no such route, an older server) is named by the path, as before."""
    import httpx

    from eywa.client_calls import raise_for
    from eywa.errors import NotFoundError

    request = httpx.Request("POST", "http://eywa/v1/spaces/s/erase")
    named = httpx.Response(404, json={"code": "not_found", "detail": "evidence 'ev_x' not found in space 's'",
                                      "kind": "evidence", "space": "s", "item_id": "ev_x"}, request=request)  # fmt: skip
    with pytest.raises(NotFoundError) as found:
        raise_for(named, "POST", "/v1/spaces/s/erase")
    assert (str(found.value), found.value.kind, found.value.item_id) == ("evidence 'ev_x' not found in space 's'", "evidence", "ev_x")
    bare = httpx.Response(404, json={"code": "not_found", "detail": "Not Found"}, request=request)
    with pytest.raises(NotFoundError, match="resource 'erase' not found in space 's'"):
        raise_for(bare, "POST", "/v1/spaces/s/erase")
