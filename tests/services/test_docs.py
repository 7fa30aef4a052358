"""docs/service.md documents every HTTP route, CLI command and MCP tool."""

from __future__ import annotations

from pathlib import Path

from eywa.memory import Memory
from services.mcp.server import TOOLS
from tests.services.conftest import build_service

DOC = Path(__file__).resolve().parents[2] / "docs" / "service.md"


def test_every_route_command_and_tool_is_documented(memory: Memory, tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    svc = build_service(memory, tmp_path)
    paths = [p for p in svc.app.openapi()["paths"] if p.startswith(("/v1", "/healthz", "/readyz", "/metrics"))]
    pages = {getattr(route, "path", "") for route in svc.app.routes} - {"/console/static"}
    paths += sorted(p for p in pages if p.startswith("/console"))  # the console's pages too
    svc.client.close()
    svc.keys.close()
    assert len(paths) >= 17
    missing = [p for p in paths if f"`{p}`" not in text and f"`{p}?" not in text]
    assert missing == []
    for command in ("eywa serve", "eywa keys create", "eywa keys list", "eywa keys revoke", "eywa mcp"):
        assert f"`{command}" in text, command
    for tool in TOOLS:
        assert f"| `{tool}` |" in text, tool
