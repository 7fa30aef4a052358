"""Family news: a baby expected and a relative's death, events of the speaker's life."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.unit.rules_support import SAID, facts, proposals


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("I'm pregnant!", "Cecilia", "pregnant"),
        ("I'm 20 weeks pregnant.", "Cecilia", "pregnant"),
        ("We're expecting our first baby in June!", "Cecilia", "expecting a first baby"),
        ("We are expecting a baby girl.", "Cecilia", "expecting a baby girl"),
        ("My sister is expecting twins.", "Cecilia's sister", "expecting twins"),
    ],
)
def test_a_baby_on_the_way_is_news_of_the_turn(text: str, subject: str, value: str) -> None:
    """Expecting a child is dated by the turn that says it, in the turn's words."""
    (found,) = [f for f in proposals(text) if f.attribute == "life_events"]
    assert (found.subject, found.value, found.valid_from) == (subject, value, SAID)
    assert ("life_events", value, "positive", "asserted") in facts(text)


@pytest.mark.parametrize(
    "text",
    ["I'm expecting a package today.", "I'm expecting you at six.", "We're expecting!", "I'm not pregnant.",
     "Are you pregnant?", "If I were pregnant, I'd stop running."],
)
def test_what_is_no_baby_expected_makes_nothing(text: str) -> None:
    assert not [f for f in proposals(text) if f.attribute == "life_events"]


@pytest.mark.parametrize(
    ("text", "value", "since"),
    [
        ("My mom passed away last week.", "Cecilia's mother passed away", datetime(2023, 5, 1, tzinfo=timezone.utc)),
        ("My grandpa Joe died in March.", "Cecilia's grandpa Joe passed away", datetime(2023, 3, 1, tzinfo=timezone.utc)),
        ("Our uncle, Carl, has died.", "Cecilia's uncle Carl passed away", None),
        ("My best friend died two years ago.", "Cecilia's best friend passed away", datetime(2021, 1, 1, tzinfo=timezone.utc)),
    ],
)
def test_a_relatives_death_is_an_event_of_the_speakers_life(text: str, value: str, since: datetime | None) -> None:
    """Dated when the part says when; otherwise the turn bounds it ("before 9 May 2023")."""
    (found,) = [f for f in proposals(text) if f.attribute == "life_events"]
    assert (found.subject, found.value, found.valid_from) == ("Cecilia", value, since)
    assert ("life_events", value, "positive", "asserted") in facts(text)
    if since is None:
        assert found.statement.endswith("before 9 May 2023.")


@pytest.mark.parametrize(
    "text",
    ["My mom never died in any of my dreams.", "If my dad died, I'd be lost.", "Did your grandma pass away?",
     "My wife passed away last year.", "My dog died."],
)
def test_no_death_or_one_read_elsewhere_is_no_family_news(text: str) -> None:
    """Negated, hypothetical or asked, no death; a partner's is read as widowhood, a pet's with the pets."""
    assert not [f for f in proposals(text) if f.attribute == "life_events"]
