"""Plain first-person statements a user expects a memory to answer from: an age, whether
one works, a habit given up, a degree, a car, an unnamed boyfriend. Each used to leave at
most a life event (or nothing), so "How old is Alice?", "Does Alice work?" or "Does Alice
smoke?" found only the turn, never a belief that answers. Through the public ``Memory``
with the default rule extractor: the answer must be the claimed dimension line, first."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from eywa.memory import Memory

ASKED_AT = "2024-07-20T00:00:00"
"""Turns are said a month apart from 1 May 2024; questions are asked after the last."""


def _space(texts: tuple[str, ...]) -> str:
    return "say-" + hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]


def _remember(memory: Memory, texts: tuple[str, ...]) -> str:
    space = _space(texts)
    turns = [{"text": text, "speaker": "Alice", "session": f"s{i}", "observed_at": f"2024-0{5 + i}-01T10:00:00"}
             for i, text in enumerate(texts)]  # fmt: skip
    memory.remember(space, turns)
    return space


def _answer(memory: Memory, space: str, question: str, as_of: str = ASKED_AT) -> str:
    """The text of the claimed answer, or "" when nothing is claimed."""
    result = memory.recall(space, question, k=5, as_of=as_of)
    top = result.items[0]
    return top.text if top.kind == "dimension" and result.trace.get("answer") else ""


def _beliefs(memory: Memory, space: str) -> set[tuple[str | None, str | None, str]]:
    return {(b.attribute, b.value, b.polarity) for b in memory.beliefs(space) if b.subject == "Alice"}


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("I'm 40.",), "How old is Alice?", "Alice — age: 40 since 1 May 2024"),
        (("I am 32 years old.",), "How old is Alice?", "Alice — age: 32"),
        # turned 40 the week before it was said: since that week (the age's stated start)
        (("I just turned 40 last week.",), "How old is Alice?", "Alice — age: 40 since 22 Apr 2024"),
        # In words, as people say it: the value is the number in digits.
        (("I'm forty.",), "How old is Alice?", "Alice — age: 40 since 1 May 2024"),
        (("I just turned thirty-two.",), "How old is Alice?", "Alice — age: 32 since 1 May 2024"),
        (("I'm twenty five years old.",), "How old is Alice?", "Alice — age: 25 since 1 May 2024"),
        (("I'm Forty-one now.",), "How old is Alice?", "Alice — age: 41 since 1 May 2024"),
    ],
)
def test_an_age_said_is_the_answer_with_when_it_was_said(memory: Memory, texts: tuple[str, ...], question: str,
                                                         answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer) and "last said 1 May 2024" in said, said


def test_an_age_is_not_claimed_as_now_a_year_later(memory: Memory) -> None:
    """An age holds for a year at most: read a year later, the number said then is no
    longer claimed as the answer (the turn still ranks, with its date)."""
    space = _remember(memory, ("I'm 40.",))
    assert _answer(memory, space, "How old is Alice?", as_of="2025-05-01T00:00:00") == ""


@pytest.mark.parametrize(
    "text",
    ["I'm 40 minutes away.", "I'm 40 minutes late, sorry.", "I turned 40 pages tonight.", "I'm almost 40.",
     "I'm nearly 40 years old.", "I'm one of them.", "I'm second.", "I'm forty minutes away.",
     "I'm twenty five minutes late.", "I turned forty pages tonight.", "I'm almost forty.", "I'm not forty.",
     "I'm fifty-fifty on that.", "I'm one hundred percent sure.", "I'm a dozen.",
     # A clause of time says when something else happened (or will), not the age now.
     "When I turned ten, my aunt enrolled me in a league.", "When I turned 10, my aunt enrolled me.",
     "Once I'm 40, I'll slow down."],
)
def test_a_number_that_is_no_age_makes_no_age(memory: Memory, text: str) -> None:
    space = _remember(memory, (text,))
    assert not {b for b in _beliefs(memory, space) if b[0] == "age"}


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("I'm unemployed.",), "Does Alice work?", "Alice — employer: unemployed"),
        (("I'm between jobs right now.",), "Does Alice work?", "Alice — employer: unemployed"),
        (("I'm self-employed.",), "What does Alice do?", "Alice — employer: self-employed"),
        (("I retired last year.",), "Is Alice retired?", "Alice — employer: retired"),
        (("I retired last year.",), "Does Alice work?", "Alice — employer: retired"),
        # A status is the employer's value: a new job moves the same dimension.
        (("I'm unemployed.", "I got a new job at Initech."), "Where does Alice work?", "Alice — employer: Initech"),
        # Getting a job is itself a change of employer, "new" said or not.
        (("I'm unemployed.", "I got a job at Initech."), "Where does Alice work?", "Alice — employer: Initech"),
        (("I'm between jobs right now.", "Great news, I landed a job at Initech!"), "Where does Alice work?",
         "Alice — employer: Initech"),
        (("I work at Globex.", "I got hired at Initech last week."), "Where does Alice work?",
         "Alice — employer: Initech"),
        (("I work at Initech.", "I'm retired now."), "Does Alice work?", "Alice — employer: retired"),
    ],
)
def test_whether_one_works_is_answered(memory: Memory, texts: tuple[str, ...], question: str, answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("I quit smoking.",), "Does Alice smoke?", "Alice — habits: not smoking"),
        (("I smoke a pack a day.", "I quit smoking."), "Does Alice smoke?", "Alice — habits: not smoking"),
        (("I smoke a pack a day.",), "Does Alice smoke?", "Alice — habits: smoking"),
        (("I stopped drinking last year.",), "Does Alice drink?", "Alice — diet: not alcohol"),
        # "an ex-smoker" read nothing (the rule wanted "a", the validator found no "smoker"
        # inside "ex-smoker"); "used to" was a past habit, so nothing at all
        (("I'm an ex-smoker.",), "Does Alice smoke?", "Alice — habits: not smoking"),
        # Without the hyphen, "ex smoker" / "non smoker" were read as "smoker" said without a
        # negation (refused: polarity); "nonsmoker" was never proposed.
        (("I'm an ex smoker.",), "Does Alice smoke?", "Alice — habits: not smoking"),
        (("I'm a non smoker.",), "Does Alice smoke?", "Alice — habits: not smoking"),
        (("I'm a nonsmoker.",), "Does Alice smoke?", "Alice — habits: not smoking"),
        (("I'm an ex vaper.",), "Does Alice vape?", "Alice — habits: not vaping"),
        (("I smoke a pack a day.", "I used to smoke, but not anymore."), "Does Alice smoke?",
         "Alice — habits: not smoking"),
        (("I used to be a heavy smoker.",), "Does Alice smoke?", "Alice — habits: not smoking"),
        (("I'm an ex-vaper.",), "Does Alice vape?", "Alice — habits: not vaping"),
    ],
)
def test_a_habit_given_up_answers_no(memory: Memory, texts: tuple[str, ...], question: str, answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I graduated from Harvard.", ("education", "Harvard", "positive")),
        ("I graduated from Harvard last year.", ("education", "Harvard", "positive")),
        ("I studied law at Leeds.", ("education", "law", "positive")),
        ("I studied law at Leeds.", ("education", "Leeds", "positive")),
        ("I'm 40.", ("age", "40", "positive")),
        ("I bought a Tesla.", ("possessions", "tesla", "positive")),
        ("I have a boyfriend.", ("relationship_status", "in a relationship", "positive")),
    ],
)
def test_the_statement_makes_its_belief(memory: Memory, text: str, expected: tuple[str, str, str]) -> None:
    space = _remember(memory, (text,))
    assert expected in _beliefs(memory, space), _beliefs(memory, space)


@pytest.mark.parametrize("text", ["I studied all night.", "I studied at the library.", "I graduated from it."])
def test_study_said_of_an_evening_makes_no_education(memory: Memory, text: str) -> None:
    space = _remember(memory, (text,))
    assert not {b for b in _beliefs(memory, space) if b[0] == "education"}


def test_what_car_is_answered_from_possessions(memory: Memory) -> None:
    space = _remember(memory, ("I bought a Tesla.",))
    assert _answer(memory, space, "What car does Alice drive?").startswith("Alice — possessions: tesla")


def test_an_unnamed_boyfriend_answers_whether_one_is_single(memory: Memory) -> None:
    space = _remember(memory, ("I have a boyfriend.",))
    said = _answer(memory, space, "Is Alice single?")
    assert said.startswith("Alice — relationship_status: in a relationship"), said


@pytest.mark.parametrize(
    ("text", "question", "expected"),
    [
        # A pescatarian eats fish: the answer to "vegetarian?" shows the fish, not only "not meat".
        ("I'm pescatarian.", "Is Alice vegetarian?", "fish since 1 May 2024"),
        ("I'm pescatarian.", "Does Alice eat fish?", "fish since 1 May 2024"),
        ("I'm vegetarian.", "Does Alice eat fish?", "not fish"),
        ("I'm vegetarian.", "Does Alice eat meat?", "not meat"),
        # A vegan eats neither: "Does Alice eat meat?" is answered "not meat", not only
        # "not animal products".
        ("I'm vegan.", "Does Alice eat meat?", "not meat"),
        ("I'm vegan.", "Is Alice vegetarian?", "not meat"),
        ("I went vegan last year.", "Does Alice eat meat?", "not meat"),
    ],
)
def test_a_diet_label_answers_about_fish(memory: Memory, text: str, question: str, expected: str) -> None:
    space = _remember(memory, (text,))
    said = _answer(memory, space, question)
    assert said.startswith("Alice — diet:") and expected in said, said


_FISH_AGAIN = ("I'm vegetarian.", "I started eating fish again, so I'm pescatarian now.")


def test_eating_fish_again_is_a_change_of_diet(memory: Memory) -> None:
    """"I started eating fish again" says the "no fish" said before has ended: the fish it
    observes carries the change signal, which raises the hazard before it is folded."""
    space = _remember(memory, _FISH_AGAIN)
    fish = [d for d in memory.deltas(space, "Alice", "diet") if d.observed == "fish" and d.polarity == "positive"]
    assert fish and all(d.change_signal for d in fish), fish


@pytest.mark.parametrize("question", ["Is Alice vegetarian?", "Does Alice eat fish?", "Does Alice eat meat?"])
def test_a_vegetarian_who_eats_fish_again_is_answered_pescatarian(memory: Memory, question: str) -> None:
    """The fish is the answer once eating it again is a change (it stayed split, 0.52 "not
    fish", and "Is Alice vegetarian?" ranked the old "I'm vegetarian." turn first, which
    reads as yes). In this space the turn's "not meat" sorts before its fish, and the fold
    released the instant's change to the first observation only: the fish stayed at 0.48.
    Each member a change is said of is now released (``eywa.nous.engine.replay``)."""
    space = _remember(memory, _FISH_AGAIN)
    said = _answer(memory, space, question)
    assert said.startswith("Alice — diet: pescatarian: fish since 1 Jun 2024"), said
    assert "not meat" in said and "not fish" not in said, said


@pytest.mark.parametrize("question", ["What pets does Alice have?", "Does Alice have a dog?"])
def test_a_pet_that_died_is_the_answer_not_the_turn_that_had_it(memory: Memory, question: str) -> None:
    """After "Rex died" the set of pets is empty; the stale "I have a dog named Rex" turn
    ranked first (and could rank first again: it matches "dog" best)."""
    space = _remember(memory, ("I have a dog named Rex.", "Rex died last week."))
    result = memory.recall(space, question, k=5, as_of=ASKED_AT)
    assert result.trace.get("answer") and result.items[0].text.startswith("Alice — pets: not Rex"), result.items[0].text
    # The answer cites the turn that ended the value and the one that said it held.
    cited = {memory.evidence(space, ref.id).text for ref in result.items[0].provenance}
    assert {"Rex died last week.", "I have a dog named Rex."} <= cited, cited


@pytest.mark.parametrize(
    ("text", "question", "answer"),
    [
        ("I graduated from Harvard.", "Where did Alice study?", "Alice — education: Harvard"),
        ("I graduated from Harvard.", "Which university did Alice go to?", "Alice — education: Harvard"),
        ("I studied law at Leeds.", "Where did Alice study?", "Alice — education: Leeds"),
        ("I studied law at Leeds.", "What did Alice study?", "Alice — education: Leeds"),
        ("I studied law at Leeds.", "Which university did Alice go to?", "Alice — education: Leeds"),
    ],
)
def test_a_school_is_asked_in_the_past_tense(memory: Memory, text: str, question: str, answer: str) -> None:
    """A school attended stays part of one's story after it ends, so one asks about it in
    the past tense; the answer is the education line, not the turn."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    "question", ["Who did Alice study with?", "What did Alice study for the exam?"]
)
def test_a_past_question_about_something_else_is_not_answered_by_the_school(memory: Memory, question: str) -> None:
    space = _remember(memory, ("I studied law at Leeds.",))
    assert _answer(memory, space, question) == ""


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        # "No longer" says it as "anymore" does.
        (("I no longer play tennis.",), "Does Alice play tennis?", "Alice — hobbies: not tennis"),
        (("I've been smoking for twenty years.",), "Does Alice smoke?", "Alice — habits: smoking"),
        (("I sold my car.",), "Does Alice have a car?", "Alice — possessions: not car"),
        (("I bought a car.", "I sold my car last week."), "Does Alice have a car?", "Alice — possessions: not car"),
        # A student's "at" is a school, not an employer.
        (("I'm a student at Oxford.",), "Where does Alice study?", "Alice — education: Oxford"),
        (("I have a degree in physics.",), "What did Alice study?", "Alice — education: physics"),
        (("I got my PhD from MIT.",), "Where did Alice study?", "Alice — education: MIT"),
        # The present perfect with how long says one still does.
        (("I've lived in Leeds for ten years.",), "Where does Alice live?", "Alice — residence: Leeds"),
        (("I've worked at Initech since 2019.",), "Where does Alice work?", "Alice — employer: Initech"),
        (("My husband is called Tom.",), "Who is Alice's husband?", "Alice — partner: Tom"),
        # A child named as "my son Leo" is: by the name.
        (("I have a son named Leo.",), "Does Alice have children?", "Alice — children: Leo"),
        (("I work from home for Initech.",), "Where does Alice work?", "Alice — employer: Initech"),
        (("I'm not married.",), "Is Alice married?",
         "Alice — relationship_status: unknown — last said 1 May 2024: not married"),
        # Another person's clause after "and" is not the rest of the place's name.
        (("I work at Globex and Tom works at Initech.",), "Where does Alice work?", "Alice — employer: Globex since"),
        (("I live in Denver and Eva lives in Austin.",), "Where does Alice live?",
         "Alice — residence: Denver since"),
        # A drink given up, sobriety, a pet named by a breed with a colour.
        (("I gave up coffee last month.",), "Does Alice drink coffee?", "Alice — diet: not coffee"),
        (("I've been sober for two years.",), "Does Alice drink alcohol?", "Alice — diet: not alcohol"),
        (("We have a golden retriever.",), "What pets does Alice have?", "Alice — pets: dog"),
        # A name before who they are, between commas.
        (("Eva, my sister, works at Globex.",), "Where does Alice's sister work?", "Eva — employer: Globex"),
        (("Tom, my husband, is a chef.",), "Who is Alice's husband?", "Alice — partner: Tom"),
    ],
)
def test_everyday_statements_answer(memory: Memory, texts: tuple[str, ...], question: str, answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("I'm a student at Oxford.", "employer"),
        ("I've been smoking brisket all day.", "habits"),
        ("I used to smoke salmon in the garden.", "habits"),  # something smoked, not the habit
        ("I never used to smoke.", "habits"),
        ("I have a gift certificate.", "education"),
        ("I worked at Initech for a year.", "employer"),
        ("I've worked at Initech.", "employer"),  # once, not now: no how long
        ("I've lived in Paris.", "residence"),
        ("I've worked as a nurse.", "occupation"),  # once, not now: no how long
        ("I'm not married to the idea.", "relationship_status"),
        ("My wife called Ines yesterday.", "partner"),
    ],
)
def test_everyday_statements_make_no_wrong_belief(memory: Memory, text: str, attribute: str) -> None:
    space = _remember(memory, (text,))
    assert not {b for b in _beliefs(memory, space) if b[0] == attribute}, _beliefs(memory, space)


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        # "since <date>": the date's start, as "I started working at Google in 2015" gives.
        (("I have worked at Google since 2015.",), "Where does Alice work?", "Alice — employer: Google since 1 Jan 2015"),
        (("I've been working at Initech since last year.",), "Where does Alice work?",
         "Alice — employer: Initech since 1 Jan 2023"),
        (("I've lived in York since March.",), "Where does Alice live?", "Alice — residence: York since 1 Mar 2024"),
        # "for <how long>": that long before it was said (1 May 2024).
        (("I've lived in Leeds for ten years.",), "Where does Alice live?", "Alice — residence: Leeds since 1 May 2014"),
        (("I've worked at Globex for 3 months.",), "Where does Alice work?", "Alice — employer: Globex since 1 Feb 2024"),
        (("We've lived in Bristol for about a year.",), "Where does Alice live?",
         "Alice — residence: Bristol since 1 May 2023"),
        (("I've been a paramedic for six years.",), "What is Alice's job?", "Alice — occupation: paramedic since 1 May 2018"),
        (("I've been smoking for twenty years.",), "Does Alice smoke?", "Alice — habits: smoking since 1 May 2004"),
        # An occupation or a status said with how long: the state of now, from its start.
        (("I've been a nurse since 2019.",), "What is Alice's job?", "Alice — occupation: nurse since 1 Jan 2019"),
        (("I've worked as a nurse for ten years.",), "What is Alice's job?",
         "Alice — occupation: nurse since 1 May 2014"),
        (("I've been married for ten years.",), "Is Alice married?",
         "Alice — relationship_status: married since 1 May 2014"),
        (("We've been married since 2010.",), "Is Alice married?", "Alice — relationship_status: married since 1 Jan 2010"),
        (("I've been vaping since 2021.",), "Does Alice vape?", "Alice — habits: vaping since 1 Jan 2021"),
        # A vague length states no start: since the day it was said.
        (("I've lived in Leeds for years.",), "Where does Alice live?", "Alice — residence: Leeds since 1 May 2024"),
        (("I've worked at Initech for a while.",), "Where does Alice work?", "Alice — employer: Initech since 1 May 2024"),
        (("I've worked at Initech since I graduated.",), "Where does Alice work?",
         "Alice — employer: Initech since 1 May 2024"),
    ],
)
def test_a_present_perfect_with_how_long_is_since_the_start_it_states(memory: Memory, texts: tuple[str, ...],
                                                                       question: str, answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    "text",
    [
        "I have worked at Google since 2015.",
        "I've lived in Leeds for ten years.",
        "I've worked at Initech for a while.",
        "I've lived in Leeds for half a year.",
        "I've worked at Initech since I graduated.",
    ],
)
def test_a_present_perfect_with_how_long_is_no_past_event(memory: Memory, text: str) -> None:
    """It is a state that still holds, not something done "shortly before" the day said
    ("since I graduated" says a graduation, which is one)."""
    space = _remember(memory, (text,))
    events = {b.value for b in memory.beliefs(space) if b.attribute in ("life_events", "events")}
    assert not {e for e in events if e and e.startswith(("worked", "lived"))}, events


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("I worked at Initech for a year.", "worked at Initech for a year"),  # a past, with how long it lasted
        ("I've signed up for a year of classes.", "signed up for a year of classes"),  # an amount, not how long
    ],
)
def test_a_past_with_a_length_is_still_an_event(memory: Memory, text: str, event: str) -> None:
    space = _remember(memory, (text,))
    assert ("life_events", event, "positive") in _beliefs(memory, space), _beliefs(memory, space)


