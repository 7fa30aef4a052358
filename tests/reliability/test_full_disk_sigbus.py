"""A real full file system under the embedded store: refused, never SIGBUS, and a restart
with room again finds everything (``eywa.stores.embedded.room``).

A tmpfs is mounted in a user and mount namespace of its own (``unshare -rm``: no root on the
host, nothing seen outside); the test is skipped where that is not allowed. When this was
found, the vector write was what met the full disk (SQLite committed in its free pages) and
Qdrant Edge's memory-mapped files ended the process with SIGBUS (exit 135; with 96 KiB
left on a 64 MiB tmpfs), and so did a restart on the disk still full. Here the disk is
filled to 4 MiB from full, under the vectors' floor and with room for SQLite, so the run is
the same every time: the waited write is refused with a ``StoreError`` (its turns stored,
their vectors pending), the restart on the full disk is refused at open with one, and once
room is made the next open embeds what was pending: the state of a clean run.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, os, sys
from pathlib import Path
from eywa import Memory
from eywa.errors import StoreError
from eywa.settings import EywaSettings
from tests.reliability.support import HashEmbedder

data, step = Path(sys.argv[1]), sys.argv[2]
filler = data.parent / "filler"
out = {}
try:
    with Memory.open(data, embedder=HashEmbedder(), settings=EywaSettings(data_dir=data)) as m:
        if step == "fill":
            m.remember("s", [{"text": "An old turn.", "speaker": "Ana"}])
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                while os.write(fd, b"\0" * 65536):
                    pass
            except OSError:  # ENOSPC: the disk is full
                pass
            finally:
                os.close(fd)
            os.truncate(filler, os.path.getsize(filler) - 4 * 2**20)  # room for SQLite, under the floor
            try:
                m.remember("s", [{"text": f"Turn {j}: I moved to Porto.", "speaker": "Bo"} for j in range(10)], wait=True)
                out["write"] = "accepted"
            except StoreError as exc:
                out["write"] = str(exc)
            out["turns"], out["pending"] = m.stats("s")["evidence"], m.pending("s").embed
        else:
            m.wait()
            out["turns"], out["pending"] = m.stats("s")["evidence"], m.pending("s").embed
            out["vectors"] = m._stores.vectors.count("evidence", "s")
except StoreError as exc:  # at open, or at close (the shards' last flush on the full disk)
    out["close" if "turns" in out else "open"] = str(exc)
print(json.dumps(out))
"""


def _mountable() -> bool:
    if shutil.which("unshare") is None or sys.platform != "linux":
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _mountable(), reason="no tmpfs can be mounted in a user namespace here")
def test_a_full_tmpfs_refuses_the_vector_write_and_a_restart_with_room_recovers(tmp_path: Path) -> None:
    mount, data = tmp_path / "tfs", tmp_path / "tfs" / "mem"
    mount.mkdir()
    (tmp_path / "child.py").write_text(CHILD)
    child = [shlex.quote(sys.executable), shlex.quote(str(tmp_path / "child.py")), shlex.quote(str(data))]
    script = " && ".join([
        f"mount -t tmpfs -o size=160m tmpfs {mount}",
        " ".join([*child, "fill"]) + f" > {tmp_path}/fill.json; echo $? > {tmp_path}/fill.rc",
        " ".join([*child, "full"]) + f" > {tmp_path}/full.json; echo $? > {tmp_path}/full.rc",
        f"rm {mount}/filler",
        " ".join([*child, "room"]) + f" > {tmp_path}/room.json; echo $? > {tmp_path}/room.rc",
    ])  # fmt: skip
    subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                   timeout=600, check=False)  # fmt: skip
    codes = {step: (tmp_path / f"{step}.rc").read_text().strip() for step in ("fill", "full", "room")}
    assert codes == {"fill": "0", "full": "0", "room": "0"}, codes  # 135 was SIGBUS
    fill = json.loads((tmp_path / "fill.json").read_text())
    # 4 MiB left: SQLite commits, the vector write is under the floor
    assert "vectors' disk" in fill["write"] and "SIGBUS" in fill["write"], fill
    assert (fill["turns"], fill["pending"]) == (11, 10), fill  # stored, the new ten owed their vectors
    full = json.loads((tmp_path / "full.json").read_text())
    assert "needed to open: refused" in full["open"], full
    assert json.loads((tmp_path / "room.json").read_text()) == {"turns": 11, "pending": 0, "vectors": 11}


