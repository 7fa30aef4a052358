"""``EYWA_MAX_EMBED_BACKLOG`` on both backends: while more turns than the bound wait for their
embedding, ``Memory.remember`` raises ``OverloadedError`` (``stage="embed"``) before writing
anything; once the background pass embedded them the same batch is accepted, stored once.

The embedder holds the first batch's texts until the test releases them (no timing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from eywa import Memory
from eywa.embedding import Embedder
from eywa.errors import OverloadedError
from eywa.settings import EywaSettings
from tests.conformance.conftest import BACKENDS, server_settings
from tests.conformance.test_async_write import HELD, TURNS, HeldEmbedder

LATE = [{"text": "I adopted a cat called Miso.", "speaker": "Cecilia", "observed_at": "2023-05-02T10:00:00Z"}]


@pytest.fixture(params=BACKENDS)
def bounded(request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder) -> Iterator[tuple[Memory, HeldEmbedder]]:
    gate = HeldEmbedder(embedder)
    if request.param == "server":
        settings = server_settings(request, tmp_path).model_copy(update={"max_embed_backlog": 1})
        mem = Memory.connect(settings, embedder=gate)
    else:
        mem = Memory.open(tmp_path / "mem", settings=EywaSettings(max_embed_backlog=1, extractor="none"), embedder=gate)
    yield mem, gate
    gate.release.set()
    mem.close()


def test_a_write_over_the_embedding_bound_is_refused_then_accepted_once_embedded(
    bounded: tuple[Memory, HeldEmbedder],
) -> None:
    mem, gate = bounded
    assert any(HELD in t["text"] for t in TURNS)
    first = mem.remember("bp", TURNS, wait=False)  # two turns held unembedded: over the bound of 1
    assert mem.pending("bp").embed == len(TURNS)
    with pytest.raises(OverloadedError) as refused:
        mem.remember("bp", LATE, wait=False)
    assert (refused.value.stage, refused.value.backlog, refused.value.limit) == ("embed", len(TURNS), 1)
    assert mem.stats("bp")["evidence"] == len(TURNS)  # nothing of the refused batch

    gate.release.set()
    mem.wait()
    assert mem.pending("bp").embed == 0
    late = mem.remember("bp", LATE, wait=False)
    mem.wait()
    assert mem.stats("bp")["evidence"] == len(first) + len(late) == 3
    assert mem.evidence("bp", late[0]).text == LATE[0]["text"] and mem.pending("bp").embed == 0
