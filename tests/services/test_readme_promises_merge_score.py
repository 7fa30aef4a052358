"""README, "The input contract": "Over HTTP and MCP a recall's ``k``, ``budget_tokens``,
``policy`` and ``as_of`` (and a merge's ``score``) reach ``Memory`` as sent, so ``true``,
``"5"`` and ``5.0`` are refused ... there as in Python (``invalid_input``)".

The MCP half was tested (tests/contract/test_fuzz_mcp.py); over HTTP ``POST …/merges``
typed ``score`` as a float, so pydantic's lax mode read ``true`` as 1.0 and ``"0.5"`` as 0.5
and recorded the merge, where ``Memory.accept_merge`` refuses both and merges nothing
(found by probing, audit of s32).
"""

from __future__ import annotations

import json

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError
from tests.services.conftest import Service

TURNS = [{"text": "I work at Acme.", "speaker": "Ana"}, {"text": "Bob lives in Leeds.", "speaker": "Ana"}]


@pytest.mark.parametrize("score", ["true", '"0.5"', '"1"', "false", "[0.5]"])
def test_a_merge_score_python_refuses_is_refused_over_http_and_merges_nothing(
    service: Service, memory: Memory, score: str
) -> None:
    space = "merge-score"
    headers = service.headers([space], "read,write")
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=headers).status_code == 201
    with pytest.raises(InvalidInputError) as refused:
        memory.accept_merge(space, "Ana", "Bob", json.loads(score))
    assert refused.value.code == "invalid_input"

    body = '{"source": "Ana", "target": "Bob", "score": %s}' % score
    answer = service.client.post(
        f"/v1/spaces/{space}/merges", content=body.encode(), headers={**headers, "Content-Type": "application/json"}
    )
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["code"] == "invalid_input" and [e["field"] for e in problem["errors"]] == ["body.score"], problem
    assert memory.merges(space, True) == []


def test_a_merge_score_as_a_number_is_accepted_and_defaults_to_one(service: Service, memory: Memory) -> None:
    space = "merge-score-ok"
    headers = service.headers([space], "read,write")
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=headers).status_code == 201
    merged = service.client.post(f"/v1/spaces/{space}/merges", json={"source": "Ana", "target": "Bob"}, headers=headers)
    assert merged.status_code == 201 and merged.json()["score"] == 1.0, merged.text
    undo = service.client.post(f"/v1/spaces/{space}/merges/undo", json={"source": "Ana", "target": "Bob"}, headers=headers)
    assert undo.status_code == 204
    half = service.client.post(
        f"/v1/spaces/{space}/merges", json={"source": "Ana", "target": "Bob", "score": 0.5}, headers=headers
    )
    assert half.status_code == 201 and half.json()["score"] == 0.5, half.text
