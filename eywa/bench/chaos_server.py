"""The server deployment the chaos benchmark breaks: every process on loopback, and its faults.

``ServerDeployment`` starts what ``compose.yaml`` runs, as local processes of a scratch
folder: Redis without persistence (``ops/redis/redis-test-server``, so a restart loses every
queued message), Neo4j 5.26 (``ops/neo4j/neo4j-test-server``, or a server that launcher
already runs in a given run folder), ``eywa serve`` with the Celery job runner, ``eywa worker``
processes and ``eywa beat``. The launchers live in the checkout's ``ops/``, not in the
package: the server mode of ``eywa bench chaos`` runs from a checkout, like the test suite.

The faults are what operators see in production:

- ``kill_worker``: SIGKILL a worker's whole process group (its prefork children too, as
  when a container dies), then start a replacement; the message it held is redelivered
  after the visibility timeout, and the beat re-sends work whose marks went stale;
- ``restart_redis``: SIGKILL Redis and start it empty on the same port: queued messages and
  results are gone, the ledger in Neo4j still says what is owed;
- ``restart_neo4j``: SIGKILL Neo4j, keep it down past the API's statement retry
  (``ServerDeployment.neo4j_outage_s``), and start it again on the same data and port; writes
  in between are refused with 503 ``store_unavailable`` and the clients send them again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal

from eywa.bench.service import free_port, start_api, stop_api
from eywa.errors import ConfigurationError, StoreError
from eywa.settings import EywaSettings, as_environment

__all__ = ["Fault", "ServerDeployment", "launch", "launcher_path", "stop_group"]

Fault = Literal["worker", "redis", "neo4j"]
HOST = "127.0.0.1"
WORKERS = 2
OUTAGE_MARGIN_S = 1.5  # beyond the API's statement retry, so that it gives up while Neo4j is down
LAUNCH_TIMEOUT_S = 300.0  # also the API's start: it opens Neo4j cold and loads the embedder
STOP_TIMEOUT_S = 30.0
NEO4J_HEAP = "512m"  # a bench server of its own, beside the API and workers on one machine
NEO4J_PAGECACHE = "128m"


def launcher_path(name: Literal["neo4j", "redis"]) -> Path:
    """``ops/<name>/<name>-test-server`` of the checkout this package runs from.

    Raises:
        ConfigurationError: not running from a checkout (an installed wheel has no ``ops/``).
    """
    path = Path(__file__).resolve().parents[2] / "ops" / name / f"{name}-test-server"
    if not path.is_file():
        raise ConfigurationError(f"eywa bench chaos --backend server runs from a checkout: {path} is missing")
    return path


def launch(name: Literal["neo4j", "redis"], run_dir: Path, *args: str) -> str:
    """Run a launcher command; returns its output.

    Raises:
        StoreError: the launcher failed (its error output is in the message).
    """
    environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_NEO4J_TEST_")}
    environment.update(EYWA_NEO4J_TEST_HEAP=NEO4J_HEAP, EYWA_NEO4J_TEST_PAGECACHE=NEO4J_PAGECACHE)
    # Options first: the Neo4j launcher takes everything after its command as ``run``'s command.
    command = [sys.executable, str(launcher_path(name)), "--run-dir", str(run_dir), *args[1:], args[0]]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=LAUNCH_TIMEOUT_S,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        raise StoreError(name, args[0], (done.stderr or done.stdout).strip()[-2000:])
    return done.stdout


def stop_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    """Send ``sig`` to the process group of ``process`` (it leads one) and reap it."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=STOP_TIMEOUT_S)