CLOSE_CHILD = r"""
import json, logging, os, sys
from pathlib import Path
from eywa import Memory
from eywa.errors import StoreError
from eywa.settings import EywaSettings
from tests.reliability.support import HashEmbedder

warned = []
class Keep(logging.Handler):
    def emit(self, record):
        warned.append(record.getMessage())
logging.getLogger("eywa").addHandler(Keep(logging.WARNING))

data, step = Path(sys.argv[1]), sys.argv[2]
filler = data.parent / "filler"
out = {}
m = Memory.open(data, embedder=HashEmbedder(), settings=EywaSettings(data_dir=data))
if step == "fill":
    m.remember("s", [{"text": f"Turn {j}: I moved to Porto.", "speaker": "Bo"} for j in range(10)], wait=True)
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    for block in (65536, 512):  # to the last byte
        try:
            while os.write(fd, b"\0" * block):
                pass
        except OSError:  # ENOSPC
            pass
    os.close(fd)
else:
    m.wait()
    out["turns"], out["pending"] = m.stats("s")["evidence"], m.pending("s").embed
    out["vectors"] = m._stores.vectors.count("evidence", "s")
try:
    m.close()
    out["close"] = "returned"
except BaseException as exc:
    out["close"] = repr(exc)
out["warned"] = warned
fds = [os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd") if os.path.islink(f"/proc/self/fd/{fd}")]
out["open files"] = [name for name in fds if name.startswith(str(data))]
import fcntl
with open(data / ".lock") as lock:
    fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises when close left it held
print(json.dumps(out))
"""


@pytest.mark.skipif(not _mountable(), reason="no tmpfs can be mounted in a user namespace here")
def test_close_on_a_full_disk_releases_everything_says_what_was_not_flushed_and_loses_nothing(tmp_path: Path) -> None:
    """``Memory.close`` on a disk full to the last byte raised ``StoreError`` ("sqlite store
    failed during close: database or disk is full": the WAL checkpoint; the shards' last flush
    fails too, depending on where the disk filled), so ``eywa serve`` ended its shutdown in a
    traceback. Now it returns, having closed every file and released the lock (the next
    open, with room, is not refused as ``directory_in_use``), with one warning naming what
    was not flushed; the reopened memory holds every acknowledged turn and its vector. A
    reading command on the full disk (``eywa stats``) failed the same way at its close
    ("error: sqlite store failed during close"); it answers."""
    mount, data = tmp_path / "tfs", tmp_path / "tfs" / "mem"
    mount.mkdir()
    (tmp_path / "child.py").write_text(CLOSE_CHILD)
    child = [shlex.quote(sys.executable), shlex.quote(str(tmp_path / "child.py")), shlex.quote(str(data))]
    script = " && ".join([
        f"mount -t tmpfs -o size=160m tmpfs {mount}",
        " ".join([*child, "fill"]) + f" > {tmp_path}/fill.json; echo $? > {tmp_path}/fill.rc",
        f"{shlex.quote(sys.executable)} -m eywa.cli stats --space s --data-dir {shlex.quote(str(data))}"
        f" > {tmp_path}/stats.out 2>&1; echo $? > {tmp_path}/stats.rc",  # a reading command, the disk still full
        f"rm {mount}/filler",
        " ".join([*child, "room"]) + f" > {tmp_path}/room.json; echo $? > {tmp_path}/room.rc",
    ])  # fmt: skip
    subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                   timeout=600, check=False)  # fmt: skip
    codes = {step: (tmp_path / f"{step}.rc").read_text().strip() for step in ("fill", "stats", "room")}
    stats = (tmp_path / "stats.out").read_text()
    assert codes == {"fill": "0", "stats": "0", "room": "0"}, (codes, stats)  # stats: 'failed during close'
    assert re.search(r"^\W*evidence\W+10\W*$", stats, re.MULTILINE), stats
    fill = json.loads((tmp_path / "fill.json").read_text())
    assert (fill["close"], fill["open files"]) == ("returned", []), fill
    # SQLite's checkpoint, and the shards' flush when the disk filled under it: each said once
    warned = "\n".join(fill["warned"])
    assert "eywa.sqlite3: the write-ahead log was not checkpointed" in warned and "next open replays" in warned, warned
    assert all(w.startswith(("eywa.sqlite3: the write-ahead log", "memory closed without its last flush: qdrant-edge"))
               for w in fill["warned"]), fill["warned"]  # fmt: skip
    room = json.loads((tmp_path / "room.json").read_text())
    assert room == {"turns": 10, "pending": 0, "vectors": 10, "close": "returned", "warned": [], "open files": []}, room
