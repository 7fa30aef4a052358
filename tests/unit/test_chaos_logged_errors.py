"""A chaos run that saw a 500 reports the API's logged traceback with it (the scratch
directory holding the log is gone once the run returns)."""

from __future__ import annotations

from pathlib import Path

from eywa.bench.chaos import logged_errors

LOG = """INFO:     Application startup complete.
Transaction failed and will be retried in 0.8s (Couldn't connect to 127.0.0.1:7771)
unexpected error on POST /v1/spaces/chaos-w00/turns
Traceback (most recent call last):
  File "eywa/stores/neo4j/graph.py", line 62, in run
    return tx.run(query, params).data()
OSError: the first failure

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "services/api/routes_write.py", line 40, in turns
    raise BufferError("Existing exports of data")
BufferError: Existing exports of data
Transaction failed and will be retried in 1.1s (Couldn't connect to 127.0.0.1:7771)
INFO:     Shutting down
"""


def test_the_logged_traceback_is_returned_whole_and_the_next_record_is_not(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    log.write_text(LOG)
    (found,) = logged_errors(log, lines=40)
    assert found.splitlines()[0] == "unexpected error on POST /v1/spaces/chaos-w00/turns"
    assert found.splitlines()[-1] == "BufferError: Existing exports of data"
    assert "OSError: the first failure" in found and "Transaction failed" not in found
    (short,) = logged_errors(log, lines=2)
    assert short.splitlines() == [
        "unexpected error on POST /v1/spaces/chaos-w00/turns",
        '    raise BufferError("Existing exports of data")',
        "BufferError: Existing exports of data",
    ]


def test_a_missing_log_or_one_without_errors_gives_nothing(tmp_path: Path) -> None:
    assert logged_errors(tmp_path / "absent.log") == []
    quiet = tmp_path / "serve.log"
    quiet.write_text("INFO:     Application startup complete.\n")
    assert logged_errors(quiet) == []
