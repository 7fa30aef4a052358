"""Fixtures of the input-contract suite: an embedded Memory with a fast embedder.

The contract is the core's, so these tests run on the embedded store with a hashing
embedder (no MiniLM in the loop): what they check is what is accepted, what is refused
with which code, and that a refused call writes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from eywa.memory import Memory
from eywa.settings import EywaSettings


class HashEmbedder:
    """A deterministic unit vector per text (bytes of its sha256): fast, and texts differ."""

    model_id = "hash-test"
    dim = 16

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            rows[row] = np.frombuffer(digest[: self.dim], dtype=np.uint8).astype(np.float32) + 1.0
        unit: npt.NDArray[np.float32] = rows / np.linalg.norm(rows, axis=1, keepdims=True)
        return unit


def open_memory(directory: Path, **settings: Any) -> Memory:
    """An embedded Memory in ``directory`` with the hashing embedder and ``settings`` (any
    ``EywaSettings`` field: pydantic validates each value)."""
    return Memory.open(directory, settings=EywaSettings(data_dir=directory, **settings), embedder=HashEmbedder())


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """One memory per module (opening Qdrant Edge shards costs ~1 s); tests use own spaces."""
    mem = open_memory(tmp_path_factory.mktemp("contract") / "mem")
    yield mem
    mem.close()


def remember_said(memory: Memory, space: str, said: Sequence[tuple[str, str]], day: str) -> str:
    """Remember each (speaker, text) of ``said`` in ``space``, one session, a minute apart from
    10:00 on ``day`` (``YYYY-MM-DD``), in order; returns the space. The beliefs-that-answer
    tests' turns: who said what, in what order, is all they need of a conversation."""
    memory.remember(space, [{"text": text, "speaker": speaker, "session": "s1", "observed_at": f"{day}T10:{i:02d}:00"}
                            for i, (speaker, text) in enumerate(said)])  # fmt: skip
    return space


def claimed(memory: Memory, space: str, question: str, as_of: str) -> str:
    """The first item's text when the read claimed an answer to ``question`` (the trace names
    one), else "": what a caller is told holds, or that nothing is claimed."""
    found = memory.recall(space, question, k=3, as_of=as_of)
    return found.items[0].text if found.trace["answer"] is not None else ""
