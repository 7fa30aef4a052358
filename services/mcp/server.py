"""The MCP server: Eywa's memory as tools and resources for agents (official ``mcp`` SDK).

Tools: ``remember``, ``recall``, ``explain``, ``beliefs``, ``dimensions``, ``forget``,
``drop_space``, the corrections (``services.mcp.tools_correct``) and the identity merges
(``services.mcp.tools_merge``). Resource:
``eywa://spaces/{space}/summary`` (counts and active beliefs of a space).

Transports:
- stdio, for a local agent that launched the server itself: it acts with the rights of the
  local user over the data directory, exactly like the ``eywa`` CLI (no key).
- streamable HTTP, for remote agents: every call must carry an API key
  (``Authorization: Bearer`` or ``X-API-Key``) that holds the tool's scope on the space named
  in the call, checked against the same key store as the HTTP API, counted by the same rate
  limiter and recorded in the same access log (``services.mcp.gate``). The space always
  comes from the call's arguments, never from server state.

Every call goes through ``Memory``, so the input contract (``eywa.contract``) and its limits
are the ones the Python API and the HTTP API enforce; a refusal is a ``ToolError`` whose
text starts with the error's code.

Run: ``eywa mcp [--transport stdio|http]`` (``services.mcp.cli``). The memory and the key
store are the ones ``eywa.runtime`` opens for the settings, as for every entry point.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Annotated, Any, Literal, get_args
from urllib.parse import unquote_to_bytes

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.resources import ResourceSecurity
from mcp_types import CallToolResult, InputRequiredResult
from mcp_types import Tool as MCPTool
from pydantic import ValidationError
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eywa.errors import InvalidInputError
from eywa.memory import Memory
from eywa.models import Policy
from eywa.runtime import open_key_store, open_memory
from eywa.runtime.commands import check_listen
from eywa.settings import EywaSettings
from eywa.stores.keys import KeyStore
from services.access import AccessRecorder
from services.api.middleware import content_codings, transfer_codings
from services.http_protocol import MCP_PROTOCOL
from services.mcp.arguments import Names, OptionalText, Text, TurnsArgument, checked_by_the_core
from services.mcp.bodies import refusing_repeated_keys
from services.mcp.gate import McpGate
from services.mcp.tools_correct import CORRECTION_TOOLS, register_corrections
from services.mcp.tools_merge import MERGE_TOOLS, register_merges
from services.problems import tool_error_text
from services.ratelimit import FailOpenRateLimiter, RateLimiter, build_rate_limiter

__all__ = ["TOOLS", "Transport", "build_server", "run"]

TOOLS = ("remember", "recall", "explain", "beliefs", "dimensions", "forget", "drop_space", *CORRECTION_TOOLS, *MERGE_TOOLS)
Transport = Literal["stdio", "http"]

class CodedServer(MCPServer[Any]):
    """An ``MCPServer`` whose refusals of a call's arguments start with a code too.

    The SDK checks the arguments against the tool's signature before the tool runs; its
    refusal was pydantic's text ("1 validation error for recallArguments …") with no code
    to switch on, and an argument the tool does not take was dropped without a word (the
    HTTP API refuses both). Both are ``validation_error: <field>: <why>`` here, the code the
    HTTP API answers for a body that does not match its schema.
    """

    async def list_tools(self) -> list[MCPTool]:
        """The tools, each input schema closed (``additionalProperties: false``): a call with an
        argument its tool does not take is refused (``call_tool``), and the schema says so."""
        return [
            tool.model_copy(update={"input_schema": {**tool.input_schema, "additionalProperties": False}})
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call a tool, refusing unknown arguments and coding the SDK's argument refusals.

        Raises:
            ToolError: as ``MCPServer.call_tool``; an argument refusal's text is
                ``validation_error: <field>: <why>``, an unknown tool's ``not_found: …``
                (the SDK's "Unknown tool: <name>" had no code).
        """
        schema = self._tool_input_schema(name)
        if schema is None:
            known = ", ".join(sorted(tool.name for tool in await self.list_tools()))
            raise ToolError(f"Error executing tool {name}: {tool_error_text('not_found', f'no tool {name!r} (tools: {known})')}")
        unknown = sorted(set(arguments) - set(schema.get("properties", {})))
        if unknown:
            problems = "; ".join(f"{field}: not an argument of {name}" for field in unknown)
            raise ToolError(f"Error executing tool {name}: {tool_error_text('validation_error', problems)}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            problems = "; ".join(
                f"{'.'.join(str(part) for part in error['loc']) or 'arguments'}: {error['msg']}"
                for error in cause.errors(include_url=False, include_input=False)
            )
            raise ToolError(f"Error executing tool {name}: {tool_error_text('validation_error', problems)}") from cause

    async def read_resource(self, uri: Any, context: Context[Any, Any] | None = None) -> Any:
        """Read a resource; a URI that names none is refused with a code, as an unknown tool is.

        Raises:
            ResourceNotFoundError: ``not_found: no resource …`` naming the resources there are
                (the SDK's "Unknown resource: <uri>" had no code; still JSON-RPC -32602).
            ResourceError: as ``MCPServer.read_resource``.
        """
        try:
            return await super().read_resource(uri, context)
        except ResourceNotFoundError as exc:
            if str(exc).startswith("not_found: "):
                raise
            known = ", ".join(sorted(template.uri_template for template in self._resource_manager.list_templates()))
            raise ResourceNotFoundError(tool_error_text("not_found", f"no resource {str(uri)!r} (resources: {known})")) from exc

