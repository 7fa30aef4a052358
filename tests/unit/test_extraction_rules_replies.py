"""Short replies that tell a value, read with the question put to their speaker.

"Do you still live in Leeds?" — "No, York now." says the one replying left Leeds and lives
in York; "Are you seeing anyone?" — "Yeah, his name is Sam." that Sam is their partner;
"What do you do?" — "Nurse, at the city hospital." that they are a nurse. Each case is a
question by Bo and the reply by Cecilia, read by the rule extractor and kept only where the
validator accepts it (``eywa.extraction.rules.answers``).
"""

from __future__ import annotations

import pytest

from eywa.extraction.replies import bare_reply, opening_reply
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from tests.unit.rules_support import Fact, facts, turn


def _pair(question: str, reply: str, asker: str = "Bo", replier: str = "Cecilia") -> set[Fact]:
    """The accepted facts of ``replier``'s ``reply`` to ``asker``'s ``question``."""
    asked = turn(question, asker).model_copy(update={"id": "q1", "seq": 0})
    said = turn(reply, replier).model_copy(update={"id": "r1", "seq": 1})
    found = {asked.id: asked, said.id: said}
    return {
        (f.attribute or "", f.value, f.polarity, f.modality)
        for f in RuleExtractor().propose("home", [asked, said])
        if f.subject == "Cecilia" and Validator().validate("home", f, found).accepted
    }


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("Do you still work at Initech?", "Nope, Globex now.",
         {("employer", "Initech", "negative", "asserted"), ("employer", "Globex", "positive", "asserted")}),
        ("Are you still working at Initech?", "No, I'm at Globex now.",
         {("employer", "Initech", "negative", "asserted"), ("employer", "Globex", "positive", "asserted")}),
        ("Are you still working at Initech?", "Not anymore, I'm at Globex now.",
         {("employer", "Initech", "negative", "asserted"), ("employer", "Globex", "positive", "asserted")}),
        ("Do you still live in Leeds?", "No, York now.",
         {("residence", "Leeds", "negative", "asserted"), ("residence", "York", "positive", "asserted")}),
        ("Do you live in Leeds?", "Nope, York these days.",
         {("residence", "Leeds", "negative", "asserted"), ("residence", "York", "positive", "asserted")}),
        ("Are you still a teacher?", "No, a nurse now.",
         {("occupation", "teacher", "negative", "asserted"), ("occupation", "nurse", "positive", "asserted")}),
        ("Still teaching?", "No, a nurse now.",
         {("occupation", "teacher", "negative", "asserted"), ("occupation", "nurse", "positive", "asserted")}),
    ],
)  # fmt: skip
def test_a_no_with_the_new_value_ends_the_old_and_holds_the_new(question: str, reply: str, expected: set[Fact]) -> None:
    assert _pair(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("Are you seeing anyone?", "Yeah, his name is Sam.",
         {("partner", "Sam", "positive", "asserted"), ("relationship_status", "in a relationship", "positive", "asserted")}),
        ("Are you seeing anyone these days?", "Yes, her name's Lily.",
         {("partner", "Lily", "positive", "asserted"), ("relationship_status", "in a relationship", "positive", "asserted")}),
        ("Are you dating anyone?", "Yep, a guy called Sam.",
         {("partner", "Sam", "positive", "asserted"), ("relationship_status", "in a relationship", "positive", "asserted")}),
        ("Are you seeing anyone?", "Yes.", {("relationship_status", "in a relationship", "positive", "asserted")}),
        ("Are you working these days?", "Yes, at Globex.", {("employer", "Globex", "positive", "asserted")}),
        ("Do you work?", "Yep, at Globex, in the finance team.", {("employer", "Globex", "positive", "asserted")}),
    ],
)  # fmt: skip
def test_a_yes_with_the_value_holds_the_value(question: str, reply: str, expected: set[Fact]) -> None:
    assert _pair(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("What do you do?", "Nurse, at the city hospital.", {("occupation", "nurse", "positive", "asserted")}),
        ("What do you do for a living?", "An accountant.", {("occupation", "accountant", "positive", "asserted")}),
        ("So what do you do these days?", "Software engineer at Globex.",
         {("occupation", "software engineer", "positive", "asserted"), ("employer", "Globex", "positive", "asserted")}),
        ("Who are you dating?", "Sam, from my climbing gym.",
         {("partner", "Sam", "positive", "asserted"), ("relationship_status", "in a relationship", "positive", "asserted")}),
        ("Are you married?", "Nope, single.",
         {("relationship_status", "married", "negative", "asserted"), ("relationship_status", "single", "positive", "asserted")}),
        ("Are you single?", "No, married.",
         {("relationship_status", "single", "negative", "asserted"), ("relationship_status", "married", "positive", "asserted")}),
        ("Do you have kids?", "No, none yet.", {("children", "children", "negative", "asserted")}),
        ("Do you have any kids?", "Nope, no kids.", {("children", "children", "negative", "asserted")}),
        ("Any pets?", "Nah, no pets yet.", {("pets", "pets", "negative", "asserted")}),
    ],
)  # fmt: skip
def test_the_value_alone_answers_the_question_that_asked_for_it(question: str, reply: str, expected: set[Fact]) -> None:
    assert _pair(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Does Tom still work at Initech?", "No, Globex now."),  # a third person, answered by the listener
        ("Is he still living in Leeds?", "Nope, York now."),
        ("Tom, do you still work at Initech?", "No, Globex now."),  # put to someone else by name
        ("Do you still work at Initech?", "No, Mondays now."),  # when, not where
        ("Do you still live in Leeds?", "No, Sam does."),  # someone else's yes
        ("Do you still live in Leeds?", "No, Globex moved me."),  # says more than the value
        ("Would you move to Leeds?", "No, York maybe."),  # a hypothetical
        ("Are you seeing anyone?", "No, but there's a guy called Sam I like."),
        ("Is Tom seeing anyone?", "Yeah, her name is Lily."),
        ("What do you do?", "Not much, just relaxing."),
        ("What do you do on weekends?", "Hiking, mostly."),  # another question than the work one
        ("What does Tom do?", "Nurse, at the city hospital."),
        ("Who is Tom dating?", "Lily."),
        ("Who are you dating?", "Nobody."),
        ("Any kids?", "No, no time for that."),  # a no of another thing
        ("Do you have kids?", "No, no way."),
        ("Are you working these days?", "Yes, at the moment."),
    ],
)
def test_replies_that_are_not_the_listeners_value_say_nothing_of_it(question: str, reply: str) -> None:
    assert _pair(question, reply) == set()


