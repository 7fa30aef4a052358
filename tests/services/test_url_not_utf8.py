"""A path or query value whose percent-escapes are not UTF-8 is refused, not read as U+FFFD.

README, "The input contract": text must be valid Unicode and values are not converted on the
way. The server's URL decoding replaces bytes that are not UTF-8 with U+FFFD, so
``POST /v1/spaces/%FF/turns`` stored turns in a space named ``"\ufffd"`` — as did ``%FE``,
``%ED%A0%80`` (a lone surrogate's bytes) and a name percent-encoded in Latin-1
(``Jos%E9``): different names sent, one space written — and ``?speaker=%E9`` asked for a
speaker nobody sent. Found by probing ``eywa serve`` with raw requests. Such a value is now
``invalid_input`` naming the parameter (``path.space``, ``query.speaker``), and nothing is
written; U+FFFD itself, sent as its UTF-8 (``%EF%BF%BD``), is a name like any other.
"""

from __future__ import annotations

from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa.memory import Memory
from tests.services.conftest import Service

TURN = {"turns": [{"text": "I work at Acme now.", "speaker": "Zed"}]}


@pytest.mark.parametrize(
    ("method", "url", "field"),
    [
        ("POST", "/v1/spaces/%FF/turns", "path.space"),
        ("POST", "/v1/spaces/%ED%A0%80/turns", "path.space"),
        ("POST", "/v1/spaces/Jos%E9/recall", "path.space"),
        ("GET", "/v1/spaces/%C0%80/stats", "path.space"),
        ("GET", "/v1/spaces/urlspace/evidence/ev%FF", "path.evidence_id"),
        ("GET", "/v1/spaces/urlspace/entities/Ren%E9e/dimensions", "path.entity"),
        ("GET", "/v1/spaces/urlspace/timeline?speaker=Jos%E9", "query.speaker"),
        ("GET", "/v1/spaces/urlspace/beliefs?limit=5&subject=%FF", "query.subject"),
        ("GET", "/v1/keys/log?space=%ED%A0%80", "query.space"),
    ],
)  # fmt: skip
def test_a_value_that_is_not_utf8_is_refused_by_its_name(memory: Memory, service: Service, method: str, url: str, field: str) -> None:
    headers = service.headers(["*"], "read,write,admin")
    before = set(memory.spaces())
    answer = service.client.request(method, url, json=TURN if method == "POST" else None, headers=headers)
    assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json", answer.text
    problem = answer.json()
    assert problem["code"] == "invalid_input" and problem["errors"][0]["field"] == field, problem
    assert "UTF-8" in problem["detail"]
    assert set(memory.spaces()) == before  # nothing written, no space "\ufffd"


def test_the_replacement_character_sent_as_utf8_is_a_name_like_any_other(memory: Memory, service: Service) -> None:
    headers = service.headers(["*"])
    stored = service.client.post("/v1/spaces/%EF%BF%BD%C3%A9/turns", json=TURN, headers=headers)
    assert stored.status_code == 201, stored.text
    assert "\ufffdé" in memory.spaces()
    found = service.client.get("/v1/spaces/%EF%BF%BD%C3%A9/timeline?speaker=Z%C3%A9d+x", headers=headers)
    assert found.status_code == 200, found.text


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(name=st.binary(min_size=1, max_size=6))
def test_any_bytes_are_a_name_or_refused_as_not_utf8(service: Service, name: bytes) -> None:
    headers = service.headers(["*"])
    answer = service.client.get(f"/v1/spaces/urlspace/timeline?speaker={quote_from_bytes(name)}", headers=headers)
    try:
        name.decode("utf-8")
    except UnicodeDecodeError:
        assert answer.status_code == 422 and answer.json()["errors"][0]["field"] == "query.speaker", answer.text
    else:
        assert answer.status_code == 200 or "UTF-8" not in answer.text, answer.text
