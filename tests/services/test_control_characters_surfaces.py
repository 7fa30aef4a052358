"""Control characters through every surface (README, "The input contract").

A NUL (or ESC, or any C0/C1 character) is valid Unicode: JSON carries it as ``\\u0000``,
and every surface stores it faithfully and returns it the same, as the Python API does on
both backends (``tests/conformance/test_control_characters.py``). The CLI's tables write it
as an escape (``\\x1b``), never raw to the terminal: stored text reached it as escape
sequences, and square brackets in a stored speaker ended ``eywa beliefs list`` in a Rich
``MarkupError`` traceback (``eywa.runtime.terminal``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client as McpClient
from typer.testing import CliRunner

from eywa.cli import app
from eywa.client import Client
from eywa.memory import Memory
from services.mcp.server import build_server
from tests.services.conftest import Service
from tests.services.test_client import live  # noqa: F401 - the live-server fixture

TEXT = "I moved to Lyon\x00 last \x1b[31mspring\x1b[0m."
SPEAKER = "An\x1b]0;title\x07a"
METADATA = {"k\x00": "v\x01", "n": ["\x85"]}
TURN = {"text": TEXT, "speaker": SPEAKER, "metadata": METADATA}
QUESTION = "Where did Ana move?"


def test_http_stores_json_escaped_control_characters_and_answers_them_the_same(service: Service) -> None:
    headers = service.headers(["ctl-http"])
    body = json.dumps({"turns": [TURN]})  # "\u0000", "\u001b": what any JSON encoder writes
    assert "\\u0000" in body
    written = service.client.post("/v1/spaces/ctl-http/turns", content=body,
                                  headers={**headers, "content-type": "application/json"})  # fmt: skip
    assert written.status_code == 201, written.text
    (evidence_id,) = written.json()["ids"]
    stored = service.client.get(f"/v1/spaces/ctl-http/evidence/{evidence_id}", headers=headers).json()
    assert (stored["text"], stored["speaker"], stored["metadata"]) == (TEXT, SPEAKER, METADATA)
    recalled = service.client.post("/v1/spaces/ctl-http/recall", json={"query": QUESTION}, headers=headers).json()
    assert TEXT in [item["text"] for item in recalled["items"]] and TEXT in recalled["context"]
    again = service.client.post("/v1/spaces/ctl-http/turns", content=body,
                                headers={**headers, "content-type": "application/json"})  # fmt: skip
    assert again.json()["ids"] == [evidence_id]


def test_mcp_stores_control_characters_and_answers_them_the_same(memory: Memory) -> None:
    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        async with McpClient(build_server(memory)) as client:
            result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content
        return result.structured_content

    written = anyio.run(call, "remember", {"space": "ctl-mcp", "turns": [TURN]})
    recalled = anyio.run(call, "recall", {"space": "ctl-mcp", "query": QUESTION})
    assert TEXT in [item["text"] for item in recalled["items"]], recalled
    stored = memory.evidence("ctl-mcp", written["ids"][0])
    assert (stored.text, stored.speaker, stored.metadata) == (TEXT, SPEAKER, METADATA)


def test_the_client_stores_control_characters_and_answers_them_the_same(live: tuple[str, Service]) -> None:
    url, svc = live
    key = svc.headers(["ctl-client"])["Authorization"].removeprefix("Bearer ")
    with Client(url, key) as client:
        (evidence_id,) = client.remember("ctl-client", [TURN])
        stored = client.evidence("ctl-client", evidence_id)
        assert (stored.text, stored.speaker, stored.metadata) == (TEXT, SPEAKER, METADATA)
        assert TEXT in [item.text for item in client.recall("ctl-client", QUESTION).items]
        assert client.remember("ctl-client", [TURN]) == [evidence_id]


def test_the_cli_stores_control_characters_and_shows_them_escaped_never_raw(tmp_path: Path) -> None:
    runner = CliRunner()
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        json.dumps(TURN) + "\n" + json.dumps({"text": "I work at Acme now.", "speaker": "Bo[/x]b"}), encoding="ascii"
    )
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), *data]).exit_code == 0

    as_json = runner.invoke(app, ["recall", "--space", "cli", QUESTION, "--json", *data])
    assert as_json.exit_code == 0, as_json.output
    items = json.loads(as_json.stdout)["items"]
    found = [item for item in items if item["text"] == TEXT]
    assert found and found[0]["provenance"][0]["speaker"] == SPEAKER
    assert found[0]["provenance"][0]["metadata"] == METADATA

    table = runner.invoke(app, ["recall", "--space", "cli", QUESTION, *data], env={"COLUMNS": "300"})
    assert table.exit_code == 0, table.output
    assert not {c for c in table.stdout if ord(c) < 0x20 and c != "\n"}, repr(table.stdout)  # no raw control
    assert "Lyon\\x00 last \\x1b[31mspring\\x1b[0m." in table.stdout and "An\\x1b]0;title\\x07a" in table.stdout

    beliefs = runner.invoke(app, ["beliefs", "list", "--space", "cli", *data], env={"COLUMNS": "300"})
    assert beliefs.exit_code == 0 and beliefs.exception is None, beliefs.output  # was a MarkupError traceback
    assert "Bo[/x]b works at Acme." in beliefs.stdout