class ServerDeployment:
    """Redis, Neo4j, the API, workers and beat of one chaos run, all on 127.0.0.1.

    ``neo4j_run_dir``: the run folder of a Neo4j that ``neo4j-test-server`` already runs (it
    is restarted but never stopped here); ``None`` starts one in ``scratch`` and stops it
    on ``close``. Redis is always one of its own (``--save '' --appendonly no``).
    """

    def __init__(self, scratch: Path, settings: EywaSettings, neo4j_run_dir: Path | None = None) -> None:
        self._scratch = scratch
        self._base = settings
        self._own_neo4j = neo4j_run_dir is None
        self._neo4j_dir = neo4j_run_dir or scratch / "neo4j"
        self._redis_dir = scratch / "redis"
        self._redis_port = free_port(HOST)
        self.port = free_port(HOST)
        self.base_url = f"http://{HOST}:{self.port}"
        self._api: subprocess.Popen[bytes] | None = None
        self._workers: list[subprocess.Popen[bytes]] = []
        self._beat: subprocess.Popen[bytes] | None = None
        self._started_workers = 0
        self.settings = settings

    def start(self) -> EywaSettings:
        """Start every process; returns the settings they all run with.

        Raises:
            ConfigurationError: not a checkout (no launchers).
            StoreError: a server or process did not start.
        """
        launch("redis", self._redis_dir, "start", "--port", str(self._redis_port))
        if self._own_neo4j:
            launch("neo4j", self._neo4j_dir, "start", "--port", str(free_port(HOST)))
        uri = (self._neo4j_dir / "bolt-uri").read_text(encoding="utf-8").strip()
        self.settings = self._base.model_copy(
            update={"neo4j_uri": uri, "redis_url": f"redis://{HOST}:{self._redis_port}/0", "job_runner": "celery"}
        )
        self._api = start_api(self.settings, self._scratch / "serve.log", HOST, self.port, LAUNCH_TIMEOUT_S)
        for _ in range(WORKERS):
            self._workers.append(self._start_worker())
        self._beat = self._spawn(
            ["beat", "-l", "warning", "--schedule", str(self._scratch / "beat-schedule")], "beat.log"
        )
        return self.settings

    def _spawn(self, args: list[str], log_name: str) -> subprocess.Popen[bytes]:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
        environment.update(as_environment(self.settings))
        with (self._scratch / log_name).open("ab") as log:
            return subprocess.Popen(
                [sys.executable, "-m", "eywa.cli", *args], env=environment, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip

    def _start_worker(self) -> subprocess.Popen[bytes]:
        self._started_workers += 1
        return self._spawn(
            ["worker", "--concurrency", "1", "--metrics-port", "0", "-l", "info"],
            f"worker-{self._started_workers}.log",
        )

    def inject(self, fault: Fault) -> None:
        """Inject one fault and bring the failed part back (see the module docstring).

        Raises:
            StoreError: a server did not come back.
        """
        if fault == "worker":
            stop_group(self._workers.pop(0), signal.SIGKILL)
            self._workers.append(self._start_worker())
        elif fault == "redis":
            launch("redis", self._redis_dir, "kill")
            launch("redis", self._redis_dir, "start", "--port", str(self._redis_port))
        else:
            killed = time.monotonic()
            launch("neo4j", self._neo4j_dir, "kill")
            time.sleep(max(0.0, self.neo4j_outage_s - (time.monotonic() - killed)))
            launch("neo4j", self._neo4j_dir, "resume")

    @property
    def neo4j_outage_s(self) -> float:
        """How long Neo4j stays down: past the API's retry of a failed statement
        (``EYWA_NEO4J_RETRY_S``), so that the writes in flight are refused with a 503 and
        the clients send them again. A Neo4j that restarts within the retry (3 s on a quiet
        machine) is a fault no client sees: the writes wait and succeed, and the run then
        tested the retry, not the clients' re-sending (a CI run failed on that)."""
        return self.settings.neo4j_retry_s + OUTAGE_MARGIN_S

    def stop_processes(self) -> None:
        """Stop beat, workers and the API (SIGTERM: warm shutdown; SIGINT for uvicorn)."""
        if self._beat is not None:
            stop_group(self._beat, signal.SIGTERM)
            self._beat = None
        while self._workers:
            stop_group(self._workers.pop(), signal.SIGTERM)
        if self._api is not None:
            stop_api(self._api)
            self._api = None

    def close(self) -> None:
        """Stop every process, then the servers this deployment started (idempotent)."""
        self.stop_processes()
        for name, run_dir, own in (("redis", self._redis_dir, True), ("neo4j", self._neo4j_dir, self._own_neo4j)):
            if own and run_dir.exists():
                try:
                    launch(name, run_dir, "stop")  # type: ignore[arg-type]
                except StoreError:
                    pass  # a server that is already gone is what stop wanted

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of every process log, for a failed run's report."""
        parts = []
        for log in sorted(self._scratch.glob("*.log")):
            text = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-lines:]
            parts.append(f"--- {log.name}\n" + "\n".join(text))
        return "\n".join(parts)
