"""ops/neo4j/neo4j-test-server: the launcher that gives `make test` a real Neo4j.

Its life cycle (conf, port, pid and URI files, Bolt wait, stop, failure report) is tested
with a stand-in ``java`` that answers the Bolt handshake, so it runs in a second; the real
server is checked through the session's ``neo4j_driver``.
"""

from __future__ import annotations

import hashlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path
from types import ModuleType

import pytest
from neo4j import Driver

from tests.neo4j_server import Neo4jServer
from tests.reliability.neo4j_process import free_port

LAUNCHER = Path(__file__).resolve().parents[2] / "ops" / "neo4j" / "neo4j-test-server"

FAKE_JAVA = """#!{python}
import os, signal, socket, sys
args = sys.argv[1:]
if os.environ.get("FAKE_JAVA_ARGV"):
    open(os.environ["FAKE_JAVA_ARGV"], "w").write("\\n".join(args))
if "{mode}" == "crash":
    print("boom: could not find or load main class")
    sys.exit(2)
conf = next(a.split("=", 1)[1] for a in args if a.startswith("--config-dir="))
port = next(int(line.rsplit(":", 1)[1]) for line in open(conf + "/neo4j.conf")
            if line.startswith("server.bolt.listen_address="))
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
server = socket.create_server(("127.0.0.1", port))
while True:
    conn, _ = server.accept()
    if conn.recv(20)[:4] == bytes.fromhex("6060b017"):
        conn.sendall(bytes.fromhex("00000805"))
    conn.close()
"""


def _load_launcher() -> ModuleType:
    loader = SourceFileLoader("neo4j_test_server", str(LAUNCHER))
    spec = spec_from_loader(loader.name, loader)
    assert spec is not None
    module = module_from_spec(spec)
    sys.modules[loader.name] = module  # dataclasses look their module up there
    loader.exec_module(module)
    return module


launcher = _load_launcher()


