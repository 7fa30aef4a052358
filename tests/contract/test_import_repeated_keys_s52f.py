"""An export line that names a key twice in one object is refused, not read as its last value.

pydantic's JSON parser keeps the last of two values given for one key: a turn line edited to
say ``"speaker": "Bo", "speaker": "Tom"`` was restored as Tom's turn, a header saying
``"space"`` twice was read as its second space. Every surface refuses such JSON
(``eywa.json_text``); an import names the line and the key's path in it, and writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError
from eywa.portability import record_json
from tests.contract.conftest import open_memory

SPACE = "dupkeys-import-s52f"


@pytest.fixture(scope="module")
def lines(memory: Memory) -> list[str]:
    memory.remember(SPACE, [{"text": "I live in Oslo.", "speaker": "Bo"}, {"text": "I work at Initech.", "speaker": "Nadia"}])
    return [record_json(record) for record in memory.export_space(SPACE)]


def _edited(lines: list[str], kind: str, old: str, new: str) -> tuple[list[str], int]:
    """``lines`` with ``old`` replaced by ``new`` in the first line of ``kind``; and its number."""
    number = next(n for n, line in enumerate(lines, start=1) if f'"kind":"{kind}"' in line and old in line)
    edited = list(lines)
    edited[number - 1] = edited[number - 1].replace(old, new, 1)
    return edited, number


@pytest.mark.parametrize(
    ("kind", "old", "new", "path"),
    [
        ("turn", '"speaker":"Bo"', '"speaker":"Bo","speaker":"Tom"', "evidence.speaker"),
        ("header", '"version":1', '"version":1,"version":1', "version"),
        ("turn", '"metadata":{}', '"metadata":{"team":"a","team":"b"}', "evidence.metadata.team"),
    ],
    ids=["a turn's speaker", "the header", "metadata"],
)  # fmt: skip
def test_a_line_naming_a_key_twice_is_refused_and_nothing_written(
    lines: list[str], tmp_path: Path, kind: str, old: str, new: str, path: str
) -> None:
    edited, number = _edited(lines, kind, old, new)
    target = open_memory(tmp_path / "copy")
    try:
        with pytest.raises(InvalidInputError) as refused:
            target.import_space(SPACE, edited)
        assert [p.field for p in refused.value.problems] == [f"line.{number}"]
        assert str(refused.value) == f"line.{number}: {path}: given more than once in its JSON object; give each key once"
        assert target.stats(SPACE)["evidence"] == 0
    finally:
        target.close()


def test_an_export_naming_each_key_once_is_imported(lines: list[str], tmp_path: Path) -> None:
    target = open_memory(tmp_path / "copy")
    try:
        report = target.import_space(SPACE, lines)
        assert report.counts["turn"] == 2 and target.stats(SPACE)["evidence"] == 2
    finally:
        target.close()
