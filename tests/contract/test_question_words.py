"""The question word says what kind of value answers: "Where does Priya work?" asks for a
place, so her occupation ("nurse"), which "work" also points at, is not claimed as the
answer when no employer is known; "What does Priya do for a living?" is answered by it.
Through the public ``Memory`` with the default rule extractor."""

from __future__ import annotations

import hashlib

import pytest

from eywa.memory import Memory

TURNS = [{"text": "I'm a nurse, I love it.", "speaker": "Priya", "session": "s1", "observed_at": "2023-01-10T10:00:00"}]


def test_a_where_question_is_not_answered_with_an_occupation(memory: Memory) -> None:
    memory.remember("p", TURNS)
    where = memory.recall("p", "Where does Priya work?", k=3, as_of="2023-02-01T00:00:00")
    assert where.trace["answer"] is None
    what = memory.recall("p", "What does Priya do for a living?", k=3, as_of="2023-02-01T00:00:00")
    assert what.trace["answer"] is not None and what.items[0].text.startswith("Priya — occupation: nurse")


def test_what_company_is_answered_with_the_employer_not_the_occupation(memory: Memory) -> None:
    """"What company does Priya work for?" was answered "occupation: engineer": "what" asks
    for an occupation first, and the noun it asks about was not read."""
    memory.remember("c", [{"text": "I work at Globex as an engineer.", "speaker": "Priya", "session": "s1",
                           "observed_at": "2023-01-10T10:00:00"}])
    found = memory.recall("c", "What company does Priya work for?", k=3, as_of="2023-02-01T00:00:00")
    assert found.trace["answer"] is not None and found.items[0].text.startswith("Priya — employer: Globex"), found.items[0]
    job = memory.recall("c", "What is Priya's job?", k=3, as_of="2023-02-01T00:00:00")
    assert job.items[0].text.startswith("Priya — occupation: engineer")


def test_a_question_for_a_name_is_answered_with_the_name(memory: Memory) -> None:
    """"What is Priya's husband's name?" was answered "relationship_status: married": "what"
    asks for the status first, and that the question asks for a name was not read."""
    memory.remember("n", [{"text": "I'm married to Tobias.", "speaker": "Priya", "session": "s1",
                           "observed_at": "2023-01-10T10:00:00"}])  # fmt: skip
    for question in ("What is Priya's husband's name?", "What is Priya's husband called?"):
        found = memory.recall("n", question, k=3, as_of="2023-02-01T00:00:00")
        assert found.trace["answer"] is not None and found.items[0].text.startswith("Priya — partner: Tobias"), question
    status = memory.recall("n", "Is Priya married?", k=3, as_of="2023-02-01T00:00:00")
    assert status.items[0].text.startswith("Priya — relationship_status: married")


def test_what_someone_likes_to_do_is_answered_with_their_pastimes(memory: Memory) -> None:
    """"What does Priya like to do?" was read as "What does Priya do?" (her work, unknown: no
    answer) and "… do for fun?" likewise; "I run every morning" made no pastime at all."""
    memory.remember("h", [{"text": text, "speaker": "Priya", "session": "s1", "observed_at": "2023-01-10T10:00:00"}
                          for text in ("I love hiking.", "I run every morning.")])  # fmt: skip
    for question in ("What does Priya like to do?", "What does Priya do for fun?", "What does Priya enjoy doing?",
                     "What does Priya do in her free time?", "What does Priya do in her spare time?"):
        found = memory.recall("h", question, k=3, as_of="2023-02-01T00:00:00")
        assert found.trace["answer"] is not None, question
        assert found.items[0].text.startswith("Priya — hobbies:") and "running" in found.items[0].text, question


def _said(memory: Memory, space: str, texts: tuple[str, ...]) -> None:
    memory.remember(space, [{"text": text, "speaker": "Priya", "session": f"s{i}",
                             "observed_at": f"2023-01-1{i}T10:00:00"} for i, text in enumerate(texts)])  # fmt: skip


def _space_of(*texts: str) -> str:
    """A space of one's own for each case of a parametrised test (the memory is shared)."""
    return "q-" + hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]


def _claimed(memory: Memory, space: str, question: str) -> str:
    """The claimed answer's text, or "" when nothing is claimed."""
    found = memory.recall(space, question, k=3, as_of="2023-03-01T00:00:00")
    return found.items[0].text if found.trace["answer"] is not None else ""


def test_where_someone_teaches_is_answered_with_where_they_work(memory: Memory) -> None:
    """"Where does Priya teach?" claimed nothing: "teach" is no attribute's word, so the
    question read as a topic the employer could not answer."""
    _said(memory, "t", ("I teach at Hollis Academy, mostly chemistry.",))
    for question in ("Where does Priya teach?", "Where does Priya teach now?", "Where is Priya teaching these days?"):
        assert _claimed(memory, "t", question).startswith("Priya — employer: Hollis Academy"), question
    # What she teaches is a subject, which no attribute holds; a past "where" asks of a past.
    assert _claimed(memory, "t", "What does Priya teach?") == ""
    assert _claimed(memory, "t", "Where did Priya teach?") == ""


