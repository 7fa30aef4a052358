"""The MCP tools fuzzed from their own ``inputSchema``, in-process.

Every call whose arguments the published schema admits must answer, or fail with a tool
error whose text, after the SDK's ``Error executing tool <name>: ``, starts with one of
Eywa's error codes (``limit_exceeded: …``): never an exception from below, which the SDK
reports as the bare "Error executing tool <name>".

The arguments are drawn by schemathesis's JSON Schema generator: each tool's schema becomes
the request body of one operation of a small OpenAPI document. (hypothesis-jsonschema, the
usual tool, fails on object schemas with the hypothesis this project runs:
``'many' object has no attribute 'more'`` in 0.23.1, its latest release.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, get_args

import anyio
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from eywa.errors import ErrorCode
from eywa.memory import Memory
from services.mcp.server import TOOLS, build_server
from services.problems import ServiceCode
from tests.schemathesis_support import schema_operation

MAX_EXAMPLES = 25
CODES = frozenset(get_args(ErrorCode))


@pytest.fixture(scope="module")
def schemas(memory: Memory) -> Iterator[dict[str, dict[str, Any]]]:
    async def listed() -> dict[str, dict[str, Any]]:
        async with Client(build_server(memory)) as client:
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    found = anyio.run(listed)
    assert set(found) == set(TOOLS)
    yield found


async def _call(memory: Memory, name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
    async with Client(build_server(memory)) as client:
        result = await client.call_tool(name, arguments)
    text = "".join(getattr(part, "text", "") for part in result.content)
    return bool(result.is_error), text


def _object(body: object) -> dict[str, Any]:
    """A generated request body: a tool's input schema is an object."""
    assert isinstance(body, dict), body
    return dict(body)


def _arguments(schemas: dict[str, dict[str, Any]], tool: str) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments ``tool``'s input schema admits (see the module docstring)."""
    document = {
        "openapi": "3.1.0", "info": {"title": "eywa MCP tools", "version": "1"},
        "paths": {f"/{tool}": {"post": {
            "requestBody": {"required": True, "content": {"application/json": {"schema": schemas[tool]}}},
            "responses": {"200": {"description": "the tool's result"}},
        }}},
    }  # fmt: skip
    (operation,) = [schema_operation(found) for found in schemathesis.openapi.from_dict(document).get_all_operations()]
    return operation.as_strategy().map(lambda case: _object(case.body))


def test_the_turns_schema_documents_a_turn(schemas: dict[str, dict[str, Any]]) -> None:
    turn = schemas["remember"]["properties"]["turns"]["items"]
    assert turn["required"] == ["text"] and {"speaker", "observed_at", "metadata"} <= set(turn["properties"])


@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_answers_or_refuses_with_a_code(memory: Memory, schemas: dict[str, dict[str, Any]], tool: str) -> None:
    anyio.run(_call, memory, "remember", {"space": "mcpfuzz", "turns": [{"text": "I work at Acme.", "speaker": "Ana"}]})

    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(arguments=_arguments(schemas, tool), space=st.sampled_from(["mcpfuzz", None]))
    def check(arguments: dict[str, Any], space: str | None) -> None:
        if space is not None and "space" in arguments:
            arguments = {**arguments, "space": space}  # reach stored data too, not only random spaces
        is_error, text = anyio.run(_call, memory, tool, arguments)
        if is_error:  # the SDK prefixes "Error executing tool <name>: "; a crash has nothing after it
            code = text.removeprefix(f"Error executing tool {tool}: ").split(":", 1)[0]
            assert code in CODES, f"{tool}({arguments!r}) failed outside the error contract: {text[:300]}"

    check()


def test_a_tool_refuses_a_lone_surrogate_the_http_client_cannot_even_send(memory: Memory) -> None:
    # The SDK's HTTP client cannot encode it (test_surfaces leaves it out); in-process it
    # reaches the tool, which refuses it like every other surface. (NaN cannot reach a tool
    # at all: the SDK's own serialisation turns it into null on the client's side.)
    turn = {"text": "a\ud800b"}
    is_error, text = anyio.run(_call, memory, "remember", {"space": "mcpodd", "turns": [turn]})
    assert is_error and text.startswith("Error executing tool remember: invalid_turn: turn 0: ")
    assert "mcpodd" not in memory.spaces()


