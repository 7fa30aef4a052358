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
"""

from __future__ import annotations

import os
from pathlib import Path

from eywa.errors import StoreError

__all__ = ["DirectoryWatch"]


class DirectoryWatch:
    """The identity of ``<directory>/<database>`` when the store was opened."""

    def __init__(self, directory: Path, database: str) -> None:
        self._path = directory / database
        found = os.stat(self._path)
        self._identity = (found.st_dev, found.st_ino)

    def check(self) -> None:
        """Nothing when the path still names the opened database.

        Raises:
            StoreError: the directory or the database file is gone, was replaced, or can no
                longer be read; what this process would write would be lost: restart it.
        """
        try:
            found = os.stat(self._path)
        except FileNotFoundError:
            happened = "was deleted"
        except OSError as exc:
            happened = f"cannot be reached ({exc.strerror or exc})"
        else:
            if (found.st_dev, found.st_ino) == self._identity:
                return
            happened = "was replaced by another store"
        raise StoreError(
            "embedded", "check of the data directory",
            f"the data directory {happened} while this process had it open; nothing more is read or "
            "written (a write would land in files no path leads to and be lost): restore the directory "
            "and restart the process",
        )  # fmt: skip
