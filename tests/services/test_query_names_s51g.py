"""A query parameter a route does not take, or one given twice, is refused on ``/v1``.

Both were silent: ``GET /v1/spaces/S/beliefs?subjct=Bo`` (a typo) answered every belief of
the space, as though no filter had been asked for, and ``?subject=Bo&subject=Tom`` answered
Tom's, the first value dropped. A body's unknown field is refused (``validation_error``), as
an MCP tool's unknown argument is; a query's is too, and a repeated one is ``invalid_input``.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.services.conftest import Service

SPACE = "qnames-s51g"
TURNS = [{"text": "I live in Oslo.", "speaker": "Bo"}, {"text": "I work at Initech.", "speaker": "Tom"}]


@pytest.fixture
def headers(service: Service, memory: Memory) -> dict[str, str]:
    memory.remember(SPACE, TURNS, wait=True)
    return service.headers([SPACE], "read,write")


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", f"/v1/spaces/{SPACE}/beliefs?subjct=Bo"), ("GET", f"/v1/spaces/{SPACE}/timeline?speakr=Bo"),
     ("GET", f"/v1/spaces/{SPACE}/stats?verbose=1"), ("POST", f"/v1/spaces/{SPACE}/recall?k=1")],
)  # fmt: skip
def test_a_query_parameter_the_route_does_not_take_is_refused(
    service: Service, headers: dict[str, str], method: str, path: str
) -> None:
    body = {"json": {"query": "Where does Bo live?"}} if method == "POST" else {}
    refused = service.client.request(method, path, headers=headers, **body)  # type: ignore[arg-type]
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    name = path.partition("?")[2].partition("=")[0]
    assert problem["code"] == "validation_error" and problem["errors"][0]["field"] == f"query.{name}", problem
    assert "not a parameter of this route" in problem["detail"]


@pytest.mark.parametrize(
    "query", ["subject=Bo&subject=Tom", "subject=Bo&subject=Bo", "limit=1&offset=0&limit=50"], ids=["two", "same", "later"]
)
def test_a_query_parameter_given_twice_is_refused(service: Service, headers: dict[str, str], query: str) -> None:
    refused = service.client.get(f"/v1/spaces/{SPACE}/beliefs?{query}", headers=headers)
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    name = query.partition("=")[0] if query.startswith("subject") else "limit"
    assert problem["code"] == "invalid_input" and problem["errors"][0]["field"] == f"query.{name}", problem
    assert "given more than once" in problem["detail"]


def test_the_parameters_a_route_takes_are_still_read(service: Service, headers: dict[str, str]) -> None:
    one = service.client.get(f"/v1/spaces/{SPACE}/beliefs?subject=Tom&offset=0&limit=10", headers=headers)
    assert one.status_code == 200 and {b["subject"] for b in one.json()} == {"Tom"}, one.text
    timeline = service.client.get(f"/v1/spaces/{SPACE}/timeline?speaker=Bo&limit=5", headers=headers)
    assert timeline.status_code == 200, timeline.text
