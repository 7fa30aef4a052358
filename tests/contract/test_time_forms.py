"""A time is read by one parser on every surface: a turn's ``observed_at`` (the ``Turn``
model, which the HTTP API, MCP, the CLI and the Client send turns through) and a query's
``as_of`` (``contract.check_time``, which recall and the dimension reads of every surface
call) accept and refuse the same ISO-8601 strings, and read the same instant from them.

Before, the turn's field was pydantic's own datetime parsing and the query's was
``datetime.fromisoformat``: ``20240101T000000`` (basic form) and ``2024-W01-1`` (a week
date) were query times but not turn times, while a turn took ``1704067200`` (Unix seconds
as text), which a query refused.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from eywa.contract import check_time
from eywa.errors import InvalidInputError
from eywa.models import Turn

_DATES = st.sampled_from(["2024-03-05", "20240305", "2024-W10-2", "2024-W10", "2024-065", "2024-3-5", "2024-03", "1999-12-31", "2024-02-30"])
_SEPARATORS = st.sampled_from(["T", "t", " ", "_", "", "TT"])
_TIMES = st.sampled_from(["", "12", "12:30", "1230", "12:30:45", "123045", "12:30:45.5", "12:30:45,5", "12:30:45.123456",
                          "12:30:45.1234567", "24:00", "24:00:00", "23:59:60", "7:05", "12:30:45.", "12:60"])
_OFFSETS = st.sampled_from(["", "Z", "z", "+00:00", "+0530", "+05", "-08:00", "+05:30:15", "+05:30:15.5", "+24:00",
                            " UTC", "+5:30", "-00:00"])
_ISO_LIKE = st.builds(lambda d, s, t, o: d + (s + t if t else "") + o, _DATES, _SEPARATORS, _TIMES, _OFFSETS)
_ANY = st.one_of(_ISO_LIKE, st.from_regex(r"\A[0-9T:.,+\-Z ]{1,30}\Z", fullmatch=True))


def _turn_time(text: str) -> datetime | None:
    try:
        return Turn(text="x", observed_at=text).observed_at  # type: ignore[arg-type]
    except InvalidInputError:
        return None


def _query_time(text: object) -> datetime | None:
    try:
        return check_time(text, "as_of")
    except InvalidInputError:
        return None


@settings(max_examples=400, deadline=None)
@given(_ANY)
@example("20240101T000000")
@example("2024-01-01T00:00:00,5")
@example("2024-W01-1")
@example("1704067200")
@example("2024-01-01T00:00:00Z")
def test_a_turn_time_and_a_query_time_accept_the_same_strings_as_the_same_instant(text: str) -> None:
    assert _turn_time(text) == _query_time(text), text


@pytest.mark.parametrize("text", ["2024-01-01T12:30:00Z", "2024-01-01 12:30:00+02:00", "2024-01-01"])
def test_the_usual_forms_are_read_by_both(text: str) -> None:
    assert _turn_time(text) is not None and _turn_time(text) == _query_time(text)


@pytest.mark.parametrize("value", [1704067200, 1704067200.5, 0, -1, 1704067200000])
def test_a_number_is_no_time_for_a_turn_as_for_a_query(value: float) -> None:
    """Pydantic read a number as Unix seconds (milliseconds above 2e10): a turn stored
    ``1704067200`` as 2024-01-01, while a recall's ``as_of`` refused the same number."""
    assert _query_time(value) is None
    with pytest.raises(InvalidInputError, match="observed_at.*must be an ISO-8601 datetime, got (int|float)"):
        Turn(text="x", observed_at=value)  # type: ignore[arg-type]
