"""A no to a question that asked whether the value still holds is a change (an end).

``eywa.nous.observations.asked_if_still``: the negative belief cites the question beside
the reply; the question asks "still" / "anymore" / "any longer" of the value, with no
negation, and the reply is someone else's, said after it. Anything short of that is a
denial, which accumulates and releases nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.models import Belief, Evidence
from eywa.nous import observation_from_belief

T0 = datetime(2024, 3, 4, 10, tzinfo=timezone.utc)


def turn(ident: str, speaker: str, text: str, minute: int) -> Evidence:
    return Evidence(
        id=ident, space="s", session="s1", seq=minute, speaker=speaker, role="user", text=text,
        observed_at=T0 + timedelta(minutes=minute), recorded_at=T0, content_hash=ident,
    )  # fmt: skip


def denial(value: str, polarity: str = "negative", cites: tuple[str, ...] = ("q", "r")) -> Belief:
    return Belief.model_validate({
        "id": "bl_1", "space": "s", "statement": f"Priya ... {value}", "subject": "Priya", "attribute": "employer",
        "value": value, "polarity": polarity, "modality": "asserted", "valid_from": None, "valid_to": None,
        "recorded_at": T0, "status": "active", "extractor": "rules", "evidence_ids": cites,
    })  # fmt: skip


def changed(
    value: str, question: str, reply: str = "No.", *, asker: str = "Bo", polarity: str = "negative",
    cites: tuple[str, ...] = ("q", "r"),
) -> bool:  # fmt: skip
    cited = [turn("q", asker, question, 1), turn("r", "Priya", reply, 2)]
    observation = observation_from_belief(denial(value, polarity=polarity, cites=cites), cited)
    assert observation is not None
    return observation.change_signal


@pytest.mark.parametrize(
    ("value", "question"),
    [
        ("Initech", "Do you still work at Initech?"),
        ("Initech", "Hey Priya, are you still at Initech?"),
        ("Initech", "Good to hear. Still at Initech?"),  # the question is its own sentence
        ("Initech", "Are you at Initech any longer?"),
        ("Leeds", "You're still in Leeds?"),
        ("teacher", "Still teaching?"),  # the value's stem
        ("Globex Labs", "Do you still work for Globex?"),  # a word of the value
    ],
)
def test_a_no_to_a_question_asking_if_the_value_still_holds_is_an_end(value: str, question: str) -> None:
    assert changed(value, question)


@pytest.mark.parametrize(
    ("value", "question", "asker"),
    [
        ("Initech", "Do you work at Initech?", "Bo"),  # not asked of now: may never have held
        ("Initech", "Still going to the gym? And do you work at Initech?", "Bo"),  # "still" asks of another
        ("Initech", "Do you still work at Globex?", "Bo"),  # another value
        ("meat", "Are you still not eating meat?", "Bo"),  # a negated question: no certain
        ("Initech", "Don't you still work at Initech?", "Bo"),
        ("cake", "Would you like any more cake?", "Bo"),  # a quantity, not a time
        ("Initech", "I still work at Initech.", "Bo"),  # no question
        ("Initech", "Do I still work at Initech?", "Priya"),  # asked of oneself: no reply
    ],
)
def test_short_of_a_still_question_put_by_another_a_no_is_a_denial(value: str, question: str, asker: str) -> None:
    assert not changed(value, question, asker=asker)


def test_a_yes_or_an_uncited_question_changes_nothing() -> None:
    assert not changed("Initech", "Do you still work at Initech?", "Yes.", polarity="positive")
    assert not changed("Initech", "Do you still work at Initech?", cites=("r",))


def test_a_reply_said_before_the_question_is_no_reply() -> None:
    cited = [turn("q", "Bo", "Do you still work at Initech?", 3), turn("r", "Priya", "No.", 2)]
    observation = observation_from_belief(denial("Initech"), cited)
    assert observation is not None and not observation.change_signal


_WORDS = ["do", "you", "still", "anymore", "work", "at", "Initech", "Globex", "not", "no", "yes", "?", ".", "!"]
texts = st.lists(st.sampled_from(_WORDS), max_size=8).map(" ".join)


@given(st.lists(st.tuples(st.sampled_from(["Bo", "Priya", "Tom"]), texts), min_size=1, max_size=4), texts)
def test_citing_one_more_turn_never_takes_a_change_away_and_a_positive_never_ends(
    turns: list[tuple[str, str]], extra: str
) -> None:
    cited = [turn(f"t{i}", speaker, text, i) for i, (speaker, text) in enumerate(turns)]
    ids = tuple(e.id for e in cited)
    more = [*cited, turn("tx", "Tom", extra, len(cited))]
    fewer = observation_from_belief(denial("Initech", cites=ids), cited)
    wider = observation_from_belief(denial("Initech", cites=(*ids, "tx")), more)
    positive = observation_from_belief(denial("Initech", polarity="positive", cites=(*ids, "tx")), more)
    assert fewer is not None and wider is not None and positive is not None
    assert wider.change_signal or not fewer.change_signal
    assert not positive.change_signal  # (no correction signals here: only a negative can end)
