"""Room on disk before Qdrant Edge writes: a full file system must refuse, not kill.

Qdrant Edge writes its vectors, payloads and write-ahead log through memory-mapped files
that grow sparse (32 MiB each, filled a page at a time). When the file system cannot give a
page (a full disk, a full tmpfs), the kernel answers the write to the mapping with SIGBUS and
the process ends at once: no exception, no answer to any caller, every request in flight
lost (reproduced with a 64 MiB tmpfs left 96 KiB free: ``Bus error``, exit 135, while SQLite
still committed the turns). SQLite itself refuses cleanly (``SQLITE_FULL`` → ``StoreError``).
So each vector write first asks the file system (one ``statvfs``, ~2 µs) for the bytes it
may need plus ``FLOOR_BYTES``, and refuses with a ``StoreError`` otherwise: the turn's
``embed_*`` mark stays in the ledger, as when the embedder fails, and the next pass (or
``eywa reconcile``) embeds it once there is room. Opening the shards writes to their mapped
files too (a restart on a disk still full died the same way), so the open asks first and a
full disk is a ``StoreError`` from ``Memory.open``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from eywa.errors import StoreError

__all__ = ["FLOOR_BYTES", "require_room", "write_estimate"]

FLOOR_BYTES = 16 * 2**20
"""Free bytes kept beyond a write's own estimate: a write touches several mapped files (a
page each at least), a segment may be started (its files' first pages), and SQLite, which
shares the disk, still needs room to record the failure and go on."""

_PAYLOAD_BYTES = 512  # a point's payload (ids, space, time, stamp) and its index entries, generously


def write_estimate(points: int, dim: int) -> int:
    """Bytes ``points`` vectors of ``dim`` may take: the vector and payload pages, and the
    write-ahead log's copy of both."""
    return 2 * points * (4 * dim + _PAYLOAD_BYTES)


def require_room(directory: Path, needed: int, operation: str, *, floor: int | None = None) -> None:
    """Nothing when the file system of ``directory`` has ``needed`` bytes free beyond the floor.

    Raises:
        StoreError: it has not (or cannot say): the write is not attempted.
    """
    floor = FLOOR_BYTES if floor is None else floor
    try:
        free = shutil.disk_usage(directory).free
    except OSError as exc:
        raise StoreError("qdrant-edge", operation, f"free space of {directory.name}/ unknown: {exc}") from exc
    if free >= needed + floor:
        return
    raise StoreError(
        "qdrant-edge", operation,
        f"{free // 1024} KiB free on the vectors' disk, {(needed + floor) // 1024} KiB needed to {operation}: refused, "
        "since Qdrant Edge ends the process (SIGBUS) when its files cannot grow; nothing stored is lost: what is not "
        "embedded or erased yet stays pending and is finished once there is room (free some, then the next pass, "
        "eywa reconcile or a restart)",
    )  # fmt: skip