def _events(memory: Memory, space: str) -> dict[str, str]:
    return {b.value or "": b.statement for b in memory.beliefs(space) if b.attribute in ("life_events", "events")}


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("I've lived in Paris.", "Alice lived in Paris before 1 May 2024."),
        ("I've visited Rome twice.", "Alice visited Rome twice before 1 May 2024."),
        ("I've worked at a bank.", "Alice worked at a bank before 1 May 2024."),
        ("I have stayed in Lisbon a few times.", "Alice stayed in Lisbon a few times before 1 May 2024."),
        ("I've met the mayor.", "Alice met the mayor before 1 May 2024."),
        ("We've visited Rome before.", "Alice and others visited Rome before 1 May 2024."),
        ("I've run a marathon three times.", "Alice ran a marathon three times before 1 May 2024."),
        ("I've been to Japan.", "Alice went to Japan before 1 May 2024."),
        ("I have been to Paris three times.", "Alice went to Paris three times before 1 May 2024."),
    ],
)
def test_the_experiential_perfect_is_an_undated_past_not_a_recent_event(memory: Memory, text: str, event: str) -> None:
    """A present perfect with no how long and no "just" or "recently" tells an experience at
    some time before it was said, not something done "shortly before" that day, and not a
    state that holds now."""
    space = _remember(memory, (text,))
    assert event in _events(memory, space).values(), _events(memory, space)
    assert not {b for b in _beliefs(memory, space) if b[0] in ("residence", "employer")}, _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("I've been a teacher.", "occupation"),
        ("I've been a nurse at Initech.", "employer"),
        ("I've been a nurse at Initech.", "occupation"),
        ("I've been married.", "relationship_status"),
        ("I've been married twice.", "relationship_status"),
        ("I've been married to Tom.", "relationship_status"),
        ("I've been married to Tom.", "partner"),
        ("I've been unemployed.", "employer"),
        ("I've been self-employed before.", "employer"),
    ],
)
def test_an_experiential_perfect_of_be_is_no_current_state(memory: Memory, text: str, attribute: str) -> None:
    """"I've been married" says it happened, not that it holds now (said by the divorced as
    much as by the married): no single value of now from it."""
    space = _remember(memory, (text,))
    assert not {b for b in _beliefs(memory, space) if b[0] == attribute}, _beliefs(memory, space)


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        # A recent change, by "just" or "recently": the state now, and a recent event.
        (("I've just moved to Paris.",), "Where does Alice live?", "Alice — residence: Paris"),
        (("I've recently started at Acme.",), "Where does Alice work?", "Alice — employer: Acme"),
        # How long, "always", "still", or the progressive: a state that still holds.
        (("I've been a teacher for ten years.",), "What is Alice's job?", "Alice — occupation: teacher since 1 May 2014"),
        (("I've always been a teacher.",), "What is Alice's job?", "Alice — occupation: teacher"),
        (("I've been a teacher all my life.",), "What is Alice's job?", "Alice — occupation: teacher"),
        (("I've been working as a nurse.",), "What is Alice's job?", "Alice — occupation: nurse"),
        (("I've been living in Paris.",), "Where does Alice live?", "Alice — residence: Paris"),
        (("I've lived in Leeds all my life.",), "Where does Alice live?", "Alice — residence: Leeds"),
        (("I've been unemployed since March.",), "Does Alice work?", "Alice — employer: unemployed since 1 Mar 2024"),
        (("I have two dogs.",), "Does Alice have pets?", "Alice — pets: dog"),
        # Married to someone, with how long: the status and the partner since the start it states.
        (("I've been married to Tom for ten years.",), "Is Alice married?", "Alice — relationship_status: married since 1 May 2014"),
        (("I've been married to Tom for ten years.",), "Who is Alice's partner?", "Alice — partner: Tom since 1 May 2014"),
        (("I've been married to Tom since 2015.",), "Who is Alice's partner?", "Alice — partner: Tom since 1 Jan 2015"),
    ],
)
def test_what_the_perfect_still_says_of_now(memory: Memory, texts: tuple[str, ...], question: str, answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("I've just moved to Paris.", "Alice moved to Paris shortly before 1 May 2024."),
        ("I've recently started at Acme.", "Alice started at Acme shortly before 1 May 2024."),
        ("I've visited Rome recently.", "Alice visited Rome shortly before 1 May 2024."),
        ("I've adopted a cat.", "Alice adopted a cat shortly before 1 May 2024."),  # a change, its result now
        ("I've just been to Oslo.", "Alice went to Oslo shortly before 1 May 2024."),
        ("I've recently been to a concert.", "Alice went to a concert shortly before 1 May 2024."),
    ],
)
def test_a_recent_perfect_is_still_shortly_before(memory: Memory, text: str, event: str) -> None:
    space = _remember(memory, (text,))
    assert event in _events(memory, space).values(), _events(memory, space)


