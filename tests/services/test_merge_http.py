"""Identity merges over HTTP and through ``eywa.Client``: listing and proposals need
``read``, accepting and undoing need ``write``; unknown names answer 404, the same entity
twice 422, and nothing is merged on a refusal; an undone merge is kept for audit."""

from __future__ import annotations

from eywa.client import Client
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TURNS = [
    {"text": "I had lunch with Melinda today.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "Say hi to Cecilia from me.", "speaker": "Bo", "observed_at": "2023-05-01T10:01:00Z"},
]


def test_merges_over_http(service: Service) -> None:
    space = "mrg"
    writer, reader = service.headers([space], "read,write"), service.headers([space], "read")
    service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=writer)
    base = f"/v1/spaces/{space}/merges"
    assert service.client.get(base, headers=reader).json() == []
    proposals = service.client.get(f"{base}/proposals", headers=reader)
    assert proposals.status_code == 200 and isinstance(proposals.json(), list)

    pair = {"source": "Melinda", "target": "Cecilia"}
    assert service.client.post(base, json=pair, headers=reader).status_code == 403
    unknown = service.client.post(base, json={"source": "Melinda", "target": "Zed"}, headers=writer)
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    assert service.client.post(base, json={"source": "Melinda", "target": " melinda"}, headers=writer).status_code == 422
    assert service.client.post(base, json={**pair, "score": 3}, headers=writer).status_code == 422
    assert service.client.get(base, headers=reader).json() == []

    key, secret = service.keys.create([space], ["write"])
    accepted = service.client.post(base, json={**pair, "score": 0.7}, headers={"Authorization": f"Bearer {secret}"})
    assert accepted.status_code == 201, accepted.text
    assert accepted.json()["author"] == key.id and accepted.json()["removed_by"] is None
    assert (accepted.json()["source"], accepted.json()["target"], accepted.json()["score"]) == ("melinda", "cecilia", 0.7)
    assert [e["source"] for e in service.client.get(base, headers=reader).json()] == ["melinda"]
    assert service.client.post(f"{base}/undo", json=pair, headers=writer).status_code == 204
    assert service.client.post(f"{base}/undo", json=pair, headers=writer).status_code == 204  # sent again
    assert service.client.post(f"{base}/undo", json=pair, headers={"Authorization": f"Bearer {secret}"}).status_code == 404
    kept = service.client.get(base, params={"include_removed": "true"}, headers=reader).json()
    assert [(e["removed_at"] is not None, e["author"]) for e in kept] == [(True, key.id)]
    assert kept[0]["removed_by"] not in (None, key.id)  # undone with the other writer key


def test_the_client_merges_like_memory(live: tuple[str, Service]) -> None:
    url, svc = live
    space = "mrgc"
    token = svc.headers([space], "read,write")["Authorization"].removeprefix("Bearer ")
    with Client(url, token) as client:
        client.remember(space, TURNS)
        assert isinstance(client.propose_merges(space), list)
        edge = client.accept_merge(space, "Melinda", "Cecilia")
        assert edge.active and client.merges(space) == [edge]
        assert client.undo_merge(space, "Cecilia", "Melinda") is True
        assert client.undo_merge(space, "Cecilia", "Melinda") is True  # sent again: as the undo it made
        assert client.accept_merge(space, "Melinda", "Cecilia", 0.5) == client.accept_merge(space, "Melinda", "Cecilia", 0.5)
        assert client.undo_merge(space, "Cecilia", "Melinda") is True
        assert client.merges(space) == [] and len(client.merges(space, include_removed=True)) == 1
