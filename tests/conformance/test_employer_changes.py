"""Where someone works now, end to end with the default rule extractor on every backend:
an employer's name is one value however a turn spells it, and quitting one job for another
names the new employer in the same sentence."""

from __future__ import annotations

from eywa import Memory


def _turn(text: str, when: str) -> dict[str, str]:
    return {"text": text, "speaker": "Dana", "session": f"s{when[:10]}", "observed_at": when}


def test_a_possessive_employer_name_is_one_value_so_quitting_it_ends_it(memory: Memory) -> None:
    """"Macy’s" (curly apostrophe, sentence end) and "Macy's" (straight, mid-sentence) were
    two values, "Macy’s" and "Macy": the quit ended a job never held and the memory still said
    she worked there."""
    memory.remember("r", [_turn("I work at Macy’s.", "2024-01-10T10:00:00")])
    memory.remember("r", [_turn("I quit my job at Macy's last week, finally.", "2024-03-04T10:00:00")])
    employer = memory.dimension("r", "Dana", "employer")
    assert employer is not None and employer.mode != "Macy's", employer
    assert employer.previous == "Macy's", employer
    assert {b.value for b in memory.beliefs("r", subject="Dana", attribute="employer")} == {"Macy's"}


def test_quitting_one_employer_to_join_another_answers_the_new_one(memory: Memory) -> None:
    memory.remember("r", [_turn("I quit Brightwell to join Halcyon Labs as a tester.", "2024-06-03T10:00:00")])
    employer = memory.dimension("r", "Dana", "employer")
    assert employer is not None and employer.mode == "Halcyon Labs", employer
    memory.remember("r", [_turn("I resigned from Halcyon Labs to work for Orchard Mill.", "2025-02-03T10:00:00")])
    employer = memory.dimension("r", "Dana", "employer")
    assert employer is not None and (employer.mode, employer.previous) == ("Orchard Mill", "Halcyon Labs"), employer


def test_quitting_to_join_a_person_names_no_employer(memory: Memory) -> None:
    memory.remember("r", [_turn("My brother Tomas lives in Porto.", "2024-06-01T10:00:00")])
    memory.remember("r", [_turn("I quit Brightwell and joined Tomas in Porto.", "2024-06-03T10:00:00")])
    employer = memory.dimension("r", "Dana", "employer")
    assert employer is None or employer.mode is None, employer
