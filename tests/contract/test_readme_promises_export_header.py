"""README, Portability: "The header is ``{"kind": "header", "format": "eywa-export",
"version": 1, "space", "exported_at", "embedder", "rules_version"}``", and "a JSONL file is
``"\\n".join(record_json(r) for r in mem.export_space(s))``".

A tool that reads or checks exports relies on the header's fields; tests built headers by
hand (to refuse them) or compared exports with their header left out, and none read the
header a memory writes (audit of s32).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from eywa import Memory
from eywa.portability import record_json

from .conftest import HashEmbedder, open_memory

TURNS = [
    {"text": "I work at Acme as a data engineer.", "speaker": "Ana", "observed_at": "2024-03-02T10:15:00Z"},
    {"text": "I live in Porto.", "speaker": "Ana", "observed_at": "2024-03-02T10:16:00Z"},
]


def test_the_header_says_what_the_file_is_which_space_and_what_made_it(memory: Memory) -> None:
    memory.remember("header", TURNS)
    before = datetime.now(timezone.utc)
    lines = [record_json(record) for record in memory.export_space("header")]
    header = json.loads(lines[0])

    assert list(header) == ["kind", "format", "version", "space", "exported_at", "embedder", "rules_version"]
    assert (header["kind"], header["format"], header["version"], header["space"]) == (
        "header", "eywa-export", 1, "header")  # fmt: skip
    exported_at = datetime.fromisoformat(header["exported_at"].replace("Z", "+00:00"))
    assert exported_at.utcoffset() == timedelta(0) and before - timedelta(seconds=1) <= exported_at
    assert exported_at <= datetime.now(timezone.utc)
    assert HashEmbedder.model_id in header["embedder"]  # the exporting memory's embedder
    assert str(header["rules_version"]).startswith("rules@")  # the default extractor, name@version
    assert all(json.loads(line)["kind"] != "header" for line in lines[1:])  # the header first, and once


def test_the_lines_joined_are_a_file_an_import_restores(memory: Memory, tmp_path: Path) -> None:
    memory.remember("joined", TURNS)
    exported = "\n".join(record_json(r) for r in memory.export_space("joined"))
    path = tmp_path / "joined.jsonl"
    path.write_text(exported, encoding="utf-8")
    with open_memory(tmp_path / "copy") as copy, path.open(encoding="utf-8") as lines:
        report = copy.import_space("joined", lines)
        assert report.counts["turn"] == 2
        again = "\n".join(record_json(r) for r in copy.export_space("joined"))
    assert [json.loads(line) for line in again.splitlines()[1:]] == [json.loads(line) for line in exported.splitlines()[1:]]
