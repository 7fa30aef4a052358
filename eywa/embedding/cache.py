"""Window embeddings kept between writes, so that a turn's window is embedded once.

A turn's vector is the normalised sum of two windows' embeddings (``eywa.stores.context.
vector_windows``): the turn before it with it, and it with its reply. When the next turn of
its session arrives the turn is re-embedded (its reply window changes), and its first window
is the one embedded when it arrived; a turn written one at a time embedded three texts
without this cache (that window again, the new pair, the new turn alone) and two with it.

Entries are keyed by the embedder's stamp (``embedder_id``: model, width, layout) and a
digest of the text, so the cache keeps no text itself and never serves a vector of another
model. It is bounded (least recently used out first) and lives in one process's memory: a
restart starts it empty, and a miss only means the text is embedded again. Vectors embedded
in another batch differ from a fresh embedding of the same text by float rounding at most.
An erasure clears it (``eywa.indexing``): no vector derived from an erased text is kept.

Example:
    >>> cache = WindowCache(capacity=2)
    >>> len(cache)
    0
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from eywa.embedding.base import Embedder, embedder_id

__all__ = ["WINDOW_CACHE_SIZE", "WindowCache"]

# 4,096 windows of 384 float32 values: about 6.3 MB. A window is asked for again when the
# next turn of its session arrives, so the bound is how many windows other sessions may
# embed in between before its successor still finds it.
WINDOW_CACHE_SIZE: Final = 4096


class WindowCache:
    """A bounded, thread-safe map from (embedder stamp, text digest) to a unit vector.

    Args:
        capacity: Windows kept; the least recently used goes first. 0 keeps none.
    """

    def __init__(self, capacity: int = WINDOW_CACHE_SIZE) -> None:
        self._capacity = max(capacity, 0)
        self._rows: OrderedDict[tuple[str, bytes], npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._rows)

    def embed(self, embedder: Embedder, texts: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Each of ``texts`` with its embedding: the kept ones from the cache, the others in
        one ``embedder.embed`` call (then kept).

        Raises:
            EmbedderError: the embedder failed (nothing is kept).
        """
        stamp = embedder_id(embedder)
        keys = {text: (stamp, _digest(text)) for text in dict.fromkeys(texts)}
        found: dict[str, npt.NDArray[np.float32]] = {}
        with self._lock:
            for text, key in keys.items():
                row = self._rows.get(key)
                if row is not None:
                    self._rows.move_to_end(key)
                    found[text] = row
        missing = [text for text in keys if text not in found]
        if not missing:
            return found
        rows = np.asarray(embedder.embed(missing), dtype=np.float32)
        with self._lock:
            for text, row in zip(missing, rows, strict=True):
                kept = row.copy()
                kept.flags.writeable = False
                found[text] = kept
                if self._capacity:
                    self._rows[keys[text]] = kept
                    self._rows.move_to_end(keys[text])
            while len(self._rows) > self._capacity:
                self._rows.popitem(last=False)
        return found

    def holds(self, embedder: Embedder, text: str) -> bool:
        """Whether ``text``'s embedding by ``embedder`` is kept."""
        with self._lock:
            return (embedder_id(embedder), _digest(text)) in self._rows

    def clear(self) -> None:
        """Drop every kept window (an erasure: no vector derived from an erased text stays)."""
        with self._lock:
            self._rows.clear()


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
