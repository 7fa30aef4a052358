"""Every limit and input rule through every surface: the same input gets the same code.

One set of small limits is configured once; each case is then tried through the Python
API, the HTTP API (a real socket), MCP over streamable HTTP (a real ``eywa mcp`` process),
the CLI and ``eywa.Client``, and each surface must refuse it with the one ``code`` the case
names. Issue #11 found MCP over HTTP skipping the API's limits with the same keys; this
test is what keeps the surfaces from drifting apart again.

A surface is left out of a case only when it cannot carry the input at all: the MCP SDK's
client cannot encode a lone surrogate and sends NaN as ``null`` (``test_fuzz_mcp`` hands
both to the tools in-process); the CLI sends batches in chunks of the limit.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from eywa.cli import app as cli
from eywa.client import Client
from eywa.errors import EywaError
from eywa.memory import Memory
from eywa.settings import EywaSettings, as_environment
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app, serve_in_thread
from tests.contract.conftest import HashEmbedder

ROOT = Path(__file__).resolve().parents[2]
LIMITS: dict[str, Any] = {
    "max_turns_per_batch": 3, "max_chars_per_turn": 40, "max_label_chars": 20, "max_query_chars": 30,
    "max_k": 5, "max_budget_tokens": 50, "max_metadata_depth": 3, "max_metadata_bytes": 100,
    "space_max_turns": 4,
}  # fmt: skip
GOOD = {"text": "I work at Acme.", "speaker": "Ana", "observed_at": "2024-05-01T10:00:00Z"}
EDGE = "9999-12-31T23:00:00-05:00"


@dataclass(frozen=True)
class Case:
    """One input and the code every surface must refuse it with."""

    name: str
    code: str
    turns: list[dict[str, Any]] | None = None  # a remember case, else a recall case
    recall: dict[str, Any] = field(default_factory=dict)
    space: str | None = None  # the space to use instead of the case's own
    prefill: int = 0  # good turns remembered first (quota)
    skip: frozenset[str] = frozenset()  # surfaces that cannot carry the input


CASES = [
    Case("batch", "too_many_turns", turns=[{"text": f"turn {i}"} for i in range(4)], skip=frozenset({"cli"})),
    Case("long", "turn_too_long", turns=[{"text": "x" * 41}]),
    Case("label", "limit_exceeded", turns=[{"text": "ok", "speaker": "s" * 21}]),
    Case("depth", "limit_exceeded", turns=[{"text": "ok", "metadata": {"a": {"b": {"c": {}}}}}]),
    Case("bytes", "limit_exceeded", turns=[{"text": "ok", "metadata": {"blob": "x" * 120}}]),
    Case("surrogate", "invalid_turn", turns=[{"text": "a\ud800b"}], skip=frozenset({"mcp"})),
    Case("nan", "invalid_turn", turns=[{"text": "ok", "metadata": {"x": float("nan")}}], skip=frozenset({"mcp"})),
    Case("time", "invalid_turn", turns=[{"text": "ok", "observed_at": "0001-01-01T00:00:00+01:00"}]),
    Case("star", "invalid_input", turns=[{"text": "ok"}], space="*"),
    Case("quota", "quota_exceeded", turns=[{"text": "four"}, {"text": "five"}], prefill=3),
    Case("query", "limit_exceeded", recall={"query": "q" * 31}),
    Case("k", "limit_exceeded", recall={"query": "where?", "k": 6}),
    Case("budget", "limit_exceeded", recall={"query": "where?", "budget_tokens": 51}),
    Case("as_of", "invalid_input", recall={"query": "where?", "as_of": EDGE}),
]


def _space(case: Case, surface: str) -> str:
    return case.space or f"{case.name}-{surface}"


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Surfaces:
    memory: Memory  # behind the HTTP API and the Client too
    api_url: str
    mcp_url: str
    key: str
    mcp_key: str
    cli_dir: Path
    cli_env: dict[str, str]


@pytest.fixture(scope="module")
def surfaces(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Surfaces]:
    root = tmp_path_factory.mktemp("surfaces")
    settings = EywaSettings(data_dir=root / "api", **LIMITS)
    memory = Memory.open(root / "api", settings=settings, embedder=HashEmbedder())
    keys = SqliteKeyStore(root / "api" / "keys.sqlite")
    key = keys.create(["*"], ["read", "write"])[1]
    mcp_dir = root / "mcp"
    mcp_keys = SqliteKeyStore(mcp_dir / "keys.sqlite")
    mcp_key = mcp_keys.create(["*"], ["read", "write"], name="surfaces")[1]
    mcp_keys.close()
    port = _free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    limits_env = {name: value for name, value in as_environment(settings).items() if name[5:].lower() in LIMITS}
    with (mcp_dir / "server.log").open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "eywa.cli", "mcp", "--transport", "http", "--data-dir", str(mcp_dir),
             "--port", str(port)],
            cwd=ROOT, env={**environ, **limits_env}, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    app = create_app(memory, settings, keys)
    try:
        with serve_in_thread(app) as url:
            deadline = time.monotonic() + 90
            while not _listening(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"eywa mcp did not start: {(mcp_dir / 'server.log').read_text()[-2000:]}")
                time.sleep(0.2)
            for case in CASES:  # what the quota cases find already stored
                for surface in ("python", "http", "mcp", "cli", "client"):
                    if case.prefill and surface not in case.skip:
                        prefill = [{"text": f"stored {i}"} for i in range(case.prefill)]
                        if surface == "mcp":
                            _mcp(f"http://127.0.0.1:{port}/mcp", mcp_key, "remember",
                                 {"space": _space(case, surface), "turns": prefill})  # fmt: skip
                        elif surface == "cli":
                            pass  # the CLI's quota case ingests the stored turns and the new ones in one file
                        else:
                            memory.remember(_space(case, surface), prefill)
            yield Surfaces(memory, url, f"http://127.0.0.1:{port}/mcp", key, mcp_key, root / "cli", limits_env)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        memory.close()
        keys.close()


def _mcp(url: str, key: str, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
    async def call() -> tuple[bool, str]:
        with anyio.fail_after(60):
            async with (
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30.0) as http,
                streamable_http_client(url, http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                result = await session.call_tool(tool, arguments)
        return bool(result.is_error), "".join(getattr(part, "text", "") for part in result.content)

    return anyio.run(call)


def _code_of(call: Callable[[], object]) -> str:
    try:
        call()
    except EywaError as exc:
        return exc.code
    return "accepted"


def via_python(s: Surfaces, case: Case) -> str:
    space, turns = _space(case, "python"), case.turns
    if turns is not None:
        return _code_of(lambda: s.memory.remember(space, turns))
    return _code_of(lambda: s.memory.recall("read", **case.recall))


def via_client(s: Surfaces, case: Case) -> str:
    with Client(s.api_url, s.key, retries=0) as client:
        turns = case.turns
        if turns is not None:
            return _code_of(lambda: client.remember(_space(case, "client"), turns))
        return _code_of(lambda: client.recall("read", **case.recall))


def via_http(s: Surfaces, case: Case) -> str:
    headers = {"Authorization": f"Bearer {s.key}", "Content-Type": "application/json"}
    if case.turns is not None:
        path, body = f"/v1/spaces/{_space(case, 'http')}/turns", {"turns": case.turns}
    else:
        path, body = "/v1/spaces/read/recall", case.recall
    response = httpx.post(s.api_url + path, content=json.dumps(body).encode(), headers=headers)
    return "accepted" if response.is_success else str(response.json()["code"])


def via_mcp(s: Surfaces, case: Case) -> str:
    if case.turns is not None:
        tool, arguments = "remember", {"space": _space(case, "mcp"), "turns": case.turns}
    else:
        tool, arguments = "recall", {"space": "read", **case.recall}
    is_error, text = _mcp(s.mcp_url, s.mcp_key, tool, arguments)
    return text.removeprefix(f"Error executing tool {tool}: ").split(":", 1)[0] if is_error else "accepted"


def via_cli(s: Surfaces, case: Case, monkeypatch: pytest.MonkeyPatch) -> str:
    for name, value in s.cli_env.items():
        monkeypatch.setenv(name, value)
    data = ["--data-dir", str(s.cli_dir)]
    if case.turns is not None:
        turns = [{"text": f"stored {i}"} for i in range(case.prefill)] + case.turns
        path = s.cli_dir.parent / f"{case.name}.jsonl"
        path.write_text("\n".join(json.dumps(t) for t in turns), encoding="ascii")
        result = CliRunner().invoke(cli, ["ingest", str(path), "--space", _space(case, "cli"), *data])
    else:
        args = [case.recall["query"], "--space", "read", *data]
        for option, key in (("-k", "k"), ("--budget", "budget_tokens"), ("--as-of", "as_of")):
            if key in case.recall:
                args += [option, str(case.recall[key])]
        result = CliRunner().invoke(cli, ["recall", *args])
    if result.exit_code == 0:
        return "accepted"
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ") and line.endswith("]"), result.stderr
    return line.rsplit("[", 1)[1].rstrip("]")


@pytest.fixture(scope="module")
def seeded(surfaces: Surfaces) -> Surfaces:
    """The space recall cases read, on every backend the surfaces use."""
    surfaces.memory.remember("read", [GOOD])
    path = surfaces.cli_dir.parent / "read.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(GOOD), encoding="ascii")
    assert CliRunner().invoke(cli, ["ingest", str(path), "--space", "read", "--data-dir", str(surfaces.cli_dir)]).exit_code == 0
    return surfaces


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_surface_refuses_alike(seeded: Surfaces, case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, Callable[[], str]] = {
        "python": lambda: via_python(seeded, case),
        "http": lambda: via_http(seeded, case),
        "client": lambda: via_client(seeded, case),
        "mcp": lambda: via_mcp(seeded, case),
        "cli": lambda: via_cli(seeded, case, monkeypatch),
    }
    got = {surface: call() for surface, call in calls.items() if surface not in case.skip}
    assert got == dict.fromkeys(got, case.code)
    assert len(got) >= 4
