"""``eywa.Client`` against a server (or a proxy in front of it) that answers anything: any
status, any ``Retry-After``, any body, or no answer at all. Whatever comes back, a call
returns or raises an ``EywaError`` — never an exception from below — and its waits between
retries are finite, non-negative and at most a minute (so a call cannot hang).

Found by this walk: a ``Retry-After: nan`` on a 429 or 503 became a wait of NaN seconds,
and ``time.sleep(nan)`` raised ``ValueError`` from inside the Client.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa import Client
from eywa.errors import EywaError

CALLS: list[Callable[[Client], Any]] = [
    lambda c: c.recall("s", "q"),
    lambda c: c.remember("s", [{"text": "hi"}]),
    lambda c: c.beliefs("s"),
    lambda c: c.dimension("s", "Ana", "employer"),
    lambda c: c.forget("s", speaker="Ana"),
    lambda c: c.export_space("s"),
    lambda c: c.merges("s"),
    lambda c: c.job("j1"),
    lambda c: c.stats("s"),
]

FAULTS = (
    httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("cut"),
    httpx.DecodingError("garbled"),
)  # fmt: skip

problems = st.fixed_dictionaries(
    {},
    optional={
        "code": st.sampled_from(["invalid_input", "overloaded", "quota_exceeded", "not_found", "conflict", "erased", "x"]),
        "detail": st.text(max_size=20),
        "errors": st.one_of(st.none(), st.text(max_size=3), st.lists(st.dictionaries(st.text(max_size=6), st.text(max_size=6)))),
        "kind": st.one_of(st.text(max_size=5), st.integers()),
        "space": st.one_of(st.text(max_size=5), st.none()),
        "item_id": st.text(max_size=5),
        "limit": st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=4), st.none()),
        "backlog": st.one_of(st.integers(), st.text(max_size=4)),
        "retry_after_s": st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=4)),
        "stage": st.text(max_size=5),
    },
)  # fmt: skip
bodies = st.one_of(
    st.binary(max_size=40), problems.map(lambda p: p), st.lists(st.integers(), max_size=3), st.just(None),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                 max_leaves=8),
)  # fmt: skip
retry_afters = st.one_of(
    st.none(), st.sampled_from(["nan", "NaN", "inf", "-inf", "-1", "1e309", "1.5", "Wed, 21 Oct 2015 07:28:00 GMT", ""]),
    st.text(alphabet="0123456789.-+eEnaif ", max_size=8),
)  # fmt: skip
answers = st.one_of(
    st.sampled_from(FAULTS),
    st.tuples(st.sampled_from([200, 201, 204, 400, 401, 403, 404, 409, 410, 413, 422, 429, 500, 502, 503, 504])
              | st.integers(min_value=100, max_value=599), bodies, retry_afters),
)  # fmt: skip


def _response(answer: Any, request: httpx.Request) -> httpx.Response:
    if isinstance(answer, Exception):
        raise answer
    status, body, retry_after = answer
    headers = {} if retry_after is None else {"Retry-After": retry_after}
    if isinstance(body, bytes):
        return httpx.Response(status, content=body, headers=headers, request=request)
    return httpx.Response(status, json=body, headers=headers, request=request)


@given(call=st.sampled_from(CALLS), script=st.lists(answers, min_size=1, max_size=4))
@settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_any_answer_is_a_value_or_an_eywa_error(call: Callable[[Client], Any], script: list[Any]) -> None:
    sent = iter(script * 4)
    waits: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        return _response(next(sent), request)

    def sleep(seconds: float) -> None:
        assert isinstance(seconds, float) and math.isfinite(seconds) and 0.0 <= seconds <= 60.0, seconds
        waits.append(seconds)

    with Client("http://eywa.test", "eyw_a_b", retries=3, transport=httpx.MockTransport(handler), sleep=sleep) as client:
        try:
            call(client)
        except EywaError:
            pass
    assert len(waits) <= 3
