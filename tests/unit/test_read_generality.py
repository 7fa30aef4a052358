"""Nothing in the read path may refer to a development conversation's speakers: the read
path is tuned for conversations it has never seen (issue #15)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import eywa.read
from tests.devdata import DEV_FILE, DEV_MISSING


@pytest.mark.skipif(DEV_MISSING, reason="development data not present")
def test_no_read_module_names_a_development_speaker() -> None:
    samples = json.loads(DEV_FILE.read_text(encoding="utf-8"))
    speakers = {s["conversation"][key] for s in samples for key in ("speaker_a", "speaker_b")}
    assert len(speakers) >= 5
    pattern = re.compile(r"\b(" + "|".join(re.escape(name) for name in sorted(speakers)) + r")\b")
    root = Path(eywa.read.__file__).parent
    found = {
        str(path.relative_to(root)): sorted(set(pattern.findall(path.read_text(encoding="utf-8"))))
        for path in sorted(root.rglob("*.py"))
    }
    assert {path: names for path, names in found.items() if names} == {}