@pytest.fixture
def fake_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An environment whose jar cache is 'fetched' and whose java is a Python stand-in."""
    cache = tmp_path / "cache"
    lib = cache / f"neo4j-{launcher.neo4j_version()}" / "lib"
    lib.mkdir(parents=True)
    (lib / "neo4j-0.jar").write_bytes(b"")
    digest = hashlib.sha256(launcher.POM.read_bytes()).hexdigest()
    (lib.parent / ".fetched").write_text(digest + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    # An ephemeral port of its own: the default 7687 may be taken at any moment by another
    # checkout's server or a bench started beside this test (make test runs in parallel).
    env.update(EYWA_CACHE_DIR=str(cache), EYWA_NEO4J_TEST_TIMEOUT="20",
               EYWA_NEO4J_TEST_RUN_DIR=str(tmp_path / "run"), EYWA_NEO4J_TEST_PORT=str(free_port()))
    yield env
    subprocess.run([sys.executable, str(LAUNCHER), "stop"], env=env, capture_output=True, check=False)


def _java(tmp_path: Path, env: dict[str, str], mode: str) -> None:
    java = tmp_path / "jdk" / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(FAKE_JAVA.format(python=sys.executable, mode=mode))
    java.chmod(0o755)
    env["JAVA_HOME"] = str(java.parent.parent)


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LAUNCHER), *args], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def test_version_comes_from_the_pom_and_is_5_26() -> None:
    assert launcher.neo4j_version().startswith("5.26.")


def test_the_bolt_keep_alive_is_10s_unless_set_and_a_malformed_one_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = launcher.Paths(tmp_path)
    monkeypatch.delenv("EYWA_NEO4J_TEST_KEEP_ALIVE", raising=False)
    assert "server.bolt.connection_keep_alive=10s" in launcher.render_conf(paths, 7687, "64m").splitlines()
    monkeypatch.setenv("EYWA_NEO4J_TEST_KEEP_ALIVE", "2s")
    assert "server.bolt.connection_keep_alive=2s" in launcher.render_conf(paths, 7687, "64m").splitlines()
    monkeypatch.setenv("EYWA_NEO4J_TEST_KEEP_ALIVE", "2 seconds")
    with pytest.raises(launcher.LauncherError, match="EYWA_NEO4J_TEST_KEEP_ALIVE"):
        launcher.render_conf(paths, 7687, "64m")


def test_a_busy_default_port_falls_back_to_a_free_one(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        with pytest.raises(launcher.LauncherError, match=f"port {port}"):
            launcher.choose_port(port)
        monkeypatch.setattr(launcher, "DEFAULT_PORT", port)
        chosen = launcher.choose_port(None)
    assert chosen != port
    assert launcher.port_is_free(chosen)


def test_a_tcp_server_that_is_not_bolt_does_not_count_as_ready() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert launcher.bolt_answers(port, timeout=0.5) is False  # accepts, never answers


def test_start_status_stop_life_cycle(tmp_path: Path, fake_env: dict[str, str]) -> None:
    _java(tmp_path, fake_env, "serve")
    run_dir = tmp_path / "run"

    started = _cli(fake_env, "start")
    assert started.returncode == 0, started.stderr
    uri = (run_dir / "bolt-uri").read_text().strip()
    assert started.stdout.startswith(f"READY {uri}")
    assert uri.startswith("bolt://127.0.0.1:")
    conf = (run_dir / "home" / "conf" / "neo4j.conf").read_text()
    assert f"server.bolt.listen_address=127.0.0.1:{uri.rsplit(':', 1)[1]}" in conf
    assert "dbms.security.auth_enabled=false" in conf
    assert f"server.directories.data={run_dir / 'home' / 'data'}" in conf

    status = _cli(fake_env, "status")
    assert status.returncode == 0
    assert f"uri={uri}" in status.stdout

    assert _cli(fake_env, "stop").stdout.strip() == "stopped"
    assert _cli(fake_env, "status").returncode == launcher.EXIT_NOT_RUNNING
    assert not (run_dir / "bolt-uri").exists()
    assert not (run_dir / "home" / "data").exists()


def test_extra_jvm_options_reach_the_server_after_the_launcher_s_own(
    tmp_path: Path, fake_env: dict[str, str]
) -> None:
    """``EYWA_NEO4J_TEST_JVM_OPTS`` (say, a JIT setting to measure) is split on blanks and
    passed to java after the heap and the launcher's flags, so it can override them."""
    _java(tmp_path, fake_env, "serve")
    argv = tmp_path / "argv"
    fake_env.update(FAKE_JAVA_ARGV=str(argv), EYWA_NEO4J_TEST_JVM_OPTS=" -XX:TieredStopAtLevel=1  -Dmarker=yes ")

    started = _cli(fake_env, "start")
    assert started.returncode == 0, started.stderr
    args = argv.read_text().split("\n")
    extra = args.index("-XX:TieredStopAtLevel=1")
    assert args[extra + 1] == "-Dmarker=yes"
    assert extra > max(args.index(flag) for flag in launcher.JVM_FLAGS)
    assert extra > next(n for n, a in enumerate(args) if a.startswith("-Xmx"))
    assert _cli(fake_env, "stop").returncode == 0


def test_a_server_that_dies_fails_start_with_its_log(
    tmp_path: Path, fake_env: dict[str, str]
) -> None:
    _java(tmp_path, fake_env, "crash")

    result = _cli(fake_env, "start")

    assert result.returncode == 1
    assert "exited with status 2" in result.stderr
    assert "boom: could not find or load main class" in result.stderr
    assert not (tmp_path / "run" / "neo4j.pid").exists()


def test_run_stops_the_server_and_passes_the_exit_status_through(
    tmp_path: Path, fake_env: dict[str, str]
) -> None:
    _java(tmp_path, fake_env, "serve")
    check = ("import os, sys; p = os.environ['EYWA_TEST_NEO4J_URI_FILE']; "
             "sys.exit(7 if open(p).read().startswith('bolt://127.0.0.1:') else 1)")

    result = _cli(fake_env, "run", "--", sys.executable, "-c", check)

    assert result.returncode == 7, result.stderr
    assert _cli(fake_env, "status").returncode == launcher.EXIT_NOT_RUNNING


