"""Nothing in the product's code refers to a development conversation's speakers or wording.

Recall is tuned on the development file and judged on conversations it has not seen; a rule,
a word list or even a docstring example copied from the development file's turns or questions
is how tuning hides in code. This scans every module of ``eywa/`` for a development speaker's
name (a whole word) and for any run of six words said in a development turn, question or
answer, and names the lines that hold one. Tests may load the development file by design
(the loader's and the CLI's tests), so only the package is scanned.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.devdata import DEV_FILE, DEV_MISSING

pytestmark = pytest.mark.skipif(DEV_MISSING, reason="LoCoMo development file not present")

_PACKAGE = Path(__file__).resolve().parents[2] / "eywa"
_WORD = re.compile(r"[a-z0-9']+")
_RUN = 6


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + _RUN]) for i in range(len(words) - _RUN + 1)}


def _development() -> tuple[set[str], set[tuple[str, ...]]]:
    """The development file's speakers and its six-word runs (turns, questions, answers)."""
    speakers: set[str] = set()
    runs: set[tuple[str, ...]] = set()
    for sample in json.loads(DEV_FILE.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        speakers |= {conversation["speaker_a"], conversation["speaker_b"]}
        for key, turns in conversation.items():
            if key.startswith("session_") and isinstance(turns, list):
                for turn in turns:
                    runs |= _runs(str(turn.get("text", "")))
        for qa in sample["qa"]:
            runs |= _runs(str(qa.get("question", ""))) | _runs(str(qa.get("answer", "")))
    return speakers, runs


def test_no_module_holds_a_development_speaker_or_six_words_of_development_wording() -> None:
    speakers, runs = _development()
    named = re.compile(r"\b(?:" + "|".join(re.escape(s) for s in sorted(speakers)) + r")\b")
    found: list[str] = []
    for path in sorted(_PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if named.search(line) or _runs(line) & runs:
                found.append(f"{path.relative_to(_PACKAGE.parent)}:{number}: {line.strip()}")
    assert not found, "development speakers or wording in the package:\n" + "\n".join(found)
