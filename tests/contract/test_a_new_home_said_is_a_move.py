""""Where does Priya live?" after "I live in Leeds." and then "Just got the keys to our new home
in York!" claimed nothing: the new home was read (residence York), but nothing said the old one
had ended, so Leeds and York split the dimension evenly. The speaker's new home ("our new home",
"my new flat") is now a change, as "we moved to York" is. Through the public ``Memory`` with the
default rule extractor; someone else's new flat ("Tom's new flat in York") moves no one."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

ASKED_AT = "2025-04-01T00:00:00"


@pytest.mark.parametrize(
    "news",
    ["Just got the keys to our new home in York!", "Loving my new flat in York.", "Greetings from our new house in York!"],
)
def test_the_speakers_new_home_is_where_she_lives_now(memory: Memory, news: str) -> None:
    space = remember_said(memory, "new-home", [("Priya", "I live in Leeds."), ("Priya", news)], "2025-01-10")
    assert claimed(memory, space, "Where does Priya live?", ASKED_AT).startswith(
        "Priya — residence: York since 10 Jan 2025 (was Leeds)"
    )


def test_someone_elses_new_flat_moves_no_one(memory: Memory) -> None:
    said = [("Priya", "I live in Leeds."), ("Priya", "Tom's new flat in York is lovely.")]
    space = remember_said(memory, "their-new-home", said, "2025-01-10")
    assert claimed(memory, space, "Where does Priya live?", ASKED_AT).startswith("Priya — residence: Leeds")