def test_run_with_two_servers_starts_both_side_by_side_and_stops_both(
    tmp_path: Path, fake_env: dict[str, str]
) -> None:
    _java(tmp_path, fake_env, "serve")
    port = free_port()
    while not launcher.port_is_free(port + 1):
        port = free_port()
    fake_env["EYWA_NEO4J_TEST_PORT"] = str(port)
    # The command checks what a test session sees: every URI file, in order, each answering Bolt.
    check = ("import os, sys, importlib.machinery as m; "
             f"L = m.SourceFileLoader('l', {str(LAUNCHER)!r}).load_module(); "
             "files = os.environ['EYWA_TEST_NEO4J_URI_FILES'].split(os.pathsep); "
             "uris = [open(f).read().strip() for f in files]; "
             "assert files[0] == os.environ['EYWA_TEST_NEO4J_URI_FILE'], files; "
             f"assert uris == ['bolt://127.0.0.1:{port}', 'bolt://127.0.0.1:{port + 1}'], uris; "
             "assert all(L.bolt_answers(int(u.rsplit(':', 1)[1])) for u in uris); "
             "sys.exit(7)")

    result = _cli(fake_env, "run", "--servers", "2", "--", sys.executable, "-c", check)

    assert result.returncode == 7, result.stderr
    assert result.stdout.count("READY bolt://127.0.0.1:") == 2
    for run_dir in (tmp_path / "run", tmp_path / "run-2"):
        assert not (run_dir / "bolt-uri").exists()
        assert not (run_dir / "home" / "data").exists()
    assert not launcher.bolt_answers(port, timeout=0.5)
    assert not launcher.bolt_answers(port + 1, timeout=0.5)


def test_when_one_of_two_servers_cannot_start_the_command_does_not_run(
    tmp_path: Path, fake_env: dict[str, str]
) -> None:
    _java(tmp_path, fake_env, "serve")
    with ExitStack() as stack:
        while True:  # a taken port whose neighbour below is free: the second server's port is taken
            busy = stack.enter_context(socket.create_server(("127.0.0.1", 0)))
            taken = busy.getsockname()[1]
            if launcher.port_is_free(taken - 1):
                break
        fake_env["EYWA_NEO4J_TEST_PORT"] = str(taken - 1)
        marker = tmp_path / "ran"

        result = _cli(fake_env, "run", "--servers", "2", "--", sys.executable, "-c", f"open({str(marker)!r}, 'w')")

    assert result.returncode == 1
    assert f"port {taken} on 127.0.0.1 is already in use" in result.stderr
    assert not marker.exists()
    assert _cli(fake_env, "status").returncode == launcher.EXIT_NOT_RUNNING


def test_run_uses_a_configured_server_without_starting_one(
    tmp_path: Path, fake_env: dict[str, str]
) -> None:
    fake_env["EYWA_NEO4J_URI"] = "bolt://127.0.0.1:1"
    fake_env["JAVA_HOME"] = str(tmp_path / "no-such-jdk")
    fake_env["PATH"] = str(tmp_path / "empty-path")  # no java, no mvn: starting would fail

    result = _cli(fake_env, "run", "--", sys.executable, "-c", "raise SystemExit(3)")

    assert result.returncode == 3
    assert "not starting a server" in result.stdout


@pytest.mark.neo4j
def test_the_test_server_is_neo4j_5_26(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    records = neo4j_driver.execute_query(
        "CALL dbms.components() YIELD name, versions, edition "
        "RETURN name, versions[0] AS version, edition", database_=neo4j_server.database
    ).records
    assert records[0]["name"] == "Neo4j Kernel"
    assert records[0]["version"].startswith("5.26.")


def test_an_option_after_the_command_is_an_option(tmp_path: Path, fake_env: dict[str, str]) -> None:
    _java(tmp_path, fake_env, "serve")
    port = free_port()

    started = _cli(fake_env, "start", "--port", str(port))  # was taken for part of a command, and the port ignored

    assert started.returncode == 0, started.stderr
    assert (tmp_path / "run" / "bolt-uri").read_text().strip() == f"bolt://127.0.0.1:{port}"
    refused = _cli(fake_env, "stop", "--", "echo", "hi")
    assert refused.returncode == 2 and "only run takes a command" in refused.stderr
