"""docs/service.md, ``EYWA_ACCESS_LOG_RETENTION_DAYS`` (default 30): "Days an access-log event
is kept (pruned hourly by the serving process); 0 keeps them all". The store's ``prune`` was
tested (tests/conformance/test_access_log.py), the setting through a serving app not."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from eywa import Memory
from eywa.settings import EywaSettings
from eywa.stores.access import AccessEvent
from tests.contract.conftest import HashEmbedder
from tests.services.conftest import build_service


@pytest.mark.parametrize(("days", "kept"), [(1, False), (0, True)])
def test_the_serving_app_prunes_events_older_than_the_retention(tmp_path: Path, days: int, kept: bool) -> None:
    settings = EywaSettings(data_dir=tmp_path, access_log_retention_days=days)
    with Memory.open(tmp_path / "m", settings=settings, embedder=HashEmbedder()) as memory:
        old = datetime.now(timezone.utc) - timedelta(days=2)
        memory.access_log.record([AccessEvent(at=old, key_id="k_old", surface="http", route="GET /v1/spaces", space="al",
                                              status=200)])  # fmt: skip
        service = build_service(memory, tmp_path, settings)
        try:
            admin = service.headers(["*"], "admin")
            assert service.client.get("/v1/spaces/al/stats", headers=service.headers(["al"])).status_code == 200
            log = service.client.get("/v1/keys/log", params={"space": "al"}, headers=admin)  # flushes first
            assert log.status_code == 200, log.text
            keys = [event["key_id"] for event in log.json()]
            assert ("k_old" in keys) is kept, keys
            assert len(keys) == (2 if kept else 1)  # the fresh call is kept either way
        finally:
            service.client.close()
            service.keys.close()


def test_the_access_log_keeps_route_templates_and_never_content(tmp_path: Path) -> None:
    """README, CLI: ``eywa keys log`` is "the access log of the API and MCP: time, key, route
    or tool, space, status (never content)"; "Erasure", outside the store: it "keeps route
    templates and space names, never content". A word said only in a turn, and sent in an
    entity path, a subject or speaker query, a recall's question and a path no route
    matches, is nowhere in the log: each event is the route's template."""
    word = "Zanzibarqx"
    settings = EywaSettings(data_dir=tmp_path)
    with Memory.open(tmp_path / "m", settings=settings, embedder=HashEmbedder()) as memory:
        service = build_service(memory, tmp_path, settings)
        try:
            agent = service.headers(["al"], "read,write")
            space = "/v1/spaces/al"
            calls = [
                ("POST", f"{space}/turns", {"turns": [{"text": f"{word} moved to Lisbon.", "speaker": word}]}, 201),
                ("GET", f"{space}/entities/{word}/dimensions", None, 200),
                ("GET", f"{space}/entities/{word}/dimensions/residence/deltas", None, 200),
                ("GET", f"{space}/beliefs?subject={word}", None, 200),
                ("GET", f"{space}/timeline?speaker={word}", None, 200),
                ("POST", f"{space}/recall", {"query": f"Where did {word} move?"}, 200),
                ("POST", f"{space}/recall", {"query": f"{word}?", "k": "many"}, 422),
                ("GET", f"{space}/evidence/{word}", None, 404),
                ("GET", f"{space}/entities/{word}/nowhere", None, 404),
            ]
            for method, path, body, status in calls:
                answer = service.client.request(method, path, json=body, headers=agent)
                assert answer.status_code == status, (path, answer.text)
            log = service.client.get("/v1/keys/log", headers=service.headers(["*"], "admin"))
            assert log.status_code == 200 and len(log.json()) >= len(calls), log.text
            assert word not in log.text and "Lisbon" not in log.text
            assert {event["route"] for event in log.json()} >= {
                "POST /v1/spaces/{space}/turns",
                "GET /v1/spaces/{space}/entities/{entity}/dimensions",
                "GET /v1/spaces/{space}/entities/{entity}/dimensions/{attribute}/deltas",
                "GET /v1/spaces/{space}/beliefs",
                "GET /v1/spaces/{space}/timeline",
                "POST /v1/spaces/{space}/recall",
                "GET /v1/spaces/{space}/evidence/{evidence_id}",
                "GET unmatched",
            }
            assert all(set(event) == {"at", "key_id", "surface", "route", "space", "status"} for event in log.json())
        finally:
            service.client.close()
            service.keys.close()
