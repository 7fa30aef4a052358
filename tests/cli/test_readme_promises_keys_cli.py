"""docs/service.md, the ``eywa keys`` rows: "``--expires`` takes a duration from now (``90s``,
``15m``, ``12h``, ``30d``, ``2w``) or an ISO-8601 time"; ``rotate --grace`` "at most 30 days";
``keys log --since 1h|ISO``. Only ``30d``, ``0s`` and a bad word were tested (s16 audit)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.stores.embedded.keys import SqliteKeyStore

UNITS = [("90s", timedelta(seconds=90)), ("15m", timedelta(minutes=15)), ("12h", timedelta(hours=12)),
         ("30d", timedelta(days=30)), ("2w", timedelta(weeks=2))]  # fmt: skip


def _expiry(tmp_path: Path, expires: str) -> datetime:
    created = CliRunner().invoke(app, ["keys", "create", "--space", "a", "--expires", expires, "--data-dir", str(tmp_path)])
    assert created.exit_code == 0, created.output
    store = SqliteKeyStore(tmp_path / "keys.sqlite")
    try:
        record = store.authenticate(created.stdout.strip())
    finally:
        store.close()
    assert record is not None and record.expires_at is not None
    return record.expires_at


@pytest.mark.parametrize(("text", "delta"), UNITS)
def test_expires_takes_each_documented_unit(tmp_path: Path, text: str, delta: timedelta) -> None:
    before = datetime.now(timezone.utc)
    expiry = _expiry(tmp_path, text)
    assert before + delta <= expiry <= datetime.now(timezone.utc) + delta


def test_expires_takes_an_iso_time(tmp_path: Path) -> None:
    assert _expiry(tmp_path, "2031-05-06T07:08:09+02:00") == datetime(2031, 5, 6, 5, 8, 9, tzinfo=timezone.utc)


def test_grace_is_at_most_thirty_days(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path)]
    runner = CliRunner()
    assert runner.invoke(app, ["keys", "create", "--space", "a", *data]).exit_code == 0
    store = SqliteKeyStore(tmp_path / "keys.sqlite")
    (record,) = store.list()
    store.close()
    over = runner.invoke(app, ["keys", "rotate", record.id, "--grace", "31d", *data])
    assert over.exit_code == 1 and isinstance(over.exception, SystemExit), repr(over.exception)
    assert "30 days" in over.stderr and over.stderr.strip().endswith("]"), over.stderr
    within = runner.invoke(app, ["keys", "rotate", record.id, "--grace", "30d", *data])
    assert within.exit_code == 0, within.output


def test_keys_log_since_takes_a_duration_or_an_iso_time(tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text('{"text": "hello", "speaker": "Ana"}\n')
    data = ["--data-dir", str(tmp_path / "m")]
    assert CliRunner().invoke(app, ["ingest", "--space", "a", str(turns), *data]).exit_code == 0
    for since in ("1h", "2000-01-01T00:00:00Z"):
        result = CliRunner().invoke(app, ["keys", "log", "--since", since, *data])
        assert result.exit_code == 0, (since, result.output)
    bad = CliRunner().invoke(app, ["keys", "log", "--since", "soon", *data])
    assert bad.exit_code == 1 and bad.stderr.strip().endswith("[invalid_input]"), bad.stderr
