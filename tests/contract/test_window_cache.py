"""A turn's windows are embedded once (``eywa.embedding.cache``), and what is kept never
changes a vector: whatever the sequence of writes (one turn at a time, batches, writes
finished in the background, erasures beside writes, a crash and a restart), every stored
turn vector is what embedding the whole space at once gives, and an erased turn's windows
are neither kept nor in any vector left."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa import Memory, crashpoints
from eywa.crashpoints import CrashPoint
from eywa.settings import EywaSettings
from eywa.stores.context import vector_windows
from tests.contract.conftest import HashEmbedder

SPACE = "porch"
LINES = [
    ("Ines", "Did the tomatoes survive the hail on Tuesday?"),
    ("Omar", "Half of them, the cherry ones under the awning."),
    ("Ines", "Then we should cover the beds before Friday."),
    ("Omar", "I bought a roll of fleece at the hardware shop."),
    ("Ines", "Good, the forecast says frost by the weekend."),
    ("Omar", "I will stake the peppers tonight as well."),
    ("Ines", "Leave the basil, it is finished anyway."),
    ("Omar", "Fine, it can go on the compost heap."),
]


class RecordingEmbedder(HashEmbedder):
    """The hashing embedder, keeping every text it was asked to embed."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.texts.extend(texts)
        return super().embed(texts)


class Interrupted(Exception):
    """The injected fault: the process stops right after a vector upsert."""


def _open(directory: Path, embedder: RecordingEmbedder) -> Memory:
    return Memory.open(directory, settings=EywaSettings(data_dir=directory), embedder=embedder)


def turns(session: str, lines: Sequence[tuple[str, str]], first_minute: int = 0) -> list[dict[str, str]]:
    return [
        {"speaker": speaker, "text": text, "session": session, "observed_at": f"2024-03-09T08:{first_minute + i:02d}:00"}
        for i, (speaker, text) in enumerate(lines)
    ]


def whole_space(mem: Memory, space: str) -> dict[str, npt.NDArray[np.float32]]:
    """Every stored turn's vector as embedding the space at once gives it: each turn's
    windows over the stored turns (seq +- 1 of its session), embedded in one call."""
    stored = mem._stores.evidence.get(space, mem._stores.evidence.ids(space))
    at = {(t.session, t.seq): t for t in stored}
    windows = {t.id: vector_windows(t, at.get((t.session, t.seq - 1)), at.get((t.session, t.seq + 1))) for t in stored}
    texts = sorted({text for pair in windows.values() for text in pair})
    rows = dict(zip(texts, HashEmbedder().embed(texts), strict=True))
    expected = {}
    for ident, pair in windows.items():
        total = np.sum([rows[text] for text in pair], axis=0)
        expected[ident] = np.asarray(total / np.linalg.norm(total), dtype=np.float32)
    return expected


def assert_as_if_embedded_at_once(mem: Memory, space: str) -> None:
    expected = whole_space(mem, space)
    assert expected
    assert mem._stores.vectors.count("evidence", space) == len(expected)
    for ident, vector in expected.items():
        similarity = dict(mem._stores.vectors.search("evidence", space, vector, len(expected)))
        assert similarity.get(ident, 0.0) > 0.99999, ident


def test_a_turn_written_alone_embeds_each_window_once(tmp_path: Path) -> None:
    embedder = RecordingEmbedder()
    with _open(tmp_path / "m", embedder) as mem:
        for minute, line in enumerate(LINES[:6]):
            mem.remember(SPACE, turns("s1", [line], minute), wait=True)
        assert_as_if_embedded_at_once(mem, SPACE)
    windows = [t for t in embedder.texts if t.startswith(("Ines: ", "Omar: "))]  # not beliefs
    assert not sorted({t for t in windows if windows.count(t) > 1})
    assert len(windows) == 1 + 2 * 5  # the first turn alone, then its pair and itself each


def test_vectors_equal_the_whole_space_embedded_at_once_after_any_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = RecordingEmbedder()
    mem = _open(tmp_path / "m", embedder)
    mem.remember(SPACE, turns("s1", LINES[:3]), wait=True)  # a batch
    mem.remember(SPACE, turns("s1", LINES[3:4], 3), wait=True)  # one turn after it
    mem.remember(SPACE, turns("s2", LINES[4:6]), wait=False)  # finished in the background
    mem.remember(SPACE, turns("s2", LINES[6:7], 2), wait=False)
    mem.wait()
    assert_as_if_embedded_at_once(mem, SPACE)
    (erased,) = mem.remember(SPACE, turns("s1", LINES[4:5], 4), wait=True)
    mem.remember(SPACE, turns("s1", LINES[5:6], 5), wait=True)
    mem.forget(SPACE, evidence_ids=[erased])  # an erasure between two writes of its session
    mem.remember(SPACE, turns("s1", LINES[6:7], 6), wait=True)
    assert_as_if_embedded_at_once(mem, SPACE)

    def reached(point: CrashPoint) -> None:
        if point == "evidence_vectors_upserted":
            raise Interrupted(point)

    monkeypatch.setattr(crashpoints, "reached", reached)
    with pytest.raises(Interrupted):  # vectors upserted, their marks not yet cleared
        mem.remember(SPACE, turns("s2", LINES[7:8], 3), wait=True)
    monkeypatch.undo()
    mem.close()
    with _open(tmp_path / "m", embedder) as again:  # the restart finishes the marks, cache empty
        again.wait()
        again.remember(SPACE, turns("s1", LINES[7:8], 7), wait=True)
        assert_as_if_embedded_at_once(again, SPACE)


def test_an_erased_turn_leaves_no_window_kept_nor_in_its_neighbours(tmp_path: Path) -> None:
    embedder = RecordingEmbedder()
    with _open(tmp_path / "m", embedder) as mem:
        ids = mem.remember(SPACE, turns("s1", LINES[:3]), wait=True)
        mem.remember(SPACE, turns("s1", LINES[3:4], 3), wait=True)
        speaker, text = LINES[1]
        spoken = f"{speaker}: {text}"
        kept = mem._stores.windows
        with_it = [t for t in dict.fromkeys(embedder.texts) if spoken in t]
        assert with_it and all(kept.holds(embedder, t) for t in with_it)
        asked = len(embedder.texts)
        mem.forget(SPACE, evidence_ids=[ids[1]])
        assert not any(kept.holds(embedder, t) for t in with_it)
        assert not any(spoken in t for t in embedder.texts[asked:])  # the neighbours' new windows
        assert_as_if_embedded_at_once(mem, SPACE)
