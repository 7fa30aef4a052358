"""The evidence-strength signal: the vector route's best cosine, on one scale for every question."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.read.strength import SPEAKER_CONTRAST, evidence_strength


def test_the_best_cosine_is_the_strength_and_nothing_found_is_zero() -> None:
    assert evidence_strength([0.31, 0.82, 0.5]) == 0.82
    assert evidence_strength([]) == 0.0


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)))
def test_strength_is_in_the_unit_interval_and_monotone(cosines: list[float]) -> None:
    strength = evidence_strength(cosines)
    assert 0.0 <= strength <= 1.0
    assert evidence_strength([*cosines, 1.0]) == 1.0 and evidence_strength([*cosines, -1.0]) == strength


def test_turns_spoken_by_someone_else_than_the_person_asked_about_weaken_the_signal() -> None:
    cosines = [0.8, 0.6]
    # The nearest turn is the partner's: the question probably swaps the person.
    swapped = evidence_strength(cosines, ["Ben", "Ana"], ["Ana"])
    # The nearest turn is the named person's own.
    own = evidence_strength(cosines, ["Ana", "Ben"], ["Ana"])
    assert swapped == round(0.8 + SPEAKER_CONTRAST * (0.6 - 0.8), 4)
    assert swapped < evidence_strength(cosines) < own


def test_without_a_named_person_or_speakers_the_strength_is_the_best_cosine() -> None:
    assert evidence_strength([0.7, 0.4], ["Ben", None], []) == 0.7
    assert evidence_strength([0.7, 0.4], [], ["Ana"]) == 0.7
    assert evidence_strength([0.7, 0.4], [None, None], ["Ana"]) == 0.7
