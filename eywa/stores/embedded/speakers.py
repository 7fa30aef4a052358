"""Who said each turn, kept in memory between recalls while the turns stay the same.

Why: the person route keeps, of its ~166 vector hits, the turns a named person spoke, and
the evidence strength asks who said the vector route's hits; reading those speakers is one
primary-key lookup per turn (10k bench store: 0.30 ms for a person route's 150 hits,
against 0.02 from a dict), on the recall's critical path after the query embedding.

Exact, not approximate: a turn's speaker is written with it and never changed, so a turn's
entry can only go stale by the turn being erased. Each entry is kept under the version of
``evidence_fts`` it was read at (``bm25_index.read_version``: the two FTS5 records that every
insert or delete of a turn rewrites, since every turn has a keyword row written and deleted
in the same transaction as it), and an entry is used only by a read that sees the same
version in its own snapshot: any turn written or erased since, by this process or another,
empties the memo for the reads that see it. Turns the memo lacks are read from the table.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Final

from eywa.stores.embedded.bm25_index import Version

__all__ = ["MAX_KEPT", "SpeakerMemo"]

MAX_KEPT: Final = 200_000
"""The most entries kept over all spaces (~30 MB at most); past it the memo starts again."""


class SpeakerMemo:
    """Turn id → speaker per space, valid for one version of the turns (module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: Version | None = None
        self._spaces: dict[str, dict[str, str | None]] = {}
        self._kept = 0

    def known(self, version: Version, space: str, ids: Iterable[str]) -> dict[str, str | None]:
        """The speakers of those of ``ids`` kept for ``space`` at ``version`` (none when the
        memo holds another version: it is emptied for this one)."""
        with self._lock:
            if version != self._version:
                self._reset(version)
                return {}
            kept = self._spaces.get(space)
            if not kept:
                return {}
            return {i: kept[i] for i in ids if i in kept}

    def keep(self, version: Version, space: str, found: dict[str, str | None]) -> None:
        """Keep ``found`` (read in a snapshot at ``version``), unless the memo has moved on
        to another version meanwhile."""
        with self._lock:
            if version != self._version:
                return
            if self._kept + len(found) > MAX_KEPT:
                self._reset(version)
            kept = self._spaces.setdefault(space, {})
            before = len(kept)
            kept.update(found)
            self._kept += len(kept) - before

    def _reset(self, version: Version) -> None:
        self._version = version
        self._spaces = {}
        self._kept = 0
