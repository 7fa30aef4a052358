"""The Neo4j launcher (``ops/neo4j/neo4j-test-server``) as the reliability tests call it:
``start`` a server in a run folder of its own, ``kill`` it (SIGKILL, data kept), ``resume`` it
on the same data and port, ``stop`` it. Its Bolt keep-alive is 2 s, so a driver gives up on a
query in flight on a hung server after 4 s (``test_neo4j_pause``)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

__all__ = ["free_port", "launcher"]

LAUNCHER = Path(__file__).resolve().parents[2] / "ops" / "neo4j" / "neo4j-test-server"


def launcher(run_dir: Path, command: str, *options: str) -> str:
    """Run ``neo4j-test-server --run-dir run_dir command`` (a small heap, a 2 s Bolt
    keep-alive); returns its output."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_NEO4J_TEST_")}
    environment.update(EYWA_NEO4J_TEST_HEAP="512m", EYWA_NEO4J_TEST_PAGECACHE="64m", EYWA_NEO4J_TEST_KEEP_ALIVE="2s")
    done = subprocess.run([sys.executable, str(LAUNCHER), "--run-dir", str(run_dir), *options, command], env=environment,
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def free_port() -> int:
    """An ephemeral loopback port nothing listens on: not 7687, which another checkout's
    server may take while this one is down between ``kill`` and ``resume``."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
