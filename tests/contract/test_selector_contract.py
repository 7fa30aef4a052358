"""The input contract on erasure, job, proof, listing and author arguments (s16).

README, "The input contract": "a lone surrogate (``"\\ud800"``) in any string — text, speaker,
session, external id, … — is refused", labels over ``EYWA_MAX_LABEL_CHARS`` are
``limit_exceeded``, and "Nothing raised to a caller comes from below"; docs/service.md:
"Nothing a client sends gets a 5xx". ``forget``'s selectors, ``job``, ``erasure_proof``,
``record_job``, the belief and candidate ``status`` and every ``author`` reached the stores
unchecked: a lone surrogate raised ``UnicodeEncodeError`` from SQLite (HTTP ``POST …/erase``
answered 500), a 600-character session was accepted, an unknown status answered an empty
list. Each is now refused with ``InvalidInputError`` naming the field, and nothing is erased.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
import time_machine
from typer.testing import CliRunner

from eywa.cli import app as cli
from eywa.errors import InvalidInputError
from eywa.memory import Memory
from tests.contract.conftest import open_memory

LONE = "\ud800"
SPACE = "selectors"


@pytest.fixture(scope="module")
def stored(memory: Memory) -> Memory:
    memory.remember(SPACE, [{"text": "I work at Acme.", "speaker": "Ana", "session": "s1", "external_id": "m-1"}])
    return memory


CALLS: list[tuple[str, Callable[[Memory], Any], str, str]] = [
    ("forget speaker", lambda m: m.forget(SPACE, speaker=LONE), "speaker", "invalid_input"),
    ("forget session", lambda m: m.forget(SPACE, session=f"s{LONE}"), "session", "invalid_input"),
    ("forget evidence id", lambda m: m.forget(SPACE, evidence_ids=[LONE]), "evidence_ids.0", "invalid_input"),
    ("forget external id", lambda m: m.forget(SPACE, external_ids=["m-1", LONE]), "external_ids.1", "invalid_input"),
    ("forget long session", lambda m: m.forget(SPACE, session="s" * 501), "session", "limit_exceeded"),
    ("forget blank speaker", lambda m: m.forget(SPACE, speaker=" "), "speaker", "invalid_input"),
    ("forget bare id", lambda m: m.forget(SPACE, evidence_ids="ev_1"), "evidence_ids", "invalid_input"),
    ("forget author", lambda m: m.forget(SPACE, speaker="Ana", author=LONE), "author", "invalid_input"),
    ("drop author", lambda m: m.drop_space(SPACE, author=LONE), "author", "invalid_input"),
    ("remember author", lambda m: m.remember(SPACE, [{"text": "hi"}], author=LONE), "author", "invalid_input"),
    ("job", lambda m: m.job(LONE), "job_id", "invalid_input"),
    ("job request id", lambda m: m.remember_job(SPACE, [{"text": "hi"}], request_id=LONE), "request_id", "invalid_input"),
    ("record job", lambda m: m.record_job(SPACE, [LONE]), "evidence_ids.0", "invalid_input"),
    ("proof", lambda m: m.erasure_proof(SPACE, LONE), "erasure_id", "invalid_input"),
    ("belief status", lambda m: m.beliefs(SPACE, status=LONE), "status", "invalid_input"),  # type: ignore[arg-type]  # refused
    ("unknown belief status", lambda m: m.beliefs(SPACE, status="bogus"), "status", "invalid_input"),  # type: ignore[arg-type]  # refused
    ("candidate status", lambda m: m.candidates(SPACE, status="bogus"), "status", "invalid_input"),  # type: ignore[arg-type]  # refused
    ("retract author", lambda m: m.retract_belief(SPACE, "b_x", reason="r", author=LONE), "author", "invalid_input"),
    ("merge author", lambda m: m.accept_merge(SPACE, "Ana", "Acme", author=LONE), "author", "invalid_input"),
    ("proposal names", lambda m: m.propose_merges(SPACE, [LONE]), "entities.0", "invalid_input"),
]


@pytest.mark.parametrize(("call", "field", "code"), [c[1:] for c in CALLS], ids=[c[0] for c in CALLS])
def test_a_malformed_argument_is_an_input_error_naming_it(
    stored: Memory, call: Callable[[Memory], Any], field: str, code: str
) -> None:
    with pytest.raises(InvalidInputError) as info:
        call(stored)
    assert info.value.code == code and [p.field for p in info.value.problems] == [field], info.value
    assert stored.stats(SPACE)["evidence"] == 1 and stored.erasures(SPACE) == []


def test_the_cli_refuses_an_undecodable_speaker_in_one_line(tmp_path: Any) -> None:
    """A speaker argument that is not UTF-8 reaches Python as a lone surrogate
    (surrogateescape); ``eywa forget`` answers with the contract's one line."""
    turns = tmp_path / "turns.jsonl"
    turns.write_text('{"text": "I work at Acme.", "speaker": "Ana"}\n')
    data = ["--data-dir", str(tmp_path / "m")]
    assert CliRunner().invoke(cli, ["ingest", "--space", "s", str(turns), *data]).exit_code == 0
    result = CliRunner().invoke(cli, ["forget", "--space", "s", "--speaker", "\udcff", "--yes", *data])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), repr(result.exception)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: speaker:") and line.endswith("[invalid_input]"), line


@pytest.mark.parametrize("days", [1e7, 1e13])
def test_a_retention_period_beyond_the_calendar_keeps_everything(tmp_path: Any, days: float) -> None:
    """``EYWA_RETENTION_DAYS`` validates any positive number; one reaching back before year 1
    raised ``OverflowError`` from ``timedelta`` in ``apply_retention`` (the beat's task)."""
    with open_memory(tmp_path / "m", retention_days={"*": days, "short": 30.0}) as mem:
        mem.remember(SPACE, [{"text": "kept for ages"}])
        assert mem.apply_retention() == [] and mem.apply_retention({SPACE: days}) == []
        assert mem.stats(SPACE)["evidence"] == 1 and mem.erasures(SPACE) == []


def test_the_star_period_applies_to_every_space_without_its_own(tmp_path: Any) -> None:
    """README, Retention: ``EYWA_RETENTION_DAYS='{"alice": 30, "*": 365}'`` (``"*"``: every
    space without its own). The conformance test gave one space a period and left the other
    without any; the wildcard's reach was not shown."""
    today = datetime.now(timezone.utc)
    with open_memory(tmp_path / "m", retention_days={"own": 400.0, "*": 30.0}) as mem:
        mem.remember("own", [{"text": "I keep my own period."}])
        mem.remember("other", [{"text": "I fall under the wildcard."}])
        with time_machine.travel(today + timedelta(days=31), tick=False):
            (report,) = mem.apply_retention()
        assert report.space == "other" and report.counts["turns"] == 1
        assert mem.stats("own")["evidence"] == 1 and mem.stats("other")["evidence"] == 0
