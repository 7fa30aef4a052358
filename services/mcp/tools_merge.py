"""MCP tools for identity merges: ``merges`` (the merges and the proposals with their KL
evidence; ``read``) and ``merge`` (accept or undo one; ``write``)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import WithJsonSchema

from eywa.contract import check_choice
from eywa.errors import NotFoundError
from eywa.memory import Memory
from services.mcp.arguments import Text, checked_by_the_core
from services.mcp.gate import McpGate

__all__ = ["MERGE_TOOLS", "register_merges"]

MERGE_TOOLS = ("merges", "merge")


def register_merges(server: MCPServer[Any], memory: Memory, gate: McpGate) -> None:
    """Add the merge tools to ``server``."""

    @server.tool()
    def merges(
        space: Text,
        ctx: Context[Any, Any],
        include_removed: Annotated[Any, WithJsonSchema({"type": "boolean", "default": False})] = False,  # Memory checks it
    ) -> dict[str, Any]:
        """The identity merges of a space and the proposed ones, best first, each with its
        evidence: name_score and divergence_bits (KL of the shared dimensions)."""
        with gate.call(ctx, "merges", space, "read"):
            return {
                "merges": [e.model_dump(mode="json") for e in memory.merges(space, include_removed)],
                "proposals": [p.model_dump(mode="json") for p in memory.propose_merges(space)],
            }

    @server.tool()
    def merge(
        space: Text,
        source: Text,
        target: Text,
        action: Annotated[Any, checked_by_the_core({"enum": ["accept", "undo"]})],
        ctx: Context[Any, Any],
        score: Annotated[Any, WithJsonSchema({"type": "number", "default": 1.0})] = 1.0,  # Memory checks it
    ) -> dict[str, Any]:
        """Accept a merge (source SAME_AS target: reads of either see both) or undo one (kept
        for audit); the calling key is recorded as its author (or remover). Returns the merge
        edge, or {"undone": true}."""
        with gate.call(ctx, "merge", space, "write") as author:
            if check_choice(action, "action", ("accept", "undo")) == "accept":
                return memory.accept_merge(space, source, target, score, author=author).model_dump(mode="json")
            if not memory.undo_merge(space, source, target, author=author):
                raise NotFoundError("merge", space, f"{source} / {target}")
            return {"undone": True}