INSTRUCTIONS = """Eywa is long-term memory with provenance. Call `remember` with conversation
turns as they happen; call `recall` before answering a question about the past and answer
only from the returned context, citing evidence ids. `explain` shows why a belief is held."""


def build_server(
    memory: Memory,
    keys: KeyStore | None = None,
    *,
    limiter: RateLimiter | None = None,
    access: AccessRecorder | None = None,
) -> MCPServer[Any]:
    """An MCP server over ``memory``; ``keys`` authorises HTTP calls (stdio needs none),
    ``limiter`` counts them and ``access`` records them (``services.mcp.gate``)."""
    server: MCPServer[Any] = CodedServer("eywa", instructions=INSTRUCTIONS, version="0.1.0")
    gate = McpGate(keys, limiter, access)

    @server.tool()
    def remember(space: Text, turns: TurnsArgument, ctx: Context[Any, Any]) -> dict[str, Any]:
        """Store conversation turns ({"text", "speaker"?, "session"?, "observed_at"?, "metadata"?})
        in a space; returns their evidence ids, in order. Idempotent and atomic."""
        with gate.call(ctx, "remember", space, "write") as author:
            return {"ids": memory.remember(space, turns, author=author, wait=True)}

    @server.tool()
    def recall(
        space: Text,
        query: Text,
        ctx: Context[Any, Any],
        k: Annotated[Any, checked_by_the_core({"type": "integer", "default": 10})] = 10,
        budget_tokens: Annotated[Any, checked_by_the_core({"anyOf": [{"type": "integer"}, {"type": "null"}]})] = None,
        policy: Annotated[Any, checked_by_the_core({"enum": list(get_args(Policy)), "default": "balanced"})] = "balanced",
        as_of: Annotated[Any, checked_by_the_core({"anyOf": [{"type": "string"}, {"type": "null"}]})] = None,
    ) -> dict[str, Any]:
        """Context for a question with provenance: context, items (with evidence ids),
        answer_instructions. No LLM is called."""
        with gate.call(ctx, "recall", space, "read"):
            result = memory.recall(space, query, k=k, budget_tokens=budget_tokens, policy=policy, as_of=as_of)
        return result.model_dump(mode="json", exclude={"trace"})

    @server.tool()
    def explain(space: Text, belief_id: Text, ctx: Context[Any, Any]) -> dict[str, Any]:
        """Why a belief is held: the belief, its validation report and the turns it cites."""
        with gate.call(ctx, "explain", space, "read"):
            return memory.explain(space, belief_id).model_dump(mode="json")

    @server.tool()
    def beliefs(
        space: Text, ctx: Context[Any, Any], subject: OptionalText = None, attribute: OptionalText = None
    ) -> list[dict[str, Any]]:
        """Active validated beliefs of a space, optionally of one subject and attribute."""
        with gate.call(ctx, "beliefs", space, "read"):
            return [b.model_dump(mode="json") for b in memory.beliefs(space, subject, attribute)]

    @server.tool()
    def dimensions(
        space: Text, ctx: Context[Any, Any], entity: OptionalText = None, as_of: OptionalText = None
    ) -> list[dict[str, Any]]:
        """Bayesian attribute distributions (mode, entropy) of a space or one entity."""
        with gate.call(ctx, "dimensions", space, "read"):
            return [d.model_dump(mode="json") for d in memory.dimensions(space, entity, as_of)]

    @server.tool()
    def forget(
        space: Text,
        ctx: Context[Any, Any],
        evidence_ids: Names = None,
        external_ids: Names = None,
        speaker: OptionalText = None,
        session: OptionalText = None,
        before: OptionalText = None,
    ) -> dict[str, Any]:
        """Erase turns and everything derived from them (needs the erase scope). Give at least
        one selector; they combine with AND. Returns counts per kind and the erasure id."""
        with gate.call(ctx, "forget", space, "erase") as author:
            report = memory.forget(
                space, evidence_ids=evidence_ids, external_ids=external_ids, speaker=speaker, session=session,
                before=before, author=author,
            )  # fmt: skip
        return report.model_dump(mode="json")

    @server.tool()
    def drop_space(space: Text, ctx: Context[Any, Any]) -> dict[str, Any]:
        """Erase every turn of a space and everything derived from them (needs the erase scope)."""
        with gate.call(ctx, "drop_space", space, "erase") as author:
            return memory.drop_space(space, author=author).model_dump(mode="json")

    register_corrections(server, memory, gate)
    register_merges(server, memory, gate)

    # The space is a name the core checks (``check_space``), never a path: the SDK's default
    # refusal of ``..``, ``/x`` or ``C:\\x`` in a template value ("Unknown resource", no code)
    # kept the summary of the space ``..`` from MCP alone; the HTTP API and Python serve it.
    @server.resource(
        "eywa://spaces/{space}/summary", mime_type="application/json", security=ResourceSecurity(exempt_params={"space"})
    )
    def summary(space: str, ctx: Context[Any, Any]) -> str:
        """Counts and active beliefs of a space; a space whose escapes are not UTF-8 is refused
        (``_escapes_not_utf8``)."""
        try:
            with gate.call(ctx, "summary", space, "read"):
                if _escapes_not_utf8(ctx):
                    raise InvalidInputError.at("space", "not valid UTF-8 once percent-decoded; text must be valid Unicode")
                held = memory.beliefs(space)
                stats = memory.stats(space)
        except ToolError as exc:
            raise ResourceError(str(exc)) from exc
        return json.dumps({"space": space, "stats": stats, "beliefs": [b.statement for b in held[:50]]})

    return server


