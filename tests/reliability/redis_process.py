"""A Redis server of a test's own, to kill and restart (with or without persistence).

The session Redis (``tests.redis_server``) is shared by many tests and never restarted; a
test about broker loss starts its own ``redis-server`` on a free loopback port, with its data
in the test's folder: ``persistent`` turns on the append-only file with an fsync per write
(a SIGKILL loses nothing acknowledged), otherwise nothing is kept (``--save '' --appendonly
no``), as many deployments run it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

__all__ = ["RedisProcess"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class RedisProcess:
    """One ``redis-server``: ``start``, ``kill`` (SIGKILL), ``restart`` on the same port,
    ``paused`` (SIGSTOP until the block ends: a hung server)."""

    def __init__(self, directory: Path, *, persistent: bool) -> None:
        binary = shutil.which("redis-server") or next(
            (c for c in ("/usr/bin/redis-server", "/usr/local/bin/redis-server") if Path(c).is_file()), None
        )
        if binary is None:
            pytest.skip("redis-server is not installed")
        self._binary = binary
        self._directory = directory
        self._directory.mkdir(parents=True, exist_ok=True)
        self._persistent = persistent
        self.port = _free_port()
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        persistence = ["--appendonly", "yes", "--appendfsync", "always"] if self._persistent else ["--appendonly", "no"]
        with (self._directory / "redis.log").open("ab") as log:
            self._proc = subprocess.Popen(
                [self._binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self._directory),
                 "--save", "", *persistence],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    if client.ping():
                        return self
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        pytest.fail("redis-server did not answer PING")
                    time.sleep(0.05)
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: no shutdown save, no goodbye to clients."""
        if self._proc is not None and self._proc.poll() is None:
            os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait(timeout=10)
        self._proc = None

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The server stopped (SIGSTOP) for the block: connections stay open, nothing answers."""
        assert self._proc is not None, "start it first"
        os.kill(self._proc.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(self._proc.pid, signal.SIGCONT)

    def restart(self) -> None:
        self.kill()
        self.start()

    def close(self) -> None:
        self.kill()
