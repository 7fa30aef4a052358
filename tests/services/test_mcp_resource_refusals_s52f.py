"""An MCP resource URI is refused with a code, as a tool call is, and the space in it is the
core's to check.

The SDK answered ``Unknown resource: eywa://…`` (no code to switch on) for a URI that names
no resource, and for ``eywa://spaces/../summary`` or ``…/%2E%2E/summary``: its default
refusal of a template value holding ``..``, ``/x`` or ``C:\\x`` — a guard for values used as
file paths. A space is a name the core checks (``..`` is one, served by ``Memory`` and the
HTTP API as ``/v1/spaces/%2E%2E``); a name it refuses is refused with its code.
"""

from __future__ import annotations

import json

import anyio
import pytest

from eywa.memory import Memory
from tests.services.mcp_resources import read_resource


@pytest.mark.parametrize(("uri", "space"), [("eywa://spaces/../summary", ".."), ("eywa://spaces/%2E%2E/summary", ".."),
                                            ("eywa://spaces/C:%5Cnotes/summary", "C:\\notes")])  # fmt: skip
def test_a_space_the_core_accepts_is_summarised_whatever_it_looks_like(memory: Memory, uri: str, space: str) -> None:
    memory.remember(space, [{"text": "I live in Oslo.", "speaker": "Bo"}], wait=True)
    summary = json.loads(anyio.run(read_resource, memory, uri))
    assert summary["space"] == space and summary["stats"]["evidence"] >= 1, summary


def test_a_space_the_core_refuses_is_refused_with_its_code(memory: Memory) -> None:
    answer = anyio.run(read_resource, memory, "eywa://spaces/a%00b/summary")
    assert answer.startswith("refused: invalid_input: space: "), answer


@pytest.mark.parametrize("uri", ["eywa://spaces/a/../b/summary", "eywa://nothing", "eywa://spaces/a/summary?x=1", "not a uri"])
def test_a_uri_that_names_no_resource_is_refused_as_not_found(memory: Memory, uri: str) -> None:
    answer = anyio.run(read_resource, memory, uri)
    assert answer.startswith(f"refused: not_found: no resource {uri!r}"), answer
    assert "eywa://spaces/{space}/summary" in answer  # the resources there are