@pytest.mark.parametrize("text", ["I've been to see the doctor.", "I've been to be honest quite tired."])
def test_been_to_with_a_verb_is_no_visit(memory: Memory, text: str) -> None:
    """"Been to" a place is a visit; "been to" and a verb is a purpose or an aside, not a place."""
    space = _remember(memory, (text,))
    assert not [v for v in _events(memory, space) if v.startswith("went to")], _events(memory, space)


@pytest.mark.parametrize(
    ("texts", "question", "value"),
    [
        (("I work at Initech.", "I left Initech last month."), "Where does Alice work now?", "Initech"),
        (("I live in Leeds.", "We left Leeds in May."), "Where does Alice live now?", "Leeds"),
    ],
)
def test_leaving_a_known_workplace_or_home_ends_it(memory: Memory, texts: tuple[str, ...], question: str,
                                                   value: str) -> None:
    """"I left Initech" alone is a job left when Initech is where the speaker said they work
    (it made only a life event, and "Where does Alice work now?" kept answering Initech)."""
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said == "" or f": {value}" not in said, said
    # Active: "last month" starts before the first turn's time, and the store's supersession
    # ordered it by that start, so the job said before it superseded it; it places it when
    # it was said, as the dimension does.
    ended = [b for b in memory.beliefs(space) if b.subject == "Alice" and b.polarity == "negative"]
    assert [b.value for b in ended] == [value], ended