@pytest.mark.parametrize("reply", ["No, I moved to Lyon.", "No, I'm in Lyon now."])
def test_a_no_that_goes_on_to_another_thing_ends_and_holds_no_job(reply: str) -> None:
    # A move says where one lives, and "in Lyon" is not "at" a workplace: neither is a job.
    assert not {f for f in _pair("Do you still work at Globex?", reply) if f[0] == "employer"}


def test_a_reply_by_the_one_who_asked_says_nothing() -> None:
    assert _pair("Do you still live in Leeds?", "No, York now.", replier="Cecilia", asker="Cecilia") == set()


@pytest.mark.parametrize(
    ("text", "bare", "opening"),
    [
        ("No, York now.", None, "no"),
        ("Not anymore — I'm at Globex.", None, "ended"),
        ("No longer, I'm at Globex.", None, "ended"),
        ("No, none yet.", "no", "no"),
        ("Not yet.", None, None),  # may be said of what is to come: read as nothing
        ("No, I do.", None, None),  # a no taken back
        ("No, I'm still there.", None, None),
        ("Nope.", "no", None),  # a bare no is bare_reply's
        ("Yes, at Globex.", None, None),
    ],
)
def test_a_no_that_goes_on_is_read_as_its_no(text: str, bare: str | None, opening: str | None) -> None:
    assert bare_reply(text) == bare
    assert opening_reply(text) == opening


def test_a_question_turned_back_on_the_listener_is_put_to_them() -> None:
    # "And you, …?" asks the one replying what they were just asked about.
    assert _pair("And you, do you still live in Leeds?", "No.") == {("residence", "Leeds", "negative", "asserted")}
    assert _pair("Ines, do you still live in Leeds?", "No.") == set()


