"""README, "Two API replicas and the workers": "local-mode Qdrant cannot be shared between
processes; a second ``eywa serve`` on the same folder stops with ``store_unavailable: …
already accessed by another instance of Qdrant client``" (audit of s40: no test opened a
local-mode folder another process holds).

The server backends open their vectors with ``eywa.stores.server.connect_qdrant`` (every
entry point: ``eywa serve``, the workers, the CLI with ``EYWA_NEO4J_URI``), so the second
process's refusal is that function's: a ``StoreError`` (``store_unavailable``) naming the
folder and Qdrant's reason, not qdrant-client's ``RuntimeError``; once the first process has
let go, the folder opens. The refused open runs in a process of its own (a refused open
leaves qdrant-client's lock file to the garbage collector).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from eywa.settings import EywaSettings
from eywa.stores.server import connect_qdrant

ROOT = Path(__file__).resolve().parents[2]
OPEN = """
import sys
from eywa.errors import EywaError
from eywa.settings import EywaSettings
from eywa.stores.server import connect_qdrant
try:
    client = connect_qdrant(EywaSettings(data_dir=sys.argv[1]))
except EywaError as exc:
    print(f"{type(exc).__name__} {exc.code}: {exc}", flush=True)
    raise SystemExit(1)
print("held", flush=True)
sys.stdin.read()
client.close()
"""


def _open(directory: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", OPEN, str(directory)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


def _rest_and_exit(process: subprocess.Popen[str]) -> tuple[str, int]:
    """What the process prints once told to let go (stdin closed), and its exit status."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()
    return process.stdout.read().strip(), process.wait(timeout=60)


def test_a_local_mode_folder_another_process_holds_is_refused_as_store_unavailable(tmp_path: Path) -> None:
    settings = EywaSettings(data_dir=tmp_path)
    holder = connect_qdrant(settings)  # this process holds the folder
    try:
        with _open(tmp_path) as second:
            refused, status = _rest_and_exit(second)
    finally:
        holder.close()
    assert status == 1 and refused.startswith("StoreError store_unavailable: "), refused
    assert "already accessed by another instance of Qdrant client" in refused
    assert str(tmp_path / "qdrant-local") in refused
    connect_qdrant(settings).close()  # let go: the folder opens again
