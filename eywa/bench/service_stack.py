"""The processes of one service benchmark run: API replicas, Celery workers, Redis, Neo4j.

``ServiceStack`` starts what the run needs as local processes on 127.0.0.1: a Redis of its
own (``ops/redis/redis-test-server``, without persistence) when the Celery runner is asked
for and no ``EYWA_REDIS_URL`` is set; a Neo4j of its own (``ops/neo4j/neo4j-test-server``)
for ``--backend server`` without ``EYWA_NEO4J_URI``; ``replicas`` ``eywa serve`` processes;
and with the Celery runner ``workers`` ``eywa worker`` processes. Servers first
(``start_servers``: the run's key is created in their key store), then the processes
(``start_processes``). What the stack started it stops; servers given by settings are left
alone. Several replicas need the server backend (the embedded store has one writer); without
a Qdrant server (``EYWA_QDRANT_URL``) each replica keeps its vectors in a local-mode folder of
its own, which the report says. ``cpu_seconds`` reads the CPU time the API (and worker)
processes have used so far, so the run can report API-process CPU per request.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import TracebackType
from typing import Literal

from eywa.bench.chaos_server import launch, stop_group
from eywa.bench.service import free_port, start_api, stop_api
from eywa.errors import InvalidInputError, StoreError
from eywa.settings import EywaSettings, as_environment

__all__ = ["Runner", "ServiceStack", "process_cpu_seconds"]

Runner = Literal["inline", "celery"]
HOST = "127.0.0.1"


class ServiceStack:
    """Redis, Neo4j, API replicas and workers of one run (see the module docstring)."""

    def __init__(
        self, scratch: Path, settings: EywaSettings, *, runner: Runner, server: bool, replicas: int, workers: int
    ) -> None:
        if replicas < 1 or workers < 1:
            raise InvalidInputError("replicas and workers must be at least 1")
        if replicas > 1 and not server:
            raise InvalidInputError("several API replicas need --backend server (the embedded store has one writer)")
        self._scratch = scratch
        self._runner = runner
        self._server = server
        self._replicas = replicas
        self._workers_wanted = workers if runner == "celery" else 0
        self._own: list[tuple[Literal["neo4j", "redis"], Path]] = []
        self._apis: list[subprocess.Popen[bytes]] = []
        self._workers: list[subprocess.Popen[bytes]] = []
        self.settings = settings.model_copy(update={"job_runner": runner})
        self.urls: list[str] = []

    @property
    def vectors(self) -> str:
        """Where the replicas keep vectors: ``shared`` (one store) or ``per replica``."""
        return "shared" if self._replicas == 1 or self.settings.qdrant_url else "per replica"

    def start_servers(self) -> EywaSettings:
        """Start the Redis and Neo4j the settings do not name; returns the run's settings.

        Raises:
            ConfigurationError: not a checkout (no launchers in ``ops/``).
            StoreError: a server did not start.
        """
        update: dict[str, object] = {}
        if self._runner == "celery" and not self.settings.redis_url:
            port = free_port(HOST)
            self._start_own("redis", "start", "--port", str(port))
            update["redis_url"] = f"redis://{HOST}:{port}/0"
        if self._server and not self.settings.neo4j_uri:
            run_dir = self._start_own("neo4j", "start", "--port", str(free_port(HOST)))
            update["neo4j_uri"] = (run_dir / "bolt-uri").read_text(encoding="utf-8").strip()
        self.settings = self.settings.model_copy(update=update)
        return self.settings

    def _start_own(self, name: Literal["neo4j", "redis"], *args: str) -> Path:
        run_dir = self._scratch / name
        launch(name, run_dir, *args)
        self._own.append((name, run_dir))
        return run_dir

    def start_processes(self) -> list[str]:
        """Start the API replicas, then the workers; returns the replicas' base URLs.

        Raises:
            StoreError: a process did not start (the message ends with its log's tail).
        """
        for n in range(self._replicas):
            port = free_port(HOST)
            own = self.settings
            if self._replicas > 1 and not self.settings.qdrant_url:
                own = own.model_copy(update={"qdrant_path": self._scratch / f"qdrant-{n}"})
            self._apis.append(start_api(own, self._scratch / f"serve-{n}.log", HOST, port))
            self.urls.append(f"http://{HOST}:{port}")
        for n in range(self._workers_wanted):
            self._workers.append(self._spawn_worker(n))
        return self.urls

    def cpu_seconds(self) -> dict[str, float] | None:
        """User + system CPU seconds used so far by the API replicas (``api``) and the workers
        (``workers``, with their pool children), summed; None where ``/proc`` cannot be read."""
        try:
            api = sum(process_cpu_seconds(p.pid) for p in self._apis)
            workers = sum(process_cpu_seconds(p.pid, children=True) for p in self._workers)
        except OSError:
            return None
        return {"api": api, "workers": workers}

    def _spawn_worker(self, n: int) -> subprocess.Popen[bytes]:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
        environment.update(as_environment(self.settings))
        with (self._scratch / f"worker-{n}.log").open("ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "eywa.cli", "worker", "--concurrency", "1", "-l", "warning"],
                env=environment, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        if process.poll() is not None:
            raise StoreError("celery", "worker", f"eywa worker exited with {process.returncode}")
        return process

    def stop_processes(self) -> None:
        """Stop the workers (SIGTERM: warm shutdown) and the API replicas (idempotent)."""
        while self._workers:
            stop_group(self._workers.pop(), signal.SIGTERM)
        while self._apis:
            stop_api(self._apis.pop())

    def close(self) -> None:
        """Stop every process, then the servers this stack started (idempotent)."""
        self.stop_processes()
        while self._own:
            name, run_dir = self._own.pop()
            try:
                launch(name, run_dir, "stop")
            except StoreError:
                pass  # already gone: what stop wanted

    def __enter__(self) -> ServiceStack:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def process_cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads) from ``/proc/<pid>/stat``;
    with ``children``, plus those of its live child processes (a Celery worker's pool).

    Raises:
        OSError: no ``/proc`` (not Linux) or no such process.
    """
    total = _stat_cpu(Path(f"/proc/{pid}/stat"))
    if children:
        for child in Path(f"/proc/{pid}/task").glob("*/children"):
            for found in child.read_text(encoding="ascii").split():
                try:
                    total += process_cpu_seconds(int(found), children=True)
                except OSError:
                    pass  # exited in between: its time is lost with it
    return total


def _stat_cpu(stat: Path) -> float:
    # The fields after the command name (in parentheses, which may hold spaces): utime and
    # stime are fields 14 and 15 of proc(5), the 12th and 13th after the closing parenthesis.
    fields = stat.read_text(encoding="ascii").rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
