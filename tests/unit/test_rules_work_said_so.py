"""Work said the way people say it: when one works between "work" and the role ("I work nights
as a security guard"), a school level one teaches ("I teach third grade": a teacher), and the
statement of a business one runs worded in the third person."""

from __future__ import annotations

import pytest

from tests.unit.rules_support import facts, statements


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("I work nights as a security guard.", "security guard"),
        ("I work part-time as a receptionist.", "receptionist"),
        ("I work from home as a translator.", "translator"),
        ("I work weekends as a bartender.", "bartender"),
    ],
)
def test_when_one_works_before_the_role_still_says_the_role(text: str, role: str) -> None:
    assert facts(text, attribute="occupation") == {("occupation", role, "positive", "asserted")}


@pytest.mark.parametrize(
    "text",
    ["I teach third grade.", "I teach high school chemistry at Lincoln.", "I teach kindergarten now.",
     "I teach 4th grade in Austin."],
)
def test_a_school_level_one_teaches_says_a_teacher(text: str) -> None:
    assert facts(text, attribute="occupation") == {("occupation", "teacher", "positive", "asserted")}


@pytest.mark.parametrize("text", ["I teach yoga.", "I don't teach third grade anymore.", "I work hard as a mom."])
def test_other_teaching_or_working_as_says_no_occupation(text: str) -> None:
    assert facts(text, attribute="occupation") == set()


def test_a_business_one_runs_is_said_in_the_third_person() -> None:
    assert statements("I run my own business.") == {"Cecilia runs Cecilia's own business."}
