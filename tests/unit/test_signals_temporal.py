"""DATE/TIME signals: resolution against the turn's time, granularity, windows, no false dates."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from eywa.models import Signal, SignalKind
from eywa.signals import detect_signals, resolve_time_expressions

THURSDAY = datetime(2023, 5, 25, 14, 0, tzinfo=timezone.utc)  # Thursday, ISO week 21


def utc(y: int, m: int, d: int, hh: int = 0, mm: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, tzinfo=timezone.utc)


def only_date(text: str, anchor: datetime = THURSDAY) -> Signal:
    found = [s for s in resolve_time_expressions(text, anchor) if s.kind is SignalKind.DATE]
    assert len(found) == 1, f"{text!r} gave {found}"
    return found[0]


@pytest.mark.parametrize(
    ("text", "normalized", "granularity", "start", "end"),
    [
        ("I went yesterday", "2023-05-24", "day", utc(2023, 5, 24), utc(2023, 5, 25)),
        ("we hiked last Saturday", "2023-05-20", "day", utc(2023, 5, 20), utc(2023, 5, 21)),
        ("see you this Friday", "2023-05-26", "day", utc(2023, 5, 26), utc(2023, 5, 27)),
        ("see you next Friday", "2023-06-02", "day", utc(2023, 6, 2), utc(2023, 6, 3)),
        ("starting next month", "2023-06", "month", utc(2023, 6, 1), utc(2023, 7, 1)),
        ("it was last week", "2023-W20", "week", utc(2023, 5, 15), utc(2023, 5, 22)),
        ("that was last year", "2022", "year", utc(2022, 1, 1), utc(2023, 1, 1)),
        ("two weeks ago", "2023-W19", "week", utc(2023, 5, 8), utc(2023, 5, 15)),
        ("3 days ago", "2023-05-22", "day", utc(2023, 5, 22), utc(2023, 5, 23)),
        ("a few days ago", "2023-05-22", "day", utc(2023, 5, 20), utc(2023, 5, 24)),
        ("last weekend", "2023-W20", "week", utc(2023, 5, 20), utc(2023, 5, 22)),
        ("this morning", "2023-05-25", "day", utc(2023, 5, 25), utc(2023, 5, 26)),
        ("tonight", "2023-05-25", "day", utc(2023, 5, 25), utc(2023, 5, 26)),
        ("tomorrow", "2023-05-26", "day", utc(2023, 5, 26), utc(2023, 5, 27)),
        ("on 7 May 2023", "2023-05-07", "day", utc(2023, 5, 7), utc(2023, 5, 8)),
        ("on May 7th", "2023-05-07", "day", utc(2023, 5, 7), utc(2023, 5, 8)),
        ("on 2023-05-07", "2023-05-07", "day", utc(2023, 5, 7), utc(2023, 5, 8)),
        ("in May 2023", "2023-05", "month", utc(2023, 5, 1), utc(2023, 6, 1)),
        ("it happened in 2022", "2022", "year", utc(2022, 1, 1), utc(2023, 1, 1)),
        ("8 May, 2023", "2023-05-08", "day", utc(2023, 5, 8), utc(2023, 5, 9)),
        ("the 5th of May", "2023-05-05", "day", utc(2023, 5, 5), utc(2023, 5, 6)),
        ("last May", "2022-05", "month", utc(2022, 5, 1), utc(2022, 6, 1)),
        ("5/7/2023", "2023-05-07", "day", utc(2023, 5, 7), utc(2023, 5, 8)),
        (
            "2023-05-07T14:30",
            "2023-05-07T14:30",
            "minute",
            utc(2023, 5, 7, 14, 30),
            utc(2023, 5, 7, 14, 31),
        ),
        ("a couple of months ago", "2023-03", "month", utc(2023, 2, 1), utc(2023, 5, 1)),
        ("five years ago", "2018", "year", utc(2018, 1, 1), utc(2019, 1, 1)),
    ],
)
def test_expression_resolves_to_label_granularity_and_window(
    text: str, normalized: str, granularity: str, start: datetime, end: datetime
) -> None:
    signal = only_date(text)
    assert (signal.normalized, signal.granularity) == (normalized, granularity)
    assert (signal.window_start, signal.window_end) == (start, end)
    assert text[signal.start : signal.end] == signal.text


@pytest.mark.parametrize(
    ("text", "anchor", "normalized"),
    [
        ("last month", utc(2023, 1, 10), "2022-12"),
        ("next month", utc(2023, 12, 10), "2024-01"),
        ("yesterday", utc(2024, 3, 1), "2024-02-29"),  # leap day
        ("yesterday", utc(2023, 3, 1), "2023-02-28"),
        ("tomorrow", utc(2023, 12, 31), "2024-01-01"),
        ("last week", utc(2024, 1, 3), "2023-W52"),
        ("last week", utc(2021, 1, 6), "2020-W53"),  # ISO year with 53 weeks
        ("3 days ago", utc(2023, 1, 2), "2022-12-30"),
        ("last Saturday", utc(2023, 1, 2), "2022-12-31"),
        ("last year", utc(2024, 1, 1), "2023"),
        ("two months ago", utc(2023, 1, 31), "2022-11"),
        ("last Friday", utc(2023, 5, 26), "2023-05-19"),  # said on a Friday: a week back
        ("last December", utc(2023, 5, 25), "2022-12"),
        ("next January", utc(2023, 5, 25), "2024-01"),
        ("on Feb 29", utc(2024, 5, 1), "2024-02-29"),
    ],
)
def test_relative_dates_cross_month_and_year_boundaries(
    text: str, anchor: datetime, normalized: str
) -> None:
    assert only_date(text, anchor).normalized == normalized


def test_windows_are_utc_and_half_open() -> None:
    signal = only_date("last month", utc(2023, 3, 15))
    assert signal.window_start == utc(2023, 2, 1) and signal.window_end == utc(2023, 3, 1)
    assert signal.window_start.tzinfo is not None


def test_naive_observed_at_is_taken_as_utc() -> None:
    naive = datetime(2023, 5, 25, 14, 0)
    assert only_date("yesterday", naive).window_start == utc(2023, 5, 24)


@pytest.mark.parametrize(
    "text",
    [
        "we may go",
        "I may go",
        "May I come in?",
        "I sat down on the sofa",
        "they march in the parade",
        "I second that",
        "Sun is out",
        "we are here now",
        "that was a second ago-ish",
        "the last time we met",
        "my birthday is in august",  # "august" lower-case is the adjective; unresolved
        "on Feb 30",  # no such day
        "I scored 2023 points",
        "this Sun is bright",
    ],
)
def test_plain_words_are_never_dates(text: str) -> None:
    assert [s for s in resolve_time_expressions(text, THURSDAY) if s.kind is SignalKind.DATE] == []


def test_may_as_month_needs_date_context_and_capital() -> None:
    assert only_date("we met in May").normalized == "2023-05"
    assert only_date("it was May 2023").normalized == "2023-05"
    assert resolve_time_expressions("we met in may", THURSDAY) == ()


def test_time_of_day_takes_the_day_of_a_date_in_the_turn() -> None:
    signals = resolve_time_expressions("2:17 pm on 9 May, 2023", THURSDAY)
    time = next(s for s in signals if s.kind is SignalKind.TIME)
    assert (time.text, time.normalized, time.granularity) == (
        "2:17 pm",
        "2023-05-09T14:17",
        "minute",
    )
    assert time.window_start == utc(2023, 5, 9, 14, 17)

    tonight = resolve_time_expressions("dinner tonight at 8pm", THURSDAY)
    assert [s.normalized for s in tonight] == ["2023-05-25", "2023-05-25T20:00"]


def test_time_without_a_date_has_no_window() -> None:
    [time] = resolve_time_expressions("let's meet at noon", THURSDAY)
    assert (time.kind, time.normalized, time.granularity, time.window_start) == (
        SignalKind.TIME,
        "12:00",
        None,
        None,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7 May 2023", date(2023, 5, 7)),
        ("May 7th, 2023", date(2023, 5, 7)),
        ("8 May, 2023", date(2023, 5, 8)),
    ],
)
def test_absolute_dates_agree_with_dateparser(text: str, expected: date) -> None:
    dateparser = pytest.importorskip("dateparser")
    parsed = dateparser.parse(text, languages=["en"])
    assert parsed is not None and parsed.date() == expected
    assert only_date(text).normalized == parsed.date().isoformat()


def test_question_time_constraints_for_the_planner() -> None:
    assert [
        s.normalized for s in resolve_time_expressions("what did she do in May 2023?", THURSDAY)
    ] == ["2023-05"]
    labels = [
        s.normalized
        for s in resolve_time_expressions("what happened last year and yesterday?", THURSDAY)
    ]
    assert labels == ["2022", "2023-05-24"]


def test_detect_signals_includes_the_same_dates() -> None:
    text = "I started a new job at Acme last Monday."
    dates = [s for s in detect_signals(text, THURSDAY) if s.kind is SignalKind.DATE]
    assert [(s.text, s.normalized) for s in dates] == [("last Monday", "2023-05-22")]


@pytest.mark.parametrize("anchor", [datetime(1, 1, 1, tzinfo=timezone.utc), datetime.max])
def test_dates_beyond_the_calendar_are_skipped_not_raised(anchor: datetime) -> None:
    found = resolve_time_expressions("last year, next year, yesterday, tomorrow, 3 days ago", anchor)
    assert all(s.window_start is not None and s.window_end is not None for s in found)
    assert len(found) >= 2  # the ones that stay inside years 1..9999 still resolve


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        # a cue before a month does not cut off the year or day that follows it
        ("where was she during September 2023", "2023-09"),
        ("the beginning of October 2021", "2021-10"),
        ("in March 5th, 2021", "2021-03-05"),
        ("since June of 2021", "2021-06"),
        # a comma without a space still joins a day to its year
        ("the picture taken on December 1,2021", "2021-12-01"),
        ("on 1 May,2022", "2022-05-01"),
        # a cued month alone still takes the turn's year
        ("we moved in March", "2023-03"),
    ],
)
def test_the_longest_exact_date_wins_over_a_cued_month(text: str, normalized: str) -> None:
    assert only_date(text).normalized == normalized


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("where was she between October 2 and October 6 2022?", ["2022-10-02", "2022-10-06"]),
        ("from 3 May to 9 May, 2022", ["2022-05-03", "2022-05-09"]),
        ("from December 28 to January 3, 2024", ["2023-12-28", "2024-01-03"]),  # the year before
        ("between May 2022 and June 2023", ["2022-05", "2023-06"]),  # each end names its own
        ("on August 11? in 2023 she moved", ["2025-08-11", "2023"]),  # not a range: the anchor's year
    ],
)
def test_a_ranges_first_end_takes_the_year_its_second_names(text: str, expected: list[str]) -> None:
    anchor = datetime(2025, 11, 30, tzinfo=timezone.utc)
    found = [s for s in resolve_time_expressions(text, anchor) if s.kind is SignalKind.DATE]
    assert [s.normalized for s in found] == expected
    assert all(s.window_start is not None and s.normalized.startswith(f"{s.window_start.year:04d}") for s in found)


MONDAY = datetime(2023, 7, 10, 18, 0, tzinfo=timezone.utc)  # ISO week 28


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("I ran my first 10k on Saturday!", "2023-07-08"),  # told: the Saturday just gone
        ("Did you see the match on Sunday?", "2023-07-09"),
        ("we went hiking on Monday", "2023-07-03"),  # said on a Monday: a week back, as "last Monday"
        ("The party is on Saturday", "2023-07-15"),  # planned: the one to come
        ("I'll call you on Monday", "2023-07-17"),
        ("We played a festival this weekend", "2023-W27"),  # said on a Monday: the weekend just over
        ("I'm going camping this weekend", "2023-W28"),
        ("My sister visited over the weekend", "2023-W27"),
        ("We're flying out at the weekend", "2023-W28"),
        ("I start on Thursday.", "2023-07-13"),  # the present of starting: a schedule ahead
        ("Classes begin on Friday", "2023-07-14"),
        ("I started on Thursday.", "2023-07-06"),
        ("I resigned on Thursday and I start at the bakery soon.", "2023-07-06"),  # a past verb beside a schedule
    ],
)
def test_a_day_named_without_a_side_of_today_takes_the_sentence_tense(text: str, normalized: str) -> None:
    assert only_date(text, MONDAY).normalized == normalized


@pytest.mark.parametrize(
    "text",
    [
        "on Monday?",  # no verb: no side of today
        "I was hoping we could go on Friday",  # a past verb beside a plan
        "I work on Saturdays",  # a habit, not a day
        "we hike at weekends",
    ],
)
def test_a_day_named_without_a_tense_is_no_date(text: str) -> None:
    assert [s for s in resolve_time_expressions(text, MONDAY) if s.kind is SignalKind.DATE] == []


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("I ran on Saturday 3 June.", "2023-06-03"),
        ("We met on Sunday, 2 July.", "2023-07-02"),
        ("I flew home on Friday June 30", "2023-06-30"),
        ("We went to a wedding over the weekend of 1 July", "2023-07-01"),
        ("We went to a wedding on the weekend of 1 July 2023", "2023-07-01"),
    ],
)
def test_a_day_named_with_its_date_is_that_date_alone(text: str, normalized: str) -> None:
    """The tense gave "on Saturday" in "on Saturday 3 June" a day of its own (the Saturday
    before the turn), a second and other date beside the one the sentence names."""
    assert only_date(text, MONDAY).normalized == normalized
