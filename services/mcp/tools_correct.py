"""MCP tools for corrections: ``correct_belief`` (retract or confirm), ``correct_candidate``
(accept or dismiss) and ``corrections`` (the audited records). Correcting needs the ``write``
scope, listing ``read``; the author of each record is the calling key (None on stdio)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer

from eywa.contract import check_choice
from eywa.errors import InvalidInputError
from eywa.memory import Memory
from services.mcp.arguments import OptionalText, Text, checked_by_the_core
from services.mcp.gate import McpGate

__all__ = ["CORRECTION_TOOLS", "register_corrections"]

CORRECTION_TOOLS = ("correct_belief", "correct_candidate", "corrections")
# An action is checked in the tool (``invalid_input``, as a bad choice is everywhere), not by
# the SDK (``validation_error``); the schema lists the choices.
BeliefAction = Annotated[Any, checked_by_the_core({"enum": ["retract", "confirm"]})]
CandidateAction = Annotated[Any, checked_by_the_core({"enum": ["accept", "dismiss"]})]


def register_corrections(server: MCPServer[Any], memory: Memory, gate: McpGate) -> None:
    """Add the correction tools to ``server``."""

    @server.tool()
    def correct_belief(
        space: Text, belief_id: Text, action: BeliefAction, ctx: Context[Any, Any], reason: OptionalText = None
    ) -> dict[str, Any]:
        """Retract a belief (a reason is required; its dimensions are replayed without it) or
        confirm one (it weighs more). Returns the correction record."""
        with gate.call(ctx, "correct_belief", space, "write") as author:
            if check_choice(action, "action", ("retract", "confirm")) == "retract":
                if reason is None:
                    raise InvalidInputError.at("reason", "a retraction needs a reason")
                record = memory.retract_belief(space, belief_id, reason=reason, author=author)
            else:
                record = memory.confirm_belief(space, belief_id, reason=reason, author=author)
        return record.model_dump(mode="json")

    @server.tool()
    def correct_candidate(
        space: Text, candidate_id: Text, action: CandidateAction, ctx: Context[Any, Any], reason: OptionalText = None
    ) -> dict[str, Any]:
        """Accept a refused candidate as a belief (its repaired form when it has one) or
        dismiss it from the repair queue. Returns the correction record."""
        with gate.call(ctx, "correct_candidate", space, "write") as author:
            if check_choice(action, "action", ("accept", "dismiss")) == "accept":
                record = memory.accept_candidate(space, candidate_id, reason=reason, author=author)
            else:
                record = memory.dismiss_candidate(space, candidate_id, reason=reason, author=author)
        return record.model_dump(mode="json")

    @server.tool()
    def corrections(space: Text, ctx: Context[Any, Any], target_id: OptionalText = None) -> list[dict[str, Any]]:
        """Who retracted, confirmed, accepted or dismissed what, when and why (oldest first)."""
        with gate.call(ctx, "corrections", space, "read"):
            return [c.model_dump(mode="json") for c in memory.corrections(space, target_id)]
