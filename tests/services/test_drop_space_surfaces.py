"""``drop_space`` (and ``forget``) answer alike on every surface (README "Erasure").

A space that never held a turn is refused (``not_found``; the CLI names the known spaces)
and no erasure record names it: Python, HTTP, MCP and ``eywa.Client`` recorded "an erasure
of nothing" for a typo while the CLI refused it. A space whose last erasure was a drop
answers with that erasure's report and records nothing more, so a drop retried after its
answer was lost leaves the records of one drop. A space emptied by ``forget`` records a drop
of nothing (who asked, when).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client as McpClient
from typer.testing import CliRunner

from eywa.cli import app
from eywa.client import Client
from eywa.errors import NotFoundError
from eywa.memory import Memory
from eywa.stores.embedded.factory import open_embedded_graph
from services.mcp.server import build_server
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TURN = {"text": "I work at Quillfeather now.", "speaker": "Bo"}


def test_python_refuses_a_space_never_held_and_answers_a_retried_drop_with_the_first(memory: Memory) -> None:
    with pytest.raises(NotFoundError, match="space 'drop-never' not found"):
        memory.drop_space("drop-never")
    assert memory.erasures("drop-never") == []

    memory.remember("drop-py", [TURN])
    first = memory.drop_space("drop-py")
    assert first.counts["turns"] == 1 and first.state == "done"
    again = memory.drop_space("drop-py")  # the retry of a drop whose answer was lost
    assert (again.erasure_id, again.counts) == (first.erasure_id, first.counts)
    assert [r.id for r in memory.erasures("drop-py")] == [first.erasure_id]

    memory.remember("drop-py", [{"text": "I live in Boston.", "speaker": "Cy"}])  # held again
    assert memory.drop_space("drop-py").erasure_id != first.erasure_id

    memory.remember("drop-fg", [TURN])
    forgot = memory.forget("drop-fg", speaker="Bo")
    dropped = memory.drop_space("drop-fg")  # emptied by forget: the drop is recorded, of nothing
    assert dropped.erasure_id != forgot.erasure_id and dropped.counts["turns"] == 0
    assert len(memory.erasures("drop-fg")) == 2


def test_http_refuses_a_space_never_held_with_problem_json(service: Service, memory: Memory) -> None:
    eraser = service.headers(["drop-http"], "erase")
    refused = service.client.delete("/v1/spaces/drop-http", headers=eraser)
    assert refused.status_code == 404 and refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "not_found" and "drop-http" in refused.json()["detail"]
    assert memory.erasures("drop-http") == []


def test_the_client_refuses_a_space_never_held_and_a_retry_gets_the_first_answer(
    live: tuple[str, Service], memory: Memory
) -> None:
    url, svc = live
    key = svc.headers(["drop-cl"], "read,write,erase")["Authorization"].removeprefix("Bearer ")
    with Client(url, key) as client:
        with pytest.raises(NotFoundError) as refused:
            client.drop_space("drop-cl")
        # Memory's words, from the problem's members (it read "resource 'drop-cl' not found in space 'drop-cl'")
        assert str(refused.value) == "space 'drop-cl' not found" and refused.value.kind == "space"
        with pytest.raises(NotFoundError, match=r"^space 'drop-cl' not found$"):
            client.forget("drop-cl", speaker="Bo")  # it read "resource 'erase' not found in space 'drop-cl'"
        client.remember("drop-cl", [TURN])
        first = client.drop_space("drop-cl")
        assert client.drop_space("drop-cl").erasure_id == first.erasure_id
    assert [r.id for r in memory.erasures("drop-cl")] == [first.erasure_id]


def test_mcp_refuses_a_space_never_held(memory: Memory) -> None:
    async def call(arguments: dict[str, Any]) -> tuple[bool, str]:
        async with McpClient(build_server(memory)) as client:
            result = await client.call_tool("drop_space", arguments)
        return bool(result.is_error), "".join(getattr(part, "text", "") for part in result.content)

    is_error, text = anyio.run(call, {"space": "drop-mcp"})
    assert is_error and text.startswith("Error executing tool drop_space: not_found: "), text
    assert memory.erasures("drop-mcp") == []


def test_the_cli_drops_an_already_dropped_space_without_asking_and_records_nothing_more(tmp_path: Path) -> None:
    runner = CliRunner()
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(TURN))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), *data]).exit_code == 0
    first = runner.invoke(app, ["drop-space", "cli", "--yes", *data])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, ["drop-space", "cli", *data])  # no --yes: nothing left, no prompt
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[0] == first.stdout.splitlines()[0]  # "erasure er_… (done)"
    graph = open_embedded_graph(tmp_path / "m")
    try:
        assert len(graph.erasure.erasures("cli")) == 1
    finally:
        graph.close()


def test_forget_in_a_space_never_held_is_refused_alike(service: Service, memory: Memory) -> None:
    """The same for ``forget`` with a selector (found probing MCP: ``forget(space="unknown",
    speaker="x")`` recorded an erasure of nothing under "unknown"); a space whose turns were
    all erased still records an erasure of nothing for a selector that matches none, except
    the very selector of an earlier erasure, which is answered by it."""
    with pytest.raises(NotFoundError, match="space 'forget-never' not found"):
        memory.forget("forget-never", speaker="Bo")
    eraser = service.headers(["forget-http"], "erase")
    refused = service.client.post("/v1/spaces/forget-http/erase", json={"speaker": "Bo"}, headers=eraser)
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"

    async def call() -> tuple[bool, str]:
        async with McpClient(build_server(memory)) as client:
            result = await client.call_tool("forget", {"space": "forget-mcp", "speaker": "Bo"})
        return bool(result.is_error), "".join(getattr(part, "text", "") for part in result.content)

    is_error, text = anyio.run(call)
    assert is_error and text.startswith("Error executing tool forget: not_found: "), text
    assert [memory.erasures(s) for s in ("forget-never", "forget-http", "forget-mcp")] == [[], [], []]

    memory.remember("forget-emptied", [TURN])
    first = memory.forget("forget-emptied", speaker="Bo")
    # Sent again (a retry after a lost answer): answered by the erasure it made, nothing more
    # recorded; another selector that matches nothing records an erasure of nothing.
    assert memory.forget("forget-emptied", speaker="Bo") == first and first.counts["turns"] == 1
    assert memory.forget("forget-emptied", speaker="Cy").counts["turns"] == 0
    assert len(memory.erasures("forget-emptied")) == 2
