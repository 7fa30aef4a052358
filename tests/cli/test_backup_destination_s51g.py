"""``eywa backup --to`` a path the caller cannot write is refused as the caller's input.

It was ``error: sqlite store failed during backup: … -> /proc/x: [Errno 2] No such file or
directory … [store_unavailable]``: a fault of the store, for the operator's own path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.stores.embedded.factory import open_embedded

PROC = Path("/proc/self")


@pytest.mark.skipif(not PROC.is_dir(), reason="needs a procfs, where no directory can be made")
def test_backup_to_a_path_that_cannot_be_created_is_invalid_input(runner: CliRunner, tmp_path: Path) -> None:
    data = tmp_path / "a"
    open_embedded(data, 8).close()
    dest = PROC / "eywa-backup-copy"
    refused = runner.invoke(app, ["backup", "--to", str(dest), "--data-dir", str(data)])
    assert refused.exit_code == 1, refused.output
    assert f"--to: {dest} cannot be created or written" in refused.stderr, refused.stderr
    assert refused.stderr.strip().endswith("[invalid_input]") and "store_unavailable" not in refused.stderr
    assert "Traceback" not in refused.output
