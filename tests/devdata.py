"""Where the development data lives: ``shared/`` beside the checkout (as on CI), else the
workplace's copy. Tests that need it skip without it, except on CI, where it must exist."""

from __future__ import annotations

import os
from pathlib import Path

_RELATIVE = Path("shared/data/locomo/locomo-dev.json")
_CANDIDATES = (
    Path(__file__).resolve().parents[2] / _RELATIVE,
    Path("/work") / _RELATIVE,
)
DEV_FILE: Path = next((p for p in _CANDIDATES if p.is_file()), _CANDIDATES[0])
DEV_MISSING = not DEV_FILE.is_file() and os.environ.get("CI") != "true"
