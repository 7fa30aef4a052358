"""An export that starts with a UTF-8 byte order mark is imported without it (s51 fuzzing).

An export saved again by a Windows editor starts with the mark (EF BB BF). ``eywa ingest``
skips it (README, commands table), but an import refused the same bytes on every surface:
``POST …/import``, ``Memory.import_space`` with the file's lines and ``eywa import`` all
answered ``line.1: Invalid JSON: expected value at line 1 column 1`` — a header that is
there, named as missing. The mark is skipped before the header is read; a bad line after it
is still named by its number.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa import InvalidInputError, Memory
from eywa.cli import app
from tests.reliability.support import HashEmbedder
from tests.services.conftest import Service

BOM = "\ufeff"
TURNS = [
    {"text": "I moved to Tromsø in March 2023.", "speaker": "Nadia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I work at Initech now.", "speaker": "Nadia", "observed_at": "2023-05-02T10:00:00Z"},
]


def test_http_import_of_an_export_with_a_byte_order_mark_reads_its_header(service: Service) -> None:
    space = "bom-port"
    writer = service.headers([space], "read,write,admin")
    assert service.client.post(f"/v1/spaces/{space}/turns", json={"turns": TURNS}, headers=writer).status_code == 201
    exported = service.client.get(f"/v1/spaces/{space}/export", headers=writer)
    marked = BOM.encode("utf-8") + exported.content
    # The space holds just this export: the import is a retry, answered as done (not a 422).
    retried = service.client.post(f"/v1/spaces/{space}/import", content=marked, headers=writer)
    assert retried.status_code == 200, retried.text
    assert retried.json()["already_imported"] is True and retried.json()["counts"]["turn"] == 2
    broken = BOM.encode("utf-8") + exported.content.replace(b'"kind":"turn"', b'"kind":"tern"', 1)
    refused = service.client.post(f"/v1/spaces/{space}/import", content=broken, headers=writer)
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"].startswith("body.line.")
    assert refused.json()["errors"][0]["field"] != "body.line.1", refused.text  # the header was read


def test_memory_imports_the_lines_of_a_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    space = "bom-lines"
    with Memory.open(tmp_path / "a", embedder=HashEmbedder(), extractor=None) as source:
        source.remember(space, TURNS)
        text = "".join(f"{line}\n" for line in (rec.model_dump_json() for rec in source.export_space(space)))
    dump = tmp_path / "dump.jsonl"
    dump.write_text(BOM + text, encoding="utf-8")
    with Memory.open(tmp_path / "b", embedder=HashEmbedder(), extractor=None) as copy:
        with dump.open(encoding="utf-8") as lines:  # a file read as UTF-8 keeps the mark in line 1
            report = copy.import_space(space, lines)
        assert report.counts["turn"] == 2 and copy.stats(space)["evidence"] == 2
        with pytest.raises(InvalidInputError) as refused:  # read as JSON after the mark: its fields are missing
            copy.import_space("other", [BOM + "{}"])
        assert refused.value.problems[0].field == "line.1" and "Invalid JSON" not in str(refused.value), str(refused.value)


def test_cli_import_of_an_export_with_a_byte_order_mark(tmp_path: Path) -> None:
    runner = CliRunner()
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(t) for t in TURNS), encoding="utf-8")
    source, copy, dump = str(tmp_path / "a"), str(tmp_path / "b"), tmp_path / "cli.jsonl"
    assert runner.invoke(app, ["ingest", "--space", "cli-bom", str(turns), "--data-dir", source]).exit_code == 0
    assert runner.invoke(app, ["export", "--space", "cli-bom", "--out", str(dump), "--data-dir", source]).exit_code == 0
    dump.write_bytes(BOM.encode("utf-8") + dump.read_bytes())
    imported = runner.invoke(app, ["import", str(dump), "--space", "cli-bom", "--data-dir", copy])
    assert imported.exit_code == 0, imported.output
    stats = runner.invoke(app, ["stats", "--space", "cli-bom", "--data-dir", copy])
    assert stats.exit_code == 0 and "2" in stats.stdout
