"""``Memory.remember(..., wait=False)`` returns once Level 0 is committed; the background
thread embeds the turns and runs Level 1 after it, on both backends; the batches that arrive
while it works are embedded together, in one embedder call whatever their spaces.

The embedder is held shut for the batch's own texts (never for a query), so the test sees
the state between the acknowledgement and the embedding without timing anything; the recall
trace's ``pending`` counts what the space still lacks.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa import Memory
from eywa.embedding import Embedder
from tests.conformance.conftest import BACKENDS, server_settings

TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]
HELD = "work at Google"


class HeldEmbedder:
    """The real embedder, except that texts holding ``HELD`` wait for ``release``."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self.release = threading.Event()
        self.holding = threading.Event()
        self.calls: list[list[str]] = []

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    @property
    def dim(self) -> int:
        return self._inner.dim

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls.append(list(texts))
        if any(HELD in t for t in texts):
            self.holding.set()
            if not self.release.wait(timeout=60):
                raise AssertionError("the batch's turns were embedded before remember returned")
        return self._inner.embed(texts)


@pytest.fixture(params=BACKENDS)
def held(request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder) -> Iterator[tuple[Memory, HeldEmbedder]]:
    gate = HeldEmbedder(embedder)
    if request.param == "server":
        mem = Memory.connect(server_settings(request, tmp_path), embedder=gate)
    else:
        mem = Memory.open(tmp_path / "mem", embedder=gate)
    yield mem, gate
    gate.release.set()
    mem.close()


def test_remember_without_waiting_acknowledges_level0_and_finishes_in_the_background(
    held: tuple[Memory, HeldEmbedder],
) -> None:
    mem, gate = held
    ids = mem.remember("async", TURNS, wait=False)  # returns while the embedder is held shut
    assert [e.text for e in (mem.evidence("async", i) for i in ids)] == [t["text"] for t in TURNS]
    found = mem.recall("async", "Where does Cecilia work?", k=5)
    assert ids[0] in [item.id for item in found.items]  # keyword route: at once
    assert ids[0] not in [hit["id"] for hit in found.trace["routes"].get("vector", [])]  # not embedded yet
    assert found.trace["pending"] == {"embed": 2, "level1": 2}  # the trace says what the space lacks
    assert (mem.pending("async").embed, mem.pending("async").level1) == (2, 2)  # and so does Memory
    assert mem.pending("elsewhere").embed == 0  # per space
    assert mem.beliefs("async") == []  # Level 1 runs after the embedding
    gate.release.set()
    mem.wait()
    assert [b.value for b in mem.beliefs("async", attribute="employer")] == ["Google"]
    found = mem.recall("async", "Where does Cecilia work?", k=5)
    assert ids[0] in [hit["id"] for hit in found.trace["routes"]["vector"]]
    assert found.trace["pending"] == {"embed": 0, "level1": 0}
    assert (mem.pending("async").embed, mem.pending("async").level1) == (0, 0)
    assert mem.remember("async", TURNS, wait=False) == ids  # idempotent as ever


def test_batches_sent_while_the_embedder_works_are_embedded_in_one_call(held: tuple[Memory, HeldEmbedder]) -> None:
    mem, gate = held
    mem.remember("first", TURNS, wait=False)
    assert gate.holding.wait(timeout=60)  # the background thread is in the embedder
    later = {
        space: mem.remember(space, [{"text": f"Batch {n} of {space}: I have a dog named Rex{n}.", "speaker": "Ana"}
                                    for n in range(3)], wait=False)
        for space in ("one", "two", "three")
    }  # fmt: skip
    gate.release.set()
    mem.wait()
    texts = [f"Batch {n} of {space}" for space in later for n in range(3)]
    carrying = [call for call in gate.calls if any(t in text for t in texts for text in call)]
    assert len(carrying) == 1  # three requests, three spaces: one embedder pass
    assert all(any(t in text for text in carrying[0]) for t in texts)
    for space, ids in later.items():
        assert mem.pending(space).embed == 0 and mem.pending(space).level1 == 0
        assert ids[0] in [hit["id"] for hit in mem.recall(space, "Who is Rex0?", k=5).trace["routes"]["vector"]]
