"""A waited ``remember`` whose turns were stored but whose later work failed says so.

Level 0 commits the turns first; their embedding and Level 1 run after, and with
``wait=True`` a failure there reaches the caller. It used to read as the write refused
("hash embedder failed", "sqlite store failed during commit"), while the turns were stored
and their derived work pending: the error now says the turns were stored and that sending
them again stores nothing twice, with its type and code unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa import Memory
from eywa.errors import EmbedderError
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder

TURNS = [{"text": "I moved to Porto last spring.", "speaker": "Ana"}, {"text": "I adopted a cat.", "speaker": "Ana"}]


class FailsOnce(HashEmbedder):
    """Fails the first batch of turns it is asked to embed, then embeds as the hash does."""

    def __init__(self) -> None:
        self.failed = False

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not self.failed and len(texts) > 1:
            self.failed = True
            raise EmbedderError("the embedding endpoint timed out")
        return super().embed(texts)


def test_a_waited_write_that_fails_after_level0_says_its_turns_were_stored(tmp_path: Path) -> None:
    embedder = FailsOnce()
    with Memory.open(tmp_path / "m", settings=EywaSettings(data_dir=tmp_path / "m"), embedder=embedder) as memory:
        with pytest.raises(EmbedderError, match=r"timed out \(the 2 turn\(s\) of this write were stored") as failed:
            memory.remember("s", TURNS, wait=True)
        assert failed.value.code == "upstream_error"
        assert memory.stats("s")["evidence"] == 2
        ids = memory.remember("s", TURNS, wait=True)  # the retry: the same turns, nothing twice
        assert len(set(ids)) == 2 and memory.stats("s")["evidence"] == 2
        memory.wait()
        assert memory.pending("s").embed == 0