@pytest.mark.parametrize(
    ("said", "question", "answer"),
    [
        ("We adopted a parrot named Kiwi.", "What is Priya's parrot called?", "Priya — pets: Kiwi"),
        ("We adopted a parrot named Kiwi.", "What's the name of Priya's parrot?", "Priya — pets: Kiwi"),
        ("I got a hamster named Biscuit.", "Does Priya have a hamster?", "Priya — pets: Biscuit"),
        ("Our rabbit Clover loves carrots.", "What is Priya's rabbit's name?", "Priya — pets: Clover"),
        ("I have a beagle named Rufus.", "What is Priya's beagle called?", "Priya — pets: Rufus"),
    ],
)
def test_a_pet_asked_for_by_its_kind_is_answered_with_the_pet(memory: Memory, said: str, question: str,
                                                              answer: str) -> None:
    """Only "dog", "cat", "puppy" and "kitten" asked for a pet: "What is Priya's parrot
    called?" claimed nothing though the parrot's name was believed."""
    space = _space_of(said, question)
    _said(memory, space, (said,))
    assert _claimed(memory, space, question).startswith(answer), question


@pytest.mark.parametrize("question", ["What diet does Priya follow?", "Does Priya follow a diet?",
                                      "Is Priya following a vegetarian diet?"])
def test_the_diet_one_follows_is_answered_with_the_diet(memory: Memory, question: str) -> None:
    """"What diet does Priya follow?" claimed nothing: "follow" read as a topic the diet
    could not answer."""
    space = _space_of(question)
    _said(memory, space, ("I've been vegetarian for years now.",))
    assert _claimed(memory, space, question).startswith("Priya — diet:"), question


def test_a_pet_asked_for_by_its_kind_among_other_kinds_is_answered_by_the_turns(memory: Memory) -> None:
    """The pets line names every pet, not which is which: "What is Priya's dog called?" was
    answered "pets: Kiwi, Rex" with the parrot Kiwi first. With a pet of another kind among
    them the line is not claimed and the turn that says the dog ranks first; a set of that
    kind alone (a kitten is a cat) is still answered by the line."""
    _said(memory, "mixed", ("We adopted a parrot named Kiwi.", "Our dog Rex sleeps all day."))
    for question in ("What is Priya's dog called?", "What's the name of Priya's dog?", "Does Priya have a dog?"):
        found = memory.recall("mixed", question, k=3, as_of="2023-03-01T00:00:00")
        assert found.trace["answer"] is None and found.items[0].text == "Our dog Rex sleeps all day.", question
    assert _claimed(memory, "mixed", "What pets does Priya have?").startswith("Priya — pets: Kiwi")
    _said(memory, "cats", ("I have two cats, Luna and Milo.",))
    assert _claimed(memory, "cats", "Does Priya have a kitten?").startswith("Priya — pets: Luna")
    assert _claimed(memory, "cats", "Does Priya have a dog?") == ""


def test_a_pet_of_a_breed_answers_for_its_kind_and_a_question_for_the_kind_wants_a_kind(memory: Memory) -> None:
    """"Does Priya have a dog?" after "we adopted a beagle named Pepper" claimed nothing: a
    beagle read as a kind of its own, another than the dog asked. A breed is a dog as a
    puppy is. "What kind of dog does Priya have?" asks for the breed, which a line of names
    ("pets: Pepper") does not say: the turn answers, unless the pets were only ever said by
    their kind."""
    _said(memory, "breed", ("My husband and I just adopted a beagle named Pepper.",))
    for question in ("Does Priya have a dog?", "What is Priya's dog called?", "What's Priya's puppy's name?",
                     "Does Priya have a beagle?"):
        assert _claimed(memory, "breed", question).startswith("Priya — pets: Pepper"), question
    assert _claimed(memory, "breed", "Does Priya have a cat?") == ""
    for question in ("What kind of dog does Priya have?", "What breed is Priya's dog?", "What type of pet does Priya have?"):
        found = memory.recall("breed", question, k=3, as_of="2023-03-01T00:00:00")
        assert found.trace["answer"] is None and "beagle" in found.items[0].text, question
    _said(memory, "unnamed", ("We have a rabbit and two cats at home.",))
    assert "rabbit" in _claimed(memory, "unnamed", "What kind of pets does Priya have?")
    _said(memory, "bunny", ("I got a rabbit last spring.",))
    assert _claimed(memory, "bunny", "Does Priya have a bunny?").startswith("Priya — pets: rabbit")


