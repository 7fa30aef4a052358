"""README, "The input contract": an id longer than ``EYWA_MAX_LABEL_CHARS`` (500) is refused
with ``limit_exceeded`` (422), "the same input ... refused everywhere, with the same error
``code``" and field path, prefixed over HTTP with where it travelled.

Found by probing (audit of s32): the correction routes' belief or candidate id, the
corrections' ``target_id`` and an erasure proof's id had length bounds of their own in the
route (500, 500 and 200 characters; a job's id 200 too), so HTTP answered ``validation_error`` where
``Memory`` says ``limit_exceeded`` — and an erasure id of 201-500 characters, which
``Memory.erasure_proof`` takes (and answers 404), was refused. The ids now reach ``Memory``
as sent, which checks them against the configured limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError, NotFoundError
from tests.services.conftest import Service

LONG = "x" * 501
SPACE = "id-limits"

CASES: list[tuple[str, str, str, Callable[[Memory], Any], str]] = [
    ("POST", f"/v1/spaces/{SPACE}/beliefs/{LONG}/retract", '{"reason": "wrong"}',
     lambda m: m.retract_belief(SPACE, LONG, reason="wrong"), "path.belief_id"),
    ("POST", f"/v1/spaces/{SPACE}/beliefs/{LONG}/confirm", "{}",
     lambda m: m.confirm_belief(SPACE, LONG), "path.belief_id"),
    ("POST", f"/v1/spaces/{SPACE}/candidates/{LONG}/accept", "{}",
     lambda m: m.accept_candidate(SPACE, LONG), "path.candidate_id"),
    ("POST", f"/v1/spaces/{SPACE}/candidates/{LONG}/dismiss", "{}",
     lambda m: m.dismiss_candidate(SPACE, LONG), "path.candidate_id"),
    ("GET", f"/v1/spaces/{SPACE}/corrections?target_id={LONG}", "",
     lambda m: m.corrections(SPACE, LONG), "query.target_id"),
    ("GET", f"/v1/spaces/{SPACE}/erasures/{LONG}/proof", "",
     lambda m: m.erasure_proof(SPACE, LONG), "path.erasure_id"),
    ("GET", f"/v1/jobs/{LONG}", "", lambda m: m.job(LONG), "path.job_id"),
]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "body", "python", "field"), CASES, ids=[c[4] + c[1][-12:] for c in CASES])
def test_an_overlong_id_is_a_limit_error_over_http_as_in_python(
    service: Service, memory: Memory, method: str, path: str, body: str, python: Callable[[Memory], Any], field: str
) -> None:
    memory.remember(SPACE, [{"text": "I work at Acme.", "speaker": "Ana"}])
    with pytest.raises(InvalidInputError) as refused:
        python(memory)
    assert refused.value.code == "limit_exceeded"
    headers = {**service.headers([SPACE], "read,write,erase"), "Content-Type": "application/json"}
    answer = service.client.request(method, path, content=body.encode() or None, headers=headers)
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["code"] == "limit_exceeded" and [e["field"] for e in problem["errors"]] == [field], problem


def test_an_erasure_or_job_id_python_takes_is_not_refused_over_http(service: Service, memory: Memory) -> None:
    memory.remember(SPACE, [{"text": "I work at Acme.", "speaker": "Ana"}])
    unknown = "er_" + "0" * 300  # within the 500-character limit: unknown, not malformed
    with pytest.raises(NotFoundError):
        memory.erasure_proof(SPACE, unknown)
    with pytest.raises(NotFoundError):
        memory.job(unknown)
    headers = service.headers([SPACE], "read,write,erase")
    for path in (f"/v1/spaces/{SPACE}/erasures/{unknown}/proof", f"/v1/jobs/{unknown}"):
        answer = service.client.get(path, headers=headers)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", (path[:30], answer.text)
