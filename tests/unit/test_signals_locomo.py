"""Level 0 over every turn of the LoCoMo development file: no crash, no false dates, fast."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime, timezone
from typing import Any

import pytest

from eywa.models import SignalKind
from eywa.signals import detect_signals, resolve_time_expressions
from tests.devdata import DEV_FILE, DEV_MISSING

_DEV = None if DEV_MISSING else DEV_FILE
_SESSION = re.compile(r"session_(\d+)")
_DEICTIC = {"yesterday", "today", "tomorrow", "tonight"}

Turn = tuple[str, datetime, str, tuple[str, str], str]


def _turns() -> list[Turn]:
    if _DEV is None:
        pytest.skip("the LoCoMo development file is not available")
    samples: list[dict[str, Any]] = json.loads(_DEV.read_text(encoding="utf-8"))
    turns: list[Turn] = []
    for sample in samples:
        conversation = sample["conversation"]
        speakers = (conversation["speaker_a"], conversation["speaker_b"])
        for key, session in conversation.items():
            if not _SESSION.fullmatch(key) or not session:
                continue
            stamp = conversation[f"{key}_date_time"]
            observed = datetime.strptime(stamp, "%I:%M %p on %d %B, %Y").replace(
                tzinfo=timezone.utc
            )
            for turn in session:
                text = turn["text"] + (
                    f" {turn['blip_caption']}" if turn.get("blip_caption") else ""
                )
                turns.append((text, observed, turn["speaker"], speakers, stamp))
    return turns


@pytest.fixture(scope="module")
def turns() -> list[Turn]:
    return _turns()


def test_every_turn_yields_well_formed_signals_and_no_word_dates(turns: list[Turn]) -> None:
    assert len(turns) > 2000
    started = time.perf_counter()
    results = [detect_signals(text, at, speaker, known) for text, at, speaker, known, _ in turns]
    elapsed = time.perf_counter() - started
    print(f"\nLevel 0 signals: {len(turns) / elapsed:,.0f} turns/s over {len(turns)} LoCoMo turns")

    word_dates = []
    for (text, *_), signals in zip(turns, results, strict=True):
        for signal in signals:
            assert text[signal.start : signal.end] == signal.text
            is_word = signal.text.isalpha() and signal.text.lower() not in _DEICTIC
            if signal.kind is SignalKind.DATE and is_word:
                word_dates.append(signal.text)
    assert word_dates == []
    assert sum(1 for s in results for x in s if x.kind is SignalKind.DATE) > 100
    assert len(turns) / elapsed > 500  # a loose floor; the target on a dev machine is 2,000


def test_speakers_are_found_as_people(turns: list[Turn]) -> None:
    first = turns[0][3]  # the first conversation's two speakers, read from the file
    mentioned = {
        s.normalized
        for text, at, speaker, known, _ in turns[:300]
        for s in detect_signals(text, at, speaker, known)
        if s.kind is SignalKind.PERSON
    }
    assert set(first) <= mentioned


def test_session_stamps_resolve_to_their_minute(turns: list[Turn]) -> None:
    for _, observed, _, _, stamp in turns[:: max(1, len(turns) // 50)]:
        signals = resolve_time_expressions(stamp, datetime(2000, 1, 1, tzinfo=timezone.utc))
        date = next(s for s in signals if s.kind is SignalKind.DATE)
        time_ = next(s for s in signals if s.kind is SignalKind.TIME)
        assert date.normalized == observed.date().isoformat()
        assert time_.normalized == observed.strftime("%Y-%m-%dT%H:%M")
