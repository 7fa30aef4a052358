"""What a turn's vector covers, on every backend: the mean of two windows' embeddings, the
turn after the one before it and the turn with its reply, so that an answer is found by the
words of the question it answers. A turn written later changes the vector of the one before
it; an erased turn leaves the vectors of the turns on either side (docs/evaluation.md,
session 37)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from eywa import Memory
from tests.conformance.conftest import MemoryFactory

SPACE = "home"
ASKED = "How did you spend your Saturday?"
ANSWER = "We went camping by the lake!"
AFTER = "Lovely, I hope the weather held."


def turn(speaker: str, text: str, minute: int) -> dict[str, str]:
    return {"speaker": speaker, "text": text, "session": "s1", "observed_at": f"2024-05-04T10:0{minute}:00"}


def expected(mem: Memory, windows: Sequence[str]) -> npt.NDArray[np.float32]:
    """The unit vector along the sum of the windows' embeddings."""
    total = np.sum(mem._embedder.embed(list(windows)), axis=0)
    return np.asarray(total / np.linalg.norm(total), dtype=np.float32)


def stored_as(mem: Memory, evidence_id: str, windows: Sequence[str]) -> bool:
    """Whether the turn's stored vector is the windows' mean: it is the nearest point to it,
    at a cosine of 1."""
    hits = mem._stores.vectors.search("evidence", SPACE, expected(mem, windows), 1)
    return bool(hits) and hits[0][0] == evidence_id and hits[0][1] > 0.999


def test_an_answer_holds_the_question_before_it_and_its_reply_after(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    asked, answer = mem.remember(SPACE, [turn("Ana", ASKED, 0), turn("Ben", ANSWER, 1)], wait=True)
    (after,) = mem.remember(SPACE, [turn("Ana", AFTER, 2)], wait=True)  # a later write
    question_answer = f"Ana: {ASKED}\nBen: {ANSWER}"
    answer_reply = f"Ben: {ANSWER}\nAna: {AFTER}"
    assert stored_as(mem, asked, [question_answer])  # a session's first turn: its reply only
    assert stored_as(mem, answer, [question_answer, answer_reply])  # re-embedded when AFTER came
    assert stored_as(mem, after, [answer_reply, f"Ana: {AFTER}"])  # the last: the turn before


def test_an_erased_turn_leaves_the_vectors_on_either_side(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    asked, answer, after = mem.remember(
        SPACE, [turn("Ana", ASKED, 0), turn("Ben", ANSWER, 1), turn("Ana", AFTER, 2)], wait=True
    )
    mem.forget(SPACE, evidence_ids=[answer])
    assert stored_as(mem, asked, [f"Ana: {ASKED}"])
    assert stored_as(mem, after, [f"Ana: {AFTER}"])
    assert mem._stores.vectors.missing("evidence", [asked, answer, after]) == {answer}
