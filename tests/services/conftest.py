"""Service fixtures: one real embedded Memory per session (spaces keep tests apart), a fresh
key store and app per test, and a real Redis server for the rate-limit tests."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.api.app import create_app
from eywa.stores.embedded.keys import SqliteKeyStore
from eywa.stores.keys import parse_scopes
from services.ratelimit import RateLimiter


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    directory = tmp_path_factory.mktemp("eywa-service")
    mem = Memory.open(directory, settings=EywaSettings(data_dir=directory))
    yield mem
    mem.close()


def fresh_window(needed_s: float = 20.0) -> None:
    """Wait, when needed, until the rate limiter's one-minute window has ``needed_s`` left,
    so a test's few calls are counted in one window and the limit is reached."""
    left = 60.0 - time.time() % 60.0
    if left < needed_s:
        time.sleep(left + 0.05)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A throwaway redis-server on a free local port (no persistence)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        for _ in range(100):
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not answer PING")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        proc.terminate()
        proc.wait(timeout=10)


@dataclass
class Service:
    """An app over the session Memory with its own key store, and helpers to mint keys."""

    app: FastAPI
    client: TestClient
    keys: SqliteKeyStore
    settings: EywaSettings

    def headers(self, spaces: list[str], scopes: str = "read,write") -> dict[str, str]:
        _, secret = self.keys.create(spaces, parse_scopes(scopes))
        return {"Authorization": f"Bearer {secret}"}


def build_service(
    memory: Memory, tmp_path: Path, settings: EywaSettings | None = None, limiter: RateLimiter | None = None
) -> Service:
    settings = settings or EywaSettings(data_dir=tmp_path)
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    app = create_app(memory, settings, keys, rate_limiter=limiter)
    return Service(app=app, client=TestClient(app), keys=keys, settings=settings)


@pytest.fixture
def service(memory: Memory, tmp_path: Path) -> Iterator[Service]:
    built = build_service(memory, tmp_path)
    yield built
    built.client.close()
    built.keys.close()
