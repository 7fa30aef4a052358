"""The Neo4j access log binds its times as UTC instants, whatever offset the caller's carry.

Neo4j's temporal values hold offsets of ±18:00 at most, Python's up to ±23:59: an event's
time, a ``since`` or a pruning bound at ``+21:00`` broke the Bolt connection (a ``StoreError``) instead of
reading the same instant in UTC.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from eywa.settings import EywaSettings
from eywa.stores.access import AccessEvent
from eywa.stores.server import open_server
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

FAR_EAST = timezone(timedelta(hours=21))


def test_times_with_an_offset_neo4j_cannot_carry_are_read_as_their_utc_instant(
    neo4j_server: Neo4jServer, neo4j_space: str, tmp_path: Path
) -> None:
    settings = EywaSettings(
        data_dir=tmp_path / "data", neo4j_uri=neo4j_server.uri, neo4j_user=neo4j_server.user,
        neo4j_password=SecretStr(neo4j_server.password), neo4j_database=neo4j_server.database,
        qdrant_path=tmp_path / "qdrant",
    )  # fmt: skip
    stores = open_server(settings, 8)
    old = datetime(2020, 1, 1, 12, tzinfo=timezone.utc)
    new = datetime(2020, 1, 2, 12, tzinfo=timezone.utc)
    event: dict[str, Any] = {"key_id": "k", "surface": "http", "route": "GET /x", "space": neo4j_space, "status": 200}
    try:
        stores.access.record([AccessEvent(at=old, **event), AccessEvent(at=new.astimezone(FAR_EAST), **event)])
        between = (old + timedelta(hours=1)).astimezone(FAR_EAST)
        assert [e.at for e in stores.access.events(space=neo4j_space, since=between)] == [new]
        assert stores.access.prune(between) >= 1
        assert [e.at for e in stores.access.events(space=neo4j_space)] == [new]
    finally:
        stores.access.prune(datetime(2021, 1, 1, tzinfo=timezone.utc))
        stores.close()
