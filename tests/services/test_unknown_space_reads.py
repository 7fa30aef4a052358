"""A read of a space that was never written answers as an empty space on every surface
(README, "CLI": the paragraph on spaces that hold no turns).

Python, HTTP, MCP and ``eywa.Client`` answered empty while the CLI refused the same read
(``error: unknown space 'alcie' (known: alice) [invalid_input]``, exit 1), so a script's
first recall of a new space failed on the command line where the service answered. An
agent's first recall in a new space is normal; an operator's typo is common too: the CLI
now answers the empty space (exit 0) and says on stderr that the space holds no turns,
naming the known ones. ``forget`` and ``drop_space`` still refuse a space that never held a
turn on every surface (``tests/services/test_drop_space_surfaces.py``).
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
from eywa.memory import Memory
from services.mcp.server import build_server
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TURN = {"text": "I live in Lyon.", "speaker": "Ana"}
QUESTION = "Where does Ana live?"


def test_python_answers_a_space_never_written_as_empty(memory: Memory) -> None:
    memory.remember("reads-known", [TURN])
    space = "reads-never-py"
    recalled = memory.recall(space, QUESTION)
    assert (list(recalled.items), recalled.context) == ([], "")
    assert [list(memory.beliefs(space)), list(memory.candidates(space)), list(memory.dimensions(space))] == [[], [], []]
    assert [list(memory.corrections(space)), list(memory.merges(space))] == [[], []]
    assert memory.stats(space)["evidence"] == 0
    assert [record.kind for record in memory.export_space(space)] == ["header"]
    assert space not in memory.spaces()  # nothing was created by reading


def test_http_answers_a_space_never_written_as_empty(service: Service, memory: Memory) -> None:
    space = "reads-never-http"
    headers = service.headers([space], "read,write,admin")
    recall = service.client.post(f"/v1/spaces/{space}/recall", json={"query": QUESTION}, headers=headers)
    assert recall.status_code == 200 and recall.json()["items"] == [], recall.text
    for path in ("beliefs", "candidates", "dimensions", "corrections", "merges"):
        answer = service.client.get(f"/v1/spaces/{space}/{path}", headers=headers)
        assert (answer.status_code, answer.json()) == (200, []), (path, answer.text)
    assert service.client.get(f"/v1/spaces/{space}/stats", headers=headers).json()["evidence"] == 0
    export = service.client.get(f"/v1/spaces/{space}/export", headers=headers)
    assert export.status_code == 200 and [json.loads(line)["kind"] for line in export.text.splitlines()] == ["header"]
    assert space not in memory.spaces()


def test_mcp_answers_a_space_never_written_as_empty(memory: Memory) -> None:
    space = "reads-never-mcp"

    async def call(tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
        async with McpClient(build_server(memory)) as client:
            result = await client.call_tool(tool, arguments)
        text = "".join(getattr(part, "text", "") for part in result.content)
        return bool(result.is_error), result.structured_content if result.structured_content is not None else text

    is_error, recalled = anyio.run(call, "recall", {"space": space, "query": QUESTION})
    assert not is_error and recalled["items"] == [], recalled
    for tool in ("beliefs", "dimensions"):
        is_error, answer = anyio.run(call, tool, {"space": space})
        assert not is_error and answer in ({"result": []}, []), (tool, answer)
    assert space not in memory.spaces()


def test_the_client_answers_a_space_never_written_as_empty(live: tuple[str, Service], memory: Memory) -> None:
    url, svc = live
    space = "reads-never-cl"
    key = svc.headers([space], "read,write,admin")["Authorization"].removeprefix("Bearer ")
    with Client(url, key) as client:
        assert list(client.recall(space, QUESTION).items) == []
        assert [list(client.beliefs(space)), list(client.candidates(space)), list(client.dimensions(space))] == [[], [], []]
        assert [list(client.corrections(space)), list(client.merges(space))] == [[], []]
        assert client.stats(space)["evidence"] == 0
        assert [record.kind for record in client.export_space(space)] == ["header"]
    assert space not in memory.spaces()


READS = [
    ["recall", "--space", "alcie", QUESTION, "--json"], ["stats", "--space", "alcie"],
    ["beliefs", "list", "--space", "alcie"], ["candidates", "list", "--space", "alcie"],
    ["corrections", "--space", "alcie"], ["merges", "list", "--space", "alcie"],
    ["merges", "propose", "--space", "alcie"], ["export", "--space", "alcie"],
    ["reprocess", "--space", "alcie"], ["reconcile", "--space", "alcie"], ["repair-vectors", "--space", "alcie"],
]  # fmt: skip


@pytest.mark.parametrize("args", READS, ids=lambda args: "-".join(a for a in args[:2] if not a.startswith("-")))
def test_the_cli_answers_a_space_never_written_as_empty_and_names_the_known_ones(
    tmp_path: Path, args: list[str]
) -> None:
    runner = CliRunner()
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(TURN))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "alice", str(turns), *data]).exit_code == 0
    result = runner.invoke(app, [*args, *data], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    note = "note: space 'alcie' holds no turns (known: alice); answering as an empty space"
    assert result.stderr.splitlines()[0] == note, result.stderr
    assert "Lyon" not in result.stdout
    if args[0] == "recall":
        assert json.loads(result.stdout)["items"] == []
    if args[0] == "export":
        assert [json.loads(line)["kind"] for line in result.stdout.splitlines() if line] == ["header"]
    exported = runner.invoke(app, ["export", "--space", "alice", *data])  # nothing changed, nothing created
    assert exported.stdout.count('"kind":"turn"') == 1 and '"kind":"erasure"' not in exported.stdout
    listed = runner.invoke(app, ["recall", "--space", "alice", QUESTION, "--json", *data])
    assert listed.exit_code == 0 and listed.stderr == ""  # a known space: no note
