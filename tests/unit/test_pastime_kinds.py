"""A kind of pastime as a question asks for it, and whether a line of pastimes holds one."""

from __future__ import annotations

import pytest

from eywa.read.pastime_kinds import holds_kind, pastime_kind_asked


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What instrument does Bo play?", "instrument"),
        ("What instruments can Bo play?", "instrument"),
        ("What sport does Bo do?", "sport"),
        ("Which sports does Bo like?", "sport"),
        ("What are Bo's hobbies?", None),
        ("Does Bo play a sport or an instrument?", None),  # two kinds
    ],
)
def test_the_kind_of_pastime_a_question_asks_for(question: str, kind: str | None) -> None:
    assert pastime_kind_asked(question) == kind


def test_a_line_holds_a_pastime_of_the_kind_by_one_of_its_words() -> None:
    assert holds_kind(["painting", "bass guitar"], "instrument")
    assert holds_kind(["Ice Skating"], "sport")
    assert not holds_kind(["painting", "reading"], "instrument")
    assert not holds_kind([], "sport")
