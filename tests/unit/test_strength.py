"""The evidence-strength signal: a logistic model of the best cosine, the speaker contrast and
the lexical contrast, from 0 to 1."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.read.strength import (
    COSINE_WEIGHT,
    INTERCEPT,
    LEXICAL_WEIGHT,
    SPEAKER_WEIGHT,
    evidence_strength,
    lexical_contrast,
    speaker_contrast,
)

COSINES = st.lists(st.floats(min_value=-1.0, max_value=1.0, allow_nan=False), min_size=1, max_size=8)
WHOSE = st.sampled_from(["Ana", "Bo", None])
TEXTS = st.lists(st.tuples(st.sampled_from(["kayak trip", "baked bread", "painted a lake", ""]), WHOSE), max_size=5)


def _logistic(score: float) -> float:
    return round(1.0 / (1.0 + math.exp(-score)), 4)


def test_the_strength_is_the_logistic_of_the_weighted_measures_and_nothing_found_is_zero() -> None:
    assert evidence_strength([]) == 0.0
    assert evidence_strength([], ["Ana"], ["Ana"], ["kayak"], [("kayak", "Ana")]) == 0.0
    assert evidence_strength([0.31, 0.82, 0.5]) == _logistic(INTERCEPT + COSINE_WEIGHT * 0.82)
    both = evidence_strength([0.8, 0.6], ["Ana", "Bo"], ["Ana"], ["kayak"], [("We went kayaking.", "Ana")])
    assert both == _logistic(INTERCEPT + COSINE_WEIGHT * 0.8 + SPEAKER_WEIGHT * 0.2 + LEXICAL_WEIGHT * 1.0)


@settings(max_examples=60, deadline=None)
@given(COSINES, st.floats(min_value=-1.0, max_value=1.0, allow_nan=False))
def test_strength_is_in_the_unit_interval_and_grows_with_the_best_cosine(cosines: list[float], extra: float) -> None:
    strength = evidence_strength(cosines)
    assert 0.0 < strength < 1.0
    more = evidence_strength([*cosines, extra])
    assert more >= strength if extra > max(cosines) else more == strength


def test_turns_spoken_by_someone_else_than_the_person_asked_about_weaken_the_signal() -> None:
    cosines = [0.8, 0.6]
    # The nearest turn is the partner's: the question probably swaps the person.
    swapped = evidence_strength(cosines, ["Bo", "Ana"], ["Ana"])
    # The nearest turn is the named person's own.
    own = evidence_strength(cosines, ["Ana", "Bo"], ["Ana"])
    assert swapped < evidence_strength(cosines) < own


def test_the_asked_about_words_said_only_by_someone_else_weaken_the_signal() -> None:
    # "When did Ana go kayaking?" where only Bo spoke of kayaking, against Ana having said it.
    cosines, whose = [0.7, 0.7], ["Ana", "Bo"]
    swapped = evidence_strength(cosines, whose, ["Ana"], ["kayaking"], [("Bo: we kayaked all day", "Bo")])
    own = evidence_strength(cosines, whose, ["Ana"], ["kayaking"], [("I love kayaking", "Ana")])
    unknown = evidence_strength(cosines, whose, ["Ana"], ["kayaking"], [])
    assert swapped < unknown < own


def test_lexical_contrast_is_the_named_share_minus_the_others_share() -> None:
    words = ["paint", "lake", "sunset"]
    hits = [("I painted the lake", "Ana"), ("Sunsets are lovely", "Bo"), ("A lake trip", "Bo")]
    assert lexical_contrast(words, hits, ["Ana"]) == (2 - 2) / 3
    assert lexical_contrast(words, hits, ["Bo"]) == (2 - 2) / 3
    assert lexical_contrast(["painting"], hits, ["ana"]) == 1.0  # a stem, any case
    assert lexical_contrast(["sunset"], hits, ["Ana"]) == -1.0
    assert lexical_contrast(["violin"], hits, ["Ana"]) == 0.0
    # No content word: nothing to tell; no named person: every hit counts as theirs.
    assert lexical_contrast([], hits, ["Ana"]) == 0.0
    assert lexical_contrast(words, hits, []) == 1.0
    # A hit of no one's counts for no one when someone is named.
    assert lexical_contrast(["lake"], [("the lake", None)], ["Ana"]) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["kayak", "bread", "lake", "violin"]), max_size=4), TEXTS, st.sets(WHOSE.filter(bool)))
def test_lexical_contrast_is_between_minus_one_and_one(
    words: list[str], hits: list[tuple[str, str | None]], named: set[str]
) -> None:
    assert -1.0 <= lexical_contrast(words, hits, named) <= 1.0


def test_a_named_person_no_vector_hit_is_from_counts_as_not_named() -> None:
    # "Lu" (a nickname, or someone only spoken of) has no turn or belief among the hits:
    # comparing nothing of theirs with the others' hits would read as a swapped person.
    cosines, whose, hits = [0.7, 0.5], ["Ana", "Bo"], [("We went kayaking", "Ana")]
    assert speaker_contrast(cosines, whose, ["Lu"]) == -0.7
    assert evidence_strength(cosines, whose, ["Lu"], ["kayak"], hits) == evidence_strength(
        cosines, whose, [], ["kayak"], hits
    )


def test_without_a_named_person_or_speakers_the_speaker_contrast_is_zero() -> None:
    assert evidence_strength([0.7, 0.4], ["Bo", None], []) == evidence_strength([0.7, 0.4])
    assert evidence_strength([0.7, 0.4], [], ["Ana"]) == evidence_strength([0.7, 0.4])
    assert evidence_strength([0.7, 0.4], [None, None], ["Ana"]) == evidence_strength([0.7, 0.4])