def _after(held: str, question: str, reply: str) -> set[Fact]:
    """The accepted facts of Cecilia's ``reply`` to Bo's ``question``, once Cecilia said ``held``."""
    said = turn(held, "Cecilia").model_copy(update={"id": "h0", "seq": 0})
    asked = turn(question, "Bo").model_copy(update={"id": "q1", "seq": 1})
    replied = turn(reply, "Cecilia").model_copy(update={"id": "r1", "seq": 2})
    found = {t.id: t for t in (said, asked, replied)}
    return {
        (f.attribute or "", f.value, f.polarity, f.modality)
        for f in RuleExtractor().propose("home", [said, asked, replied])
        if replied.id in f.evidence_ids and Validator().validate("home", f, found).accepted
    }


@pytest.mark.parametrize(
    ("held", "question", "reply", "expected"),
    [
        ("I work at Initech.", "Are you still at Initech?", "Nope, Globex now.",
         {("employer", "Initech", "negative", "asserted"), ("employer", "Globex", "positive", "asserted")}),
        ("I work at Initech.", "Still at Initech?", "Not anymore, I'm at Globex now.",
         {("employer", "Initech", "negative", "asserted"), ("employer", "Globex", "positive", "asserted")}),
        ("I live in Leeds.", "Still in Leeds?", "Nope, York now.",
         {("residence", "Leeds", "negative", "asserted"), ("residence", "York", "positive", "asserted")}),
        # "at Initech" with no verb is a job only where Initech was the speaker's employer.
        ("I live in Leeds.", "Still at Initech?", "Nope, Globex now.", set()),
        ("I'm at the airport.", "Are you still at Initech?", "Nope, Globex now.", set()),
    ],
)  # fmt: skip
def test_a_place_asked_with_no_verb_is_what_the_speaker_held_it_as(held: str, question: str, reply: str,
                                                                   expected: set[Fact]) -> None:
    assert _after(held, question, reply) == expected


@pytest.mark.parametrize("reply", ["No, a nurse now.", "Not anymore."])
def test_a_no_to_still_being_a_teacher_ends_the_occupation(reply: str) -> None:
    assert ("occupation", "teacher", "negative", "asserted") in _pair("Are you still a teacher?", reply)


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        ("Still teaching?", "Not anymore.", {("occupation", "teacher", "negative", "asserted")}),
        ("Are you still teaching?", "No.", {("occupation", "teacher", "negative", "asserted")}),
        ("Are you still with Sam?", "No.", {("partner", "Sam", "negative", "asserted")}),
        ("Are you still with Sam?", "No, we broke up.",
         {("partner", "Sam", "negative", "asserted"), ("relationship_status", "single", "positive", "asserted")}),
        ("Are you still with Sam?", "Nope, we split up in May.",
         {("partner", "Sam", "negative", "asserted"), ("relationship_status", "single", "positive", "asserted")}),
    ],
)  # fmt: skip
def test_a_no_that_ends_what_was_asked_ends_it(question: str, reply: str, expected: set[Fact]) -> None:
    assert _pair(question, reply) == expected


@pytest.mark.parametrize(
    ("question", "reply", "asker"),
    [
        ("Still teaching?", "Not anymore.", "Cecilia"),  # the one who asked answers herself
        ("Is Melinda still teaching?", "Not anymore.", "Bo"),  # a question about someone else
        ("Is Melinda still with Sam?", "No, they broke up.", "Bo"),
        ("Are you still with Sam?", "No, I'm still with him.", "Bo"),  # a no taken back
    ],
)  # fmt: skip
def test_a_no_by_the_asker_about_someone_else_or_taken_back_ends_nothing_of_the_speaker(
        question: str, reply: str, asker: str) -> None:
    assert not {f for f in _pair(question, reply, asker=asker) if f[0] in {"occupation", "partner"}}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I'm not teaching anymore.", {("occupation", "teacher", "negative", "asserted")}),
     ("I don't teach any more.", {("occupation", "teacher", "negative", "asserted")}),
     ("I no longer teach.", {("occupation", "teacher", "negative", "asserted")}),
     ("Melinda isn't nursing anymore.", {("occupation", "nurse", "negative", "asserted")}),
     ("I'm not teaching yoga anymore.", set()),  # a class, maybe
     ("I'm not teaching today.", set())],
)  # fmt: skip
def test_a_trade_done_no_longer_ends_its_occupation(text: str, expected: set[Fact]) -> None:
    assert {f for f in facts(text) if f[0] == "occupation"} == expected
