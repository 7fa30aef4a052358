"""An online backup of an embedded directory, consistent while a writer runs.

SQLite is the source of truth: every SQLite file of the directory (the store, the key file)
is copied with SQLite's online backup API from a connection of its own, in one step: that
step reads one snapshot (the database is in WAL mode, so the writer is not blocked), and
every write transaction — a Level 0 batch with its keyword rows, signals and ledger marks,
a Level 1 batch with its beliefs — is in the copy entirely or not at all.

The vector shard (Qdrant Edge) is not copied: its files are written by its engine with
state of its own, and a copy taken while points are upserted is not a consistent shard,
while taking it under the writer's lock would stop writes for the whole copy. Vectors are
derived from the turns, so the copy's ledger marks every turn and belief ``embed_*``
(reason ``embedder``) instead, in the copied database: the memory that opens the copy
embeds them again (``eywa.reconcile``), as after a change of embedder. The erasure secret
(``erasure.key``) is copied, so the copy's erasure records stay checkable.

A backup that dies half-way (a kill, a full disk the process did not live to clean up) must not
leave a directory that opens as a memory: a copy of the database without its key file opened
as a store of its own, made a new erasure key, and its erasure proofs could no longer check
erased content. So the copy is marked unfinished (``INCOMPLETE_MARKER``, written and synced
before the first file) and the mark is removed only once every file is copied and the vectors
marked; a directory that still carries it is refused on open (``eywa.stores.embedded.factory``).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

from eywa.errors import ConfigurationError, InvalidInputError, StoreError
from eywa.stores.backup import BackupReport
from eywa.stores.embedded import ledger as ledger_sql
from eywa.stores.embedded.erasure import SECRET_FILE
from eywa.stores.embedded.shard_rewrite import fsync_path
from eywa.stores.ledger import PendingStage

__all__ = ["INCOMPLETE_MARKER", "backup_directory", "refuse_unfinished"]

_SQLITE_SUFFIXES = (".sqlite3", ".sqlite", ".db")


_PROBE = ".eywa-backup-probe"
INCOMPLETE_MARKER = ".eywa-backup-incomplete"
"""The file a backup in progress keeps in its destination (module docstring)."""


def refuse_unfinished(directory: Path) -> None:
    """Refuse to open ``directory`` as a memory when it is a backup that never finished.

    Raises:
        ConfigurationError: ``directory`` carries ``INCOMPLETE_MARKER``.
    """
    if (directory / INCOMPLETE_MARKER).exists():
        raise ConfigurationError(
            f"{directory} is a backup that did not finish (it still carries {INCOMPLETE_MARKER}): "
            "delete it and run the backup again"
        )


def _check_destination(source: Path, dest: Path, field: str) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise InvalidInputError.at(field, f"{dest} exists and is not an empty directory")
    if dest.resolve().is_relative_to(source.resolve()):
        raise InvalidInputError.at(field, f"{dest} is inside the directory being backed up")


def _make_destination(dest: Path, field: str) -> bool:
    """Create ``dest`` (and its parents) and make and remove a file in it; returns whether
    ``dest`` was created here.

    A destination the caller cannot write (``/proc/x``, a read-only mount, a directory of
    another user) failed inside the copy as the store's ``store_unavailable``, as though the
    memory's own files were at fault: it is the caller's path, refused as theirs before a
    byte is copied. Failures after this (a disk filling up, a source file unreadable) stay
    the store's.
    """
    created = not dest.exists()
    try:
        dest.mkdir(parents=True, exist_ok=True)
        os.close(os.open(dest / _PROBE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        (dest / _PROBE).unlink()
    except OSError as exc:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise InvalidInputError.at(field, f"{dest} cannot be created or written ({exc.strerror})") from None
    return created


def backup_directory(source: Path, dest: Path, at: datetime, *, database: str, field: str = "dest") -> BackupReport:
    """Copy the embedded directory ``source`` into ``dest`` (see the module docstring);
    ``database`` is the store's file, whose copy gets the ``embed_*`` marks; ``field`` names
    ``dest`` in a refusal (``--to`` for the CLI).

    Raises:
        InvalidInputError: ``dest`` exists and is not an empty directory, lies inside
            ``source``, or cannot be created or written (``_make_destination``).
        StoreError: a file cannot be read or written (a partial ``dest`` is removed).
    """
    _check_destination(source, dest, field)
    created = _make_destination(dest, field)
    try:
        _create_synced(dest / INCOMPLETE_MARKER)
        files = []
        for path in sorted(source.iterdir()):
            if path.is_file() and path.suffix in _SQLITE_SUFFIXES:
                _copy_sqlite(path, dest / path.name)
                files.append(path.name)
        secret = source / SECRET_FILE
        if secret.exists():
            _copy_secret(secret, dest / SECRET_FILE)
        turns, beliefs = _mark_vectors_pending(dest / database, at) if database in files else (0, 0)
        fsync_path(dest)  # every copied file's name durable before the mark goes
        (dest / INCOMPLETE_MARKER).unlink()
        fsync_path(dest)
    except (OSError, sqlite3.Error) as exc:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise StoreError("sqlite", "backup", f"{source} -> {dest}: {exc}") from exc
    return BackupReport(destination=str(dest), files=tuple(files), turns=turns, beliefs=beliefs)


def _create_synced(path: Path) -> None:
    """Create the empty file ``path`` and make it and its name durable."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    fsync_path(path)
    fsync_path(path.parent)


def _copy_secret(path: Path, target: Path) -> None:
    """Copy the erasure secret into a file created 0600: a copy made with the default mode
    and narrowed afterwards is readable by others until then (for ever, if the process dies
    in between)."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(path.read_bytes())


def _copy_sqlite(path: Path, target: Path) -> None:
    """One ``backup`` step over the whole file (``pages=-1``): one consistent snapshot."""
    with closing(sqlite3.connect(str(path), timeout=30.0)) as src:
        with closing(sqlite3.connect(str(target))) as dst:
            src.backup(dst, pages=-1)


def _mark_vectors_pending(database: Path, at: datetime) -> tuple[int, int]:
    """Mark every turn ``embed_evidence`` and every belief ``embed_belief`` in the copy."""
    counts = {"evidence": 0, "beliefs": 0}
    stages: tuple[tuple[str, PendingStage], ...] = (("evidence", "embed_evidence"), ("beliefs", "embed_belief"))
    with closing(sqlite3.connect(str(database), isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        for table, stage in stages:
            spaces = [row[0] for row in conn.execute(f"SELECT DISTINCT space FROM {table}")]  # noqa: S608 - fixed names
            for space in spaces:
                ids = [row[0] for row in conn.execute(f"SELECT id FROM {table} WHERE space = ?", (space,))]  # noqa: S608
                ledger_sql.mark_in(conn, space, (stage,), ids, "embedder", at)
                counts[table] += len(ids)
        conn.execute("COMMIT")
    return counts["evidence"], counts["beliefs"]
