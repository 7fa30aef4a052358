"""Level 0 signals: amounts, identifiers, mentions, cues, and exact spans for every signal."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eywa.signals
from eywa.models import Signal, SignalKind
from eywa.signals import detect_signals

AT = datetime(2023, 5, 25, 14, 0, tzinfo=timezone.utc)


def kinds(text: str, *wanted: SignalKind, **kwargs: object) -> list[tuple[str, str]]:
    found = detect_signals(text, AT, **kwargs)  # type: ignore[arg-type]
    return [(s.text, s.normalized) for s in found if s.kind in wanted]


def test_public_api() -> None:
    assert sorted(eywa.signals.__all__) == ["detect_signals", "resolve_time_expressions"]


@pytest.mark.parametrize(
    ("text", "span", "normalized"),
    [
        ("it cost $1,200 in total", "$1,200", "1200.00 USD"),
        ("it cost 1200 dollars", "1200 dollars", "1200.00 USD"),
        ("a ticket is €50", "€50", "50.00 EUR"),
        ("a ticket is 50 euros", "50 euros", "50.00 EUR"),
        ("she earns £3.5k a month", "£3.5k", "3500.00 GBP"),
        ("send USD 20 please", "USD 20", "20.00 USD"),
        ("about $5 million raised", "$5 million", "5000000.00 USD"),
        ("just 50 cents", "50 cents", "0.50 USD"),
        ("twenty bucks", "twenty bucks", "20.00 USD"),
        ("$19.999 exactly", "$19.999", "20.00 USD"),
    ],
)
def test_money_is_normalised_to_two_decimals_and_iso_currency(
    text: str, span: str, normalized: str
) -> None:
    assert kinds(text, SignalKind.MONEY) == [(span, normalized)]


def test_an_amount_of_more_digits_than_decimal_keeps_is_kept_to_the_cent() -> None:
    """Python's decimal context keeps 28 digits: an amount of more (a turn may hold 19,980
    nines after a "$") was a ``decimal.InvalidOperation`` out of ``remember``."""
    nines = "9" * 40
    assert kinds(f"it cost ${nines}.995", SignalKind.MONEY) == [(f"${nines}.995", f"1{'0' * 40}.00 USD")]
    assert kinds(f"about ${nines} million", SignalKind.MONEY) == [(f"${nines} million", f"{nines}000000.00 USD")]
    (found,) = kinds("$" + "1" * 19_980, SignalKind.MONEY)
    assert found[1] == "1" * 19_980 + ".00 USD"


def test_no_number_inside_money_date_or_duration() -> None:
    found = detect_signals("I paid $1,200 on 7 May 2023 for 3 years", AT)
    assert [
        s.kind for s in found if s.kind in (SignalKind.MONEY, SignalKind.DATE, SignalKind.DURATION)
    ] == [
        SignalKind.MONEY,
        SignalKind.DATE,
        SignalKind.DURATION,
    ]
    assert not [s for s in found if s.kind in (SignalKind.NUMBER, SignalKind.QUANTITY)]


@pytest.mark.parametrize(
    ("text", "span", "normalized"),
    [
        ("I lived there for three years", "three years", "P3Y"),
        ("it took 2 hours", "2 hours", "PT2H"),
        ("six months of training", "six months", "P6M"),
        ("for a year now", "a year", "P1Y"),
        ("only 25 minutes", "25 minutes", "PT25M"),
        ("half an hour later", "half an hour", "PT30M"),
        ("2.5 hours of work", "2.5 hours", "PT2.5H"),
        ("two decades of work", "two decades", "P20Y"),
        ("after twenty-five days", "twenty-five days", "P25D"),
    ],
)
def test_durations_are_iso_8601(text: str, span: str, normalized: str) -> None:
    assert kinds(text, SignalKind.DURATION) == [(span, normalized)]


def test_once_a_year_is_no_duration() -> None:
    assert kinds("I go there once a year", SignalKind.DURATION) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have 3 of them", [("3", "3")]),
        ("I have three of them", [("three", "3")]),
        ("we sold 1,200 of those", [("1,200", "1200")]),
        ("a score of 2.5, nice", [("2.5", "2.5")]),
        ("a dozen of them", [("dozen", "12")]),
        ("the one I like", []),
    ],
)
def test_plain_numbers(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text, SignalKind.NUMBER) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I ran 5 km today", [("5 km", "5 km")]),
        ("I ran 5km", [("5km", "5 km")]),
        ("she has 3 kids and 2 cats", [("3 kids", "3 kids"), ("2 cats", "2 cats")]),
        ("we walked 10 miles", [("10 miles", "10 miles")]),
        ("three kids", [("three kids", "3 kids")]),
        ("up 40%", [("40%", "40 percent")]),
        ("2 younger brothers", []),
    ],
)
def test_quantities_pair_a_number_with_its_unit(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text, SignalKind.QUANTITY) == expected


def test_urls_and_emails_are_lower_cased() -> None:
    text = "See https://Example.com/Path, or www.Foo.org, or mail Bob.Smith@Mail.COM."
    assert kinds(text, SignalKind.URL) == [
        ("https://Example.com/Path", "https://example.com/path"),
        ("www.Foo.org", "www.foo.org"),
    ]
    assert kinds(text, SignalKind.EMAIL) == [("Bob.Smith@Mail.COM", "bob.smith@mail.com")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the ticket is ABC-1234", [("ABC-1234", "ABC-1234")]),
        ("see issue #4512", [("#4512", "4512")]),
        ("my order 88231 is late", [("88231", "88231")]),
        ("invoice no. 7731", [("7731", "7731")]),
        ("commit 3fa9c1d2e fixed it", [("3fa9c1d2e", "3FA9C1D2E")]),
        ("I will order 100 pizzas", []),
        ("we met at 3pm on the 2nd", []),
        ("the deadline is near", []),
    ],
)
def test_codes(text: str, expected: list[tuple[str, str]]) -> None:
    assert kinds(text, SignalKind.CODE) == expected


def test_mentions_skip_sentence_starts_and_common_words() -> None:
    found = detect_signals("Hey Cecilia! Thanks so much. Great, I met Melinda in New York.", AT)
    mentions = [
        (s.kind, s.text, s.normalized)
        for s in found
        if s.kind in (SignalKind.PERSON, SignalKind.ENTITY)
    ]
    assert mentions == [
        (SignalKind.PERSON, "Cecilia", "Cecilia"),
        (SignalKind.PERSON, "Melinda", "Melinda"),
        (SignalKind.ENTITY, "New York", "New York"),
    ]


def test_possessives_are_stripped_from_the_canonical_name() -> None:
    assert kinds("I loved Cecilia's painting", SignalKind.PERSON) == [("Cecilia's", "Cecilia")]


def test_known_entities_match_case_insensitively_with_possessive() -> None:
    found = kinds("mel's kids and MEL herself", SignalKind.PERSON, known_entities=["Mel"])
    assert found == [("mel's", "Mel"), ("MEL", "Mel")]
    assert kinds("I saw Melinda", SignalKind.PERSON, known_entities=["Mel"]) == [
        ("Melinda", "Melinda")
    ]


def test_speaker_name_is_a_known_person_even_at_sentence_start() -> None:
    assert kinds("Ned here, reporting in", SignalKind.PERSON) == []
    assert kinds("Ned here, reporting in", SignalKind.PERSON, speaker="Ned") == [("Ned", "Ned")]


def test_a_name_seen_mid_sentence_also_counts_at_sentence_start() -> None:
    assert kinds("Cecilia went. I told Cecilia.", SignalKind.PERSON) == [
        ("Cecilia", "Cecilia"),
        ("Cecilia", "Cecilia"),
    ]


def test_no_mentions_for_pronouns_months_or_interjections() -> None:
    text = "Wow, OK. I think May is fine, Thanks! Oh my God, on Monday?"
    assert kinds(text, SignalKind.PERSON, SignalKind.ENTITY) == []


@pytest.mark.parametrize(
    ("text", "kind", "cue"),
    [
        ("I don't like it", SignalKind.NEGATION, "n't"),
        ("I never go there", SignalKind.NEGATION, "never"),
        ("I no longer eat meat", SignalKind.NEGATION, "no longer"),
        ("nobody came", SignalKind.NEGATION, "nobody"),
        ("she went without me", SignalKind.NEGATION, "without"),
        ("I might move to Paris", SignalKind.HEDGE, "might"),
        ("maybe next time", SignalKind.HEDGE, "maybe"),
        ("I think it's blue", SignalKind.HEDGE, "I think"),
        ("I'm considering a move", SignalKind.HEDGE, "considering"),
        ("I decided to adopt", SignalKind.DECISION, "I decided"),
        ("I'm going to adopt", SignalKind.DECISION, "I'm going to"),
        ("we will sell it", SignalKind.DECISION, "we will"),
        ("I've chosen the red one", SignalKind.DECISION, "I've chosen"),
        ("I'm planning to run", SignalKind.DECISION, "planning to"),
        ("gonna try it", SignalKind.DECISION, "gonna"),
        ("actually it was Tuesday", SignalKind.CORRECTION, "actually"),
        ("I moved to Berlin", SignalKind.CORRECTION, "I moved"),
        ("I quit yesterday", SignalKind.CORRECTION, "I quit"),
        ("I switched to tea", SignalKind.CORRECTION, "switched to"),
        ("I switched jobs last month", SignalKind.CORRECTION, "switched jobs"),
        ("We relocated to Austin", SignalKind.CORRECTION, "relocated to"),
        ("Nope, I left in May", SignalKind.CORRECTION, "I left"),
        ("I changed my mind", SignalKind.CORRECTION, "changed my mind"),
        ("I used to paint", SignalKind.CORRECTION, "used to"),
        ("I got a new job", SignalKind.CORRECTION, "new job"),
        ("I started smoking again", SignalKind.CORRECTION, "smoking again"),
        ("Sadly I'm vaping again", SignalKind.CORRECTION, "vaping again"),
        ("I'm back on cigarettes", SignalKind.CORRECTION, "back on cigarettes"),
        ("I haven't smoked in six months", SignalKind.CORRECTION, "haven't smoked"),
        ("I've not vaped for a year", SignalKind.CORRECTION, "'ve not vaped"),
        ("I haven't had a cigarette since May", SignalKind.CORRECTION, "haven't had a cigarette"),
    ],
)
def test_cues(text: str, kind: SignalKind, cue: str) -> None:
    found = [s for s in detect_signals(text, AT) if s.kind is kind]
    assert [s.text for s in found] == [cue]
    assert found[0].normalized == kind.value


@pytest.mark.parametrize("text", ["I haven't smoked in a while", "I haven't smoked salmon in years", "I haven't smoked"])
def test_a_habit_not_kept_for_no_stated_time_is_no_change(text: str) -> None:
    assert kinds(text, SignalKind.CORRECTION) == []


def test_no_longer_is_both_negation_and_correction() -> None:
    found = {s.kind for s in detect_signals("I no longer work there", AT) if s.text == "no longer"}
    assert found == {SignalKind.NEGATION, SignalKind.CORRECTION}


def test_planning_is_a_decision_not_a_hedge() -> None:
    found = {s.kind for s in detect_signals("I'm planning to move", AT)}
    assert SignalKind.DECISION in found and SignalKind.HEDGE not in found


def test_may_in_a_date_is_no_hedge() -> None:
    assert kinds("it was May 2023", SignalKind.HEDGE) == []
    assert kinds("we may go", SignalKind.HEDGE) == [("may", "hedge")]


def test_plain_sentences_have_no_hedge_or_negation() -> None:
    assert (
        kinds("I went to the store and bought bread", SignalKind.NEGATION, SignalKind.HEDGE) == []
    )


def assert_well_formed(text: str, signals: tuple[Signal, ...]) -> None:
    assert list(signals) == sorted(signals, key=lambda s: s.start)
    for signal in signals:
        assert 0 <= signal.start < signal.end <= len(text)
        assert text[signal.start : signal.end] == signal.text
        if signal.window_start is not None:
            assert signal.window_end is not None and signal.window_start < signal.window_end


_WORDS = st.sampled_from(
    "I we may May March sat Sun last next this week month year ago yesterday 3 three $1,200 "
    "€50 5km kids Cecilia's New York 7 May 2023 2023-05-07 in 2022 at 3pm #4512 ABC-1234 "
    "https://x.io a@b.co don't might decided actually no longer . , ! ? 's".split(" ")
)


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.one_of(_WORDS, st.text(max_size=8)), max_size=25),
    separators=st.lists(st.sampled_from([" ", "  ", "\n", "", ", "]), min_size=25, max_size=25),
    day=st.datetimes(),
)
def test_every_signal_span_is_exact(words: list[str], separators: list[str], day: datetime) -> None:
    text = "".join(w + sep for w, sep in zip(words, separators, strict=False))
    signals = detect_signals(text, day, speaker="Mel", known_entities=("Cecilia", "New York"))
    assert_well_formed(text, signals)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=120))
def test_arbitrary_unicode_never_breaks_spans(text: str) -> None:
    assert_well_formed(text, detect_signals(text, AT, known_entities=("Mel",)))
