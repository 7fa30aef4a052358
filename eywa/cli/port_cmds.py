"""``eywa export`` and ``eywa import``: a space written out as JSONL and restored into an
empty space (``eywa.portability``); ``eywa backup``: an online copy of the embedded
directory (``eywa.stores.embedded.backup``).

``export`` writes to a file (through a temporary file renamed at the end, so an interrupted
export never leaves a truncated file under the name asked for) or to stdout with ``-``;
the progress bar and the count summary go to stderr, so stdout stays pure JSONL.
"""

from __future__ import annotations

import itertools

import os
import sys
from collections import Counter
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, TextIO

import typer
from rich.table import Table
from rich.text import Text

from eywa.contract import check_directory
from eywa.errors import ConfigurationError, InvalidInputError
from eywa.models import utc_now
from eywa.portability import record_json
from eywa.runtime import load_settings, open_memory
from eywa.runtime.backends import backend_of, require_embedded_store
from eywa.runtime.commands import DataDirOption, err_console, out_console, note_unknown_space
from eywa.runtime.fresh import Undo, undone_on_failure
from eywa.runtime.ingest import progress_bar
from eywa.runtime.terminal import json_visible, visible
from eywa.stores.embedded.backup import backup_directory
from eywa.stores.embedded.factory import DATABASE_FILE

if TYPE_CHECKING:
    from eywa.memory import Memory
    from eywa.settings import EywaSettings

__all__ = ["backup", "export_space", "import_space"]

SpaceOption = Annotated[str, typer.Option("--space", "-s", help="The space.", show_default=False)]


@contextmanager
def _output(out: str) -> Iterator[TextIO]:
    """The stream ``--out`` names: stdout for ``-``, else a temporary file beside the target,
    renamed to it once complete; a target that exists and is no regular file (``/dev/null``,
    ``/dev/stdout``, a named pipe) is written in place, and a symbolic link's file is the one
    replaced. The rename replaced the device itself: run as root, ``--out /dev/null`` left a
    regular file holding the export where the null device was (as another user it was
    refused, the temporary file not allowed beside it).

    Raises:
        InvalidInputError: ``--out`` is empty (``Path("")`` is the current directory, whose
            empty name made ``with_name`` raise a ValueError) or names a directory (the
            rename failed naming the temporary file, after the whole export was written).
        OSError: the file cannot be created (a missing folder, no permission) or written
            (a full disk), naming ``--out`` as given.
    """
    if out == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    if not out:
        raise InvalidInputError("--out must name a file, or - for stdout")
    target = Path(out)
    if target.is_dir():
        raise InvalidInputError(f"--out {out} is a directory; name a file in it")
    if target.exists() and not target.is_file():  # a device or a pipe (/dev/null, /dev/stdout): written in place
        with _opened(target, out) as stream:
            yield stream
        return
    target = target.resolve() if target.is_symlink() else target  # a link's file is replaced, the link kept
    partial = target.with_name(target.name + ".partial")
    try:
        stream = partial.open("w", encoding="utf-8")
    except OSError as exc:  # name the file asked for, not the temporary one the user never named
        raise OSError(exc.errno, exc.strerror, out) from None
    try:
        with stream:
            yield stream
        os.replace(partial, target)
    except OSError as exc:  # a write cut short (a full disk) named no file, the rename the temporary one
        raise OSError(exc.errno, exc.strerror, out) from None
    finally:
        partial.unlink(missing_ok=True)


@contextmanager
def _opened(target: Path, out: str) -> Iterator[TextIO]:
    """``target`` opened for writing as it is (no temporary file); an error names ``out``."""
    try:
        with target.open("w", encoding="utf-8") as stream:
            yield stream
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, out) from None


@contextmanager
def _input(file: str) -> Iterator[IO[bytes]]:
    if file == "-":
        yield sys.stdin.buffer
        return
    with Path(file).open("rb") as stream:
        yield stream


def _utf8_lines(stream: IO[bytes], name: str) -> Iterator[str]:
    """The lines of ``stream`` decoded one by one, so a line that is not UTF-8 is refused by
    its number (the problem's field ``line.<n>``, like any bad line of an export) instead of
    a ``UnicodeDecodeError`` from the middle of the read; a read that fails names the file
    (``name``), as a failed open does."""
    lines = iter(stream)
    for number in itertools.count(1):
        try:
            raw = next(lines)
        except StopIteration:
            return
        except OSError as exc:  # an I/O error after the open names no file
            raise OSError(exc.errno, exc.strerror, exc.filename or name) from None
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidInputError.at(f"line.{number}", f"not UTF-8 ({exc.reason})") from None


