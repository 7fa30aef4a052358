"""Route and stage names are closed sets: switching a route off removes exactly its weight
(and the trace says so), a post-filter name leaves the weights alone, and a policy name is
checked even when the caller is not type-checked."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.errors import InvalidInputError
from eywa.models import Entity, EntityKind, PostFilter, RouteName, Stage
from eywa.ids import entity_key
from eywa.read.plan import (
    ROUTE_NAMES,
    ROUTE_WEIGHTS,
    asks_previous,
    attribute_groups,
    counted_words,
    embedding_text,
    embedding_texts,
    interval_events,
    order_events,
    make_plan,
    name_spans,
    named_entities,
    value_before,
    window_is_relative,
)
from eywa.read.policies import answer_instructions, check_policy
from eywa.read.reader import POST_FILTERS

NOW = datetime(2024, 1, 1, tzinfo=UTC)


def test_stages_are_the_routes_and_the_post_filters() -> None:
    assert set(get_args(Stage)) == set(get_args(RouteName)) | set(get_args(PostFilter))
    assert set(ROUTE_NAMES) == set(get_args(RouteName)) and set(POST_FILTERS) == set(get_args(PostFilter))
    assert {route for row in ROUTE_WEIGHTS.values() for route in row} <= set(ROUTE_NAMES)


def test_a_disabled_route_loses_its_weight_and_the_trace_says_so() -> None:
    full = make_plan("What does Ana like?", [], NOW)
    assert full.weights["graph"] > 0
    plan = make_plan("What does Ana like?", [], NOW, frozenset({"graph", "floor"}))
    assert "graph" not in plan.weights
    assert dict(plan.weights) == {r: w for r, w in full.weights.items() if r != "graph"}
    assert plan.notes == ("route graph disabled",)


@pytest.mark.parametrize("name", ["strict", "balanced", "advanced"])
def test_known_policies_have_instructions(name: str) -> None:
    assert check_policy(name) == name and answer_instructions(check_policy(name))


@pytest.mark.parametrize("name", ["loose", "", None, 3])
def test_an_unknown_policy_is_an_input_error(name: object) -> None:
    with pytest.raises(InvalidInputError, match="unknown policy"):
        check_policy(name)


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("Where does Ana work now?", ("employer", "occupation")),
        ("Who does Ana work for?", ("employer", "occupation")),
        ("What is Ana's job now?", ("occupation", "employer")),  # the question word decides
        # ... unless the noun it asks about names one attribute ("what company": the employer)
        ("What company does Ana work for?", ("employer", "occupation")),
        ("What job does Ana have?", ("occupation", "employer")),  # "job" names two: the word decides
        ("What kind of work does Ana do?", ("occupation", "employer")),  # a kind, not the noun
        ("Who is Dario's wife?", ("partner", "relationship_status")),
        ("Is Dario married?", ("relationship_status", "partner")),  # no question word: registry order
        ("Does Priya eat meat?", ("diet",)),
        ("How much rent does Tomas pay?", ()),
    ],
)
def test_the_plan_names_the_attributes_asked_about_in_the_order_the_question_asks(
    question: str, attributes: tuple[str, ...]
) -> None:
    plan = make_plan(question, [], NOW)
    assert plan.attributes == attributes
    assert plan.as_trace()["attributes"] == list(attributes)


@pytest.mark.parametrize(
    ("question", "current"),
    [
        ("Where does Ana work now?", True),
        ("Is Dario married?", True),
        ("What pets does Ana have?", True),
        ("Where did Ana work in 2019?", False),  # past, and a window
        ("Where did Ana work before Fernbrook?", False),
        ("Was Dario married?", False),
        ("When did Ana move to Lisbon?", False),  # wants a date
        ("How much rent does Tomas pay?", False),  # wants an amount
        ("Why does Ana like turtles as pets?", False),  # wants a reason
        ("What do Ana's kids like?", False),  # kids → children, like → likes: a chain of two
        ("Where did Ana grow up?", True),  # origin never changes: asked in the past tense
        ("Was Ana born in Leeds?", True),
        ("What did Ana receive from her brother?", False),  # "from", but not asked for an origin
        # A count of what one holds now is a state's; other counts are not.
        ("How many kids does Ana have?", True),
        ("How many pets has Ana got now?", True),
        ("How many kids does Ana want?", False),  # a wish
        ("How many dogs has Ana had?", False),  # a past
        ("How many times did Ana move?", False),
        ("How many languages does Ana speak?", False),  # no attribute word
        ("How many does Ana have?", False),  # nothing counted
        ("How much rent does Ana have to pay?", False),
    ],
)
def test_current_state_questions_are_present_tense_states_about_one_attribute(question: str, current: bool) -> None:
    plan = make_plan(question, [], NOW)
    assert plan.current_state is current, plan.as_trace()


@pytest.mark.parametrize(
    ("question", "state_at"),
    [
        ("Where did Ana work in 2019?", datetime(2019, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("Who was Dario's partner in March 2020?", datetime(2020, 3, 31, 23, 59, 59, 999999, tzinfo=UTC)),
        ("Was Dario married in March 2020?", None),  # true if at any time of the month
        ("Where did Ana work?", None),  # no time: the past tense alone names no moment
        ("Why did Ana leave Halden in 2019?", None),  # a reason, not a state
        ("What did Ana do in 2019?", None),  # no attribute: no state is asked about
        ("When did Ana move to Lisbon in 2019?", None),  # wants a date
        ("Where will Ana work in 2090?", None),  # a time that has not begun
    ],
)
def test_a_state_question_about_a_past_time_reads_the_state_at_the_end_of_that_time(
    question: str, state_at: datetime | None
) -> None:
    plan = make_plan(question, [], NOW)
    assert plan.state_at == state_at, plan.as_trace()
    assert plan.current_state is False


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("What does Ana do for a living?", ("occupation", "employer")),  # not residence ("living")
        ("Where is Ana based?", ("residence",)),
        ("What is the film based on?", ()),
        # her pastimes, not her work ("What does Ana do?") nor a taste ("like")
        ("What does Ana like to do?", ("hobbies",)),
        ("What does Ana do for fun?", ("hobbies",)),
        ("What does Ana enjoy doing?", ("hobbies",)),
        ("What does Ana do in her free time?", ("hobbies",)),  # "time" is no topic of them
        ("What does Ana do in her downtime?", ("hobbies",)),
        ("Is Ana seeing anyone?", ("relationship_status", "partner")),  # "seeing" alone is no attribute's
        ("What does Ana do?", ("occupation", "employer")),
    ],
)
def test_an_idiom_points_at_the_attribute_it_means_not_at_its_words(
    question: str, attributes: tuple[str, ...]
) -> None:
    plan = make_plan(question, [], NOW)
    assert plan.attributes == attributes and plan.current_state is True


def test_what_one_does_at_a_known_name_is_an_idiom_of_work() -> None:
    globex = Entity(id="ent_globex", space="s", name="Globex", aliases=())
    plan = make_plan("What does Ana do at Globex?", [globex], NOW)
    assert plan.attributes == ("occupation", "employer") and plan.other_words == ("ana",)
    # At a name at a time, or at an unknown word, it is not.
    assert make_plan("What does Ana do at Globex on Fridays?", [globex], NOW).attributes == ()
    assert make_plan("What does Ana do at night?", [globex], NOW).attributes == ()


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("What city does Ana call home?", ("residence",)),  # "call" is no topic of it
        ("What line of work is Ana in?", ("occupation", "employer")),  # nor "line"
        ("What's Ana's field of work?", ("occupation", "employer")),  # nor "field"
    ],
)
def test_an_idiom_leaves_no_word_the_attribute_cannot_answer(question: str, attributes: tuple[str, ...]) -> None:
    # A word left over is a topic the line must hold, so the dimension could not claim it.
    plan = make_plan(question, [], NOW)
    assert plan.attributes == attributes and plan.other_words == ("ana",)


@pytest.mark.parametrize(
    "question",
    ["What health issues does Ana have?", "Does Ana have any medical problems?", "What medical concerns does Ana have?"],
)
def test_health_issues_leave_no_other_word(question: str) -> None:
    # They ask for her health and nothing else, so the health dimension may claim the answer.
    plan = make_plan(question, [], NOW)
    assert plan.attributes == ("health",) and plan.other_words == ("ana",)


def test_problems_alone_are_not_health() -> None:
    # "problems" alone may be anything's ("… with her car").
    car = make_plan("What problems did Ana have with her car?", [], NOW)
    assert "health" not in car.attributes and "problems" in car.other_words


def test_the_words_of_a_date_are_not_what_the_question_asks_about() -> None:
    # "Where did Ana work in March 2019?" asks about the employer then, nothing else:
    # "march" and "2019" say when, so a dimension may claim the answer.
    plan = make_plan("Where did Ana work in March 2019?", [], NOW)
    assert plan.when_words == ("march", "2019") and plan.other_words == ("ana", "march", "2019")


def test_other_words_are_what_the_question_asks_besides_person_and_attribute() -> None:
    ana = Entity(id="ent_ana", space="s", name="Ana", aliases=("Annie",))
    assert make_plan("Where does Ana work now?", [ana], NOW).other_words == ()
    assert make_plan("Does Annie still have her cat Biscuit?", [ana], NOW).other_words == ("biscuit",)
    assert make_plan("Is Ana allergic to anything?", [ana], NOW).other_words == ()  # whatever holds
    assert make_plan("Who played at the festival at Ana's daughter's graduation?", [ana], NOW).other_words == (
        "played", "festival", "graduation",
    )  # fmt: skip


_WORDS = st.sampled_from(["Ana", "ana", "Mary", "Ann", "Dr.", "O'Neil", "New", "York", "café", "x", "Li", "the"])


@settings(max_examples=25, deadline=None)
@given(
    names=st.lists(st.lists(_WORDS, min_size=1, max_size=3).map(" ".join), max_size=6),
    words=st.lists(st.one_of(_WORDS, st.sampled_from(["'s", "?", ",", "went", "to", "Ana's", "(York)"])), max_size=12),
)
def test_names_found_from_the_question_spans_are_those_found_among_all_entities(names: list[str], words: list[str]) -> None:
    question = " ".join(words)
    entities = [Entity(id=f"e{i}", space="s", name=name) for i, name in enumerate(names)]
    spans = {entity_key(span) for span in name_spans(question)}
    looked_up = [e for e in entities if entity_key(e.name) in spans]  # what entities_named returns
    assert named_entities(question, looked_up) == named_entities(question, entities)


def test_name_spans_cover_multiword_names_possessives_and_a_trailing_period() -> None:
    spans = name_spans("Did Dr. Mary Ann's dog see New York?")
    assert {"dr.", "mary ann", "mary ann's", "new york", "york"} <= set(spans)
    assert "did dr. mary ann's dog see new" not in spans  # longer than MAX_NAME_WORDS


@pytest.mark.parametrize(
    ("question", "relative"),
    [
        ("When did Ana go camping in June?", True),  # June of which year?
        ("What did Ana see last year?", True),
        ("What did Ana do yesterday?", True),
        ("Where was Ana on August 11?", True),
        ("Where was Ana between October 2 and October 6 2022?", False),  # the year is named once for both ends
        ("What did Ana do in May 2023?", False),
        ("What did Ana do on 25 May, 2022?", False),
        ("When did Ana move to Lisbon?", False),  # no window at all
    ],
)
def test_a_window_is_relative_when_it_moves_with_the_asking_time(question: str, relative: bool) -> None:
    assert window_is_relative(question, NOW) is relative
    assert make_plan(question, [], NOW).window_relative is relative


@pytest.mark.parametrize(
    ("question", "events"),
    [
        # a short second phrase borrows the first one's head
        ("How many weeks passed between Ana adopting Rex and Fido?", ("Ana adopting Rex", "Ana adopting Fido")),
        ("How long was it between Ana's wedding and the birth of her son?", ("Ana's wedding", "the birth of her son")),
        ("How many months after moving to Lisbon did Ana start her job?", ("moving to Lisbon", "Ana start her job")),
        ("After how many weeks did Ana call Bo back?", ()),  # one event only
        ("How many days between May 2 and May 9 2023?", ()),  # two dates: a window, not events
        ("What happened between Ana and Bo?", ()),  # not an interval question
    ],
)
def test_interval_questions_are_split_into_their_two_events(question: str, events: tuple[str, ...]) -> None:
    plan = make_plan(question, [], NOW)
    assert interval_events(question, plan.window) == events == plan.events
    assert ("events" in plan.weights) is bool(events)


@pytest.mark.parametrize(
    ("question", "events"),
    [
        ("Which happened first, Ana's wedding or Ben's move to Oslo?", ("Ana's wedding", "Ben's move to Oslo")),
        ("Which came first: the concert or the road trip?", ("the concert", "the road trip")),
        ("Did Ana adopt Rex before or after Ben's wedding?", ("Ana adopt Rex", "Ben's wedding")),
        ("What was the first book Ana read, the thriller or the memoir?", ()),  # "first" is no order here
        ("Which is better, tea or coffee?", ()),
        ("Which happened first in May 2023, the fair or the race?", ()),  # a window, not events
    ],
)
def test_order_questions_are_split_into_their_two_events(question: str, events: tuple[str, ...]) -> None:
    plan = make_plan(question, [], NOW)
    assert order_events(question, plan.window) == events == plan.events
    assert ("events" in plan.weights) is bool(events)


def test_the_interval_split_stays_fast_on_long_questions_and_an_early_anchor_is_not_shifted() -> None:
    import time

    questions = [
        "How long after" + " x" * 2000,
        "How long between " + "a and " * 600 + "b?",
        "How long after " + " " * 3900 + "x",
        "Did" + " " * 3900 + "x before or after y",
        "Which" + " " * 3900 + "first, x or y",
    ]
    for question in questions:
        began = time.process_time()
        make_plan(question, [], NOW)
        assert time.process_time() - began < 1.0  # a backtracking pattern took minutes on the last
    early = datetime(1, 1, 5, tzinfo=UTC)
    assert window_is_relative("What happened in June?", early) is False  # no year 0 to compare with
    assert make_plan("What happened in June?", [], early).window is not None


def _entity(name: str, kind: EntityKind = "person", aliases: tuple[str, ...] = ()) -> Entity:
    return Entity(id=f"ent_{entity_key(name)}", space="s", name=name, kind=kind, aliases=aliases)


def test_the_embedded_question_leaves_out_the_people_it_names_and_nothing_else() -> None:
    ana, sweden = _entity("Ana", aliases=("Annie",)), _entity("Sweden", kind="entity")
    assert embedding_text("What activities has Ana done with her family?", [ana]) == "What activities has done with her family?"
    assert embedding_text("What did Ana's and Annie's kids paint?", [ana]) == "What did and kids paint?"
    # A place (any entity that is no person) is what the question is about: it stays.
    assert embedding_text("When did Ana move from Sweden?", [ana, sweden]) == "When did move from Sweden?"
    # A name inside a word is no name; nothing but names and function words left: the question.
    assert embedding_text("Is Anastasia ok?", [ana]) == "Is Anastasia ok?"
    assert embedding_text("Who is Ana?", [ana]) == "Who is Ana?"


def test_the_question_without_names_is_embedded_only_where_the_person_route_weighs() -> None:
    ana = _entity("Ana")
    assert embedding_texts("What did Ana paint?", [ana]) == ("What did Ana paint?", "What did paint?")
    # "When" questions and comparisons leave the person route out; so does switching it off.
    assert embedding_texts("When did Ana paint?", [ana]) == ("When did Ana paint?", "When did Ana paint?")
    assert embedding_texts("What did Ana paint?", [ana], frozenset({"person"})) == ("What did Ana paint?",) * 2


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Where did Ana work before Globex?", "Globex"),
        ("Where did Ana live before moving to Lisbury?", "Lisbury"),
        ("What was Ana's job before joining Initech?", "Initech"),
        ("Where did Ana live before New Halden City?", "New Halden City"),
        ("Did Ana work at Initech before Globex?", None),  # a yes/no
        ("Where did Ana work before she joined Globex?", None),  # a clause, not a value
        ("Where did Ana work before Globex in 2020?", None),  # the value not at the end
        ("where did ana work before globex", None),  # no name
        ("Where did Ana work before the NHS?", "NHS"),  # the value as kept, without its article
        ("Where did Ana work before joining the NHS?", "NHS"),
        ("Where did Ana live before The Hague?", "The Hague"),  # an article of the name's own
        ("Where did Ana work before the summer?", None),
    ],
)
def test_the_value_a_question_asks_what_held_before(question: str, value: str | None) -> None:
    assert value_before(question, None) == value


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Where did Ana use to live?", True),
        ("What was Ana's previous job?", True),
        ("What is Ana's old company?", True),
        ("Who was Ana's former partner?", True),
        ("Who is Ana's ex-husband?", True),
        ("Where did Ana live previously?", True),
        ("Where did Ana work before?", True),
        ("Where did Ana work before Globex?", False),  # a value named: ``value_before``
        ("Where does Ana work?", False),
        ("What did Ana do before the party?", False),  # "before" something else
        ("What does Ana use to cook?", False),  # "use to" of a tool, not "used to"
        ("What did Ana use to make the cake?", False),
        ("What did Ana use to do for a living?", True),
        ("What old car does Ana drive?", False),  # an old thing, not her old one
        ("Where did Ana's ex move?", False),  # the ex is a person asked about
        ("How old is Ana?", False),
        ("Did Ana use to live in Leeds?", False),  # a yes/no: the turns answer it
    ],
)
def test_a_question_for_what_held_before_the_present_state(question: str, asks: bool) -> None:
    assert asks_previous(question, None) is asks


def test_a_question_for_the_previous_value_is_not_about_now() -> None:
    plan = make_plan("Who is Ana's ex-husband?", [], NOW)
    assert plan.previous and not plan.current_state and "ex" not in plan.other_words
    assert not make_plan("Who is Ana's husband?", [], NOW).previous
    # A prefix alone, or with nothing after its dash, is a word like any other.
    for question in ("Who is Ana's ex?", "Who is Ana's ex- husband?", "Is Ana an ex-"):
        assert make_plan(question, [], NOW).attributes == make_plan(question.replace("ex", "zz"), [], NOW).attributes


def test_a_date_after_before_is_a_window_not_a_value() -> None:
    plan = make_plan("Where did Ana work before June 2023?", [], NOW)
    assert plan.window is not None and plan.before is None


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("How many brothers and sisters does Ana have?", ("brothers", "and", "sisters")),
        ("How many step-brothers has Ana got?", ("step", "brothers")),
        ("How many kids does Ana want?", ()),  # no count of what one holds
        ("How many times did Ana move?", ()),
    ],
)
def test_the_words_a_count_of_what_one_holds_counts(question: str, words: tuple[str, ...]) -> None:
    assert counted_words(question) == words


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("What language is Ana learning?", ("education",)),
        ("Is Ana learning a new language?", ("education",)),
        ("What languages does Ana speak?", ("languages",)),
        ("What languages has Ana learned?", ("languages",)),  # done: what she speaks
        ("Which language does Ana want to learn?", ("languages",)),  # a wish, not her education
    ],
)
def test_a_language_being_learned_is_asked_of_the_education(question: str, attributes: tuple[str, ...]) -> None:
    # The extractor keeps "I'm learning Korean" as education until she is said to speak it.
    assert make_plan(question, [], NOW).attributes == attributes


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("Where is Ana moving?", ("plans",)),
        ("Where are Ana and Tom relocating to?", ("plans",)),
        ("Where will Ana live next year?", ("plans",)),
        ("Where is Ana going to settle?", ("plans",)),
        ("Where does Ana want to move?", ("plans",)),
        ("Where did Ana move?", ("residence",)),  # done: where she lives
        ("Where is Ana living?", ("residence",)),  # now
        ("Where does Ana live?", ("residence",)),
    ],
)
def test_a_move_to_come_is_asked_of_the_plans(question: str, attributes: tuple[str, ...]) -> None:
    # Her residence answered "Where is Ana moving?" with the home she is leaving.
    assert make_plan(question, [], NOW).attributes == attributes


@pytest.mark.parametrize(
    ("question", "groups"),
    [
        ("What does Ana do?", [["occupation", "employer"]]),
        ("What do Ana and Tom usually do?", [["occupation", "employer"]]),
        ("What does she do these days?", [["occupation", "employer"]]),
        # a relation is who is asked about: its words stay, and agree on no attribute with "do"
        ("What does Ana's husband do?", [["occupation", "employer"], ["relationship_status", "partner"]]),
        ("What does your brother do?", [["occupation", "employer"], ["siblings"]]),
        ("What does Ana like to do?", [["hobbies"]]),
        ("Who does Ana work with?", [[]]),  # colleagues, whom no attribute holds
        ("Who does Ana work for?", [["employer", "occupation"]]),
    ],
)
def test_what_one_does_is_her_work_unless_asked_of_a_relation(question: str, groups: list[list[str]]) -> None:
    assert attribute_groups(question) == groups


@pytest.mark.parametrize(
    ("question", "other"),
    [
        ("Is Ana allergic to cats?", ("cats",)),
        ("Does Ana have a cat allergy?", ("cat",)),
        ("Does Ana have a dog-allergy?", ("dog",)),
        ("Is Ana still allergic to dogs?", ("dogs",)),
        ("Is Ana allergic to peanuts?", ("peanuts",)),
    ],
)  # fmt: skip
def test_what_a_condition_is_of_is_a_word_of_its_value_not_a_topic(question: str, other: tuple[str, ...]) -> None:
    # "cats" alone points at the pets: read as a topic it asked about two attributes at once,
    # which no current state answers. Of a condition, it is a word of the value.
    ana = Entity(id="ent_ana", space="s", name="Ana")
    plan = make_plan(question, [ana], NOW)
    assert plan.attributes == ("health",) and plan.current_state
    assert plan.other_words == other


@pytest.mark.parametrize(
    ("question", "attributes"),
    [
        ("Does Ana have cats?", ("pets",)),
        ("Does Ana have any allergies?", ("health",)),
        ("Is Ana allergic to anything?", ("health",)),
        ("Does Ana's cat have allergies?", ("pets", "health")),  # her cat's, not a condition of hers
        ("Is Ana's dog sick?", ("pets", "health")),
    ],
)  # fmt: skip
def test_a_pet_word_outside_a_condition_still_asks_about_pets(question: str, attributes: tuple[str, ...]) -> None:
    ana = Entity(id="ent_ana", space="s", name="Ana")
    plan = make_plan(question, [ana], NOW)
    assert plan.attributes == attributes
    assert plan.current_state == (len(attributes) == 1)
