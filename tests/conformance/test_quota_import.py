"""An import is a write: it cannot take a space over its quota (README, the limits table).

``Memory.import_space`` restores an export into an empty space; with ``EYWA_SPACE_MAX_TURNS``
or ``EYWA_SPACE_MAX_BYTES`` set, an export holding more than a space may hold is refused with
``QuotaExceededError`` before anything is written, on both backends. Before, the restore
wrote every turn whatever the quota.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eywa import Memory
from eywa.contract import turn_bytes
from eywa.embedding import Embedder
from eywa.errors import QuotaExceededError
from eywa.portability import record_json
from tests.conformance.conftest import MemoryFactory

SPACE = "quota-import"
TURNS = [
    {"text": "Ana planted tomatoes by the shed.", "speaker": "Ana", "session": "s1"},
    {"text": "Ben fixed the gate this morning.", "speaker": "Ben", "session": "s1"},
    {"text": "Ana said the tomatoes need more sun.", "speaker": "Ana", "session": "s1"},
]


@pytest.fixture
def export_lines(tmp_path: Path, embedder: Embedder) -> list[str]:
    """An export of the three turns, made by an embedded memory of its own."""
    with Memory.open(tmp_path / "source", embedder=embedder) as source:
        source.remember(SPACE, TURNS, wait=True)
        return [record_json(record) for record in source.export_space(SPACE)]


def test_an_import_over_the_turn_quota_is_refused_and_writes_nothing(
    open_memory: MemoryFactory, export_lines: list[str]
) -> None:
    target = open_memory(space_max_turns=len(TURNS) - 1)
    with pytest.raises(QuotaExceededError) as refused:
        target.import_space(SPACE, export_lines)
    assert refused.value.quota == "turns" and refused.value.limit == len(TURNS) - 1
    assert SPACE not in target.spaces()
    assert target.beliefs(SPACE) == [] and target.dimensions(SPACE) == []


def test_an_import_over_the_bytes_quota_is_refused(open_memory: MemoryFactory, export_lines: list[str]) -> None:
    size = sum(turn_bytes(t["text"], {}) for t in TURNS)
    target = open_memory(space_max_bytes=size - 1)
    with pytest.raises(QuotaExceededError):
        target.import_space(SPACE, export_lines)
    assert SPACE not in target.spaces()


def test_an_import_within_the_quota_is_restored_whole(open_memory: MemoryFactory, export_lines: list[str]) -> None:
    size = sum(turn_bytes(t["text"], {}) for t in TURNS)
    target = open_memory(space_max_turns=len(TURNS), space_max_bytes=size)
    report = target.import_space(SPACE, export_lines)
    assert report.counts["turn"] == len(TURNS)
    assert [record_json(r) for r in target.export_space(SPACE)][1:] == export_lines[1:]