def test_leaving_a_known_workplace_said_in_a_later_call_ends_it(memory: Memory) -> None:
    """The workplace is known from the stores when the leaving is remembered later."""
    space = "say-left-later"
    memory.remember(space, [{"text": "I work at Initech.", "speaker": "Alice", "session": "s0",
                             "observed_at": "2024-05-01T10:00:00"}])
    memory.remember(space, [{"text": "I left Initech in June.", "speaker": "Alice", "session": "s1",
                             "observed_at": "2024-07-01T10:00:00"}])
    assert ("employer", "Initech", "negative") in _beliefs(memory, space)
    assert not _answer(memory, space, "Where does Alice work now?").startswith("Alice — employer: Initech")


@pytest.mark.parametrize("text", ["I left Globex early, the music was too loud.", "I left Paris on Monday."])
def test_leaving_a_name_never_said_to_be_a_job_or_home_ends_nothing(memory: Memory, text: str) -> None:
    space = _remember(memory, (text,))
    assert not {a for a, _, p in _beliefs(memory, space) if p == "negative"} & {"employer", "residence"}


@pytest.mark.parametrize(
    ("texts", "value"),
    [
        (("I go climbing every weekend.", "I don't climb anymore, my knee is bad."), "climbing"),
        (("I go swimming every morning.", "I no longer swim."), "swimming"),
    ],
)
def test_a_pastime_given_up_said_with_its_verb_answers_no(memory: Memory, texts: tuple[str, ...], value: str) -> None:
    """"I don't climb anymore" ends climbing as "I don't go climbing anymore" does (it made
    nothing, and "Does Alice still go climbing?" answered yes)."""
    space = _remember(memory, texts)
    said = _answer(memory, space, f"Does Alice still go {value}?")
    assert said.startswith(f"Alice — hobbies: not {value}"), said


@pytest.mark.parametrize("text", ["I don't run the club anymore.", "I no longer read the paper.", "I don't fly anymore, sadly."])
def test_a_verb_with_an_object_or_no_pastime_ends_no_hobby(memory: Memory, text: str) -> None:
    space = _remember(memory, (text,))
    assert not {v for a, v, _ in _beliefs(memory, space) if a == "hobbies"}, _beliefs(memory, space)


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("I'm vegetarian.", "I started eating fish again."), "Does Alice eat fish?",
         "Alice — diet: pescatarian: fish since 1 Jun 2024"),
        (("I'm vegetarian.", "I'm eating meat again."), "Does Alice eat meat?", "Alice — diet: meat since 1 Jun 2024"),
    ],
)
def test_a_food_eaten_again_is_back_in_the_diet(memory: Memory, texts: tuple[str, ...], question: str,
                                                answer: str) -> None:
    """"I started eating fish again" said alone (not followed by "so I'm pescatarian") made
    nothing, and the vegetarian's "not fish" stayed the answer."""
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("text", "question", "answer"),
    [
        ("I'm employed by Globex.", "Where does Alice work?", "Alice — employer: Globex since 1 May 2024"),
        ("I am employed at Initech as a nurse.", "What's Alice's job?", "Alice — occupation: nurse since 1 May 2024"),
    ],
)
def test_employed_by_names_the_employer(memory: Memory, text: str, question: str, answer: str) -> None:
    """"I'm employed by Globex" made nothing: "Where does Alice work?" found only the turn."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


def test_not_employed_by_is_no_employer(memory: Memory) -> None:
    space = _remember(memory, ("I'm not employed by Globex, I just consult for them.",))
    assert ("employer", "Globex", "positive") not in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("Ben and I got engaged last weekend!", "Alice — partner: Ben since 27 Apr 2024"),
        ("I got engaged to Ben.", "Alice — partner: Ben since 1 May 2024"),
    ],
)
def test_whom_one_got_engaged_to_is_the_partner(memory: Memory, text: str, answer: str) -> None:
    """Both made the status engaged and no partner ("Ben" opening a sentence is no person
    Level 0 can tell from a capitalised word; "to Ben" was not read)."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, "Who is Alice's partner?")
    assert said.startswith(answer), said


@pytest.mark.parametrize("text", ["Google and I got divorced.", "We got married to Tom's delight."])
def test_a_name_beside_a_wedding_is_not_always_the_partner(memory: Memory, text: str) -> None:
    space = _remember(memory, (text,))
    assert not {v for a, v, _ in _beliefs(memory, space) if a == "partner"}, _beliefs(memory, space)


