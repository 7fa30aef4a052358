"""What ``eywa.Client`` and ``eywa.AsyncClient`` are given is checked as ``Memory`` checks it,
before any request: an argument no request can carry, or one ``Memory`` refuses for its
shape, is an ``InvalidInputError`` naming the argument (``Memory``'s field), never an
exception from httpx, ``urllib.parse.quote`` or the codecs, and never a request the server
reads as something else.

Each case was found by probing the clients (the traceback it gave is in its id): a lone
surrogate in a path segment or a query parameter (UnicodeEncodeError), a time that is a
number (AttributeError from ``isoformat``), erasure ids that are no list (TypeError, or a
string erased by its characters), an import source that is no iterable of lines or holds a
line no encoder takes (TypeError, AttributeError, UnicodeDecodeError, UnicodeEncodeError).
The limits are the server's: the clients check shapes only.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from eywa import AsyncClient, Client
from eywa.errors import InvalidInputError

KEY = "eyw_0123abcd_secret-Token.x~y+z/w=="
LONE = "\ud800"
CASES: list[tuple[str, str, tuple[Any, ...], dict[str, Any], str]] = [
    ("space-surrogate", "stats", (f"s{LONE}",), {}, "space"),
    ("space-slash", "stats", ("a/b",), {}, "space"),  # reached no route: a NotFoundError of the call
    ("entity-slash", "dimension", ("s", "AC/DC", "genre"), {}, "entity"),
    ("evidence-surrogate", "evidence", ("s", LONE), {}, "evidence_id"),
    ("entity-surrogate", "deltas", ("s", LONE, "residence"), {}, "entity"),
    ("subject-surrogate", "beliefs", ("s",), {"subject": LONE}, "subject"),
    ("subject-number", "beliefs", ("s",), {"subject": 5}, "subject"),
    ("target-number", "corrections", ("s",), {"target_id": 5}, "target_id"),
    ("as_of-number", "recall", ("s", "where?"), {"as_of": 5}, "as_of"),
    ("as_of-number-dimensions", "dimensions", ("s",), {"as_of": 1.5}, "as_of"),
    ("before-number", "forget", ("s",), {"before": 5}, "before"),
    ("ids-number", "forget", ("s",), {"evidence_ids": 5}, "evidence_ids"),
    ("ids-string", "forget", ("s",), {"external_ids": "abc"}, "external_ids"),
    ("ids-surrogate", "forget", ("s",), {"evidence_ids": ["ev_1", LONE]}, "evidence_ids.1"),
    ("source-none", "import_space", ("s", None), {}, "source"),
    ("source-number", "import_space", ("s", 5), {}, "source"),
    ("source-item-number", "import_space", ("s", ['{"kind": "header"}', 5]), {}, "line.2"),
    ("source-surrogate", "import_space", ("s", ['{"kind": "header"}', f'"{LONE}"']), {}, "line.2"),
]


def _never(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request was sent: {request.method} {request.url}")


@pytest.mark.parametrize(("method", "args", "kwargs", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_client_refuses_before_sending(method: str, args: tuple[Any, ...], kwargs: dict[str, Any], field: str) -> None:
    with Client("http://eywa.test", KEY, retries=0, transport=httpx.MockTransport(_never)) as client:
        with pytest.raises(InvalidInputError) as info:
            getattr(client, method)(*args, **kwargs)
    assert [p.field for p in info.value.problems] == [field]


@pytest.mark.parametrize(("method", "args", "kwargs", "field"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_async_client_refuses_before_sending(
    method: str, args: tuple[Any, ...], kwargs: dict[str, Any], field: str
) -> None:
    async def call() -> None:
        async with AsyncClient("http://eywa.test", KEY, retries=0, transport=httpx.MockTransport(_never)) as client:
            await getattr(client, method)(*args, **kwargs)

    with pytest.raises(InvalidInputError) as info:
        asyncio.run(call())
    assert [p.field for p in info.value.problems] == [field]


def test_an_import_line_of_bytes_travels_as_it_is_for_the_server_to_judge() -> None:
    sent: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.content)
        return httpx.Response(422, json={"code": "invalid_input", "detail": "line.2: not JSON",
                                         "errors": [{"field": "body.line.2", "message": "not JSON"}]})  # fmt: skip

    with Client("http://eywa.test", KEY, retries=0, transport=httpx.MockTransport(answer)) as client:
        with pytest.raises(InvalidInputError):
            client.import_space("s", [b'{"kind": "header"}', b"\xff\xfe"])
    assert sent == [b'{"kind": "header"}\n\xff\xfe\n']


@pytest.mark.parametrize("space", [".", ".."])
def test_a_space_of_dots_reaches_its_own_route(space: str) -> None:
    # Found by probing: written as dots, httpx resolved the segment away; the space ".."
    # (valid in Memory) reached another route (404) and "." a 405.
    paths: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.raw_path)
        return httpx.Response(200, json={"evidence": 0})

    with Client("http://eywa.test", KEY, retries=0, transport=httpx.MockTransport(answer)) as client:
        client.stats(space)
    assert paths == [b"/v1/spaces/" + b"%2E" * len(space) + b"/stats"]
