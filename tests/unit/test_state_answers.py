"""What a dimension answers, how sure it is and which turns show it (``eywa.read.answers``),
on dimensions built by the real Nous engine from hand-made observations."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import pytest

from eywa.attributes import get_attribute
from eywa.models import Delta, Dimension, Modality, Polarity
from eywa.nous import engine
from eywa.nous.observations import Observation
from eywa.read.answers import (
    ANSWER_THRESHOLD,
    StateAnswer,
    asked_values,
    counted,
    gives_names,
    last_held,
    names_only_values,
    once_held,
    state_answer,
    unrealised_plan,
)

RECORDED = datetime(2030, 1, 1, tzinfo=timezone.utc)


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def obs(
    attribute: str, value: str, at: str, evidence: str, polarity: Polarity = "positive",
    modality: Modality = "asserted", rho: float = 0.9, change: bool = False, start: str | None = None,
) -> Observation:  # fmt: skip
    return Observation(
        space="s", entity="Ana", attribute=attribute, value=value, polarity=polarity, modality=modality,
        at=day(at), reliability=rho, change_signal=change, belief_id=f"b-{evidence}", evidence_ids=(evidence,),
        valid_from=None if start is None else day(start),
    )  # fmt: skip


def dimension(observations: Sequence[Observation], as_of: str | None = None) -> tuple[Dimension, list[Delta]]:
    """The dimension and its deltas as the ledger would read them at ``as_of``."""
    spec = get_attribute(observations[0].attribute)
    when = None if as_of is None else day(as_of)
    kept = [o for o in observations if when is None or o.at <= when]
    state, steps = engine.replay(kept, spec.cardinality, spec.tau_days)
    deltas = [engine.make_delta(o, r, RECORDED) for o, r in steps]
    state = engine.decay_to(state, when, spec.tau_days)
    return engine.to_dimension(state, "s", "Ana", spec.name, when), deltas


JOB = [
    obs("employer", "Google", "2023-01-10", "t1"),
    obs("employer", "Google", "2024-04-30", "t2", polarity="negative", change=True),
    obs("employer", "Fernbrook", "2024-05-06", "t3", change=True),
    obs("employer", "Fernbrook", "2024-10-22", "t4"),
]


def test_a_changed_value_is_answered_with_its_change_point_last_word_and_what_it_replaced() -> None:
    dim, deltas = dimension(JOB, "2024-11-01")
    answer = state_answer(dim, deltas, "Where does Ana work now?", day("2024-11-01"))
    assert answer.text.startswith("Ana — employer: Fernbrook since 6 May 2024 (was Google) — last said 22 Oct 2024; p ")
    assert answer.confidence == pytest.approx(dim.distribution["Fernbrook"]) and answer.confidence > ANSWER_THRESHOLD
    # the turn that made Fernbrook the value, the last thing said, the turn that ended Google
    assert answer.evidence_ids == ("t3", "t4", "t2")
    assert answer.asked == ()


def test_read_before_the_change_the_old_value_answers() -> None:
    dim, deltas = dimension(JOB, "2024-01-01")
    answer = state_answer(dim, deltas, "Where does Ana work now?", day("2024-01-01"))
    assert "employer: Google since 10 Jan 2023" in answer.text and answer.evidence_ids == ("t1",)


def test_a_contested_value_does_not_reach_the_threshold() -> None:
    # Two equally sure reports of different employers, a day apart, with no change signal.
    dim, deltas = dimension([obs("employer", "Acme", "2024-01-01", "a"), obs("employer", "Borealis", "2024-01-02", "b")])
    assert state_answer(dim, deltas, "Where does Ana work?").confidence < ANSWER_THRESHOLD


@pytest.mark.parametrize(("later", "answered"), [("2024-01-02", False), ("2024-02-01", True)])
def test_a_contradiction_is_a_change_once_time_has_passed(later: str, answered: bool) -> None:
    """The same two reports without a change signal: a day apart they stay contested (one
    of them is wrong), a month apart the later one is what holds now (it stayed contested
    before the contradiction hazard, Acme 0.5)."""
    dim, deltas = dimension([obs("employer", "Acme", "2024-01-01", "a"), obs("employer", "Borealis", later, "b")])
    answer = state_answer(dim, deltas, "Where does Ana work?")
    assert (answer.confidence >= ANSWER_THRESHOLD) is answered and dim.mode == "Borealis", dim.distribution
    assert dim.distribution["Acme"] > 0.05  # revised by probability, not overwritten


def test_a_value_said_often_keeps_more_against_one_contradiction() -> None:
    """The older value's support counts: said three times, it keeps more of its share
    against one later contradiction than said once."""
    once, _ = dimension([obs("employer", "Acme", "2024-01-01", "a"), obs("employer", "Borealis", "2024-02-01", "b")])
    often, _ = dimension([obs("employer", "Acme", "2023-11-01", "a0"), obs("employer", "Acme", "2023-12-01", "a1"),
                          obs("employer", "Acme", "2024-01-01", "a"), obs("employer", "Borealis", "2024-02-01", "b")])
    assert often.distribution["Acme"] > once.distribution["Acme"]


def test_a_hedge_alone_never_reaches_the_threshold() -> None:
    for attribute in ("residence", "hobbies"):
        dim, deltas = dimension([obs(attribute, "Paris", "2024-01-01", "h", modality="hedged", rho=0.55)])
        answer = state_answer(dim, deltas, "Where does Ana live?")
        assert answer.confidence < ANSWER_THRESHOLD, (attribute, dim.distribution)


def test_long_silence_lowers_the_confidence_below_the_threshold() -> None:
    one = [obs("employer", "Acme", "2000-01-01", "a")]
    fresh, deltas = dimension(one, "2000-06-01")
    stale, _ = dimension(one, "2020-01-01")
    assert state_answer(fresh, deltas, "Where does Ana work?").confidence >= ANSWER_THRESHOLD
    assert state_answer(stale, deltas, "Where does Ana work?").confidence < ANSWER_THRESHOLD


def test_a_yes_no_about_a_value_is_as_sure_as_the_side_it_takes() -> None:
    diet = [
        obs("diet", "meat", "2024-02-03", "d1", polarity="negative"),
        obs("diet", "meat", "2024-07-09", "d2", polarity="negative"),
        obs("diet", "meat", "2024-10-22", "d3", polarity="negative"),
    ]
    dim, deltas = dimension(diet)
    for question in ("Does Ana eat meat?", "Is Ana vegetarian?"):  # "vegetarian" is meat, negative
        answer = state_answer(dim, deltas, question)
        assert answer.asked == ("meat",)
        assert answer.confidence == pytest.approx(1.0 - dim.distribution["meat"]) and answer.confidence > 0.75
        assert answer.text.startswith("Ana — diet: not meat (p ")
        assert answer.evidence_ids == ("d3",)


def test_a_single_valued_yes_no_about_another_value_shows_its_probability() -> None:
    moves = [obs("residence", "Leeds", "2024-01-01", "r1"),
             obs("residence", "Berlin", "2024-02-01", "r2", modality="hedged", rho=0.55)]  # fmt: skip
    dim, deltas = dimension(moves)
    assert dim.mode == "Leeds"
    answer = state_answer(dim, deltas, "Is Ana moving to Berlin?")
    assert answer.asked == ("Berlin",)
    assert f"; Berlin p {dim.distribution['Berlin']:.2f}" in answer.text
    assert answer.confidence == pytest.approx(1.0 - dim.distribution["Berlin"])
    assert answer.evidence_ids == ("r2",)  # Berlin's turn, which is also the last said


def test_a_value_the_line_already_weighs_is_not_weighed_again() -> None:
    """With no mode the line gives the likeliest known value's probability; a yes/no about
    that value adds nothing ("married p 0.05" once, not twice)."""
    dim, deltas = dimension([obs("relationship_status", "married", "2024-05-01", "m1", polarity="negative")])
    assert dim.mode is None
    answer = state_answer(dim, deltas, "Is Ana married?")
    assert answer.asked == ("married",)
    assert answer.text.count(f"married p {dim.distribution['married']:.2f}") == 1, answer.text


def test_a_set_lists_its_members_with_a_turn_each() -> None:
    pets = [obs("pets", "Biscuit", "2023-03-01", "p1"), obs("pets", "Biscuit", "2025-02-01", "p2", polarity="negative", change=True),
            obs("pets", "Sardine", "2025-06-01", "p3")]  # fmt: skip
    dim, deltas = dimension(pets)
    answer = state_answer(dim, deltas, "What pets does Ana have now?")
    assert "pets: Sardine" in answer.text and "not Biscuit" in answer.text
    assert answer.confidence == pytest.approx(dim.distribution["Sardine"])
    assert answer.evidence_ids == ("p3",)
    asked = state_answer(dim, deltas, "Does Ana still have Biscuit?")
    assert asked.asked == ("Biscuit",) and asked.evidence_ids == ("p2", "p3")
    assert asked.confidence == pytest.approx(1.0 - dim.distribution["Biscuit"])


def test_a_stated_start_is_since_and_the_value_it_replaced_is_cited_up_to_the_turn_that_said_it() -> None:
    """"I live in Leeds" (29 Jul), "We moved to York last week" (1 Aug, a start of 24 Jul):
    York since 24 Jul, and the Leeds turn, said after that start but before the move was
    told, is still what York replaced."""
    moves = [obs("residence", "Leeds", "2023-07-29", "r1"),
             obs("residence", "York", "2023-08-01", "r2", change=True, start="2023-07-24")]  # fmt: skip
    dim, deltas = dimension(moves, "2023-08-20")
    answer = state_answer(dim, deltas, "Where does Ana live?", day("2023-08-20"))
    assert answer.text.startswith("Ana — residence: York since 24 Jul 2023 (was Leeds) — last said 1 Aug 2023; p ")
    assert answer.evidence_ids == ("r2", "r1")


def test_the_turn_that_states_the_start_is_cited_for_it() -> None:
    """Google said undated in 2022, then "since 2015" in 2023, then again undated: since
    2015, and the turn cited for it is the one that says 2015, not the first mention."""
    job = [obs("employer", "Google", "2022-03-01", "g1"), obs("employer", "Google", "2023-03-01", "g2", start="2015-01-01"),
           obs("employer", "Google", "2023-06-01", "g3")]  # fmt: skip
    dim, deltas = dimension(job, "2023-07-01")
    assert dim.since == day("2015-01-01")
    assert state_answer(dim, deltas, "Where does Ana work?").evidence_ids == ("g2", "g3")


def test_a_set_with_no_member_cites_what_held_only_when_every_value_ended() -> None:
    """Chess given up, pottery only thought about: no member, and the set is not known to be
    empty, so its answer claims nothing and cites the last word on each value (the end of
    chess, the hedge about pottery), not the turn that first said chess was a hobby. When
    every value ended, what said each one held is cited after the ends."""
    quit_chess = [obs("hobbies", "chess", "2023-01-01", "h1"),
                  obs("hobbies", "chess", "2023-06-01", "h2", polarity="negative", change=True)]  # fmt: skip
    hedged = [*quit_chess, obs("hobbies", "pottery", "2023-07-01", "h3", modality="hedged", rho=0.55)]
    dim, deltas = dimension(hedged)
    answer = state_answer(dim, deltas, "What are Ana's hobbies?")
    assert answer.confidence == 0.0
    assert answer.evidence_ids == ("h3", "h2")
    emptied, emptied_deltas = dimension(quit_chess)
    answer = state_answer(emptied, emptied_deltas, "What are Ana's hobbies?")
    assert answer.confidence > ANSWER_THRESHOLD
    assert answer.evidence_ids == ("h2", "h1")


def test_values_are_named_as_whole_words_only() -> None:
    dim, _ = dimension([obs("hobbies", "art", "2024-01-01", "a")])
    assert asked_values("Does Ana like art?", dim) == ("art",)
    assert asked_values("Does Ana play darts?", dim) == ()


def test_a_job_is_named_by_its_last_word_and_a_pastime_only_by_all_its_words() -> None:
    # The occupation is named by its head ("Is Ana an engineer?"); a hobby is not: "Does
    # Ana climb?" does not name "rock climbing", nor "Does Ana rock?" anything.
    job, _ = dimension([obs("occupation", "software engineer", "2024-01-01", "j")])
    assert asked_values("Is Ana an engineer?", job) == ("software engineer",)
    assert asked_values("Is Ana in software?", job) == ()
    hobby, _ = dimension([obs("hobbies", "rock climbing", "2024-01-01", "h")])
    assert asked_values("Does Ana still go climbing?", hobby) == ()


def test_the_values_named_are_the_same_whichever_questions_came_before() -> None:
    # The words of each value's surfaces are kept between calls (``_surface_words``): a
    # question asked earlier must not change what a later one names.
    dim, _ = dimension(
        [obs("hobbies", "rock climbing", "2024-01-01", "a"), obs("hobbies", "Art", "2024-01-02", "b")]
    )
    questions = ["Does Ana still go rock climbing?", "Does Ana like ART?", "Does Ana rock?", "Does Ana climb rocks?"]
    first = [asked_values(q, dim) for q in questions]
    assert first == [("rock climbing",), ("Art",), (), ()]
    assert [asked_values(q, dim) for q in reversed(questions)] == first[::-1]


def test_a_question_about_more_than_the_dimension_is_not_its_question() -> None:
    dim, deltas = dimension([obs("pets", "Biscuit", "2024-01-01", "p")])
    answer = state_answer(dim, deltas, "Does Ana still have her dog Biscuit?")
    assert names_only_values(answer, ["biscuit"])
    assert names_only_values(answer, [])
    assert not names_only_values(answer, ["birthday", "concert"])


def _moves() -> tuple[Dimension, list[Delta]]:
    return dimension([
        obs("residence", "Leeds", "2024-01-10", "e1"),
        obs("residence", "Bristol", "2024-09-01", "e3", change=True),
    ], as_of="2024-12-01")  # fmt: skip


def test_a_past_plan_that_never_happened_is_answered_by_what_did() -> None:
    # "Did Ana move to York?": Ana only said she might, then moved to Bristol.
    residence, deltas = _moves()
    _, plans = dimension([obs("plans", "move to york next year", "2024-05-02", "e2", modality="hedged", rho=0.55)])
    answer = unrealised_plan(state_answer(residence, deltas, "Did Ana move to York?"), residence, plans, ["York"])
    assert answer is not None
    assert answer.text.startswith("Ana — residence: not York: only hedged (move to york next year); residence: Bristol")
    assert answer.confidence >= ANSWER_THRESHOLD and answer.evidence_ids[0] == "e2" and "e3" in answer.evidence_ids


def test_a_plan_is_no_answer_when_the_value_was_held_or_the_plan_was_asserted_or_names_something_else() -> None:
    residence, deltas = _moves()
    base = state_answer(residence, deltas, "Did Ana move to York?")
    _, hedged = dimension([obs("plans", "move to york next year", "2024-05-02", "e2", modality="hedged", rho=0.55)])
    _, asserted = dimension([obs("plans", "move to york next year", "2024-05-02", "e2", modality="planned")])
    assert unrealised_plan(base, residence, hedged, ["Leeds"]) is None  # she did live there
    assert unrealised_plan(base, residence, hedged, ["Paris"]) is None  # no plan names it
    assert unrealised_plan(base, residence, hedged, []) is None
    assert unrealised_plan(base, residence, asserted, ["York"]) is not None  # planned is still not done
    _, done = dimension([obs("plans", "move to york", "2024-05-02", "e2")])
    assert unrealised_plan(base, residence, done, ["York"]) is None  # an asserted plan is not contradicted here


@pytest.mark.parametrize(
    ("members", "says"),
    [
        (("Leo", "Mia"), True),  # a name is one
        (("two kids",), True),
        (("Pepper", "three cats"), True),
        (("turtle",), False),  # an unnamed kind: one or many
        (("Leo", "kids"), False),
        ((), False),  # nothing held counts nothing
    ],
)
def test_a_set_counts_when_its_members_say_how_many(members: tuple[str, ...], says: bool) -> None:
    assert counted(members) is says


@pytest.mark.parametrize(
    ("members", "mode", "names"),
    [
        (("Mia", "Leo"), None, True),
        ((), "Sam", True),
        (("Mia", "two kids"), None, False),  # one member is no name
        (("two kids",), None, False),
        ((), "married", False),
        ((), None, False),  # nothing to name
    ],
)
def test_an_answer_gives_names_when_each_value_is_one(
    members: tuple[str, ...], mode: str | None, names: bool
) -> None:
    answer = StateAnswer(entity="Ana", attribute="children", text="", confidence=0.9, asked=(), evidence_ids=(),
                         members=members, mode=mode)  # fmt: skip
    assert gives_names(answer) is names


def test_a_value_once_held_answers_a_past_question_with_its_history() -> None:
    """"Did Ana have asthma?" after it ended: yes, as sure as it was when last said, with what
    holds now; while it still holds, the line itself."""
    said = [obs("health", "asthma", "2024-03-01", "t1"),
            obs("health", "asthma", "2024-09-01", "t2", polarity="negative", change=True)]  # fmt: skip
    now, deltas = dimension(said, "2024-10-01")
    answer = state_answer(now, deltas, "Did Ana have asthma?")
    when = last_held(deltas, answer.asked)
    assert when == day("2024-03-01")
    then, _ = dimension(said, "2024-03-01")
    held = once_held(answer, now, then, deltas)
    assert held is not None and held.confidence >= ANSWER_THRESHOLD
    assert held.text.startswith("Ana — health: was asthma (p ") and "when last said, 1 Mar 2024); now not asthma" in held.text
    assert held.evidence_ids[0] == "t1"
    still, still_deltas = dimension(said[:1], "2024-04-01")
    kept = state_answer(still, still_deltas, "Did Ana have asthma?")
    assert once_held(kept, still, still, still_deltas) == kept


def test_a_value_never_asserted_answers_no_past_question() -> None:
    hedged = [obs("health", "asthma", "2024-03-01", "t1", modality="hedged")]
    now, deltas = dimension(hedged, "2024-04-01")
    answer = state_answer(now, deltas, "Did Ana have asthma?")
    assert last_held(deltas, answer.asked) is None
    assert once_held(answer, now, now, deltas) is None  # as unsure then as now
    other = state_answer(now, deltas, "Did Ana have diabetes?")
    assert once_held(other, now, now, deltas) is None  # names no value
