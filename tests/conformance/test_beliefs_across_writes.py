"""A belief that cites a turn none of its words are in reaches the dimensions on every
backend, whichever write brought which turn: the reply that asserts its question, written
after it, and a turn read again once a later-arriving turn gave the name it leans on. Both
stores find a turn's beliefs by their ``SUPPORTED_BY`` links; every cited turn has one."""

from __future__ import annotations

from eywa import Memory


def _turn(speaker: str, text: str, when: str) -> dict[str, str]:
    return {"text": text, "speaker": speaker, "session": f"s{when[:10]}", "observed_at": when}


def test_a_reply_written_after_its_question_answers(memory: Memory) -> None:
    memory.remember("r", [_turn("Bob", "Do you still work at Initech?", "2024-05-01T10:00:00")])
    [reply] = memory.remember("r", [_turn("Alice", "Yes, still there.", "2024-05-01T10:01:00")])
    employer = memory.dimension("r", "Alice", "employer")
    assert employer is not None and employer.mode == "Initech", employer
    assert [b.statement for b in memory.beliefs_citing("r", reply)] == ["Alice works at Initech."]


def test_a_turn_read_again_once_the_name_arrives_answers(memory: Memory) -> None:
    memory.remember("r", [_turn("Alice", "I left Globex and joined Initech.", "2024-07-01T10:00:00")])
    memory.remember("r", [_turn("Alice", "I work at Globex.", "2024-05-01T10:00:00")])
    employer = memory.dimension("r", "Alice", "employer")
    assert employer is not None and employer.mode == "Initech", employer
    assert employer.distribution["Initech"] > 0.9, employer.distribution


def test_a_named_person_leaving_their_job_names_the_new_one(memory: Memory) -> None:
    memory.remember("r", [_turn("Alice", "My sister Eva works at Globex.", "2024-05-01T10:00:00")])
    memory.remember("r", [_turn("Alice", "Eva quit Globex and joined Initech last month.", "2024-07-01T10:00:00")])
    employer = memory.dimension("r", "Eva", "employer")
    assert employer is not None and employer.mode == "Initech", employer


def test_a_named_persons_job_change_written_before_they_were_introduced_answers(memory: Memory) -> None:
    """"Eva left Globex and joined Initech" sent before "My sister Eva works at Globex"
    (sessions written out of order): Level 0 read no person in a sentence-initial name before
    "left", so the later turn's Globex was Eva's employer."""
    memory.remember("r", [_turn("Alice", "Eva left Globex and joined Initech last month.", "2024-07-01T10:00:00")])
    memory.remember("r", [_turn("Alice", "My sister Eva works at Globex.", "2024-05-01T10:00:00")])
    employer = memory.dimension("r", "Eva", "employer")
    assert employer is not None and employer.mode == "Initech", employer
