"""README, What survives a crash: "A shard of another width (another embedder) is still
refused", and "Changing the embedder marks every vector of the other embedder for
re-embedding" (audit of s25). The width was refused by the vector store's unit test only;
through ``Memory`` a change of width (``EYWA_EMBEDDER=openai`` on a MiniLM store) is a
``ConfigurationError`` at open naming both widths, the store untouched: reopened with its own embedder it answers as
before. A change of embedder of the same width re-embeds (tests/reliability/test_upgrades.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eywa import Memory
from eywa.errors import ConfigurationError
from tests.contract.conftest import HashEmbedder

SPACE = "width"
TURNS = [{"text": "I live in Lyon.", "speaker": "Ana"}, {"text": "I adopted a cat named Miso.", "speaker": "Ana"}]


class NarrowEmbedder(HashEmbedder):
    """The hashing embedder at half the width: another model."""

    model_id = "hash-narrow"
    dim = 8


def test_an_embedder_of_another_width_is_refused_and_the_store_is_left_as_it_was(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    with Memory.open(directory, embedder=HashEmbedder()) as mem:
        ids = mem.remember(SPACE, TURNS, wait=True)
        before = [(i.id, i.score) for i in mem.recall(SPACE, "Where does Ana live?").items]

    with pytest.raises(ConfigurationError) as refused:  # a setting to change, not a failure to retry
        Memory.open(directory, embedder=NarrowEmbedder())
    assert "holds vectors of 16 dimensions and the embedder makes 8" in str(refused.value)  # both widths named
    assert refused.value.code == "configuration_error"

    with Memory.open(directory, embedder=HashEmbedder()) as mem:
        assert mem.recovered.total == 0 and mem.pending(SPACE).embed == 0  # nothing marked for re-embedding
        assert [(i.id, i.score) for i in mem.recall(SPACE, "Where does Ana live?").items] == before
        assert [mem.evidence(SPACE, i).text for i in ids] == [t["text"] for t in TURNS]
