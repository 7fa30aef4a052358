"""The ``memory`` fixture, parametrised over backends. Tests here state the contract that
every backend must keep; they never ask which backend they run on."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from eywa import Memory
from eywa.embedding import Embedder
from eywa.embedding.minilm import MiniLMEmbedder

MemoryFactory = Callable[[], Memory]


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real offline model, loaded once per test session."""
    return MiniLMEmbedder()


@pytest.fixture(params=["embedded"])
def open_memory(request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder) -> Iterator[MemoryFactory]:
    """Opens (and reopens) a Memory on one backend; closes whatever it opened."""
    opened: list[Memory] = []

    def factory() -> Memory:
        mem = Memory.open(tmp_path / "mem", embedder=embedder)
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        mem.close()


@pytest.fixture
def memory(open_memory: MemoryFactory) -> Memory:
    return open_memory()
