"""README promises about MCP over HTTP that no other test walked (audit of s14).

docs/service.md, "MCP server": over HTTP every call needs a key with the tool's scope
(``remember``, ``correct_belief``, ``correct_candidate``, ``merge``: write; ``forget``,
``drop_space``: erase; others: read) on the call's space. tests/services/test_mcp_http.py
checks ``remember`` and ``forget``; this walks every tool the server lists, as
tests/services/test_api.py walks the HTTP route table, so a new tool must be placed here.
docs/service.md, ``EYWA_MAX_BODY_BYTES``: larger bodies get 413 on the API *and on MCP over
HTTP* (only the API's was tested).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from eywa.stores.embedded.keys import SqliteKeyStore
from eywa.stores.keys import Scope
from tests.services.test_mcp_http import _start, _stop

SPACE = "mcpwalk"
OTHER = "mcpwalk-other"
BODY_LIMIT = 4096
ALL_SCOPES: tuple[Scope, ...] = ("read", "write", "admin", "erase")

# Every tool, the scope the docs give it, and arguments the tool's input schema accepts (a
# call the SDK refused for its shape would never reach the gate).
TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "remember": ("write", {"turns": [{"text": "Walk turn.", "speaker": "W"}]}),
    "recall": ("read", {"query": "walk"}),
    "explain": ("read", {"belief_id": "bel_nope"}),
    "beliefs": ("read", {}),
    "dimensions": ("read", {}),
    "forget": ("erase", {"speaker": "Nobody"}),
    "drop_space": ("erase", {}),
    "correct_belief": ("write", {"belief_id": "bel_nope", "action": "retract", "reason": "walk"}),
    "correct_candidate": ("write", {"candidate_id": "cand_nope", "action": "dismiss"}),
    "corrections": ("read", {}),
    "merges": ("read", {}),
    "merge": ("write", {"source": "Nobody", "target": "Noone", "action": "accept"}),
}


@dataclass(frozen=True)
class Walk:
    url: str
    without: dict[Scope, str]  # scope -> a key on SPACE holding every scope but that one
    exactly: dict[Scope, str]  # scope -> a key on SPACE holding that scope alone
    foreign: str  # every scope, on OTHER only


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    data = tmp_path_factory.mktemp("mcp-walk")
    keys = SqliteKeyStore(data / "keys.sqlite")
    scopes: tuple[Scope, ...] = ("read", "write", "erase")
    without = {s: keys.create([SPACE], [x for x in ALL_SCOPES if x != s])[1] for s in scopes}
    exactly = {s: keys.create([SPACE], [s])[1] for s in scopes}
    foreign = keys.create([OTHER], list(ALL_SCOPES))[1]
    keys.close()
    proc, url = _start(data, {"EYWA_MAX_BODY_BYTES": str(BODY_LIMIT)})
    try:
        yield Walk(url, without, exactly, foreign)
    finally:
        _stop(proc)


async def _session_calls(url: str, key: str, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[str], Any]:
    """Each call's outcome (``ok`` or the tool error's text), and the tools the server lists."""
    out: list[str] = []
    with anyio.fail_after(90):
        async with (
            httpx2.AsyncClient(headers={"X-API-Key": key}, timeout=30.0) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.list_tools()
            for name, arguments in calls:
                result = await session.call_tool(name, arguments)
                text = str(getattr(result.content[0], "text", "")) if result.is_error else "ok"
                out.append(text.removeprefix(f"Error executing tool {name}: "))
            try:
                await session.read_resource(f"eywa://spaces/{SPACE}/summary")
                out.append("ok")
            except Exception as exc:  # the SDK raises the resource's error as McpError
                out.append(str(exc))
    return out, listed


def _call_all(walk: Walk, key: str, space: str) -> tuple[dict[str, str], list[str]]:
    calls = [(name, {"space": space, **args}) for name, (_, args) in TOOLS.items()]
    outcomes, listed = anyio.run(_session_calls, walk.url, key, calls)
    named = dict(zip([*TOOLS, "summary"], outcomes, strict=True))
    return named, [tool.name for tool in listed.tools]


def test_every_tool_needs_its_scope_on_the_calls_space(walk: Walk) -> None:
    outcomes, listed = _call_all(walk, walk.foreign, SPACE)
    assert sorted(listed) == sorted(TOOLS), "a tool was added or removed: give it its scope in TOOLS"
    for tool, outcome in outcomes.items():  # another space's key, every scope: refused
        assert outcome.startswith("forbidden"), (tool, outcome)

    scope_of = {name: scope for name, (scope, _) in TOOLS.items()} | {"summary": "read"}
    for scope in walk.exactly:
        lacking, _ = _call_all(walk, walk.without[scope], SPACE)
        holding, _ = _call_all(walk, walk.exactly[scope], SPACE)
        for tool, needed in scope_of.items():
            if needed == scope:  # refused without the scope, admitted with it alone
                assert lacking[tool].startswith("forbidden") and scope in lacking[tool], (tool, lacking[tool])
                assert not holding[tool].startswith("forbidden"), (tool, holding[tool])
            else:
                assert not lacking[tool].startswith("forbidden"), (tool, lacking[tool])
                assert holding[tool].startswith("forbidden"), (tool, holding[tool])


def test_a_body_over_the_limit_is_refused_with_413_over_mcp(walk: Walk) -> None:
    headers = {"X-API-Key": walk.exactly["write"], "Accept": "application/json, text/event-stream",
               "Content-Type": "application/json"}  # fmt: skip
    turns = [{"text": "x" * 500, "speaker": "W"} for _ in range(20)]
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "remember", "arguments": {"space": SPACE, "turns": turns}}}  # fmt: skip
    body = json.dumps(call).encode()
    assert len(body) > BODY_LIMIT
    small = dict(call, params={"name": "recall", "arguments": {"space": SPACE, "query": "walk"}})
    with httpx.Client(timeout=30.0) as http:
        assert http.post(walk.url, content=body, headers=headers).status_code == 413

        def chunks() -> Iterator[bytes]:
            yield body[:1000]
            yield body[1000:]

        streamed = http.post(walk.url, content=chunks(), headers=headers)  # no Content-Length
        assert streamed.status_code == 413
        assert http.post(walk.url, json=small, headers=headers).status_code != 413


def test_an_overlong_forget_selector_is_a_limit_error_over_mcp(walk: Walk) -> None:
    """docs/service.md: tool errors start with the code the API answers, and the input
    contract's label limit covers a session. ``forget``'s selectors went unchecked: a
    501-character session was accepted (and a lone surrogate, which the SDK's client cannot
    send, reached SQLite; see tests/contract/test_selector_contract.py)."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("forget", {"space": SPACE, "session": "s" * 501}), ("forget", {"space": SPACE, "evidence_ids": [" "]})
    ]
    outcomes, _ = anyio.run(_session_calls, walk.url, walk.exactly["erase"], calls)
    assert outcomes[0].startswith("limit_exceeded: session:"), outcomes[0]
    assert outcomes[1].startswith("invalid_input: evidence_ids.0:"), outcomes[1]


def test_a_space_that_is_no_string_is_refused_with_pythons_code_over_http(walk: Walk) -> None:
    """s33: over HTTP the gate names the call's space in the key check and the access log;
    a space of another JSON type (which the SDK refused before, as ``validation_error``) is
    ``invalid_input`` once the key is known, as ``Memory`` says, and no key's scope admits it."""
    calls: list[tuple[str, dict[str, Any]]] = [("beliefs", {"space": 5})]
    outcomes, _ = anyio.run(_session_calls, walk.url, walk.exactly["read"], calls)
    assert outcomes[0].startswith("invalid_input: space: "), outcomes
    unkeyed, _ = anyio.run(_session_calls, walk.url, "eyw_nobody_x", calls)
    assert unkeyed[0].startswith("unauthorized"), unkeyed
