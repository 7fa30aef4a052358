"""README CLI and Configuration promises no test walked (audit of s25).

- ``eywa demo``: "offline, always embedded, a temporary store unless ``--data-dir``" — the
  demo test passed ``--data-dir``; neither the temporary store nor "always embedded" (with
  ``EYWA_NEO4J_URI`` and ``EYWA_DATA_DIR`` set) was shown.
- ``eywa stats``: "counts of evidence, signals, entities, beliefs, candidates by reason,
  dimensions" — only the evidence count was checked.
- ``eywa export --out FILE``: "a file is written under a temporary name and renamed when
  complete" — an export cut short left no test looking at the file asked for.
- Configuration: "A value that does not validate stops any command or server with one line
  naming the variable" — shown for ``stats``, not for the servers (``serve``, ``mcp``,
  ``worker``, ``beat``).
- "Every command opens the memory the settings name ...: the embedded store of
  ``--data-dir`` / ``EYWA_DATA_DIR``" — every CLI test passed ``--data-dir``.
- "User mistakes print one line on stderr": an export into a folder that does not exist
  named the temporary file (``x.jsonl.partial``), not the file asked for.
- ``eywa candidates accept|dismiss`` and ``eywa corrections --target ID``: the shell test
  tried unknown candidate ids only, and listed every record.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner, Result

import eywa.cli.port_cmds as port_cmds
import services.api.app as api_app
import services.mcp.server as mcp_server
import workers.cli as workers_cli
from eywa import Memory
from eywa.cli import app
from eywa.portability import record_json
from eywa.embedding.minilm import MiniLMEmbedder
from tests.conformance.scripted import ScriptedExtractor
from tests.contract.conftest import HashEmbedder

SPACE = "home"
TURNS = [
    {"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:00:00"},
    {"text": "I don't like hiking at all.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:01:00"},
    {"text": "Bo moved to Lyon on 3 May 2023.", "speaker": "Cy", "session": "s2", "observed_at": "2023-06-01T09:00:00"},
]  # fmt: skip
FACTS: dict[str, list[dict[str, Any]]] = {
    "work at Google": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer", "value": "Google"}],
    # Contradicts its turn's negation: refused (polarity flip), kept as a candidate with its reason.
    "like hiking": [{"statement": "Ana likes hiking.", "subject": "Ana", "attribute": "hobby", "value": "hiking"}],
}  # fmt: skip
REPAIRS: dict[str, list[dict[str, Any]]] = {  # two turns' negations contradicted: two repair candidates
    "like hiking": FACTS["like hiking"],
    "play chess": [{"statement": "Ana plays chess.", "subject": "Ana", "attribute": "hobby", "value": "chess"}],
}


def _one_line(result: Result) -> str:
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_demo_is_always_embedded_and_keeps_no_store_without_data_dir(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where a temporary store would go
    monkeypatch.setenv("EYWA_NEO4J_URI", "bolt://127.0.0.1:9")  # nothing listens: a server-mode demo would fail
    monkeypatch.setenv("EYWA_DATA_DIR", str(tmp_path / "configured"))
    monkeypatch.chdir(tmp_path)

    result = runner.invoke(app, ["demo", "-k", "3"])

    assert result.exit_code == 0, result.output
    assert "ingested 56 turns" in result.stdout and "Where does Priya work now?" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tmp"]  # neither EYWA_DATA_DIR nor ./.eywa
    assert list(scratch.iterdir()) == []  # the temporary store is gone


def _stats_rows(stdout: str) -> dict[str, int]:
    rows = (re.split(r"\s*│\s*", line.strip("│ ")) for line in stdout.splitlines() if line.count("│") == 3)
    return {name: int(value) for name, value in rows if value.isdigit()}


def test_stats_counts_what_the_memory_holds(runner: CliRunner, tmp_path: Path) -> None:
    data = tmp_path / "mem"
    with Memory.open(data, embedder=HashEmbedder(), extractor=ScriptedExtractor(FACTS)) as mem:
        ids = mem.remember(SPACE, TURNS, wait=True)
        signals = sum(len(mem.evidence(SPACE, i).signals) for i in ids)
        by_status = Counter(f"belief_{b.status}" for b in mem.beliefs(SPACE, status=None))
        by_status.update(f"candidate_{c.status}" for c in mem.candidates(SPACE, status=None))
        reasons = Counter(str(r) for c in mem.candidates(SPACE, status=None) for r in c.reasons)
        entities = sum(r.kind == "entity" for r in mem.export_space(SPACE))
        dimensions = len(mem.dimensions(SPACE))
    assert signals and len(by_status) == 2 and reasons and entities and dimensions  # something to count in each

    result = runner.invoke(app, ["stats", "--space", SPACE, "--data-dir", str(data)])

    assert result.exit_code == 0, result.output
    rows = _stats_rows(result.stdout)
    assert rows["evidence"] == len(TURNS)
    assert sum(n for name, n in rows.items() if name.startswith("signals")) == signals
    assert rows["entities"] == entities
    assert {name.split(".", 1)[1]: n for name, n in rows.items() if name.startswith("beliefs.") and n} == by_status
    assert {name.split(".", 1)[1]: n for name, n in rows.items() if name.startswith("candidates_by_reason.")} == reasons
    assert rows["dimensions"] == dimensions


def test_an_export_cut_short_leaves_the_file_asked_for_as_it_was(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, turns = tmp_path / "mem", tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(t) for t in TURNS), encoding="utf-8")
    assert runner.invoke(app, ["ingest", "--space", SPACE, str(turns), "--data-dir", str(data)]).exit_code == 0
    out = tmp_path / "home.jsonl"
    out.write_text("yesterday's export\n", encoding="utf-8")
    written: list[str] = []

    def failing_after_two(record: Any) -> str:
        if len(written) == 2:
            raise OSError(28, "No space left on device")
        written.append(record_json(record))
        return written[-1]

    monkeypatch.setattr(port_cmds, "record_json", failing_after_two)
    result = runner.invoke(app, ["export", "--space", SPACE, "--out", str(out), "--data-dir", str(data)])

    assert result.exit_code != 0 and len(written) == 2
    # One line naming the file as given (README, CLI): the write's OSError named none.
    assert result.stderr.strip().splitlines() == [f"error: No space left on device: {out} [invalid_input]"], result.stderr
    assert out.read_text(encoding="utf-8") == "yesterday's export\n"  # not a truncated export
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home.jsonl", "mem", "turns.jsonl"]  # no temporary file
    monkeypatch.undo()
    whole = runner.invoke(app, ["export", "--space", SPACE, "--out", str(out), "--data-dir", str(data)])
    assert whole.exit_code == 0, whole.output
    assert sum(json.loads(line)["kind"] == "turn" for line in out.read_text(encoding="utf-8").splitlines()) == 3


def test_an_export_that_cannot_create_its_file_names_the_file_asked_for(runner: CliRunner, tmp_path: Path) -> None:
    data, turns = tmp_path / "mem", tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(TURNS[0]), encoding="utf-8")
    assert runner.invoke(app, ["ingest", "--space", SPACE, str(turns), "--data-dir", str(data)]).exit_code == 0
    asked = tmp_path / "missing" / "home.jsonl"

    result = runner.invoke(app, ["export", "--space", SPACE, "--out", str(asked), "--data-dir", str(data)])

    assert _one_line(result) == f"error: No such file or directory: {asked} [invalid_input]"
    assert not (tmp_path / "missing").exists()


class _Celery:
    """Stands for the Celery app: records which command reached it instead of starting."""

    def __init__(self, started: list[str]) -> None:
        self.started = started

    def worker_main(self, argv: list[str]) -> None:
        self.started.append("worker")

    def start(self, argv: list[str]) -> None:
        self.started.append("beat")


@pytest.mark.parametrize(
    ("command", "server"),
    [
        (["serve"], "uvicorn"), (["mcp"], "mcp"), (["mcp", "--transport", "http"], "mcp"),
        (["worker", "--metrics-port", "0"], "worker"), (["beat"], "beat"),
    ],
)  # fmt: skip
def test_a_bad_setting_stops_a_server_in_one_line_before_it_serves(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], server: str
) -> None:
    started: list[str] = []
    monkeypatch.setattr(api_app, "build_app", lambda settings: object())  # it would open the memory
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append("uvicorn"))
    monkeypatch.setattr(mcp_server, "run", lambda *a, **k: started.append("mcp"))
    monkeypatch.setattr(workers_cli, "_celery_app", lambda name: _Celery(started))
    monkeypatch.setenv("EYWA_DATA_DIR", str(tmp_path / "mem"))
    monkeypatch.chdir(tmp_path)  # beat's schedule file
    monkeypatch.setenv("EYWA_DISABLED_STAGES", '["grpah"]')

    result = runner.invoke(app, command)

    assert _one_line(result).startswith("error: EYWA_DISABLED_STAGES: Input should be 'keyword'")
    assert started == [] and not (tmp_path / "mem").exists()
    monkeypatch.delenv("EYWA_DISABLED_STAGES")
    assert runner.invoke(app, command).exit_code == 0
    assert started == [server]  # the same command with a good setting reaches the server


def test_the_data_dir_comes_from_eywa_data_dir_and_the_option_overrides_it(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(TURNS[0]), encoding="utf-8")
    configured, other = tmp_path / "configured", tmp_path / "other"
    monkeypatch.setenv("EYWA_DATA_DIR", str(configured))
    monkeypatch.chdir(tmp_path)

    assert runner.invoke(app, ["ingest", "--space", SPACE, str(turns)]).exit_code == 0
    assert (configured / "eywa.sqlite3").is_file()
    assert _stats_rows(runner.invoke(app, ["stats", "--space", SPACE]).stdout)["evidence"] == 1
    found = runner.invoke(app, ["recall", "--space", SPACE, "Where does Ana work?", "--json"])
    assert found.exit_code == 0 and TURNS[0]["text"] in found.stdout, found.output

    assert runner.invoke(app, ["ingest", "--space", "elsewhere", str(turns), "--data-dir", str(other)]).exit_code == 0
    assert (other / "eywa.sqlite3").is_file()
    unknown = runner.invoke(app, ["stats", "--space", "elsewhere"])  # the setting again: not in that memory
    assert unknown.exit_code == 0 and "note: space 'elsewhere' holds no turns" in unknown.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["configured", "other", "turns.jsonl"]  # no ./.eywa


def test_candidates_are_accepted_and_dismissed_and_corrections_read_by_target(
    runner: CliRunner, tmp_path: Path
) -> None:
    data = tmp_path / "mem"
    said = [
        {"text": "I don't like hiking at all.", "speaker": "Ana", "session": "s1"},
        {"text": "I never play chess, honestly.", "speaker": "Ana", "session": "s1"},
    ]
    # The CLI opens the memory with MiniLM, so the vector shard is made with it.
    with Memory.open(data, embedder=MiniLMEmbedder(threads=1), extractor=ScriptedExtractor(REPAIRS)) as mem:
        mem.remember(SPACE, said, wait=True)
        ids = {c.fact.value: c.id for c in mem.candidates(SPACE, "repair")}
    assert set(ids) == {"hiking", "chess"}
    where = ["--space", SPACE, "--data-dir", str(data)]
    wide = {"COLUMNS": "250"}

    listed = runner.invoke(app, ["candidates", "list", *where], env=wide)
    assert listed.exit_code == 0 and {ids["hiking"], ids["chess"]} <= set(re.findall(r"cand_[0-9a-f]+", listed.stdout))
    assert "polarity_flip" in listed.stdout
    accepted = runner.invoke(app, ["candidates", "accept", ids["hiking"], "--reason", "the repair is right", *where])
    assert accepted.exit_code == 0, accepted.output
    dismissed = runner.invoke(app, ["candidates", "dismiss", ids["chess"], "--reason", "not worth it", *where])
    assert dismissed.exit_code == 0, dismissed.output

    assert re.findall(r"cand_[0-9a-f]+", runner.invoke(app, ["candidates", "list", *where], env=wide).stdout) == []
    rejected = runner.invoke(app, ["candidates", "list", "--status", "rejected", *where], env=wide).stdout
    assert re.findall(r"cand_[0-9a-f]+", rejected) == [ids["chess"]]  # kept for audit
    beliefs = runner.invoke(app, ["beliefs", "list", *where], env=wide).stdout
    assert "hiking" in beliefs and len(re.findall(r"bel_[0-9a-f]+", beliefs)) == 1
    one = runner.invoke(app, ["corrections", "--target", ids["chess"], *where], env=wide)
    assert one.exit_code == 0 and "dismiss_candidate" in one.stdout and "not worth it" in one.stdout
    assert "accept_candidate" not in one.stdout and "the repair is right" not in one.stdout
    both = runner.invoke(app, ["corrections", *where], env=wide).stdout
    assert "accept_candidate" in both and "dismiss_candidate" in both