SERVICE_CODES = frozenset(get_args(ServiceCode))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize("tool", TOOLS)
def test_arguments_outside_the_schema_are_refused_with_a_code(
    memory: Memory, schemas: dict[str, dict[str, Any]], tool: str
) -> None:
    """Arguments of any JSON type, missing or unknown: the SDK's own refusal had no code
    ("1 validation error for recallArguments …"), and an unknown argument was dropped."""
    names = [*schemas[tool]["properties"], "unknown_argument"]

    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(arguments=st.dictionaries(st.sampled_from(names), JSON_VALUES, max_size=len(names)))
    def check(arguments: dict[str, Any]) -> None:
        is_error, text = anyio.run(_call, memory, tool, arguments)
        if is_error:
            code = text.removeprefix(f"Error executing tool {tool}: ").split(":", 1)[0]
            assert code in CODES | SERVICE_CODES, f"{tool}({arguments!r}): {text[:300]}"
        else:
            assert "unknown_argument" not in arguments, f"{tool} took an argument it does not have"

    check()


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("recall", {"space": "mcpfuzz", "query": "where?", "k": True}, "invalid_input: k: "),
        ("recall", {"space": "mcpfuzz", "query": "where?", "k": "5"}, "invalid_input: k: "),
        ("recall", {"space": "mcpfuzz", "query": "where?", "k": 5.0}, "invalid_input: k: "),
        ("recall", {"space": "mcpfuzz", "query": "where?", "budget_tokens": True}, "invalid_input: budget_tokens: "),
        ("recall", {"space": "mcpfuzz", "query": "where?", "policy": "wild"}, "invalid_input: policy: "),
        ("merge", {"space": "mcpfuzz", "source": "Ana", "target": "Acme", "action": "accept", "score": True},
         "invalid_input: score: "),
        ("recall", {"space": "mcpfuzz"}, "validation_error: query: "),
        ("remember", {"space": "mcpfuzz", "turns": [5]}, "invalid_turn: turn 0: "),  # as Memory.remember and HTTP
        # A space, id, name, time, selector or choice of another JSON type: Memory's code
        # (the SDK's validation_error before s33).
        ("beliefs", {"space": 5}, "invalid_input: space: "),
        ("explain", {"space": "mcpfuzz", "belief_id": 5}, "invalid_input: belief_id: "),
        ("dimensions", {"space": "mcpfuzz", "as_of": 5}, "invalid_input: as_of: "),
        ("forget", {"space": "mcpfuzz", "evidence_ids": "ev_1"}, "invalid_input: evidence_ids: "),
        ("forget", {"space": "mcpfuzz", "speaker": ["Ana"]}, "invalid_input: speaker: "),
        ("merge", {"space": "mcpfuzz", "source": 5, "target": "Acme", "action": "accept"}, "invalid_input: source: "),
        ("merge", {"space": "mcpfuzz", "source": "Ana", "target": "Acme", "action": "redo"}, "invalid_input: action: "),
        ("merges", {"space": "mcpfuzz", "include_removed": "yes"}, "invalid_input: include_removed: "),
        ("correct_belief", {"space": "mcpfuzz", "belief_id": "bel_x", "action": "retract", "reason": 5},
         "invalid_input: reason: "),
        ("correct_candidate", {"space": "mcpfuzz", "candidate_id": "cand_x", "action": "drop"}, "invalid_input: action: "),
        ("corrections", {"space": "mcpfuzz", "target_id": 5}, "invalid_input: target_id: "),
        ("remember", {"space": "mcpfuzz", "turns": [{"text": "hi"}], "wait": False}, "validation_error: wait: "),
        ("forget_all", {"space": "mcpfuzz"}, "not_found: "),
    ],
)  # fmt: skip
def test_what_python_refuses_the_tools_refuse_with_its_code(
    memory: Memory, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    # Found by probing: k=true, "5" and 5.0 were read as 1 and 5 and answered, a score of
    # true as 1.0; missing or mistyped arguments, an unknown one and an unknown tool had no
    # code (or, for the unknown argument, no refusal at all).
    anyio.run(_call, memory, "remember", {"space": "mcpfuzz", "turns": [{"text": "I work at Acme.", "speaker": "Ana"}]})
    is_error, text = anyio.run(_call, memory, tool, arguments)
    assert is_error and text.startswith(f"Error executing tool {tool}: {expected}"), text