@pytest.mark.parametrize(
    "text", ["I live with my partner Sam in Oslo.", "We live with my parents in Oslo now.", "I live with Tom in Oslo."]
)
def test_whom_one_lives_with_does_not_hide_where(memory: Memory, text: str) -> None:
    """"I live with my partner Sam in Oslo" made the partner and no residence."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, "Where does Alice live?")
    assert said.startswith("Alice — residence: Oslo since 1 May 2024"), said


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("im working at initech now",), "Where does Alice work now?", "Alice — employer: Initech since 1 May 2024"),
        (("i live in berlin",), "Where does Alice live?", "Alice — residence: Berlin since 1 May 2024"),
        (("i live in new york now",), "Where does Alice live?", "Alice — residence: New York since 1 May 2024"),
        (("im a nurse",), "What's Alice's job?", "Alice — occupation: nurse since 1 May 2024"),
        (("i dont eat meat",), "Does Alice eat meat?", "Alice — diet: not meat"),
        (("I work at Initech.", "i dont work at initech anymore"), "Is Alice still at Initech?",
         "Alice — employer: unknown since 1 Jun 2024 (was Initech)"),
        (("Im vegetarian.",), "Does Alice eat meat?", "Alice — diet: vegetarian: not meat"),
    ],
)
def test_casual_spelling_is_read(memory: Memory, texts: tuple[str, ...], question: str, answer: str) -> None:
    """A lone "i", "im", "dont" and names typed in lower case: each made nothing, so a user
    who types casually was never answered."""
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("text", "attribute"),
    [("i work at home most days", "employer"), ("i work at night mostly", "employer"),
     ("im in love with my job lol", "employer"), ("i dont live in leeds", "residence"),
     ("I work at home, i.e. nowhere.", "employer"), ("i live in the middle of nowhere", "residence")],
)
def test_casual_spelling_makes_no_wrong_belief(memory: Memory, text: str, attribute: str) -> None:
    space = _remember(memory, (text,))
    assert not [v for a, v, p in _beliefs(memory, space) if a == attribute and p == "positive"], _beliefs(memory, space)


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("I work at Globex.", "Actually it's Initech, not Globex."), "Where does Alice work now?",
         "Alice — employer: Initech since 1 Jun 2024 (was Globex)"),
        (("I live in Leeds.", "Sorry, I meant York, not Leeds."), "Where does Alice live now?",
         "Alice — residence: York since 1 Jun 2024 (was Leeds)"),
    ],
)
def test_a_bare_correction_of_what_was_said_moves_the_answer(memory: Memory, texts: tuple[str, ...], question: str,
                                                             answer: str) -> None:
    """"Actually it's Initech, not Globex" after "I work at Globex" made nothing: the
    employer stayed Globex."""
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    "texts",
    [("Actually it's Initech, not Globex.",), ("I work at Globex.", "Actually it's Friday, not Monday."),
     ("I work at Globex.", "It's Initech, not Globex, that makes the best coffee machines.")],
)
def test_a_correction_of_nothing_said_before_makes_nothing(memory: Memory, texts: tuple[str, ...]) -> None:
    space = _remember(memory, texts)
    assert ("employer", "Initech", "positive") not in _beliefs(memory, space)
    assert ("employer", "Globex", "negative") not in _beliefs(memory, space)


def test_the_school_of_a_study_in_progress_is_named(memory: Memory) -> None:
    """"I'm studying law at Leeds" made the field alone (the place needed an institution
    word, "Leeds University"), so "Where does Alice study?" could not say Leeds."""
    space = _remember(memory, ("I'm studying law at Leeds.",))
    assert {("education", "law", "positive"), ("education", "Leeds", "positive")} <= _beliefs(memory, space)
    said = _answer(memory, space, "Where does Alice study?")
    assert said.startswith("Alice — education:") and "Leeds" in said, said


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("I've been vegan since 2020.", "2020-01-01"),
        ("I've been vegetarian for ten years.", "2014-05-01"),
    ],
)
def test_a_diet_in_the_perfect_with_how_long_holds_since_its_start(memory: Memory, text: str, start: str) -> None:
    """The diet label in the perfect made nothing ("I've been vegan since 2020"): now no
    meat, since the start it states."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, "Does Alice eat meat?")
    label = "vegan" if "vegan" in text else "vegetarian"
    assert said.startswith(f"Alice — diet: {label}: not meat"), said
    meat = [b for b in memory.beliefs(space, attribute="diet") if b.value == "meat"]
    assert [(b.polarity, b.valid_from and b.valid_from.date().isoformat()) for b in meat] == [("negative", start)]


def test_a_diet_in_the_experiential_perfect_is_no_diet_of_now(memory: Memory) -> None:
    space = _remember(memory, ("I've been vegan twice.",))
    assert not {v for a, v, _ in _beliefs(memory, space) if a == "diet"}, _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "since"),
    [
        ("I left Initech and joined Globex.", "1 Jun 2024"),
        ("I quit Initech to join Globex as a designer.", "1 Jun 2024"),
        # when it was left, between the employer and the next: "last month" stopped the rule
        ("I quit Initech last month and joined Globex.", "1 May 2024"),
    ],
)
def test_leaving_the_job_to_join_another_names_the_new_employer(memory: Memory, text: str, since: str) -> None:
    """"I left Initech and joined Globex" after "I work at Initech" ended Initech and named
    no employer ("Where does Alice work now?" found only the turn)."""
    space = _remember(memory, ("I work at Initech.", text))
    said = _answer(memory, space, "Where does Alice work now?")
    assert said.startswith(f"Alice — employer: Globex since {since} (was Initech)"), said


def test_joining_after_leaving_what_was_no_job_names_no_employer(memory: Memory) -> None:
    space = _remember(memory, ("I work at Initech.", "I left Paris and joined Tom in Rome."))
    assert ("employer", "Tom", "positive") not in _beliefs(memory, space)


@pytest.mark.parametrize("text", ["I'm living in Porto next year.", "We're based in Porto from next month."])
def test_living_somewhere_at_a_time_to_come_is_no_residence_now(memory: Memory, text: str) -> None:
    """"I'm living in Porto next year" made Porto the residence of now (a plan said as a fact)."""
    space = _remember(memory, ("I live in Leeds.", text))
    said = _answer(memory, space, "Where does Alice live now?")
    assert said.startswith("Alice — residence: Leeds"), said


@pytest.mark.parametrize("text", ["We're settling in nicely in Porto.", "We've settled in well in Porto."])
def test_settling_in_somewhere_is_living_there(memory: Memory, text: str) -> None:
    """After "I moved to Lisbon", "We're settling in nicely in Porto" made nothing: the
    answer stayed Lisbon."""
    space = _remember(memory, ("I moved to Lisbon.", text))
    said = _answer(memory, space, "Where does Alice live now?")
    assert said.startswith("Alice — residence: Porto since 1 Jun 2024 (was Lisbon)"), said


def test_settling_in_somewhere_later_is_a_plan(memory: Memory) -> None:
    space = _remember(memory, ("I moved to Lisbon.", "We're settling in Porto next year."))
    assert ("residence", "Porto", "positive") not in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Where is Alice living at the moment?", "Alice — residence: Leeds"),
        ("Where does Alice live at present?", "Alice — residence: Leeds"),
        ("What is Alice's job at this point in time?", "Alice — occupation: nurse"),
        ("Where does Alice work right now?", "Alice — employer: Initech"),
    ],
)
def test_a_phrase_of_now_in_the_question_is_when_not_what(memory: Memory, question: str, answer: str) -> None:
    """"at the moment" read as a topic ("moment") the dimension could not answer, so "Where
    is Alice living at the moment?" claimed nothing while "… now?" was answered."""
    space = _remember(memory, ("I live in Leeds.", "I work at Initech as a nurse."))
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    "text",
    ["I got fired from Initech last week.", "I was laid off from Initech.", "I got made redundant by Initech.",
     "I handed in my notice at Initech.", "I gave notice at Initech."],
)
def test_being_let_go_or_giving_notice_ends_the_job(memory: Memory, text: str) -> None:
    """The rules proposed Initech, negative, and the validator refused it (``polarity_flip``:
    "fired", "laid off", "made redundant" and "notice" were no cessation), so "Where does
    Alice work now?" kept answering Initech."""
    space = _remember(memory, ("I work at Initech.", text))
    assert ("employer", "Initech", "negative") in _beliefs(memory, space)
    said = _answer(memory, space, "Where does Alice work now?")
    assert not said.startswith("Alice — employer: Initech"), said


@pytest.mark.parametrize("text", ["Tom and I are no longer together.", "I'm not with Tom anymore.", "I'm no longer with Tom."])
def test_no_longer_together_ends_the_partner(memory: Memory, text: str) -> None:
    """Each made nothing, and "Who is Alice's partner?" kept answering Tom."""
    space = _remember(memory, ("I'm married to Tom.", text))
    assert ("partner", "Tom", "negative") in _beliefs(memory, space)
    said = _answer(memory, space, "Who is Alice's partner?")
    assert not said.startswith("Alice — partner: Tom"), said