def _escapes_not_utf8(ctx: Context[Any, Any]) -> bool:
    """Whether the URI the client sent holds percent-escapes that do not decode as UTF-8.

    The SDK decodes a template's values replacing such bytes with U+FFFD, so
    ``eywa://spaces/%FF/summary`` and ``…/Jos%E9/summary`` (a name encoded in Latin-1) both
    named a space of "\ufffd": a value converted on the way, which the HTTP API refuses
    (``services.api.middleware.not_utf8``). The raw URI is in the request's params; the
    template's only variable is the space, so an escape anywhere in it is the space's.
    """
    raw = (ctx.request_context.params or {}).get("uri")
    if not isinstance(raw, str) or "%" not in raw:
        return False
    try:
        unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _refusing_codings(app: ASGIApp) -> ASGIApp:
    """``app`` answering a request whose body is in a content coding (``Content-Encoding:
    gzip``) with 415, and one in a transfer coding other than chunked (``Transfer-Encoding:
    gzip, chunked``) with 501, as the HTTP API does, before its body is read; a bodiless
    request (the stream's ``GET``, a session's ``DELETE``) is served whatever content coding
    it declares (``services.api.middleware.content_codings``, ``transfer_codings``).

    The SDK decodes no coding: a body declared gzip was parsed as plain JSON (a plain one
    was served, a real gzip one was a JSON-RPC parse error). The answer is a JSON-RPC error,
    the shape of the SDK's own transport errors, with ``Accept-Encoding: identity`` (RFC 7694).
    """

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        unknown = transfer_codings(scope) if scope["type"] == "http" else []
        if unknown:  # RFC 9112 6.1: a transfer coding the server does not decode is a 501
            error = {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600,
                "message": f"Transfer-Encoding {', '.join(unknown)} is not understood; send the body chunked or with a Content-Length",
            }}  # fmt: skip
            await JSONResponse(error, status_code=501)(scope, receive, send)
            return
        codings = content_codings(scope) if scope["type"] == "http" else []
        if not codings:
            await app(scope, receive, send)
            return
        error = {"jsonrpc": "2.0", "id": None, "error": {
            "code": -32600, "message": f"Content-Encoding {', '.join(codings)} is not accepted; send the body uncompressed",
        }}  # fmt: skip
        await JSONResponse(error, status_code=415, headers={"Accept-Encoding": "identity"})(scope, receive, send)

    return wrapped


