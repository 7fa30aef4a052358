"""README, Dimensions: the figures its examples give, through ``Memory`` and the default
rule extractor (audit of s32).

- "an asserted statement of a value other than the one believed ("I live in Porto", a month
  later) ... releases up to half (... a month later 0.49): the new value is answered (Porto
  0.86) and the old keeps a share (Lisbon 0.12 ...)";
- "I work at Initech", then "I'm retired now" answers with ``retired`` (p 0.92); "I'm
  unemployed", then "I got a job at Initech" answers Initech.

The behaviour was tested (tests/contract/test_beliefs_that_answer.py), the figures were not:
the README said Porto 0.83, Lisbon 0.13 and retired 0.90, the figures of the commits that
made them, before the validator's reliability of an asserted rule belief rose to 0.95. The
README now says what a memory answers, and this test keeps the two together.
"""

from __future__ import annotations

import pytest

from eywa import Memory

FIRST, LATER, ASKED = "2024-05-01T10:00:00Z", "2024-05-31T10:00:00Z", "2024-05-31T10:00:01Z"


def _dimension_after(memory: Memory, space: str, first: str, later: str, attribute: str) -> dict[str, float]:
    memory.remember(space, [{"text": first, "speaker": "Alice", "observed_at": FIRST},
                            {"text": later, "speaker": "Alice", "observed_at": LATER}])  # fmt: skip
    return dict(memory.dimension(space, "Alice", attribute, as_of=ASKED).distribution)


def test_a_contradiction_a_month_later_releases_049_and_answers_porto_086(memory: Memory) -> None:
    held = _dimension_after(memory, "figures-porto", "I moved to Lisbon.", "I live in Porto.", "residence")
    assert held["Porto"] == pytest.approx(0.86, abs=0.01) and held["Lisbon"] == pytest.approx(0.12, abs=0.01)
    hazards = [d.hazard for d in memory.deltas("figures-porto", "Alice", "residence")]
    assert hazards[-1] == pytest.approx(0.49, abs=0.01)


@pytest.mark.parametrize(
    ("first", "later", "answer"),
    [("I work at Initech.", "I'm retired now.", "retired"), ("I'm unemployed.", "I got a job at Initech.", "Initech")],
)
def test_a_value_that_ends_the_one_before_answers_at_092(memory: Memory, first: str, later: str, answer: str) -> None:
    held = _dimension_after(memory, f"figures-{answer.lower()}", first, later, "employer")
    assert max(held, key=held.__getitem__) == answer and held[answer] == pytest.approx(0.92, abs=0.01)