def test_a_pastime_asked_for_by_its_kind_is_answered_by_a_line_that_holds_one(memory: Memory) -> None:
    """"What instrument does Priya play?" claimed nothing though her guitar was believed
    ("instrument" read as a topic the hobbies could not answer); a line of pastimes answers
    a question for one kind only when it holds one of that kind: painting is no instrument."""
    _said(memory, "music", ("I play guitar in a small band, and I run every morning.",))
    for question in ("What instrument does Priya play?", "What instruments does Priya play?",
                     "Does Priya play an instrument?", "What sport does Priya do?"):
        claimed = _claimed(memory, "music", question)
        assert claimed.startswith("Priya — hobbies:") and "guitar" in claimed, question
    _said(memory, "quiet", ("I love painting on quiet weekends.",))
    assert _claimed(memory, "quiet", "What are Priya's hobbies?").startswith("Priya — hobbies: painting")
    for question in ("What instrument does Priya play?", "What sport does Priya play?"):
        assert _claimed(memory, "quiet", question) == "", question


def test_who_one_is_engaged_to_is_answered_with_the_partner(memory: Memory) -> None:
    """"Who is Priya engaged to?" and "Who is Priya's fiancé?" claimed nothing though the
    engagement named the partner: "engaged" pointed at the status only, "fiancé" at nothing
    (the planner read words in ASCII letters only, and "fiance" was no partner word)."""
    _said(memory, "engaged", ("Tom and I got engaged last weekend!",))
    for question in ("Who is Priya engaged to?", "Who is Priya's fiancé?", "Who is Priya's fiance?",
                     "What is Priya's fiancée's name?"):
        assert _claimed(memory, "engaged", question).startswith("Priya — partner: Tom"), question
    assert _claimed(memory, "engaged", "Is Priya engaged?").startswith("Priya — relationship_status: engaged")


def test_whether_one_is_seeing_anyone_or_allergic_to_anything_is_answered(memory: Memory) -> None:
    """"Is Priya seeing anyone?" claimed nothing ("seeing" is no attribute word) and "Is Priya
    allergic to anything?" nothing either ("anything" was read as a topic the line lacks)."""
    _said(memory, "anyone", ("I'm single at the moment.", "I'm allergic to peanuts."))
    for question in ("Is Priya seeing anyone?", "Is Priya seeing someone?"):
        assert _claimed(memory, "anyone", question).startswith("Priya — relationship_status: single"), question
    assert _claimed(memory, "anyone", "Is Priya allergic to anything?").startswith("Priya — health: peanuts allergy")
    _said(memory, "anyone-else", ("I'm single at the moment.",))
    assert _claimed(memory, "anyone-else", "Is Priya allergic to anything?") == ""  # nothing known of it


def test_the_home_one_calls_and_the_line_of_work_one_is_in_are_answered(memory: Memory) -> None:
    """"What city does Priya call home?" and "What line of work is Priya in?" claimed nothing:
    "call", "line" and "field" were read as topics her residence and her job could not answer."""
    _said(memory, "idioms", ("I moved to Lisbon last year.", "I'm a nurse, I love it."))
    for question in ("What city does Priya call home?", "Which city does Priya call home now?"):
        assert _claimed(memory, "idioms", question).startswith("Priya — residence: Lisbon"), question
    for question in ("What line of work is Priya in?", "What's Priya's line of work?", "What field of work is Priya in?"):
        assert _claimed(memory, "idioms", question).startswith("Priya — occupation: nurse"), question
    # A home that is a house, and a call made home, ask for neither.
    _said(memory, "house", ("Our home was flooded last week.", "I called home yesterday to talk to mum."))
    assert _claimed(memory, "house", "What happened to Priya's home?") == ""
    assert _claimed(memory, "house", "Who did Priya call?") == ""


def test_what_one_does_at_a_named_workplace_is_answered_with_the_job(memory: Memory) -> None:
    """"What does Priya do at Globex?" claimed nothing: "What does Priya do?" was an idiom of
    her work only with nothing after "do"."""
    _said(memory, "at", ("I'm a software engineer at Globex.", "I cook for Sam every Sunday."))
    assert _claimed(memory, "at", "What does Priya do at Globex?").startswith("Priya — occupation: software engineer")
    # What she does for a person, or at a place at a time, is no job.
    assert _claimed(memory, "at", "What does Priya do for Sam?") == ""
    assert _claimed(memory, "at", "What does Priya do at Globex on Fridays?") == ""


def test_a_job_asked_by_its_kind_is_answered_with_the_title(memory: Memory) -> None:
    """"Is Priya an engineer?" after "I'm a software engineer" claimed nothing: a value was
    named only by all its words. A job is named by its last word, the kind of job it is."""
    _said(memory, "kind", ("I'm a software engineer at Globex.",))
    for question in ("Is Priya an engineer?", "Is Priya still an engineer?"):
        assert _claimed(memory, "kind", question).startswith("Priya — occupation: software engineer"), question
    assert _claimed(memory, "kind", "Is Priya a doctor?") == ""
    # Another word than the last is no kind ("an engineering manager" is a manager), and a
    # place is not named by its last word ("York" is not New York).
    _said(memory, "not-kind", ("I'm an engineering manager.", "I live in New York."))
    assert _claimed(memory, "not-kind", "Is Priya an engineer?") == ""
    assert _claimed(memory, "not-kind", "Does Priya live in York?") == ""
