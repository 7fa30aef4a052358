"""Reading an MCP resource through the SDK's in-process client, for the resource tests."""

from __future__ import annotations

from mcp import Client as McpClient
from mcp.shared.exceptions import MCPError

from eywa.memory import Memory
from services.mcp.server import build_server


async def read_resource(memory: Memory, uri: str) -> str:
    """The resource's text, or ``refused: <the error's message>``."""
    async with McpClient(build_server(memory)) as client:
        try:
            result = await client.read_resource(uri)
        except MCPError as exc:
            return f"refused: {exc}"
    text = getattr(result.contents[0], "text", "")
    assert isinstance(text, str)
    return text
