"""Control characters are text like any other, on both backends (README, "The input contract").

NUL, the other C0 characters, DEL and the C1 range are valid Unicode: JSON carries them
(``\\u0000``), and SQLite (bound parameters, FTS5), Neo4j and the vector payloads keep them.
Probed on both backends in every string a turn has (text, speaker, role, session, external
id, metadata keys and values) and in a query: each was stored and came back the same. This
pins it: stored faithfully, returned the same, found by recall, idempotent on a retry, and
carried through an export and an import. (Lone surrogates, which no UTF-8 store can write,
are refused on every surface: ``tests/contract/test_surfaces.py``.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from eywa.embedding import Embedder
from eywa.memory import Memory
from eywa.portability import record_json

CONTROLS = "\x00\x01\x07\x08\x0b\x0c\x1b\x7f\x85\x9f"
"""NUL, SOH, BEL, BS, VT, FF, ESC, DEL and two C1 characters (NEL, APC)."""


def _turn(marker: str) -> dict[str, Any]:
    return {
        "text": f"I moved to Lyon{marker} last spring.",
        "speaker": f"An{marker}a",
        "role": f"user{marker}",
        "session": f"s{marker}1",
        "external_id": f"msg{marker}17",
        "metadata": {f"k{marker}": f"v{marker}", "nested": [f"x{marker}y"]},
    }


@pytest.mark.parametrize("char", list(CONTROLS), ids=lambda c: f"U+{ord(c):04X}")
def test_a_control_character_in_every_string_is_stored_and_returned_the_same(memory: Memory, char: str) -> None:
    space = f"ctl-{ord(char):04x}"
    sent = _turn(char)
    ids = memory.remember(space, [sent], wait=True)
    stored = memory.evidence(space, ids[0])
    got = {
        "text": stored.text, "speaker": stored.speaker, "role": stored.role, "session": stored.session,
        "external_id": stored.external_id, "metadata": stored.metadata,
    }  # fmt: skip
    assert got == sent
    assert memory.remember(space, [sent], wait=True) == ids  # the retry: same id, nothing twice
    assert memory.stats(space)["evidence"] == 1
    found = memory.recall(space, f"Where did An{char}a move?")
    assert sent["text"] in [item.text for item in found.items]
    assert sent["text"] in found.context


def test_control_characters_survive_an_export_and_an_import(memory: Memory, tmp_path: Path, embedder: Embedder) -> None:
    """Exported from either backend (as JSON lines, ``\u0000``) into an embedded copy."""
    sent = _turn("\x00\x1b")
    memory.remember("ctl-export", [sent], wait=True)
    lines = [record_json(record) for record in memory.export_space("ctl-export")]
    assert any("\\u0000" in line for line in lines)
    with Memory.open(tmp_path / "copy", embedder=embedder) as copy:
        copy.import_space("ctl-export", lines, wait=True)
        (turn,) = [item for item in copy.recall("ctl-export", "Where did Ana move?").items if item.kind == "evidence"]
        stored = copy.evidence("ctl-export", turn.id)
    assert (stored.text, stored.speaker, stored.metadata) == (sent["text"], sent["speaker"], sent["metadata"])
