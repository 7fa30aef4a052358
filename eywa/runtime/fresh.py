"""A command that would create an embedded store leaves nothing behind when it fails.

``eywa import FILE --data-dir NEW`` opens (so creates) the memory before it reads the export:
a refused export, a bad line on stdin or a ``SpaceNotEmptyError`` ended with an error and an
empty store (``eywa.sqlite3``, ``vectors/``, ``erasure.key``, ``.lock``) in a directory that
did not exist before, which the next command then took for a memory. ``undone_on_failure``
notes what was there and, when the block raises, removes what it added: the directory (and
the parents it created) when there was none, else only the entries that were not there. A
directory that already held a store is left alone: its own transaction answers for it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from eywa.stores.embedded.factory import DATABASE_FILE

__all__ = ["Undo", "undone_on_failure"]


def _first_missing(directory: Path) -> Path | None:
    """The outermost of ``directory`` and its parents that does not exist (what creating it
    with ``parents=True`` adds), or None when it exists."""
    missing = None
    for path in (directory, *directory.parents):
        if path.exists():
            break
        missing = path
    return missing


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


class Undo:
    """Whether a failure still removes what the block created: ``keep`` once what the block
    made is worth keeping (an import committed, whatever happens after)."""

    def __init__(self) -> None:
        self.armed = True

    def keep(self) -> None:
        """From now on a failure leaves the store in place."""
        self.armed = False


@contextmanager
def undone_on_failure(directory: Path) -> Iterator[Undo]:
    """Run the block; when it raises before ``keep`` and ``directory`` held no store before,
    remove what the block created under it (the block closes the memory first, since the
    memory's context exits before this one's).
    """
    undo = Undo()
    directory = directory.absolute()
    if (directory / DATABASE_FILE).exists():
        undo.keep()
        yield undo
        return
    missing = _first_missing(directory)
    before = set(os.listdir(directory)) if missing is None and directory.is_dir() else None
    try:
        yield undo
    except BaseException:
        if undo.armed:
            if missing is not None:
                _remove(missing)
            elif before is not None and directory.is_dir():
                for name in set(os.listdir(directory)) - before:
                    _remove(directory / name)
        raise
