"""Corrections over HTTP and through ``eywa.Client``: the ``write`` scope, the author is the
key, unknown ids answer 404, the same retraction sent again its record and another one 409
(problem+json), a blank reason 422; nothing changes on a refusal."""

from __future__ import annotations

import pytest

from eywa.client import Client
from eywa.errors import ConflictError, InvalidInputError, NotFoundError
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TURNS = [{"text": "I work at Quillfeather now.", "speaker": "Bo", "observed_at": "2023-05-01T10:00:00Z"}]


def test_retract_and_confirm_need_write_and_are_audited(service: Service) -> None:
    space = "cor"
    writer, reader = service.headers([space], "read,write"), service.headers([space], "read")
    service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=writer)
    (belief,) = service.client.get(f"/v1/spaces/{space}/beliefs", headers=reader).json()
    base = f"/v1/spaces/{space}/beliefs/{belief['id']}"

    refused = service.client.post(f"{base}/retract", json={"reason": "wrong"}, headers=reader)
    assert refused.status_code == 403 and "write" in refused.json()["detail"]
    assert service.client.post(f"{base}/retract", json={"reason": " "}, headers=writer).status_code == 422
    assert service.client.post(f"{base}/retract", json={}, headers=writer).status_code == 422
    missing = service.client.post(f"/v1/spaces/{space}/beliefs/bel_nope/retract", json={"reason": "x"}, headers=writer)
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
    assert service.client.get(f"/v1/spaces/{space}/corrections", headers=reader).json() == []

    confirmed = service.client.post(f"{base}/confirm", headers=writer)
    assert confirmed.status_code == 200, confirmed.text
    retracted = service.client.post(f"{base}/retract", json={"reason": "Bo left"}, headers=writer).json()
    assert retracted["author"] and f"eyw_{retracted['author']}_" in writer["Authorization"]  # the key's id
    assert retracted["reason"] == "Bo left"
    again = service.client.post(f"{base}/retract", json={"reason": "Bo left"}, headers=writer)
    assert again.status_code == 200 and again.json() == retracted  # sent again: answered by its record
    other = service.client.post(f"{base}/retract", json={"reason": "Bo never left"}, headers=writer)
    assert other.status_code == 409 and other.json()["code"] == "conflict"
    assert service.client.get(f"/v1/spaces/{space}/beliefs", headers=reader).json() == []
    records = service.client.get(f"/v1/spaces/{space}/corrections", params={"target_id": belief["id"]}, headers=reader)
    assert [r["kind"] for r in records.json()] == ["confirm_belief", "retract_belief"]
    for action in ("accept", "dismiss"):
        unknown = service.client.post(f"/v1/spaces/{space}/candidates/cand_nope/{action}", headers=writer)
        assert unknown.status_code == 404


def test_the_client_corrects_like_memory(live: tuple[str, Service]) -> None:
    url, svc = live
    space = "corc"
    token = svc.headers([space], "read,write")["Authorization"].removeprefix("Bearer ")
    with Client(url, token) as client:
        client.remember(space, TURNS)
        (belief,) = client.beliefs(space)
        with pytest.raises(InvalidInputError):
            client.retract_belief(space, belief.id, reason="")
        with pytest.raises(NotFoundError):
            client.confirm_belief(space, "bel_nope")
        record = client.retract_belief(space, belief.id, reason="a test")
        assert record.kind == "retract_belief" and record.target_id == belief.id
        assert client.retract_belief(space, belief.id, reason="a test") == record  # sent again
        with pytest.raises(ConflictError, match="already retracted"):
            client.retract_belief(space, belief.id, reason="another test")
        with pytest.raises(NotFoundError):
            client.dismiss_candidate(space, "cand_nope")
        assert [c.id for c in client.corrections(space)] == [record.id]