@pytest.mark.parametrize("text", ["We're not together yet.", "Tom and I are not together."])
def test_not_together_without_an_end_ends_nothing(memory: Memory, text: str) -> None:
    space = _remember(memory, ("I'm married to Tom.", text))
    assert ("partner", "Tom", "negative") not in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "question", "answer"),
    [
        ("Currently I'm working as a barista.", "What does Alice do for a living?", "Alice — occupation: barista"),
        ("These days I live in Porto.", "Where does Alice live?", "Alice — residence: Porto"),
        ("Nowadays I work at Initech.", "Where does Alice work?", "Alice — employer: Initech"),
    ],
)
def test_a_sentence_opened_by_a_word_of_now_is_read(memory: Memory, text: str, question: str, answer: str) -> None:
    """"Currently", "these days" or "nowadays" before the subject hid the clause's start, so
    each made nothing."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("text", "since"),
    [("I got laid off last week.", "20 May 2024"), ("I lost my job.", "1 Jun 2024"), ("I was fired.", "1 Jun 2024")],
)
def test_losing_the_job_unnamed_is_being_out_of_work(memory: Memory, text: str, since: str) -> None:
    """Said without the employer, each left a life event at most, and "Where does Alice work
    now?" kept answering Initech."""
    space = _remember(memory, ("I work at Initech.", text))
    said = _answer(memory, space, "Where does Alice work now?")
    assert said.startswith(f"Alice — employer: unemployed since {since} (was Initech)"), said


@pytest.mark.parametrize("text", ["I got fired up about the match.", "I was let go from the team.", "I wasn't fired."])
def test_words_of_firing_that_end_no_job_make_no_unemployment(memory: Memory, text: str) -> None:
    space = _remember(memory, ("I work at Initech.", text))
    assert ("employer", "unemployed", "positive") not in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "answer"),
    [("I work in Berlin at Siemens.", "Alice — employer: Siemens"),
     ("I work nights in London at the Royal Hospital.", "Alice — employer: Royal Hospital")],
)
def test_the_town_of_the_job_does_not_hide_the_employer(memory: Memory, text: str, answer: str) -> None:
    """"I work in Berlin at Siemens" made nothing: the town between "work" and "at" broke the rule."""
    space = _remember(memory, (text,))
    said = _answer(memory, space, "Where does Alice work?")
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("texts", "kept"),
    [
        (("I work at Initech.", "I left Paris and joined Tom in Rome."), ("employer", "Initech", "positive")),
        (("I work at Initech.", "I quit Initech.", "I work at Globex."), ("employer", "Initech", "negative")),
    ],
)
def test_a_value_not_held_supersedes_no_other_value(memory: Memory, texts: tuple[str, ...],
                                                    kept: tuple[str, str, str]) -> None:
    """A belief that a value is not held ("left Paris": employer Paris, negative) marked the
    current employer's belief superseded, so ``beliefs`` no longer listed where Alice works;
    and a new job marked "quit Initech" superseded though both hold."""
    space = _remember(memory, texts)
    assert kept in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "said", "later"),
    [
        # The start's day said (the turn is said on Saturday 1 June): the employer from the
        # Monday after. Level 0 once left "on Monday" undated here, and the start stayed a plan.
        ("I start my new job at Globex on Monday.", ("employer", "Globex", "positive"),
         "Alice — employer: Globex since 3 Jun 2024 (was Initech)"),
        ("I'm starting at Globex.", ("plans", "start at globex", "positive"), "Alice — employer: Initech"),
    ],
)
def test_a_start_to_come_is_no_employer_yet(memory: Memory, text: str, said: tuple[str, str, str], later: str) -> None:
    """With no date placed before the turn, the present "start" is a start to come; it made
    "Alice started at Globex" (and "works at Globex"), and asked the next day "Where does
    Alice work now?" answered Globex rather than Initech."""
    space = _remember(memory, ("I work at Initech.", text))
    answer = _answer(memory, space, "Where does Alice work now?", as_of="2024-06-02T00:00:00")
    assert answer.startswith("Alice — employer: Initech"), answer
    assert said in _beliefs(memory, space)
    answer = _answer(memory, space, "Where does Alice work now?", as_of="2024-06-04T00:00:00")
    assert answer.startswith(later), answer


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        # A later plain statement of another value is the news of a change: Lisbon 0.59,
        # Porto 0.39 before, so nothing was claimed.
        (("I moved to Lisbon.", "I live in Porto."), "Where does Alice live now?",
         "Alice — residence: Porto since 1 Jun 2024 (was Lisbon)"),
        (("I've just started at Globex.", "I work at Initech."), "Where does Alice work now?",
         "Alice — employer: Initech since 1 Jun 2024 (was Globex)"),
        # A, B, A again: the last said holds now.
        (("I work at Initech.", "I work at Globex.", "I work at Initech."), "Where does Alice work now?",
         "Alice — employer: Initech since 1 Jul 2024 (was Globex)"),
    ],
)
def test_a_later_statement_of_another_value_is_what_holds_now(memory: Memory, texts: tuple[str, ...],
                                                             question: str, answer: str) -> None:
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


def test_what_held_between_two_statements_is_answered_as_of_then(memory: Memory) -> None:
    """Initech, then Globex, then Initech again: asked about June, Globex (it was a tie
    between the two, claimed by neither)."""
    space = _remember(memory, ("I work at Initech.", "I work at Globex.", "I work at Initech."))
    said = _answer(memory, space, "Where did Alice work in June 2024?")
    assert said.startswith("Alice — employer: Globex since 1 Jun 2024 (was Initech)"), said


def test_a_contradicted_value_is_revised_not_overwritten_and_a_restatement_raises_it(memory: Memory) -> None:
    """The value said before keeps a share (revised by probability), and saying the value
    believed again never lowers it."""
    moved = _remember(memory, ("I moved to Lisbon.", "I live in Porto."))
    residence = memory.dimension(moved, "Alice", "residence", as_of=ASKED_AT)
    assert residence.mode == "Porto" and 0.05 < residence.distribution["Lisbon"] < residence.distribution["Porto"]
    once = memory.dimension(_remember(memory, ("I work at Initech.",)), "Alice", "employer", as_of=ASKED_AT)
    twice = memory.dimension(_remember(memory, ("I work at Initech.", "I work at Initech.")), "Alice", "employer",
                             as_of=ASKED_AT)  # fmt: skip
    assert twice.distribution["Initech"] > once.distribution["Initech"]


@pytest.mark.parametrize("reverse", [False, True])
def test_an_end_dated_before_the_statement_it_ends_supersedes_it(memory: Memory, reverse: bool) -> None:
    """"I quit Initech last month" starts on 1 June, before "I work at Initech" said on 15
    June, but holds up to 20 July, when it was said: the job is what it ends. Ordered by
    its start, the negative was marked superseded by the job (``beliefs`` listed Alice
    working at Initech) while the dimension answered not Initech. In either order of
    ingestion."""
    space = f"say-quit-dated-{reverse}"
    turns = [{"text": "I work at Initech.", "speaker": "Alice", "session": "s0", "observed_at": "2024-06-15T10:00:00"},
             {"text": "I quit Initech last month.", "speaker": "Alice", "session": "s1",
              "observed_at": "2024-07-20T10:00:00"}]  # fmt: skip
    for turn in reversed(turns) if reverse else turns:
        memory.remember(space, [turn])
    assert _beliefs(memory, space) == {("employer", "Initech", "negative")}
    superseded = {(b.value, b.polarity) for b in memory.beliefs(space, status="superseded")}
    assert superseded == {("Initech", "positive")}


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("I have two cats, Luna and Sol.", {"Luna", "Sol"}),
        ("I have two cats named Luna and Sol.", {"Luna", "Sol"}),
        ("I have three dogs, Rex, Bo and Pip.", {"Rex", "Bo", "Pip"}),
        ("We adopted two kittens named Luna and Sol.", {"Luna", "Sol"}),
    ],
)
def test_pets_named_together_are_each_a_pet(memory: Memory, text: str, names: set[str]) -> None:
    """Several pets named after their kind were one pet, the species ("cat"), so "What pets
    does Alice have?" could not name them."""
    space = _remember(memory, (text,))
    assert {v for a, v, p in _beliefs(memory, space) if a == "pets" and p == "positive"} == names
    said = _answer(memory, space, "What pets does Alice have?")
    assert said.startswith("Alice — pets: ") and all(name in said for name in names), said


