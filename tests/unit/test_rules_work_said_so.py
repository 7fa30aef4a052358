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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I teach maths at the high school.", {("employer", "high school"), ("occupation", "teacher")}),
        ("I teach at Riverside High.", {("employer", "Riverside High"), ("occupation", "teacher")}),
        ("I teach at the high school as a librarian.", {("employer", "high school"), ("occupation", "librarian")}),
        ("I teach at a local college.", {("employer", "college")}),  # a lecturer, perhaps
        ("I teach yoga at the gym.", {("employer", "gym")}),
    ],
)
def test_teaching_at_a_school_makes_a_teacher(text: str, expected: set[tuple[str, str]]) -> None:
    said = {(a, v) for a, v, _, _ in facts(text) if a in {"employer", "occupation"}}
    assert said == expected


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I run a small bakery downtown.", "bakery"),
        ("I run the coffee shop on Main Street with my sister.", "coffee shop"),
        ("I've been running a café in Porto for years.", "café"),
        ("I ran a bakery in my twenties.", None),  # a story
        ("I'm running a bakery stall at the fair.", None),  # another thing
        ("I'm running a café for the weekend.", None),  # not said to last
        ("Do you still run a bakery?", None),
    ],
)
def test_a_business_run_said_by_its_kind_is_the_employer(text: str, employer: str | None) -> None:
    said = {v for a, v, _, _ in facts(text) if a == "employer"}
    assert said == ({employer} if employer else set())
