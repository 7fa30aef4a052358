"""Erasure over HTTP and through ``eywa.Client``: the ``erase`` scope is apart from ``write``,
bad selectors erase nothing (422, 404), the report carries counts and no content, the proof
shows zero residue, a re-sent erased turn is refused (410) and a space can be dropped."""

from __future__ import annotations

from typing import Any

import pytest

from eywa.client import Client
from eywa.errors import ErasedError, InvalidInputError, NotFoundError
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

SPACE = "er"
TURNS: list[dict[str, Any]] = [
    {"text": "I work at Quillfeather now.", "speaker": "Bo", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]


def test_erase_needs_its_own_scope_and_leaves_nothing(service: Service) -> None:
    writer = service.headers([SPACE], "read,write")
    eraser = service.headers([SPACE], "erase")
    ids = service.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": TURNS}, headers=writer).json()["ids"]
    refused = service.client.post(f"/v1/spaces/{SPACE}/erase", json={"speaker": "Bo"}, headers=writer)
    assert refused.status_code == 403 and "erase" in refused.json()["detail"]
    assert service.client.post(f"/v1/spaces/{SPACE}/erase", json={}, headers=eraser).status_code == 422
    unknown = service.client.post(f"/v1/spaces/{SPACE}/erase", json={"evidence_ids": ["ev_nope"]}, headers=eraser)
    assert unknown.status_code == 404
    assert service.client.get(f"/v1/spaces/{SPACE}/stats", headers=writer).json()["evidence"] == 2

    erased = service.client.post(f"/v1/spaces/{SPACE}/erase", json={"speaker": "Bo"}, headers=eraser)
    assert erased.status_code == 200, erased.text
    report = erased.json()
    assert report["counts"]["turns"] == 1 and "Quillfeather" not in erased.text
    recall = service.client.post(f"/v1/spaces/{SPACE}/recall", json={"query": "Quillfeather"}, headers=writer).json()
    assert "Quillfeather" not in recall["context"] and ids[0] not in str(recall["items"])
    proof = service.client.get(f"/v1/spaces/{SPACE}/erasures/{report['erasure_id']}/proof", headers=eraser).json()
    assert proof["turns"] == 1 and sum(proof["residue"].values()) == 0
    again = service.client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": TURNS[:1]}, headers=writer)
    assert again.status_code == 410

    assert service.client.delete(f"/v1/spaces/{SPACE}", headers=writer).status_code == 403
    dropped = service.client.delete(f"/v1/spaces/{SPACE}", headers=eraser)
    assert dropped.status_code == 200 and dropped.json()["counts"]["turns"] == 1
    assert service.client.get(f"/v1/spaces/{SPACE}/stats", headers=writer).json()["evidence"] == 0


def test_the_client_forgets_like_memory(live: tuple[str, Service]) -> None:
    url, svc = live
    space = "erc"
    writer = svc.headers([space], "read,write")["Authorization"].removeprefix("Bearer ")
    eraser = svc.headers([space], "erase")["Authorization"].removeprefix("Bearer ")
    with Client(url, writer) as client:
        ids = client.remember(space, TURNS)
    with Client(url, eraser) as client:
        with pytest.raises(InvalidInputError, match="at least one selector"):
            client.forget(space)
        with pytest.raises(NotFoundError):
            client.forget(space, evidence_ids=["ev_nope"])
        report = client.forget(space, evidence_ids=[ids[0]])
        assert report.counts["turns"] == 1
        assert client.erasure_proof(space, report.erasure_id).total == 0
        assert client.drop_space(space).counts["turns"] == 1
    with Client(url, writer) as client, pytest.raises(ErasedError) as erased:
        client.remember(space, TURNS[:1])
    assert erased.value.evidence_ids == (ids[0],)
