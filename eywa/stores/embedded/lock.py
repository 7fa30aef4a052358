"""One writer process per embedded directory, enforced by an advisory lock file.

Qdrant Edge shards cannot be opened by two processes (the second fails deep inside with
``Can't init WAL: Kind(WouldBlock)``), so ``open_embedded`` takes ``<directory>/.lock``
with ``fcntl.flock`` first and writes its pid inside. A second opener gets a
``DirectoryInUseError`` naming that pid and the ways forward. The lock is released on close
and by the kernel when the process dies, so a crash never leaves a stale lock. Readers that
need no vectors (``eywa stats``, ``eywa audit``, workers) open the SQLite database alone and
take no lock: SQLite's WAL lets them read beside the writer.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from eywa.errors import DirectoryInUseError, StoreError

__all__ = ["LOCK_FILE", "DirectoryLock"]

LOCK_FILE = ".lock"


class DirectoryLock:
    """The exclusive lock of one embedded directory, held from ``acquire`` to ``release``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / LOCK_FILE
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock and write this process's pid into the lock file.

        Raises:
            DirectoryInUseError: another process (or another open memory of this one)
                holds it; the error names the holder's pid when the file tells it.
            StoreError: the lock file cannot be created.
        """
        try:
            handle = self.path.open("a+", encoding="ascii")
        except OSError as exc:
            raise StoreError("embedded", "lock", f"cannot create {self.path}: {exc}") from exc
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            raise DirectoryInUseError(str(self.directory), int(holder) if holder.isdigit() else None) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def release(self) -> None:
        """Give the lock up (idempotent). The file stays: removing it would race a new owner."""
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None
