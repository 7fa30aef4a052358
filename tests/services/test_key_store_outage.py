"""A key store that cannot be reached (Neo4j restarting, in server mode) refuses requests with
503 problem+json and Retry-After, never a 500: the key is checked before any route runs, in
the middleware, outside FastAPI's error handlers (found by ``eywa bench chaos --backend
server`` once keys moved to Neo4j). The MCP gate refuses such a call with a tool error whose
code is ``store_unavailable``, not the store's raw exception."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from mcp.server.mcpserver.exceptions import ToolError

from eywa.errors import StoreError
from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app
from services.mcp.gate import McpGate


class UnreachableKeys(SqliteKeyStore):
    """A real key store whose server has gone away."""

    def authenticate(self, token: str) -> Any:
        raise StoreError("neo4j", "authenticate", "Unable to retrieve routing information")


def test_an_unreachable_key_store_is_a_503_with_retry_after(memory: Memory, tmp_path: Path) -> None:
    keys = UnreachableKeys(tmp_path / "keys.sqlite")
    _, secret = keys.create(["outage"], ["read", "write"])
    app = create_app(memory, EywaSettings(data_dir=tmp_path), keys)
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post("/v1/spaces/outage/recall", json={"query": "Where?"},
                             headers={"Authorization": f"Bearer {secret}"})  # fmt: skip
    keys.close()
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "store_unavailable" and answer.headers["Retry-After"] == "1"


def test_an_unreachable_key_store_is_a_store_unavailable_mcp_tool_error(tmp_path: Path) -> None:
    keys = UnreachableKeys(tmp_path / "keys.sqlite")
    _, secret = keys.create(["outage"], ["read"])
    request = SimpleNamespace(headers={"authorization": f"Bearer {secret}"}, client=SimpleNamespace(host="127.0.0.1"))
    ctx = cast(Any, SimpleNamespace(request_context=SimpleNamespace(request=request)))  # an MCP call over HTTP
    with pytest.raises(ToolError, match=r"^store_unavailable: .*retry shortly"), McpGate(keys).call(ctx, "recall", "outage", "read"):
        pytest.fail("a call was admitted without its key being checked")
    keys.close()
