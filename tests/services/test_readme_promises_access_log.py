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
