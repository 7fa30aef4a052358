"""Rewrite a Qdrant Edge shard into fresh files holding only its live points (erasure at rest).

Qdrant Edge deletes a point by marking it: its vector, id and payload stay in the segment files
until an optimizer vacuums the segment, and the upsert that wrote it stays in the shard's
write-ahead log until the log's 32 MB segment is recycled. Its optimizers also build the HNSW
graph (tens of seconds holding the GIL), and nothing truncates the log. So after an erasure the
touched shard is copied point by point (scroll with vectors and payloads: no re-embedding) into
a new directory, and the new directory replaces the old one, whose files are then deleted.

The swap is two renames, so a crash can stop it midway; the directories beside ``<kind>`` say
how far it got, and ``settle`` (run before every open of a shard) finishes or undoes it:

- ``<kind>.rewrite``: being written, maybe incomplete: deleted (the old shard is whole).
- ``<kind>.rewritten``: complete and synced (renamed from ``.rewrite`` only then): moved in as
  ``<kind>``, the old ``<kind>`` first moved to ``<kind>.replaced`` when still there.
- ``<kind>.replaced``: the old shard, once ``<kind>`` is in place: deleted.

Every state leaves a whole shard at ``<kind>`` after ``settle``: the old one (the erasure is
still ``pending`` and rewrites it again when it is resumed) or the new one. What else could go
wrong (a damaged new shard) is caught by the open's probe and healed like any damaged shard,
and the count check at open (``eywa.stores.embedded.lost_vectors``) marks for embedding any
item whose point a rewrite lost.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Final

import qdrant_edge as qe

from eywa import crashpoints

__all__ = ["REPLACED", "REWRITE", "REWRITTEN", "copy_points", "settle", "fsync_path", "swap_in", "write_synced"]

REWRITE: Final = ".rewrite"
REWRITTEN: Final = ".rewritten"
REPLACED: Final = ".replaced"
_PAGE: Final = 1_000
"""Points per scroll page and upsert: 50,000 points of 384 dimensions copied in 2.4-2.9 s
with 1,000 or 5,000 (most of it turning the vectors into Python lists and back)."""


def beside(path: Path, suffix: str) -> Path:
    """``path`` with ``suffix`` appended to its name (``vectors/evidence.rewrite``)."""
    return path.with_name(path.name + suffix)


def copy_points(source: qe.EdgeShard, target: qe.EdgeShard) -> int:
    """Upsert every live point of ``source`` (id, vectors, payload) into ``target``; returns
    how many. Deleted points are not scrolled, so they are not copied.

    Raises:
        Exception: Qdrant Edge failed (the caller maps it).
    """
    copied = 0
    offset: qe.PointId | None = None
    while True:
        records, offset = source.scroll(qe.ScrollRequest(offset=offset, limit=_PAGE, with_payload=True, with_vector=True))
        points = [qe.Point(r.id, r.vector, r.payload) for r in records if r.vector is not None]
        if points:
            target.update(qe.UpdateOperation.upsert_points(points))
        copied += len(points)
        if offset is None:
            return copied


def write_synced(rewrite: Path) -> Path:
    """fsync every file and directory of the closed shard at ``rewrite`` and rename it to
    ``<kind>.rewritten``: from then on it is known complete. Returns the new path.

    Raises:
        OSError: a sync or the rename failed.
    """
    for folder, _, files in os.walk(rewrite):
        for name in files:
            fsync_path(Path(folder) / name)
        fsync_path(Path(folder))
    ready = rewrite.with_name(rewrite.name.removesuffix(REWRITE) + REWRITTEN)
    rewrite.rename(ready)
    fsync_path(rewrite.parent)
    crashpoints.reached("vector_shard_rewritten")
    return ready


def swap_in(path: Path) -> None:
    """Put the complete ``<kind>.rewritten`` in place of the (closed) shard at ``path`` and
    delete the old files (``settle`` does the same after a crash).

    Raises:
        OSError: a rename or the removal failed.
    """
    ready, replaced = beside(path, REWRITTEN), beside(path, REPLACED)
    if path.exists():
        path.rename(replaced)
        fsync_path(path.parent)
        crashpoints.reached("vector_shard_set_aside")
    ready.rename(path)
    fsync_path(path.parent)
    crashpoints.reached("vector_shard_swapped")
    if replaced.exists():
        shutil.rmtree(replaced)


def settle(path: Path) -> None:
    """Finish or undo a rewrite of the shard at ``path`` that a crash interrupted (module
    docstring); nothing to do in the usual open (three ``exists`` checks).

    Raises:
        OSError: a leftover cannot be removed or renamed.
    """
    rewrite, ready, replaced = beside(path, REWRITE), beside(path, REWRITTEN), beside(path, REPLACED)
    if rewrite.exists():
        shutil.rmtree(rewrite)
    if ready.exists():
        if replaced.exists() and path.exists():  # a finished swap's old files, never removed
            shutil.rmtree(replaced)
        swap_in(path)
    elif replaced.exists():
        if path.exists():
            shutil.rmtree(replaced)
        else:  # not a state the rewrite leaves; keep the points rather than lose them
            replaced.rename(path)
            fsync_path(path.parent)


def fsync_path(path: Path) -> None:
    """fsync the file or directory ``path`` (a directory: the names in it made durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
