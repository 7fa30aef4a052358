"""The warm-up loads what a memory's first writes embed with, before `eywa serve` takes them.

A local embedder makes the session a write's batch runs on when it is first asked; in the
chaos bench's API the first batches waited 4-13 s for it together. ``Memory.warm_up``
now embeds a batch of a write's size first, when the memory embeds its writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa import Memory
from eywa.embedding import MiniLMEmbedder
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder


class CountingEmbedder(HashEmbedder):
    """The hashing embedder, keeping the size of every call."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls.append(len(texts))
        return super().embed(texts)


def _open(directory: Path, embedder: CountingEmbedder | MiniLMEmbedder, *, embed_writes: bool) -> Memory:
    settings = EywaSettings(data_dir=directory)
    return Memory.open(directory, settings=settings, embedder=embedder, embed_writes=embed_writes)


def test_a_memory_that_embeds_its_writes_embeds_a_batch_when_warmed_up(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    with _open(tmp_path / "m", embedder, embed_writes=True) as memory:
        before = list(embedder.calls)
        memory.warm_up()
    assert [n for n in embedder.calls[len(before) :] if n > 2], embedder.calls


def test_a_memory_whose_writes_another_process_embeds_loads_no_embedder(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    with _open(tmp_path / "m", embedder, embed_writes=False) as memory:
        before = list(embedder.calls)
        memory.warm_up()
    assert embedder.calls[len(before) :] == []


def test_after_the_warm_up_a_write_embeds_on_a_session_already_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = MiniLMEmbedder()
    with _open(tmp_path / "m", embedder, embed_writes=True) as memory:
        memory.warm_up()
        made: list[int] = []
        make = embedder._create_session

        def counted(path: str, threads: int) -> object:
            made.append(threads)
            return make(path, threads)

        monkeypatch.setattr(embedder, "_create_session", counted)
        memory.remember("s", [{"text": f"I moved to city number {n} and I like tea.", "speaker": "W"} for n in range(4)])
    assert made == [], "the first write made an embedding session the warm-up should have made"
