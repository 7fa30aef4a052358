"""``eywa export`` and ``eywa import``: a space exported to a file and imported into another
memory exports the same records to stdout; a second import into the now non-empty space and
a file with a bad line are refused with one clear line, naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

from eywa.cli import app, port_cmds
from eywa.runtime.ingest import progress_bar
from eywa.stores.embedded.factory import open_embedded, open_embedded_graph


def test_export_import_round_trip_and_refusals(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(t) for t in (
        {"text": "I live in Lyon.", "speaker": "Ana", "session": "s1"},
        {"text": "I adopted a cat named Miso on 3 May 2023.", "speaker": "Ana", "session": "s1"},
        {"text": "Bo works at Fernbrook now.", "speaker": "Bo", "session": "s2"},
    )))  # fmt: skip
    source, copy, dump = str(tmp_path / "a"), str(tmp_path / "b"), tmp_path / "cli.jsonl"
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), "--data-dir", source]).exit_code == 0

    exported = runner.invoke(app, ["export", "--space", "cli", "--out", str(dump), "--data-dir", source])
    assert exported.exit_code == 0, exported.output
    assert "turn" in exported.stderr and "3" in exported.stderr
    lines = dump.read_text().splitlines()
    assert json.loads(lines[0])["kind"] == "header" and sum('"kind":"turn"' in line for line in lines) == 3

    imported = runner.invoke(app, ["import", str(dump), "--space", "cli", "--data-dir", copy])
    assert imported.exit_code == 0, imported.output
    assert "turn" in imported.stdout
    # The command returns once the restored turns and beliefs are embedded: read the ledger
    # without opening a memory, which would embed what was left.
    graph = open_embedded_graph(Path(copy))
    try:
        assert set(graph.ledger.backlog().values()) == {0}, graph.ledger.backlog()
    finally:
        graph.close()
    again = runner.invoke(app, ["export", "--space", "cli", "--data-dir", copy])
    assert again.exit_code == 0, again.output
    assert [json.loads(x) for x in again.stdout.splitlines()[1:]] == [json.loads(x) for x in lines[1:]]

    assert "reprocess" not in imported.stdout  # every turn's signals are this release's

    older = tmp_path / "older.jsonl"  # an export written before the signals version travelled
    older.write_text("\n".join(json.dumps({k: v for k, v in json.loads(x).items() if k != "signals_version"}) for x in lines))
    upgraded = runner.invoke(app, ["import", str(older), "--space", "cli", "--data-dir", str(tmp_path / "c")])
    assert upgraded.exit_code == 0, upgraded.output
    assert "3 turns hold signals an older release detected: `eywa reprocess --space cli`" in upgraded.stdout

    repeated = runner.invoke(app, ["import", str(dump), "--space", "cli", "--data-dir", copy])
    assert repeated.exit_code == 0 and "already holds just this export" in repeated.stdout, repeated.output
    later = tmp_path / "later.jsonl"
    later.write_text(json.dumps({"text": "I moved to Nantes.", "speaker": "Ana", "session": "s3"}))
    assert runner.invoke(app, ["ingest", "--space", "cli", str(later), "--data-dir", copy]).exit_code == 0
    refused = runner.invoke(app, ["import", str(dump), "--space", "cli", "--data-dir", copy])
    assert refused.exit_code == 1 and "not empty" in refused.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n{not json\n")
    broken = runner.invoke(app, ["import", str(bad), "--space", "cli", "--data-dir", copy])
    assert broken.exit_code == 1 and "line.2" in broken.stderr


def test_import_progress_reaches_the_turns_owed_a_vector(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"text": f"Note {n}: the heron came back.", "speaker": "Ana"}) for n in range(5)))
    source, dump = str(tmp_path / "a"), tmp_path / "cli.jsonl"
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), "--data-dir", source]).exit_code == 0
    assert runner.invoke(app, ["export", "--space", "cli", "--out", str(dump), "--data-dir", source]).exit_code == 0
    bars: list[Progress] = []

    def recorded(console: Console | None = None, *, transient: bool = False) -> Progress:
        bars.append(progress_bar(console, transient=transient))  # the real bar, kept to read afterwards
        return bars[-1]

    monkeypatch.setattr(port_cmds, "progress_bar", recorded)
    imported = runner.invoke(app, ["import", str(dump), "--space", "cli", "--data-dir", str(tmp_path / "b")])
    assert imported.exit_code == 0, imported.output
    (bar,) = bars
    (task,) = bar.tasks
    assert task.description == "embed" and task.total is not None and task.total >= 5
    assert task.completed == task.total and task.finished


def test_backup_copies_the_directory_and_refuses_a_used_destination_and_server_mode(
    runner: CliRunner, tmp_path: Path
) -> None:
    data, copy = tmp_path / "a", tmp_path / "copy"
    open_embedded(data, 8).close()  # an empty store: its database and vector shard
    done = runner.invoke(app, ["backup", "--to", str(copy), "--data-dir", str(data)])
    assert done.exit_code == 0, done.output
    assert "eywa.sqlite3" in done.stdout and (copy / "eywa.sqlite3").exists() and not (copy / "vectors").exists()
    used = runner.invoke(app, ["backup", "--to", str(copy), "--data-dir", str(data)])
    assert used.exit_code == 1 and "not an empty directory" in used.stderr
    server = runner.invoke(app, ["backup", "--to", str(tmp_path / "s")], env={"EYWA_NEO4J_URI": "bolt://127.0.0.1:1"})
    assert server.exit_code == 1 and "neo4j-admin" in server.stderr


def test_a_backup_destination_under_a_file_is_the_callers_mistake(runner: CliRunner, tmp_path: Path) -> None:
    """It was 'sqlite store failed during backup: … [Errno 20] Not a directory …
    [store_unavailable]', a fault of the store, for a path the caller mistyped (Memory.backup
    refuses it with invalid_input: contract.check_directory)."""
    data, blocker = tmp_path / "a", tmp_path / "afile"
    open_embedded(data, 8).close()
    blocker.write_text("x")
    refused = runner.invoke(app, ["backup", "--to", str(blocker / "copy"), "--data-dir", str(data)])
    assert refused.exit_code == 1 and f"{blocker} is a file, not a directory" in refused.stderr, refused.stderr
    assert refused.stderr.strip().endswith("[invalid_input]") and "store_unavailable" not in refused.stderr


def test_backup_of_a_directory_without_a_store_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    """It printed 'backed up … : ;' and made an empty copy, as though that were a memory."""
    (tmp_path / "a").mkdir()
    empty = runner.invoke(app, ["backup", "--to", str(tmp_path / "copy"), "--data-dir", str(tmp_path / "a")])
    assert empty.exit_code == 1 and "no embedded store there" in empty.stderr
    assert not (tmp_path / "copy").exists()


def test_import_refuses_a_file_that_is_not_utf8_by_its_line_and_a_missing_file_creates_nothing(
    runner: CliRunner, tmp_path: Path
) -> None:
    header = json.dumps({"kind": "header", "format": "eywa-export", "version": 1, "space": "cli",
                         "exported_at": "2024-01-01T00:00:00Z", "embedder": "e", "rules_version": "r"})  # fmt: skip
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(header.encode() + b'\n{"kind": "entity", "name": "caf\xe9"}\n')
    data = tmp_path / "mem"
    refused = runner.invoke(app, ["import", str(latin1), "--space", "cli", "--data-dir", str(data)])
    assert refused.exit_code == 1 and isinstance(refused.exception, SystemExit)  # no traceback
    assert "line.2: not UTF-8" in refused.stderr and "[invalid_input]" in refused.stderr
    piped = runner.invoke(app, ["import", "-", "--space", "cli", "--data-dir", str(data)], input=latin1.read_bytes())
    assert piped.exit_code == 1 and "line.2: not UTF-8" in piped.stderr

    missing = runner.invoke(
        app, ["import", str(tmp_path / "nope.jsonl"), "--space", "cli", "--data-dir", str(tmp_path / "m2")]
    )
    assert missing.exit_code == 1 and "No such file or directory" in missing.stderr
    assert not (tmp_path / "m2").exists()


def test_a_refused_import_leaves_nothing_that_was_not_there(runner: CliRunner, tmp_path: Path) -> None:
    """A bad line on stdin, or an export of another space, into a directory with no store: it
    left an empty store there (``eywa.sqlite3``, ``vectors/``, …), which the next command took
    for a memory. Now the directory (and the parents the import made) are gone, an existing
    directory keeps only what it held, and a directory that held a store keeps it."""
    other = json.dumps({"kind": "header", "format": "eywa-export", "version": 1, "space": "other",
                        "exported_at": "2024-01-01T00:00:00Z", "embedder": "e", "rules_version": "r"})  # fmt: skip
    nested = tmp_path / "new" / "mem"
    piped = runner.invoke(app, ["import", "-", "--space", "cli", "--data-dir", str(nested)], input="garbage\n")
    assert piped.exit_code == 1 and "line.1" in piped.stderr and "[invalid_input]" in piped.stderr
    assert not (tmp_path / "new").exists()

    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "notes.txt").write_text("mine")
    refused = runner.invoke(app, ["import", "-", "--space", "cli", "--data-dir", str(existing)], input=other + "\n")
    assert refused.exit_code == 1 and "other" in refused.stderr, refused.stderr
    assert sorted(p.name for p in existing.iterdir()) == ["notes.txt"]

    held = tmp_path / "held"
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Lyon.", "speaker": "Ana"}))
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), "--data-dir", str(held)]).exit_code == 0
    again = runner.invoke(app, ["import", "-", "--space", "cli", "--data-dir", str(held)], input="garbage\n")
    assert again.exit_code == 1
    assert runner.invoke(app, ["stats", "--space", "cli", "--data-dir", str(held)]).exit_code == 0
