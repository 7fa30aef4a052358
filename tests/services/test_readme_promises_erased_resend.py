"""README, "What survives a crash" and "Erasure": "A turn sent again after its erasure is
refused (``ErasedError``, HTTP 410) rather than silently brought back", and the input
contract: every input is "accepted or refused alike on every surface ... with the same error
``code``", over MCP "the first word of the tool error", on the CLI "the bracketed end of the
error line", and "a refused batch writes nothing" (audit of s40).

Python, HTTP and ``eywa.Client`` were shown refusing a re-sent erased turn
(tests/conformance/test_erasure.py, tests/services/test_erase_http.py,
tests/services/test_readme_promises_erasure.py); the MCP ``remember`` tool and ``eywa ingest``
were not. Each is sent a batch holding the erased turn and a new one: the answer is
``erased`` and neither turn is stored.
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
from eywa.memory import Memory
from eywa.portability.records import TurnLine
from eywa.settings import EywaSettings
from services.mcp.server import build_server
from tests.contract.conftest import open_memory

SPACE = "resend"
SECRET = {"text": "My locker code is Tarrowmere.", "speaker": "Odo", "session": "s1", "external_id": "m-1",
          "observed_at": "2024-01-01T10:00:00Z"}  # fmt: skip
NEW = {"text": "I collect old maps.", "speaker": "Odo", "session": "s1", "external_id": "m-2",
       "observed_at": "2024-01-01T10:05:00Z"}  # fmt: skip
KEPT = {"text": "I play the cello.", "speaker": "Kira", "session": "s1", "observed_at": "2024-01-01T10:01:00Z"}


def _stored_texts(mem: Memory) -> list[str]:
    return sorted(record.evidence.text for record in mem.export_space(SPACE) if isinstance(record, TurnLine))


BY_CONTENT = {k: v for k, v in SECRET.items() if k != "external_id"}  # its id is derived from its content


SENT = pytest.mark.parametrize("secret", [SECRET, BY_CONTENT], ids=["by-external-id", "by-content"])


def _erase(mem: Memory, secret: dict[str, Any]) -> None:
    ids = mem.remember(SPACE, [secret, KEPT])
    assert mem.forget(SPACE, evidence_ids=[ids[0]]).counts["turns"] == 1
    assert _stored_texts(mem) == [KEPT["text"]]


@SENT
def test_mcp_remember_refuses_an_erased_turn_and_writes_nothing_of_its_batch(tmp_path: Path, secret: dict[str, Any]) -> None:
    with open_memory(tmp_path / "m") as mem:
        _erase(mem, secret)

        async def call() -> tuple[bool, str]:
            async with McpClient(build_server(mem)) as client:
                result = await client.call_tool("remember", {"space": SPACE, "turns": [NEW, secret]})
            return bool(result.is_error), "".join(getattr(part, "text", "") for part in result.content)

        is_error, text = anyio.run(call)
        assert is_error and text.removeprefix("Error executing tool remember: ").startswith("erased: "), text
        assert "Tarrowmere" not in text
        assert _stored_texts(mem) == [KEPT["text"]]  # neither the erased turn nor the new one


@SENT
def test_eywa_ingest_refuses_an_erased_turn_and_writes_nothing_of_its_batch(tmp_path: Path, secret: dict[str, Any]) -> None:
    directory = tmp_path / "m"
    with Memory.open(directory, settings=EywaSettings(data_dir=directory)) as mem:  # the embedder eywa ingest opens it with
        _erase(mem, secret)
    turns = tmp_path / "turns.jsonl"
    turns.write_text("".join(json.dumps(turn) + "\n" for turn in (NEW, secret)))
    result = CliRunner().invoke(app, ["ingest", "--space", SPACE, str(turns), "--data-dir", str(directory)])
    assert result.exit_code == 1, result.output
    error = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(error) == 1 and error[0].endswith("[erased]"), result.output
    assert "Tarrowmere" not in result.output
    with Memory.open(directory, settings=EywaSettings(data_dir=directory)) as mem:
        assert _stored_texts(mem) == [KEPT["text"]]
