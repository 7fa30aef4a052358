"""The MCP server: Eywa's memory as tools and resources for agents (official ``mcp`` SDK).

Tools: ``remember``, ``recall``, ``explain``, ``beliefs``, ``dimensions``. Resource:
``eywa://spaces/{space}/summary`` (counts and active beliefs of a space).

Transports:
- stdio, for a local agent that launched the server itself: it acts with the rights of the
  local user over the data directory, exactly like the ``eywa`` CLI (no key).
- streamable HTTP, for remote agents: every call must carry an API key
  (``Authorization: Bearer`` or ``X-API-Key``) that holds the tool's scope on the space named
  in the call, checked against the same key store as the HTTP API. The space always comes
  from the call's arguments, never from server state.

Run: ``eywa mcp [--transport stdio|http]`` (``services.mcp.cli``). The memory and the key
store are the ones ``eywa.runtime`` opens for the settings, as for every entry point.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError

from eywa.errors import EywaError
from eywa.memory import Memory
from eywa.models import Policy
from eywa.runtime import open_key_store, open_memory
from eywa.settings import EywaSettings
from eywa.stores.keys import KeyStore, Scope

__all__ = ["TOOLS", "Transport", "build_server", "run"]

TOOLS = ("remember", "recall", "explain", "beliefs", "dimensions")
Transport = Literal["stdio", "http"]

INSTRUCTIONS = """Eywa is long-term memory with provenance. Call `remember` with conversation
turns as they happen; call `recall` before answering a question about the past and answer
only from the returned context, citing evidence ids. `explain` shows why a belief is held."""


def _caller(ctx: Context[Any, Any] | None, keys: KeyStore | None, space: str, scope: Scope) -> str | None:
    """The key id allowed to use ``scope`` on ``space``; ``None`` for a local stdio caller.

    Raises:
        ToolError: on HTTP, a missing, invalid or insufficient key.
    """
    headers: Mapping[str, str] | None = ctx.headers if ctx is not None else None
    if headers is None:
        return None  # stdio: the local user who launched the server
    if keys is None:
        raise ToolError("unauthorized: this server has no key store")
    raw = headers.get("authorization") or ""
    token = raw[7:].strip() if raw.lower().startswith("bearer ") else headers.get("x-api-key", "")
    key = keys.authenticate(token) if token else None
    if key is None:
        raise ToolError("unauthorized: a valid API key is required")
    if not key.allows(space, scope):
        raise ToolError(f"forbidden: this key has no {scope!r} scope on space {space!r}")
    return key.id


def build_server(memory: Memory, keys: KeyStore | None = None) -> MCPServer[Any]:
    """An MCP server over ``memory``; ``keys`` authorises HTTP calls (stdio needs none)."""
    server: MCPServer[Any] = MCPServer("eywa", instructions=INSTRUCTIONS, version="0.1.0")

    @server.tool()
    def remember(space: str, turns: list[dict[str, Any]], ctx: Context[Any, Any]) -> dict[str, Any]:
        """Store conversation turns ({"text", "speaker"?, "session"?, "observed_at"?, "metadata"?})
        in a space; returns their evidence ids, in order. Idempotent and atomic."""
        author = _caller(ctx, keys, space, "write")
        try:
            return {"ids": memory.remember(space, turns, author=author, wait=True)}
        except EywaError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool()
    def recall(
        space: str,
        query: str,
        ctx: Context[Any, Any],
        k: int = 10,
        budget_tokens: int | None = None,
        policy: Policy = "balanced",
        as_of: str | None = None,
    ) -> dict[str, Any]:
        """Context for a question with provenance: context, items (with evidence ids),
        answer_instructions. No LLM is called."""
        _caller(ctx, keys, space, "read")
        try:
            result = memory.recall(space, query, k=k, budget_tokens=budget_tokens, policy=policy, as_of=as_of)
        except EywaError as exc:
            raise ToolError(str(exc)) from exc
        return result.model_dump(mode="json", exclude={"trace"})

    @server.tool()
    def explain(space: str, belief_id: str, ctx: Context[Any, Any]) -> dict[str, Any]:
        """Why a belief is held: the belief, its validation report and the turns it cites."""
        _caller(ctx, keys, space, "read")
        try:
            return memory.explain(space, belief_id).model_dump(mode="json")
        except EywaError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool()
    def beliefs(
        space: str, ctx: Context[Any, Any], subject: str | None = None, attribute: str | None = None
    ) -> list[dict[str, Any]]:
        """Active validated beliefs of a space, optionally of one subject and attribute."""
        _caller(ctx, keys, space, "read")
        try:
            return [b.model_dump(mode="json") for b in memory.beliefs(space, subject, attribute)]
        except EywaError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool()
    def dimensions(
        space: str, ctx: Context[Any, Any], entity: str | None = None, as_of: str | None = None
    ) -> list[dict[str, Any]]:
        """Bayesian attribute distributions (mode, entropy) of a space or one entity."""
        _caller(ctx, keys, space, "read")
        try:
            return [d.model_dump(mode="json") for d in memory.dimensions(space, entity, as_of)]
        except EywaError as exc:
            raise ToolError(str(exc)) from exc

    @server.resource("eywa://spaces/{space}/summary", mime_type="application/json")
    def summary(space: str, ctx: Context[Any, Any]) -> str:
        """Counts and active beliefs of a space."""
        try:
            _caller(ctx, keys, space, "read")
            held = memory.beliefs(space)
            stats = memory.stats(space)
        except (EywaError, ToolError) as exc:
            raise ResourceError(str(exc)) from exc
        return json.dumps({"space": space, "stats": stats, "beliefs": [b.statement for b in held[:50]]})

    return server


def run(settings: EywaSettings, transport: Transport = "stdio", host: str = "127.0.0.1", port: int = 8765) -> None:
    """Open the memory of ``settings`` and serve MCP until interrupted.

    Raises:
        StoreError: the stores or the key file cannot be opened.
    """
    memory = open_memory(settings)
    try:
        keys = open_key_store(settings) if transport == "http" else None
    except BaseException:
        memory.close()
        raise
    try:
        server = build_server(memory, keys)
        if transport == "stdio":
            server.run("stdio")
        else:
            import uvicorn

            uvicorn.run(server.streamable_http_app(stateless_http=True, host=host), host=host, port=port)
    finally:
        memory.close()
        if keys is not None:
            keys.close()