def _embed_with_progress(mem: Memory, space: str) -> None:
    """Wait for the restored turns to be embedded (and their beliefs), with a progress bar
    on stderr over the turns still owed a vector: a large space takes minutes (MiniLM embeds
    ~170 turns/s on two cores). The bar is counted once more after the wait ends, so it
    shows the full count even when embedding finishes between two polls.

    Raises:
        EywaError: what the background embedding raised (``Memory.wait``).
    """
    owed = mem.pending(space).embed
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="eywa-import-wait") as pool:
        done = pool.submit(mem.wait)
        if owed:
            with progress_bar(err_console(), transient=True) as bar:
                task = bar.add_task("embed", total=owed)
                while True:
                    finished = done.done()  # read before the count, so the last count follows the wait
                    bar.update(task, completed=owed - min(owed, mem.pending(space).embed))
                    if finished:
                        break
                    wait([done], timeout=0.2)
        done.result()


def _fresh(settings: EywaSettings) -> AbstractContextManager[Undo]:
    """``undone_on_failure`` of the embedded directory; on the server backends, nothing to undo."""
    return undone_on_failure(settings.data_dir) if backend_of(settings) == "embedded" else nullcontext(Undo())


def _counts_table(title: str, counts: Mapping[str, int]) -> Table:
    # The title names the space and the file: data, shown as written on any console (a
    # table's title is read as markup whatever ``print``'s ``markup`` says).
    table = Table("kind", "records", title=Text(visible(title)))
    for kind, n in sorted(counts.items()):
        table.add_row(kind, str(n))
    return table


def export_space(
    space: SpaceOption,
    out: Annotated[str, typer.Option("--out", "-o", help="File to write, or - for stdout.")] = "-",
    data_dir: DataDirOption = None,
) -> None:
    """Write a space as JSONL: a header, then its turns, beliefs, dimensions, deltas and records."""
    settings = load_settings(data_dir)
    errors = err_console()
    with open_memory(settings, must_exist=True) as mem:
        note_unknown_space(mem.spaces(), space)
        records = list(mem.export_space(space))
        counts: Counter[str] = Counter(record.kind for record in records[1:])
        with _output(out) as stream, progress_bar(errors, transient=True) as bar:
            task = bar.add_task("export", total=len(records))
            for record in records:
                stream.write(json_visible(record_json(record)) + "\n")  # DEL, C1 escaped too
                bar.advance(task)
    errors.print(_counts_table(f"exported {space!r} to {out}", counts))


def import_space(
    file: Annotated[str, typer.Argument(help="An eywa export (JSONL), or - for stdin.", show_default=False)],
    space: SpaceOption,
    data_dir: DataDirOption = None,
) -> None:
    """Restore an export into an empty space (nothing is extracted again; turns are re-embedded)."""
    settings = load_settings(data_dir)
    # The file is opened before the memory, so a wrong path leaves no empty memory behind;
    # a refused import (a bad line, a non-empty space) removes the store it created. Once the
    # import committed, a failure or an interrupt while embedding keeps it (the next open
    # embeds what is left).
    with _input(file) as stream, _fresh(settings) as undo, open_memory(settings) as mem:
        report = mem.import_space(space, _utf8_lines(stream, file), wait=False)
        undo.keep()
        _embed_with_progress(mem, space)
    console = out_console(markup=False)
    if report.already_imported:
        console.print(f"{space!r} already holds just this export (an import of it landed before): nothing written", soft_wrap=True)
        return
    console.print(_counts_table(f"imported into {space!r}", report.counts))
    console.print(f"{report.pending_embeddings} turns and beliefs embedded again (vectors are not exported)", soft_wrap=True)
    if report.outdated_signals:
        console.print(
            f"{report.outdated_signals} turns hold signals an older release detected: "
            f"`eywa reprocess --space {space}` detects them again",
            soft_wrap=True,
        )


def backup(
    to: Annotated[Path, typer.Option("--to", help="A new or empty directory for the copy.", show_default=False)],
    data_dir: DataDirOption = None,
) -> None:
    """Copy the embedded directory online (SQLite's backup API), also beside a running eywa serve."""
    settings = load_settings(data_dir)
    if backend_of(settings) == "server":
        raise ConfigurationError(
            "eywa backup copies an embedded directory; on the server backends use neo4j-admin database dump "
            "and Qdrant snapshots, or eywa export per space"
        )
    require_embedded_store(settings.data_dir)  # else an empty "backup" of any directory
    # The destination is checked as Memory.backup checks it: a path under a file was the
    # store's "Not a directory" failure, store_unavailable, for the caller's own mistake.
    destination = check_directory(to, "--to")
    report = backup_directory(settings.data_dir, destination, utc_now(), database=DATABASE_FILE, field="--to")
    out_console(markup=False).print(
        f"backed up {settings.data_dir} to {report.destination}: {', '.join(report.files)}; "
        f"{report.turns} turns and {report.beliefs} beliefs are embedded again when the copy is opened",
        soft_wrap=True,
    )
