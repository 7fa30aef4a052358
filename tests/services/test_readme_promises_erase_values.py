"""README, "The input contract": "Every input is accepted or refused alike on every surface
... with the same error ``code`` ... and the same field path"; "Values are not converted on
the way"; and "Times (``observed_at``, ``as_of``, an erasure's ``before``, the timeline's
``since`` and ``until``)" are ISO-8601 within the supported range.

Found by probing (audit of s32): ``POST /v1/spaces/{s}/erase`` typed ``before`` as a
datetime, so pydantic's lax mode read the number ``1700000000``, ``5.5`` or the text
``"1700000000"`` as Unix time and erased every turn observed before 14 Nov 2023, where
``Memory.forget`` refuses each (``invalid_input``, field ``before``) and erases nothing; the
other selectors' wrong types were a ``validation_error``, not the core's code. The
timeline's ``since``/``until`` read ``5`` the same way. The values now reach ``Memory`` as
sent, as a recall's do.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError
from tests.services.conftest import Service

TURNS: list[dict[str, Any]] = [
    {"text": "I live in Boston.", "speaker": "Ana", "session": "s1", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I work at Acme.", "speaker": "Ana", "session": "s1", "observed_at": "2023-05-01T10:01:00Z"},
]  # fmt: skip
JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"before": 1700000000}', "body.before"),
        ('{"before": 1700000000.5}', "body.before"),
        ('{"before": "1700000000"}', "body.before"),
        ('{"before": true}', "body.before"),
        ('{"speaker": 5}', "body.speaker"),
        ('{"session": true}', "body.session"),
        ('{"evidence_ids": "ev_x"}', "body.evidence_ids"),
        ('{"external_ids": [5]}', "body.external_ids.0"),
    ],
)
def test_an_erase_selector_python_refuses_is_refused_over_http_with_its_code_and_erases_nothing(
    service: Service, memory: Memory, body: str, field: str
) -> None:
    space = f"erase-values-{hashlib.sha256(body.encode()).hexdigest()[:10]}"  # each case its own space
    headers = service.headers([space], "read,write,erase")
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=headers).status_code == 201
    with pytest.raises(InvalidInputError) as refused:
        memory.forget(space, **json.loads(body))
    assert refused.value.code == "invalid_input"

    answer = service.client.post(f"/v1/spaces/{space}/erase", content=body.encode(), headers={**JSON, **headers})
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["code"] == "invalid_input" and [e["field"] for e in problem["errors"]] == [field], problem
    assert memory.stats(space)["evidence"] == len(TURNS) and memory.erasures(space) == []


@pytest.mark.parametrize("query", ["since=1700000000", "until=5", "since=1700000000.5"])
def test_a_timeline_time_that_is_no_iso_text_is_refused(service: Service, memory: Memory, query: str) -> None:
    space = f"timeline-values-{hashlib.sha256(query.encode()).hexdigest()[:10]}"
    headers = service.headers([space], "read,write")
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=headers).status_code == 201
    answer = service.client.get(f"/v1/spaces/{space}/timeline?{query}", headers=headers)
    assert answer.status_code == 422, answer.text
    problem = answer.json()
    assert problem["code"] == "invalid_input" and [e["field"] for e in problem["errors"]] == [
        "query." + query.split("=")[0]
    ], problem
    iso = service.client.get(f"/v1/spaces/{space}/timeline?since=2023-01-01T00:00:00Z", headers=headers)
    assert iso.status_code == 200 and len(iso.json()["items"]) == len(TURNS)
