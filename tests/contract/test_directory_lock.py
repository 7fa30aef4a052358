"""One writer per embedded directory, told clearly; read-only commands beside the writer.

A real ``eywa serve`` process holds the directory. A second writer — another process's
``Memory.open``, ``eywa ingest``, ``eywa recall`` — gets ``DirectoryInUseError`` naming the
server's pid and what to do, instead of Qdrant Edge's ``Can't init WAL: Kind(WouldBlock)``;
``eywa stats``, ``eywa audit`` and ``eywa keys log`` read the SQLite file alone and answer.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from eywa.cli import app as cli
from eywa.errors import DirectoryInUseError
from eywa.stores.embedded.keys import SqliteKeyStore
from tests.contract.conftest import open_memory
from tests.services.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
TURN = {"text": "I moved to Lyon in May.", "speaker": "Ana", "observed_at": "2024-06-01T10:00:00Z"}


@dataclass(frozen=True)
class Server:
    directory: Path
    pid: int
    url: str
    key: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("locked") / "memory"
    keys = SqliteKeyStore(directory / "keys.sqlite")
    key = keys.create(["*"], ["read", "write"])[1]
    keys.close()
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    log = directory.parent / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "eywa.cli", "serve", "--data-dir", str(directory), "--port", str(port)],
            cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"eywa serve did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        written = httpx.post(f"{url}/v1/spaces/home/turns", json={"turns": [TURN]},
                             headers={"Authorization": f"Bearer {key}"}, timeout=60)  # fmt: skip
        assert written.status_code == 201, written.text
        yield Server(directory, proc.pid, url, key)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


def _error_line(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    return line


def test_a_second_writer_is_told_who_holds_the_directory_and_what_to_do(server: Server) -> None:
    with pytest.raises(DirectoryInUseError) as info:
        open_memory(server.directory)
    assert info.value.pid == server.pid and info.value.code == "directory_in_use"
    message = str(info.value)
    assert f"in use by process {server.pid}" in message
    assert "eywa serve" in message and "EYWA_NEO4J_URI" in message
    assert "WouldBlock" not in message
    turns = server.directory.parent / "turns.jsonl"
    turns.write_text(json.dumps(TURN), encoding="utf-8")
    ingest = _error_line(["ingest", str(turns), "--space", "home", "--data-dir", str(server.directory)])
    assert f"in use by process {server.pid}" in ingest and ingest.endswith("[directory_in_use]")
    recall = _error_line(["recall", "Where does Ana live?", "--space", "home", "--data-dir", str(server.directory)])
    assert f"in use by process {server.pid}" in recall


def test_read_only_commands_work_beside_the_writer(server: Server) -> None:
    data = ["--data-dir", str(server.directory)]
    stats = CliRunner().invoke(cli, ["stats", "--space", "home", *data])
    assert stats.exit_code == 0, stats.output
    assert re.search(r"│ evidence\s+│\s+1 │", stats.stdout), stats.stdout
    audit = CliRunner().invoke(cli, ["audit", "touched_between", "-p", "space=home", "-p", "from=2000-01-01",
                                     "-p", "to=2999-01-01", *data])  # fmt: skip
    assert audit.exit_code == 0 and "Lyon" in audit.stdout
    httpx.get(f"{server.url}/v1/spaces/home/beliefs", headers={"Authorization": f"Bearer {server.key}"})
    time.sleep(2.0)  # the access log is written within a second of the call
    log = CliRunner().invoke(cli, ["keys", "log", "--space", "home", *data])
    assert log.exit_code == 0 and "GET /v1/spaces/{space}/beliefs" in log.stdout and "status=200" in log.stdout


def test_the_lock_is_released_on_close_and_when_the_holder_dies(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    first = open_memory(directory)
    with pytest.raises(DirectoryInUseError) as info:
        open_memory(directory)
    assert info.value.pid == os.getpid()  # a second open in the same process is refused too
    first.close()
    open_memory(directory).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from tests.contract.conftest import open_memory; "
         "from pathlib import Path; held = open_memory(Path(sys.argv[1])); print('held', flush=True); time.sleep(600)",
         str(directory)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(DirectoryInUseError):
            open_memory(directory)
    finally:
        holder.kill()  # SIGKILL: no close, no cleanup; the kernel drops the lock
        holder.wait(timeout=30)
        if holder.stdout is not None:
            holder.stdout.close()
    open_memory(directory).close()


def test_backup_and_key_management_work_beside_the_writer(server: Server, tmp_path: Path) -> None:
    """README: ``eywa backup`` "reads the SQLite files alone, so it works beside a running
    ``eywa serve`` on the same directory"; ``eywa keys`` reads the SQLite database alone, and a
    key it creates there is one the running server accepts."""
    data = ["--data-dir", str(server.directory)]
    copy = tmp_path / "copy"
    backup = CliRunner().invoke(cli, ["backup", "--to", str(copy), *data])
    assert backup.exit_code == 0, backup.output
    stats = CliRunner().invoke(cli, ["stats", "--space", "home", "--data-dir", str(copy)])
    assert stats.exit_code == 0 and re.search(r"│ evidence\s+│\s+1 │", stats.stdout), stats.output
    created = CliRunner().invoke(cli, ["keys", "create", "--space", "home", "--scope", "read", *data])
    assert created.exit_code == 0, created.output
    secret = created.stdout.strip().splitlines()[-1].strip()
    assert secret.startswith("eyw_"), created.stdout
    answer = httpx.get(f"{server.url}/v1/spaces/home/stats", headers={"Authorization": f"Bearer {secret}"}, timeout=30)
    assert answer.status_code == 200 and answer.json()["evidence"] == 1, answer.text
    listed = CliRunner().invoke(cli, ["keys", "list", *data])
    assert listed.exit_code == 0 and secret.split("_")[1] in listed.stdout, listed.output