def _closing_on_shutdown(app: ASGIApp, access: AccessRecorder) -> ASGIApp:
    """``app`` writing the access log's last events when the server shuts down.

    On SIGTERM uvicorn ends the app's lifespan, then raises the signal again, which ends the
    process before ``run``'s ``finally``; the lifespan's shutdown is the last sure moment.
    """

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return

        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                access.close()
            return message

        await app(scope, receiving, send)

    return wrapped


def run(settings: EywaSettings, transport: Transport = "stdio", host: str = "127.0.0.1", port: int = 8765) -> None:
    """Open the memory of ``settings`` and serve MCP until interrupted.

    Over HTTP the calls are authorised by the key store, counted by the rate limiter the
    settings configure (Redis; off without ``EYWA_REDIS_URL``) and recorded in the access
    log, as on the HTTP API; request bodies are capped at ``EYWA_MAX_BODY_BYTES``.

    Raises:
        ConfigurationError: over HTTP, ``host``:``port`` cannot be listened on (``check_listen``).
        StoreError: the stores or the key file cannot be opened.
    """
    if transport == "http":
        check_listen(host, port)  # before the memory opens: a taken port is one line, not uvicorn's log
    memory = open_memory(settings)
    try:
        keys = open_key_store(settings) if transport == "http" else None
    except BaseException:
        memory.close()
        raise
    access: AccessRecorder | None = None
    try:
        if transport == "stdio":
            build_server(memory).run("stdio")
        else:
            import uvicorn

            limiter = FailOpenRateLimiter(build_rate_limiter(settings))
            days = settings.access_log_retention_days
            access = AccessRecorder(memory.access_log, timedelta(days=days) if days else None)
            server = build_server(memory, keys, limiter=limiter, access=access)
            app = server.streamable_http_app(stateless_http=True, host=host, max_request_body_size=settings.max_body_bytes)
            # a request uvicorn cannot parse is refused in a JSON-RPC error too (``services.http_protocol``)
            # a body in a coding is refused first; a JSON object naming a key twice next (``services.mcp.bodies``)
            checked = _refusing_codings(refusing_repeated_keys(app, settings.max_body_bytes))
            uvicorn.run(_closing_on_shutdown(checked, access), host=host, port=port, http=MCP_PROTOCOL)
    finally:
        if access is not None:
            access.close()
        memory.close()
        if keys is not None:
            keys.close()
