"""README, Python API: "``close()`` (or leaving the ``with`` block) refuses new calls with
``ClosedError`` ...; an iterator it returned (``export_space``) raises ``ClosedError`` at its
next step."

``test_close_beside_calls`` drains whole exports in a loop beside a close, so it passes
whenever no other exception surfaces; nothing stepped an iterator across a close and looked
at what it raised (audit of s32).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eywa.errors import ClosedError

from .conftest import open_memory


@pytest.mark.parametrize("how", ["close", "with"])
def test_an_export_iterator_raises_closed_error_at_its_next_step(tmp_path: Path, how: str) -> None:
    memory = open_memory(tmp_path / "m")
    memory.remember("s", [{"text": f"I live in Porto, street {i}.", "speaker": "Ana"} for i in range(5)])
    if how == "with":
        with memory:
            records = memory.export_space("s")
            assert next(records).kind == "header"
    else:
        records = memory.export_space("s")
        assert next(records).kind == "header"
        memory.close()
    with pytest.raises(ClosedError):
        next(records)
    with pytest.raises(ClosedError):  # a new export is refused at its first step (a generator)
        next(memory.export_space("s"))
