"""Whether the embedded directory a process opened is still the one on disk.

SQLite and Qdrant Edge keep their files open: when the data directory is deleted (or
replaced by a restored copy, or made unreadable) under a running ``eywa serve``, every write
still succeeded — into files no path leads to any more, lost when the process ends — and
every read, ``/readyz`` included, answered from them as if nothing had happened.
``DirectoryWatch`` notes the database file's identity (device, inode) at open; ``check``
compares it with what the path names now, one ``stat`` (about a microsecond), and raises a
``StoreError`` naming what happened (not the path: ``/readyz`` repeats it to anyone), so
that every call is refused (503 over HTTP) and readiness fails, instead of acknowledging
writes that cannot survive.

The vector shards (``vectors/<kind>``) are watched the same way, by the vector store, which
knows when it replaces a shard itself (a rewrite after an erasure): ``vectors/`` or one shard
deleted under the process was noticed only at the next open, after every vector written
meanwhile had gone into unlinked files. Three more ``stat`` calls per call. Unlike the
database, the vectors are derived data: a restart rebuilds what was lost (the open's count
check marks it for embedding again), so the error says to restart, not to restore.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from eywa.errors import StoreError

__all__ = ["DirectoryWatch", "Identity", "identity", "what_happened"]

Identity = tuple[int, int]
"""A file's or directory's (device, inode)."""


def identity(path: Path | str) -> Identity:
    """``path``'s (device, inode).

    Raises:
        OSError: it cannot be stat'ed.
    """
    found = os.stat(path)
    return (found.st_dev, found.st_ino)


def what_happened(path: Path | str, noted: Identity) -> str | None:
    """None when ``path`` still names what had identity ``noted``; otherwise what happened
    to it ("was deleted", "was replaced by another store", "cannot be reached (…)")."""
    try:
        now = identity(path)
    except FileNotFoundError:
        return "was deleted"
    except OSError as exc:
        return f"cannot be reached ({exc.strerror or exc})"
    return None if now == noted else "was replaced by another store"


class DirectoryWatch:
    """The identity of ``<directory>/<database>`` when the store was opened, and the vector
    store's own check (``shards``: what happened to a shard, or None)."""

    def __init__(self, directory: Path, database: str, shards: Callable[[], str | None] | None = None) -> None:
        self._path = str(directory / database)  # a str: stat'ed on every call
        self._identity = identity(self._path)
        self._shards = shards

    def check(self) -> None:
        """Nothing when the path still names the opened database and the vector shards are
        the ones opened.

        Raises:
            StoreError: the directory or the database file is gone, was replaced, or can no
                longer be read; what this process would write would be lost: restart it.
                Or a vector shard is: restart, and the open rebuilds it.
        """
        happened = what_happened(self._path, self._identity)
        if happened is not None:
            raise StoreError(
                "embedded", "check of the data directory",
                f"the data directory {happened} while this process had it open; nothing more is read or "
                "written (a write would land in files no path leads to and be lost): restore the directory "
                "and restart the process",
            )  # fmt: skip
        shard = self._shards() if self._shards is not None else None
        if shard is not None:
            raise StoreError(
                "embedded", "check of the data directory",
                f"{shard} while this process had it open; nothing more is read or written (a vector would "
                "land in files no path leads to and be lost): restart the process, whose open rebuilds the "
                "vectors from the stored turns and beliefs (eywa reconcile waits for it)",
            )  # fmt: skip
