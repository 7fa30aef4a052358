"""The MCP space summary refuses a space whose percent-escapes are not UTF-8, as the HTTP API
refuses such a path (``tests/services/test_url_not_utf8.py``).

The SDK decodes the resource URI before the template's function sees it, replacing bytes
that are not UTF-8 with U+FFFD: ``eywa://spaces/%FF/summary`` and ``…/Bj%F6rn/summary`` (a
name escaped in Latin-1) were served as the summary of a space named "\ufffd" / "Bj\ufffdrn",
a name nobody sent, and of a real space when one held that name.
"""

from __future__ import annotations

import json

import anyio
import pytest

from eywa.memory import Memory
from tests.services.mcp_resources import read_resource


@pytest.mark.parametrize("escaped", ["%FF", "Bj%F6rn", "%C3", "%ED%A0%80"])
def test_a_space_escaped_in_bytes_that_are_not_utf8_is_refused(memory: Memory, escaped: str) -> None:
    memory.remember("\ufffd", [{"text": "I live in Oslo.", "speaker": "Bo"}], wait=True)
    answer = anyio.run(read_resource, memory, f"eywa://spaces/{escaped}/summary")
    assert answer.startswith("refused: invalid_input: space: not valid UTF-8"), answer


@pytest.mark.parametrize(("escaped", "space"), [("caf%C3%A9", "caf\u00e9"), ("%EF%BF%BD", "\ufffd"), ("plain", "plain")])
def test_a_space_escaped_in_utf8_is_read(memory: Memory, escaped: str, space: str) -> None:
    memory.remember(space, [{"text": "I work at Initech.", "speaker": "Priya"}], wait=True)
    summary = json.loads(anyio.run(read_resource, memory, f"eywa://spaces/{escaped}/summary"))
    assert summary["space"] == space and summary["stats"]["evidence"] >= 1, summary