def test_a_name_that_begins_another_clause_is_no_pet(memory: Memory) -> None:
    space = _remember(memory, ("I have a dog named Rex and Tom has a cat.",))
    assert ("pets", "Tom", "positive") not in _beliefs(memory, space)
    assert ("pets", "Rex", "positive") in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "school"),
    [
        ("I'm doing a PhD at MIT.", "MIT"),
        ("I'm doing a PhD in chemistry at MIT.", "MIT"),
        ("I finished my master's at Stanford last year.", "Stanford"),
        ("I have an MBA from Wharton.", "Wharton"),
    ],
)
def test_the_school_of_a_degree_named_alone_is_the_education(memory: Memory, text: str, school: str) -> None:
    """A degree at a school named without an institution word ("a PhD at MIT") made the
    degree alone (`phd`), or nothing, so "Where does Alice study?" could not say MIT."""
    space = _remember(memory, (text,))
    assert ("education", school, "positive") in _beliefs(memory, space)


def _asked(memory: Memory, question: str, reply: str) -> str:
    """Alice works at Initech (1 May); on 1 June Ben asks her a question and she replies."""
    space = _space(("asked", question, reply))
    memory.remember(space, [
        {"text": "I work at Initech.", "speaker": "Alice", "session": "s0", "observed_at": "2024-05-01T10:00:00"},
        {"text": question, "speaker": "Ben", "session": "s1", "observed_at": "2024-06-01T10:00:00"},
        {"text": reply, "speaker": "Alice", "session": "s1", "observed_at": "2024-06-01T10:01:00"},
    ])  # fmt: skip
    return space


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("Do you still work at Initech?", "Yes.", ("employer", "Initech", "positive")),
        ("Do you still work at Initech?", "Yep, still there.", ("employer", "Initech", "positive")),
        ("Do you still work at Initech?", "Not anymore.", ("employer", "Initech", "negative")),
        ("Do you still work at Initech?", "No, not anymore.", ("employer", "Initech", "negative")),
        ("Are you still living in Porto?", "Yes, I am.", ("residence", "Porto", "positive")),
        ("Do you still play tennis?", "No, not anymore.", ("hobbies", "tennis", "negative")),
        ("Do you like sushi?", "Nope.", ("likes", "sushi", "negative")),
    ],
)
def test_a_bare_yes_or_no_says_what_the_question_asked(memory: Memory, question: str, reply: str,
                                                      said: tuple[str, str, str]) -> None:
    """A reply of nothing but yes or no leans on the question put to the speaker; it made
    nothing, so "Not anymore." left Initech the answer. The belief cites the question and
    the reply, and is dated by the reply."""
    space = _asked(memory, question, reply)
    beliefs = [b for b in memory.beliefs(space) if (b.attribute, b.value, b.polarity) == said]
    assert any(len(b.evidence_ids) == 2 for b in beliefs), memory.beliefs(space)


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Do you still work at Initech?", "Not anymore."),
        # "I left" with when, and nothing else, is an end too; "at Initech" alone is the job
        # the speaker's earlier beliefs hold.
        ("Are you still at Initech?", "Nope, I left in May."),
        ("Are you still at Initech?", "I quit last month."),
        ("Do you still work at Initech?", "I quit last month."),
    ],
)
def test_an_end_replied_to_still_working_there_ends_the_job(memory: Memory, question: str, reply: str) -> None:
    """"Are you still at Initech?" — "Nope, I left in May." made nothing (the reply said
    more than a bare no, and "at Initech" was no job without work talk)."""
    space = _asked(memory, question, reply)
    employer = memory.dimension(space, "Alice", "employer", as_of=ASKED_AT)
    assert employer.mode is None and employer.distribution["Initech"] < 0.2, employer.distribution


def test_a_place_left_replied_to_still_living_there_ends_the_home(memory: Memory) -> None:
    space = _asked(memory, "Do you still live in Porto?", "No, I left last year.")
    assert ("residence", "Porto", "negative") in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Does Tom still work at Globex?", "Yes."),  # about someone else
        ("Do you know if he still works at Globex?", "Yes."),
        ("Do you still work at Globex or at Initech?", "Yes."),
        ("Do you still work at Globex?", "No, I moved to Lyon."),  # says something of its own
    ],
)
def test_a_reply_to_a_question_about_someone_else_or_with_its_own_words_reads_no_answer(
    memory: Memory, question: str, reply: str
) -> None:
    space = _asked(memory, question, reply)
    assert not [b for b in memory.beliefs(space) if b.value == "Globex"], memory.beliefs(space)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Does Alice have a partner?", "Alice — partner: Tom"),
        ("Does Alice have a husband?", "Alice — partner: Tom"),
        ("Is Alice married?", "Alice — relationship_status: married"),
    ],
)
def test_a_question_that_names_the_partner_is_answered_with_the_partner(memory: Memory, question: str,
                                                                       answer: str) -> None:
    """"partner" is a word of the relationship status too, which came first: "Does Alice
    have a partner?" was answered "married", not who."""
    space = _remember(memory, ("I'm married to Tom.",))
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        (("I work at Initech.", "I quit Initech."), "Where does Alice work now?",
         "Alice — employer: unknown since 1 Jun 2024 (was Initech) — last said 1 Jun 2024: not Initech"),
        (("I live in Leeds.", "We left Leeds in May."), "Where does Alice live now?",
         "Alice — residence: unknown since"),
        (("I'm married to Tom.", "Tom and I are no longer together."), "Who is Alice's partner?",
         "Alice — partner: unknown since 1 Jun 2024 (was Tom)"),
    ],
)
def test_a_single_value_that_ended_is_the_answer_not_the_turn_that_had_it(memory: Memory, texts: tuple[str, ...],
                                                                          question: str, answer: str) -> None:
    """With nothing said to replace it, the end of a job, a home or a partner left the
    dimension's answer unclaimed (no value is the mode), and "Where does Alice work now?"
    ranked first the older turn that had the job."""
    space = _remember(memory, texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


def test_a_value_that_faded_unsaid_is_no_end(memory: Memory) -> None:
    """Only an end said is answered: a value no one has repeated for decades is unknown, not ended."""
    space = _remember(memory, ("I work at Initech.",))
    assert _answer(memory, space, "Where does Alice work now?", as_of="2060-01-01T00:00:00") == ""


@pytest.mark.parametrize("text", ["Tom and I got divorced last month.", "I got divorced from Tom.",
                                  "Tom and I got separated."])
def test_a_divorce_from_a_named_partner_ends_the_partner(memory: Memory, text: str) -> None:
    """"Tom and I got divorced" made Tom the partner again ("Alice got divorced to Tom"), so
    "Who is Alice's partner?" answered Tom; "got divorced from Tom" ended nothing."""
    space = _remember(memory, ("I'm married to Tom.", text))
    assert ("partner", "Tom", "negative") in _beliefs(memory, space)
    said = _answer(memory, space, "Who is Alice's partner?")
    assert not said.startswith("Alice — partner: Tom"), said


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("Where do you work these days?", "At Globex.", ("employer", "Globex", "positive")),
        ("Where do you live now?", "In Porto, near the river.", ("residence", "Porto", "positive")),
        ("Where are you living?", "In Porto.", ("residence", "Porto", "positive")),
    ],
)
def test_a_reply_of_only_a_place_says_where_the_question_asked(memory: Memory, question: str, reply: str,
                                                              said: tuple[str, str, str]) -> None:
    """"Where do you work these days?" — "At Globex." made nothing (the reply has no verb
    and no subject), so the answer stayed Initech; it cites the question and the reply."""
    space = _asked(memory, question, reply)
    assert any(len(b.evidence_ids) == 2 for b in memory.beliefs(space) if (b.attribute, b.value, b.polarity) == said)


@pytest.mark.parametrize(
    ("question", "reply", "ask", "answer"),
    [
        ("How old are you?", "34.", "How old is Alice?", "Alice — age: 34"),
        ("Do you have kids?", "Yes, two boys.", "Does Alice have children?", "Alice — children: two boys"),
        ("Do you have any pets?", "Just a cat named Luna.", "What pets does Alice have?", "Alice — pets: Luna"),
        ("Where are you from?", "Originally from Lima.", "Where is Alice from?", "Alice — origin: Lima"),
        ("Are you married?", "Yes, for ten years now.", "Is Alice married?", "Alice — relationship_status: married"),
    ],
)
def test_a_short_reply_with_the_value_asked_for_says_it(memory: Memory, question: str, reply: str, ask: str,
                                                        answer: str) -> None:
    """"How old are you?" — "34.", "Do you have kids?" — "Yes, two boys." and the like made
    nothing (the reply has no verb and no subject); each is read as the question says and
    cites the question beside the reply."""
    space = _asked(memory, question, reply)
    said = _answer(memory, space, ask)
    assert said.startswith(answer), said
    assert any(len(b.evidence_ids) == 2 for b in memory.beliefs(space) if b.subject == "Alice" and b.value != "Initech")


@pytest.mark.parametrize(
    ("question", "reply"),
    [("How old is Tom?", "34."), ("Does Tom have kids?", "Yes, two boys."), ("Where is Tom from?", "From Lima."),
     ("How old are you?", "Old enough, ha."), ("Do you have kids?", "No, not yet.")],
)
def test_a_short_reply_to_another_question_says_nothing_of_the_one_replying(memory: Memory, question: str,
                                                                             reply: str) -> None:
    space = _asked(memory, question, reply)
    assert [b.attribute for b in memory.beliefs(space) if b.subject == "Alice"] == ["employer"]


@pytest.mark.parametrize(
    ("question", "reply"),
    [("Where does Tom work?", "At Globex."), ("Where did you work before?", "At Globex."),
     ("Where do you want to work?", "At Globex.")],
)
def test_a_place_replied_to_another_question_is_no_employer(memory: Memory, question: str, reply: str) -> None:
    space = _asked(memory, question, reply)
    assert not [b for b in memory.beliefs(space) if b.value == "Globex" and b.subject == "Alice"]


@pytest.mark.parametrize("text", ["I moved in with my boyfriend in Braga last week.", "We moved in with Tom in Braga."])
def test_moving_in_with_someone_somewhere_is_living_there(memory: Memory, text: str) -> None:
    """Whom one moved in with hid where: it made a life event only, and "Where does Alice
    live now?" kept answering Porto."""
    space = _remember(memory, ("I live in Porto.", text))
    said = _answer(memory, space, "Where does Alice live now?")
    assert said.startswith("Alice — residence: Braga"), said


@pytest.mark.parametrize(
    ("question", "said"),
    [("Alice, do you still live in Porto?", ("residence", "Porto", "positive")),
     ("So, are you still living in Porto?", ("residence", "Porto", "positive"))],
)
def test_a_question_opened_by_the_name_of_the_one_asked_is_replied_to(memory: Memory, question: str,
                                                                     said: tuple[str, str, str]) -> None:
    """The name of the one asked (or "so") before "do you" hid the question, so "Yes!" made nothing."""
    space = _asked(memory, question, "Yes!")
    assert said in _beliefs(memory, space)


def test_a_question_put_to_someone_else_by_name_is_not_replied_to(memory: Memory) -> None:
    space = _asked(memory, "Tom, do you still live in Porto?", "Yes!")
    assert ("residence", "Porto", "positive") not in _beliefs(memory, space)


@pytest.mark.parametrize(
    ("text", "question", "answer"),
    [
        ("Ben and I both work at Initech.", "Where does Ben work?", "Ben — employer: Initech"),
        ("Ben and I moved to Braga last month.", "Where does Ben live now?", "Ben — residence: Braga"),
    ],
)
def test_a_job_or_home_said_of_someone_and_i_is_theirs_too(memory: Memory, text: str, question: str,
                                                          answer: str) -> None:
    """"Ben and I both work at Initech" gave the job to the speaker only; asked where Ben
    works, nothing was claimed. Ben is someone who speaks in the conversation."""
    space = _space(("and-i", text))
    memory.remember(space, [
        {"text": "Hi Alice!", "speaker": "Ben", "session": "s0", "observed_at": "2024-06-01T10:00:00"},
        {"text": text, "speaker": "Alice", "session": "s0", "observed_at": "2024-06-01T10:01:00"},
    ])  # fmt: skip
    said = _answer(memory, space, question)
    assert said.startswith(answer), said
    assert ("employer" in answer) is (("employer", "Initech", "positive") in _beliefs(memory, space))


def test_a_pastime_said_of_someone_and_i_is_not_shared(memory: Memory) -> None:
    space = _space(("and-i", "hiking"))
    memory.remember(space, [
        {"text": "Hi Alice!", "speaker": "Ben", "session": "s0", "observed_at": "2024-06-01T10:00:00"},
        {"text": "Ben and I play tennis.", "speaker": "Alice", "session": "s0", "observed_at": "2024-06-01T10:01:00"},
    ])  # fmt: skip
    assert not [b for b in memory.beliefs(space, subject="Ben") if b.attribute == "hobbies"]


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_the_beliefs_listed_do_not_depend_on_the_order_sessions_are_sent(memory: Memory,
                                                                        order: tuple[int, ...]) -> None:
    """Initech in January, Globex in March, Initech again in May: January's job is outdated
    by March's whichever came in first. When May's came in before March's, January's stayed
    active beside May's (March's, superseded by May's, was not looked at)."""
    said = [("I work at Initech.", "2024-01-01"), ("I work at Globex.", "2024-03-01"), ("I work at Initech.", "2024-05-01")]
    space = _space(("order", *map(str, order)))
    for i in order:
        memory.remember(space, [{"text": said[i][0], "speaker": "Alice", "session": f"s{i}",
                                 "observed_at": f"{said[i][1]}T10:00:00"}])  # fmt: skip
    active = [b.event_at for b in memory.beliefs(space) if b.attribute == "employer"]
    assert [a.month for a in active if a is not None] == [5], active


@pytest.mark.parametrize(
    "offer",
    ["I got an offer from Globex but I'm not sure I'll take it.", "I turned down an offer from Globex.",
     "I landed an offer from Globex, still thinking it over."],
)  # fmt: skip
def test_an_offer_not_accepted_is_no_job(memory: Memory, offer: str) -> None:
    """"I got an offer from Globex" made Globex the employer from the day it was said, over
    the job the speaker holds: an offer is not a job."""
    space = _remember(memory, ("I work at Initech.", offer))
    assert _answer(memory, space, "Where does Alice work now?").startswith("Alice — employer: Initech")
    assert ("employer", "Globex", "positive") not in _beliefs(memory, space)


def test_an_accepted_offer_is_the_employer_from_the_start_said_not_from_the_acceptance(memory: Memory) -> None:
    """Accepted on 1 June, started on 8 July ("I start at Globex on 8 July", said with it): the
    job was Initech's until 8 July, and Globex holds since 8 July, not since the acceptance."""
    space = _remember(memory, ("I work at Initech.", "I accepted an offer from Globex! I start at Globex on 8 July."))
    assert _answer(memory, space, "Where does Alice work now?", as_of="2024-06-20T00:00:00").startswith(
        "Alice — employer: Initech"
    )
    assert _answer(memory, space, "Where does Alice work now?").startswith("Alice — employer: Globex since 8 Jul 2024")


@pytest.mark.parametrize(
    "accepted",
    ["I accepted a position at Globex, starting in August.", "I got a job at Globex, starting next month."],
)
def test_a_job_taken_with_a_start_ahead_is_the_employer_from_that_start(memory: Memory, accepted: str) -> None:
    """Said on 1 June with the start in August / next month (July): until then the speaker
    still works where they did; the new employer answers from the start."""
    space = _remember(memory, ("I work at Initech.", accepted))
    assert _answer(memory, space, "Where does Alice work now?", as_of="2024-06-20T00:00:00").startswith(
        "Alice — employer: Initech"
    )
    assert _answer(memory, space, "Where does Alice work now?", as_of="2024-08-20T00:00:00").startswith(
        "Alice — employer: Globex since 1"
    )
