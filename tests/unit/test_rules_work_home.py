"""Employer, occupation, residence and origin: the positive, negated, hedged and change forms
side by side, with canonical values (the negation lives in the polarity, never in the value).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from tests.unit.rules_support import Fact, facts, proposals, statements, turn

SAID_IN_APRIL = datetime(2024, 4, 22, 18, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work at Halden Logistics.", {("employer", "Halden Logistics", "positive", "asserted")}),
        ("I don't work at Halden anymore.", {("employer", "Halden", "negative", "asserted")}),
        ("I might work at Halden next year.", {("plans", "work at Halden next year", "positive", "hedged")}),
        ("I quit my job at Halden Logistics.", {("employer", "Halden Logistics", "negative", "asserted")}),
        ("I got a job at Fernbrook Health!", {("employer", "Fernbrook Health", "positive", "asserted")}),
        ("I was laid off from Orrin Freight.",
         {("employer", "Orrin Freight", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted")}),
        ("I retired from the Royal Navy.", {("employer", "Royal Navy", "negative", "asserted"),
                                            ("employer", "retired", "positive", "asserted")}),
        ("Melinda works at the Seaview Library.", {("employer", "Seaview Library", "positive", "asserted")}),
        ("My boss at Halden is great.", {("employer", "Halden", "positive", "asserted")}),
        # the title stops before "at": the employer after it was swallowed into the title
        ("I'm a teacher at Oakwood School.", {("employer", "Oakwood School", "positive", "asserted")}),
        ("I'm a nurse at St Mary's Hospital.", {("employer", "St Mary's Hospital", "positive", "asserted")}),
        ("I got promoted to senior engineer at Globex.", {("employer", "Globex", "positive", "asserted")}),
        ("My new employer is Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("My employer is flexible about hours.", set()),  # no organisation named
        ("I'm interning at Initech this summer.", {("employer", "Initech", "positive", "asserted")}),
        ("I'm from Leeds but work at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("Just started at Initech today.", {("employer", "Initech", "positive", "asserted")}),
        ("Got a new job at Initech!", {("employer", "Initech", "positive", "asserted")}),
        ("Currently working at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("Working at Initech sounds fun.", set()),  # no adverb of the present: maybe a gerund subject
        ("I'm the head chef at Rosa's Kitchen.", {("employer", "Rosa's Kitchen", "positive", "asserted")}),
        ("I'm the manager at Initech.", {("employer", "Initech", "positive", "asserted")}),
        # The employer as the subject, the speaker as the object.
        ("Initech hired me last month.", {("employer", "Initech", "positive", "asserted")}),
        ("So the Royal Navy hired me in May.", {("employer", "Royal Navy", "positive", "asserted")}),
        ("Tom hired me to paint his fence.", set()),  # a task, not a job
        ("My neighbour Tom hired me.", set()),  # a person, not an employer
        ("I doubt Initech hired me.", set()),
        # A greeting and the name of the one spoken to before a dropped "I".
        ("Hi Ben, got a new job at Initech!", {("employer", "Initech", "positive", "asserted")}),
        ("Thanks, Ben. Just started at Initech.", {("employer", "Initech", "positive", "asserted")}),
        # Where one teaches is where one works; an event taught there is not.
        ("I teach at Riverside High.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I teach English at Riverside High.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I've been teaching at Riverside High since 2019.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I'm teaching at the Tate next week.", set()),
        # The progressive is a job where it is said to go on.
        ("I'm teaching at Riverside High now, I switched careers.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I'm still teaching maths at Riverside High.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I'm currently teaching at Riverside High.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I'm teaching at Riverside High these days.", {("employer", "Riverside High", "positive", "asserted")}),
        ("I'm teaching at Riverside High tonight.", set()),
        ("I'm teaching a workshop at Riverside High now.", set()),
        ("Been working at Initech since March.", {("employer", "Initech", "positive", "asserted")}),  # a dropped "I've"
        ("I left Paris and moved to Rome.", set()),  # a place left, not an employer
        ("I've been at Google for five years.", {("employer", "Google", "positive", "asserted")}),
        ("I've been at Starbucks for two hours.", set()),  # a visit
        ("I switched jobs, I'm now at Globex.", {("employer", "Globex", "positive", "asserted")}),
        ("I'm now at Starbucks, want to come?", set()),  # no work talk: where one is standing
        ("My new job at Globex starts Monday.", {("plans", "start at Globex", "positive", "planned")}),  # not yet
        ("I'm freelancing now.", {("employer", "self-employed", "positive", "asserted")}),
        ("I started at Initech three years ago.", {("employer", "Initech", "positive", "asserted")}),
        ("I left Paris and joined Tobias in Rome.", set()),  # joining a person is no new job
        # A name's possessive is part of it, however it is spelt and wherever it stands.
        ("I'm a cashier at Macy’s now.", {("employer", "Macy's", "positive", "asserted")}),
        ("I've been at Trader Joe's for two years.", {("employer", "Trader Joe's", "positive", "asserted")}),
        # Quitting a named job for another names the next employer.
        ("I quit Brightwell to join Halcyon Labs.", {("employer", "Brightwell", "negative", "asserted"),
                                                     ("employer", "Halcyon Labs", "positive", "asserted")}),
        ("I resigned from Brightwell to work for Orchard Mill.", {("employer", "Brightwell", "negative", "asserted"),
                                                                  ("employer", "Orchard Mill", "positive", "asserted")}),
        ("I quit Brightwell and joined Tobias in Rome.", {("employer", "Brightwell", "negative", "asserted")}),
        # A job offer received and taken is accepted: a start to come, from its date when one is said.
        ("I got a job offer from Halcyon Labs and accepted it.", {("plans", "start at Halcyon Labs", "positive", "planned")}),
        ("I got a job offer from Halcyon Labs and I accepted it, starting in June.",
         {("employer", "Halcyon Labs", "positive", "asserted")}),
        ("I received an offer from Halcyon Labs but I turned it down.", set()),
        ("I got an offer from Tobias and I took it.", set()),  # a person's offer may be for anything
        # "at X now" with a job held there; "still at X" where the turn speaks of work.
        ("I'm at Halcyon Labs now, as a designer.", {("employer", "Halcyon Labs", "positive", "asserted")}),
        ("I'm still at Halcyon Labs, the job is fine.", {("employer", "Halcyon Labs", "positive", "asserted")}),
        ("I'm still at Starbucks, come over.", set()),
        # A department of the employer.
        ("I'm in sales at Halcyon Labs.", {("employer", "Halcyon Labs", "positive", "asserted")}),
        ("I've been in marketing at Halcyon Labs since 2019.", {("employer", "Halcyon Labs", "positive", "asserted")}),
        ("I've been in marketing at Halcyon Labs.", set()),  # once, not now
        ("I'm not in sales at Halcyon Labs.", set()),
        ("I'm a retired teacher.", {("employer", "retired", "positive", "asserted")}),
        ("Tobias is a retired firefighter.", {("employer", "retired", "positive", "asserted")}),
        ("I'm a retired hippie.", set()),  # no job
    ],
)
def test_employer_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="employer") | facts(text, attribute="plans") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I retired from teaching last year.", {("employer", "retired", "positive", "asserted"),
                                                ("occupation", "teacher", "negative", "asserted")}),
        ("I'm retired from nursing now.", {("employer", "retired", "positive", "asserted"),
                                           ("occupation", "nurse", "negative", "asserted")}),
        ("I retired from teaching the choir.", set()),  # a class, not the trade
        ("I never retired from teaching.", set()),
    ],
)  # fmt: skip
def test_a_trade_retired_from_ends_its_occupation(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="employer") | facts(text, attribute="occupation") == expected


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I started working for Initech.", "Initech"),
        ("Last week, I started working for Initech.", "Initech"),
        ("I started working from home for Initech.", "Initech"),
        ("I started a job at Hooli.", "Hooli"),
        ("I started my job at Hooli on Monday.", "Hooli"),
        ("Guess what, I'm working for Globex now!", "Globex"),
        ("Guess what - I got a job at Globex.", "Globex"),
    ],
)
def test_a_job_started_or_announced_is_the_employer(text: str, employer: str) -> None:
    assert ("employer", employer, "positive", "asserted") in facts(text)


@pytest.mark.parametrize(
    "text",
    ["I started for the Tigers last season.", "I started a gig at the Roxy.", "I guess what I want is to work for Globex.",
     "I guess I'm working for Globex now."],
)  # fmt: skip
def test_a_players_start_a_musicians_gig_or_a_hedge_is_no_employer(text: str) -> None:
    assert not facts(text, attribute="employer")


def test_a_job_got_with_its_start_said_in_the_next_sentence_holds_from_the_start() -> None:
    found = proposals("I got a new job at Fernbrook! Starting on 6 May.", said=SAID_IN_APRIL)
    employer = {(f.value, f.polarity, f.valid_from) for f in found if f.attribute == "employer"}
    assert employer == {("Fernbrook", "positive", datetime(2024, 5, 6, tzinfo=timezone.utc))}
    # With no start ahead, the job holds from when it was said (no date).
    found = proposals("I got a new job at Fernbrook! The pay is better.", said=SAID_IN_APRIL)
    assert {(f.value, f.valid_from) for f in found if f.attribute == "employer"} == {("Fernbrook", None)}


def test_a_notice_and_a_start_date_end_one_employer_and_begin_the_next() -> None:
    found = proposals("I handed in my notice at Halden on Monday and I start at Fernbrook on 6 May.", said=SAID_IN_APRIL)
    employer = {(f.value, f.polarity, f.valid_from) for f in found if f.attribute == "employer"}
    assert employer == {  # "handed in ... on Monday", told in the past: the Monday before (said on a Monday)
        ("Halden", "negative", datetime(2024, 4, 15, tzinfo=timezone.utc)),
        ("Fernbrook", "positive", datetime(2024, 5, 6, tzinfo=timezone.utc)),
    }
    assert "Cecilia starts at Fernbrook on 6 May 2024." in {f.statement for f in found}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a nurse.", {("occupation", "nurse", "positive", "asserted")}),
        ("I'm not a nurse.", set()),
        ("I'm a good cook.", set()),  # a judgement, not a job
        ("I'm a big fan of that band.", set()),
        ("I work as a product manager.", {("occupation", "product manager", "positive", "asserted")}),
        ("I've been a paramedic for six years now.", {("occupation", "paramedic", "positive", "asserted")}),
        ("Melinda has been a librarian there since 2019.", {("occupation", "librarian", "positive", "asserted")}),
        ("I haven't been a teacher for years.", set()),
        ("I got promoted to senior engineer.", {("occupation", "senior engineer", "positive", "asserted")}),
        ("I lost my job as a plumber yesterday.", {("occupation", "plumber", "negative", "asserted")}),
        ("I think I might be a teacher one day.", set()),
        ("I'm the head chef at Rosa's Kitchen.", {("occupation", "head chef", "positive", "asserted")}),
        ("I'm the teacher here.", set()),  # "the", no workplace: a role in a story, maybe
        ("I've retrained as an electrician.", {("occupation", "electrician", "positive", "asserted")}),
        ("I might retrain as an electrician.", set()),
        ("I'm a former nurse.", {("occupation", "nurse", "negative", "asserted")}),
        # jobs the head-noun list lacked before session 39
        ("I'm a hairdresser.", {("occupation", "hairdresser", "positive", "asserted")}),
        ("I work as a flight attendant.", {("occupation", "flight attendant", "positive", "asserted")}),
        ("I've been a welder for ten years.", {("occupation", "welder", "positive", "asserted")}),
        ("I'm a guard.", set()),  # a head that needs its kind ("security guard")
        ("I'm freelancing as a translator.", {("occupation", "translator", "positive", "asserted")}),
        ("I freelance as a copy editor.", {("occupation", "copy editor", "positive", "asserted")}),
        ("I just got promoted to head nurse.", {("occupation", "head nurse", "positive", "asserted")}),
        ("I'm a retired teacher.", set()),  # retired: the employer's status, below
    ],
)
def test_occupation_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="occupation") == expected


@pytest.mark.parametrize(
    ("text", "employer", "title"),
    [
        ("I started at Lumen Labs as a data engineer last month.", "Lumen Labs", "data engineer"),
        ("I work at Harbor Bank as an accountant.", "Harbor Bank", "accountant"),
        ("I got a job at Kestrel Media as a video editor!", "Kestrel Media", "video editor"),
        ("Melinda joined Pellucid Systems as a senior designer.", "Pellucid Systems", "senior designer"),
        ("I was hired by Corvin Analytics as a statistician.", "Corvin Analytics", "statistician"),
        # an adverb before the auxiliary, not only before "hired" (missed before session 39)
        ("I just got hired by Initech as a designer.", "Initech", "designer"),
        ("I finally got hired at Dunmore Works as a welder!", "Dunmore Works", "welder"),
        ("I joined a small startup called Brightwell as a backend developer.", "Brightwell", "backend developer"),
    ],
)
def test_a_role_said_after_the_employer_is_the_occupation(text: str, employer: str, title: str) -> None:
    assert ("employer", employer, "positive", "asserted") in facts(text, attribute="employer")
    assert facts(text, attribute="occupation") == {("occupation", title, "positive", "asserted")}


def test_a_job_held_at_a_place_one_is_at_now_is_the_occupation() -> None:
    assert ("occupation", "designer", "positive", "asserted") in facts("I'm at Halcyon Labs now, as a designer.")
    assert facts("I'm at Starbucks now, as a joke.") == set()


def test_a_role_after_the_employer_is_not_read_from_a_judgement_or_a_negated_clause() -> None:
    assert facts("I work at Harbor Bank as a good listener.", attribute="occupation") == set()
    assert facts("I didn't start at Lumen Labs as a data engineer.", attribute="occupation") == set()


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work weekends at Corran Foods.", "Corran Foods"),
        ("Melinda works evenings on the cardiology ward at Kelby General.", "Kelby General"),
        ("I work part-time in the marketing department at Vellum Press.", "Vellum Press"),
        ("I work night shifts in the emergency unit at Halden Hospital.", "Halden Hospital"),
    ],
)
def test_when_and_where_inside_the_workplace_may_stand_between_work_and_the_employer(text: str, employer: str) -> None:
    assert facts(text, attribute="employer") == {("employer", employer, "positive", "asserted")}


def test_work_on_a_project_at_a_place_is_not_an_employer() -> None:
    assert facts("I work on my novel at the Seaview Library.", attribute="employer") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I live in Leeds.", {("residence", "Leeds", "positive", "asserted")}),
        ("We live in Port Calder now, two streets from the beach.", {("residence", "Port Calder", "positive", "asserted")}),
        ("I don't live in Leeds anymore.", {("residence", "Leeds", "negative", "asserted")}),
        ("I moved to Lisbon in March.", {("residence", "Lisbon", "positive", "asserted")}),
        ("We made the move to Lisbon last spring.", {("residence", "Lisbon", "positive", "asserted")}),
        ("I'm back in Lisbon for good.", {("residence", "Lisbon", "positive", "asserted")}),
        ("I'm back in Lisbon for the weekend.", set()),  # a visit
        ("Lisbon has been our home since 2019.", {("residence", "Lisbon", "positive", "asserted")}),
        ("Lisbon has been my home.", set()),  # no "now", no how long: maybe once
        ("I've been in Marketing for five years.", set()),  # "in" a name for years: a team, not a town
        (
            "We moved from Manchester to Lisbon last year.",
            {("residence", "Manchester", "negative", "asserted"), ("residence", "Lisbon", "positive", "asserted")},
        ),
        ("Tobias and I moved out of Wrenfield.", {("residence", "Wrenfield", "negative", "asserted")}),
        ("I used to live in Boston.", {("residence", "Boston", "negative", "asserted")}),  # held no longer
        ("Years ago I lived in Boston.", set()),  # a past habit: nothing of now
        ("I'm not moving back to Wrenfield.", set()),
        ("I might move to Berlin.", set()),  # a plan, below
        ("I'm thinking about moving to Lisbury.", set()),
        ("If I lived in Paris I would be happy.", set()),
        # "but" cuts the clause; the half after it with no subject of its own shares the first's.
        ("I'm originally from Leeds but live in York now.", {("residence", "York", "positive", "asserted")}),
        ("We sold the flat but still live in Leeds.", {("residence", "Leeds", "positive", "asserted")}),
        ("I'm from Leeds, but live with my partner in York.", {("residence", "York", "positive", "asserted")}),
        ("She's from Leeds but lives in York.", set()),  # no first person to share: "lives" is hers
        # the hedge stays on its side: Boston left, York no home
        ("I used to live in Boston but might live in York.", {("residence", "Boston", "negative", "asserted")}),
        # A chat sentence that dropped its "I": a past verb (or an -ing form after "still") opening it.
        ("Moved to Lisbon last week!", {("residence", "Lisbon", "positive", "asserted")}),
        ("Big news! Finally settled in Lisbon.", {("residence", "Lisbon", "positive", "asserted")}),
        ("Still living in Porto.", {("residence", "Porto", "positive", "asserted")}),
        ("Living in Porto is expensive.", set()),  # a gerund that is the subject itself
        ("Tom? Moved to Lisbon last year.", set()),  # after a question the dropped subject may be Tom
        ("My brother Sam is great. Moved to Lisbon last year.", set()),  # after someone else is named
        ("Hey Ben! Moved to Lisbon last week.", {("residence", "Lisbon", "positive", "asserted")}),  # Ben is spoken to
        ("Been living in Porto for years.", {("residence", "Porto", "positive", "asserted")}),  # a dropped "I've"
        ("Been there, done that.", set()),
        # The home moved into, before where it is.
        ("We moved into our new place in Leeds.", {("residence", "Leeds", "positive", "asserted")}),
        ("We moved into a new office in Leeds.", set()),  # an office is no home
        ("I left Paris and moved to Rome.", {("residence", "Paris", "negative", "asserted"),
                                            ("residence", "Rome", "positive", "asserted")}),
        # when it was left, between the place and the move, as for a job left ("… two years
        # ago and moved": Paris was not ended)
        ("I left Paris two years ago and moved to Rome.", {("residence", "Paris", "negative", "asserted"),
                                                          ("residence", "Rome", "positive", "asserted")}),
        ("We left Paris last summer and moved to Rome.", {("residence", "Paris", "negative", "asserted"),
                                                         ("residence", "Rome", "positive", "asserted")}),
        # Home called so, and near a place.
        ("I've called Lisbon home for six years.", {("residence", "Lisbon", "positive", "asserted")}),
        ("Home is Lisbon now.", {("residence", "Lisbon", "positive", "asserted")}),
        ("Lisbon will always be home.", set()),  # a feeling, not where one lives
        ("I live just outside Lisbon.", {("residence", "Lisbon", "positive", "asserted")}),
        # A counted "years ago" dates the move; a bare "years ago" is a vague long-ago past.
        ("I moved to Lisbon two years ago.", {("residence", "Lisbon", "positive", "asserted")}),
        ("I moved to Lisbon a few years ago.", {("residence", "Lisbon", "positive", "asserted")}),
        ("I lived in Paris years ago.", set()),
        ("Hey Ben! My brother Sam is great. Moved to Lisbon.", set()),  # Sam is named after the greeting
    ],
)
def test_residence_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="residence") == expected


def test_moves_that_are_only_planned_or_hedged_are_plans_never_residences() -> None:
    assert facts("I'm moving to Berlin next month.", attribute="plans") == {
        ("plans", "move to Berlin", "positive", "planned")
    }
    assert facts("I'm thinking about moving to Lisbury.", attribute="plans") == {
        ("plans", "moving to Lisbury", "positive", "hedged")
    }


def test_a_home_had_for_a_while_holds_from_its_start() -> None:
    [home] = [f for f in proposals("Lisbon has been our home since 2019.") if f.attribute == "residence"]
    assert (home.statement, home.valid_from) == ("Cecilia lives in Lisbon.", datetime(2019, 1, 1, tzinfo=timezone.utc))


def test_a_move_is_dated_and_phrased_in_the_third_person() -> None:
    moved = [f for f in proposals("I moved to Lisbon in March.") if f.attribute == "residence"]
    assert [(f.statement, f.valid_from) for f in moved] == [
        ("Cecilia moved to Lisbon.", datetime(2023, 3, 1, tzinfo=timezone.utc))
    ]


@pytest.mark.parametrize(
    ("text", "place"),
    [("I'm from Sweden.", "Sweden"), ("I grew up in Ohio.", "Ohio"), ("My home country, Sweden, is cold.", "Sweden")],
)
def test_origin_forms(text: str, place: str) -> None:
    assert facts(text, attribute="origin") == {("origin", place, "positive", "asserted")}


def test_third_person_residence_names_the_person() -> None:
    assert "Melinda lives in Denver." in statements("Melinda lives in Denver.")


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("My sister Melinda works at the Seaview Library.", "Melinda works at the Seaview Library."),
        ("Our neighbour Tobias moved to Leeds.", "Tobias moved to Leeds."),
        ("Anyway, my best friend Lucia lives in Denver now.", "Lucia lives in Denver."),
    ],
)
def test_a_person_introduced_by_who_they_are_to_the_speaker_is_the_subject(text: str, statement: str) -> None:
    # "my sister Melinda …": the name in apposition is the clause's subject, not the speaker.
    found = proposals(text)
    assert statement in {f.statement for f in found}
    assert all(f.subject != "Cecilia" for f in found if f.attribute in ("employer", "residence"))


@pytest.mark.parametrize(
    "text",
    [
        "I told my boss Tobias works at Halden.",  # the possessive phrase does not open the clause
        "The day my brother moved to Leeds was sad.",
        "My brother-in-law works at Halden.",  # an in-law is no relative the memory keeps
        "The day my brother Tobias moved to Leeds was sad.",
    ],
)
def test_an_apposition_inside_another_clause_or_of_an_unknown_name_makes_no_fact(text: str) -> None:
    assert not {f for f in proposals(text) if f.attribute in ("employer", "residence")}


@pytest.mark.parametrize(
    ("text", "subject", "attribute", "value"),
    [
        ("My sister works at Halden.", "Cecilia's sister", "employer", "Halden"),
        ("My older brother moved to Leeds last year.", "Cecilia's brother", "residence", "Leeds"),
        ("My dad just retired.", "Cecilia's father", "employer", "retired"),
        ("My mom lives in Denver now.", "Cecilia's mother", "residence", "Denver"),
        ("My husband is a nurse.", "Cecilia's husband", "occupation", "nurse"),
        # Someone else's relative, by a person Level 0 knows: theirs.
        ("Melinda's dad just retired.", "Melinda's father", "employer", "retired"),
        ("Melinda's older sister works at Halden.", "Melinda's sister", "employer", "Halden"),
        # Several relatives of one kind, never named: one subject, as one relative is.
        ("My parents live in Lisbon.", "Cecilia's parents", "residence", "Lisbon"),
        ("My parents moved to Porto last year.", "Cecilia's parents", "residence", "Porto"),
        ("My brothers both work at Globex.", "Cecilia's brothers", "employer", "Globex"),
        ("My kids go to Oakwood Elementary.", "Cecilia's children", "education", "Oakwood Elementary"),
        ("My older sisters live in Leeds.", "Cecilia's sisters", "residence", "Leeds"),
    ],
)
def test_a_relative_never_named_is_a_subject_of_their_own(text: str, subject: str, attribute: str, value: str) -> None:
    """"My sister works at Halden": the speaker's sister works there, not the speaker, and
    no name is guessed for her (``eywa.attributes.kin``)."""
    ev = turn(text)
    accepted = [
        f for f in RuleExtractor().propose("home", [ev])
        if f.attribute == attribute and Validator().validate("home", f, {ev.id: ev}).accepted
    ]  # fmt: skip
    assert [(f.subject, f.value) for f in accepted] == [(subject, value)]


def test_relatives_said_together_are_spoken_of_in_the_plural() -> None:
    assert statements("My parents live in Lisbon.") == {"Cecilia's parents live in Lisbon."}
    assert statements("My brothers both work at Globex.") == {"Cecilia's brothers work at Globex."}


@pytest.mark.parametrize(
    ("text", "attribute", "positive", "negative"),
    [
        ("I work at Initech, not Globex.", "employer", "Initech", "Globex"),
        ("Sorry, I misspoke: I work at Initech, not Globex.", "employer", "Initech", "Globex"),
        ("We live in Leeds, not in York.", "residence", "Leeds", "York"),
        ("I'm a nurse, not a doctor.", "occupation", "nurse", "doctor"),
    ],
)
def test_a_trailing_contrast_asserts_the_value_and_denies_the_contrasted_one(
    text: str, attribute: str, positive: str, negative: str
) -> None:
    # The negation belongs to the contrast: the part before it is read as said.
    assert facts(text, attribute=attribute) == {
        (attribute, positive, "positive", "asserted"), (attribute, negative, "negative", "asserted"),
    }


@pytest.mark.parametrize(
    "text",
    ["I work at Initech, not anymore.", "I work at Initech, not sure for how long.", "I live in Leeds, not far from York."],
)
def test_a_not_that_qualifies_the_whole_statement_is_no_contrast(text: str) -> None:
    assert not {f for f in proposals(text) if f.polarity == "positive" and f.attribute in ("employer", "residence")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a comma splice: each first-person clause has its own negation
        ("I don't live in Leeds anymore, I moved to York.",
         {("residence", "Leeds", "negative", "asserted"), ("residence", "York", "positive", "asserted")}),
        ("I quit Halden, I work at Fernbrook now.",
         {("employer", "Halden", "negative", "asserted"), ("employer", "Fernbrook", "positive", "asserted")}),
        # an introduction is not a clause of its own, and a hedge tacked on is no splice
        ("Last week, I moved to York.", {("residence", "York", "positive", "asserted")}),
        ("I moved to Paris, I think.", set()),
        # a past habit governs the clause spliced after it
        ("When I was younger, I lived in Leeds.", set()),
    ],
)  # fmt: skip
def test_a_comma_splice_reads_each_clause_on_its_own(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="residence") | facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Started my new gig at Initech today!", {("employer", "Initech", "positive", "asserted")}),
        ("I work for a startup called Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("I work at a small bakery named Crumbs.", {("employer", "Crumbs", "positive", "asserted")}),
        ("I moved to Austin for a new job at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("My last day at Globex was Friday.", {("employer", "Globex", "negative", "asserted")}),
        ("Yesterday was my last day at Globex.", {("employer", "Globex", "negative", "asserted")}),
        ("Last Friday was my last day at Globex!", {("employer", "Globex", "negative", "asserted")}),
        ("My last day at Globex is 30 May.", {("employer", "Globex", "negative", "asserted")}),
        # A last day to come that no date places is left: when the job ends is not known.
        ("My last day at Globex is coming up.", set()),
        ("Friday is my last day at Globex.", set()),
        # A move to come is a plan, and a last day somewhere that is no workplace ends nothing.
        ("I am moving to Austin for a job at Initech.", set()),
        ("My last day at the beach was great.", set()),
    ],
)
def test_more_ways_a_job_starts_and_ends(text: str, expected: set[Fact]) -> None:
    """Forms a chat uses for a new job and a job left: a new gig, an employer introduced by
    what it is ("a startup called Initech"), a move made for a job, a last day that was."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "since"),
    [
        ("Yesterday was my last day at Globex.", datetime(2023, 5, 8, tzinfo=timezone.utc)),
        ("Today is my last day at Globex.", datetime(2023, 5, 9, tzinfo=timezone.utc)),
        ("My last day at Globex is 30 May.", datetime(2023, 5, 30, tzinfo=timezone.utc)),
        ("My last day at Globex was last Friday.", datetime(2023, 5, 5, tzinfo=timezone.utc)),
    ],
)
def test_a_last_day_ends_the_job_on_that_day(text: str, since: datetime) -> None:
    """The day said first or after ("Yesterday was my last day at …", "my last day at … is 30
    May") is when the job ends, before or after the turn (said on Tuesday 9 May 2023)."""
    (found,) = [f for f in proposals(text) if f.attribute == "employer"]
    assert (found.value, found.polarity, found.valid_from) == ("Globex", "negative", since)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I live in a small town called Millbrook.", {("residence", "Millbrook", "positive", "asserted")}),
        ("I moved to a village named Oakley.", {("residence", "Oakley", "positive", "asserted")}),
        ("I moved back home to Ohio.", {("residence", "Ohio", "positive", "asserted")}),
        ("I moved here from Denver.", {("residence", "Denver", "negative", "asserted")}),
        ("I will be moving to Denver in June.", set()),  # a plan (``plans``), not a home yet
        ("I live in the city.", set()),
        # a home bought or rented and moved into, one being settled into
        ("We closed on our house in Austin and moved in last week!", {("residence", "Austin", "positive", "asserted")}),
        ("I found a flat in Leeds and moved there in May.", {("residence", "Leeds", "positive", "asserted")}),
        ("We're settling into our new apartment in Austin.", {("residence", "Austin", "positive", "asserted")}),
        # a house bought alone is no move, nor a settling still to come
        ("We bought a house in Austin.", set()),
        ("We are settling into our new place in Austin next month.", set()),
        # a home rented now (session 39), not a stay, a past or a start ahead
        ("We're renting a flat in Glasgow.", {("residence", "Glasgow", "positive", "asserted")}),
        ("I rent an apartment in Leeds.", {("residence", "Leeds", "positive", "asserted")}),
        ("We're renting a house in Tuscany for the summer.", set()),
        ("We rented a flat in Rome.", set()),
        ("I'm renting a place in Porto from June.", set()),
        # "here" placed by the turn's own greeting, or right after it (session 39)
        ("Hello from Berlin! We finally moved here last week.", {("residence", "Berlin", "positive", "asserted")}),
        ("Hi from Rome! I moved here to be near my sister.", {("residence", "Rome", "positive", "asserted")}),
        ("I just moved here, to Austin.", {("residence", "Austin", "positive", "asserted")}),
        ("We moved here last year.", set()),  # no place said
        ("Hello from Berlin! We are visiting, we never moved here.", set()),
    ],
)
def test_more_ways_a_home_is_said(text: str, expected: set[Fact]) -> None:
    """A place introduced by what it is ("a small town called Millbrook"), a move back home,
    and a home left by moving here from it."""
    assert facts(text, attribute="residence") == expected


def test_a_move_said_in_the_future_is_a_plan() -> None:
    assert facts("I will be moving to Denver in June.", attribute="plans") == {
        ("plans", "move to Denver", "positive", "planned")
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Melinda works at Globex and Tobias works at Initech.", {("employer", "Globex", "positive", "asserted"),
                                                                  ("employer", "Initech", "positive", "asserted")}),
        ("I work at Globex and Tobias is at Initech.", {("employer", "Globex", "positive", "asserted")}),
        ("I live in Denver and Lucia lives in Austin.", {("residence", "Denver", "positive", "asserted"),
                                                         ("residence", "Austin", "positive", "asserted")}),
        # "and" inside a name stays in it.
        ("I work at Johnson and Johnson as a nurse.", {("employer", "Johnson and Johnson", "positive", "asserted")}),
        ("I work at Barnes and Noble.", {("employer", "Barnes and Noble", "positive", "asserted")}),
    ],
)
def test_a_name_that_does_something_after_and_ends_the_place_before_it(text: str, expected: set[Fact]) -> None:
    """"I work at Globex and Tobias works at Initech" made the employer "Globex and Tobias"."""
    assert facts(text, attribute="employer") | facts(text, attribute="residence") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I quit my job last week.", {("employer", "unemployed", "positive", "asserted")}),
        ("I left my job in May.", {("employer", "unemployed", "positive", "asserted")}),
        ("I quit my job at Globex.", {("employer", "Globex", "negative", "asserted")}),
        # For something next, what comes next is read where it is said; not done, nothing.
        ("I quit my job to start a bakery.", set()),
        ("I left my job and joined Initech.", {("employer", "Initech", "positive", "asserted")}),  # a job joined
        ("I didn't quit my job.", set()),
        ("I might quit my job.", set()),
    ],
)
def test_a_job_quit_without_the_employer_named_is_no_work_now(text: str, expected: set[Fact]) -> None:
    """"I quit my job" made nothing: the employer said before stayed the answer."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I started a new job as a teacher.", {("occupation", "teacher", "positive", "asserted")}),
        ("I got a new job as a nurse at Initech.", {("occupation", "nurse", "positive", "asserted")}),
        # Graduating ends being a student, unless more study follows or it was school long ago.
        ("I just graduated!", {("occupation", "student", "negative", "asserted")}),
        ("I graduated from college last year.", {("occupation", "student", "negative", "asserted")}),
        ("I graduated and started grad school.", set()),
        ("I graduated from high school in 2010.", set()),
        ("I haven't graduated yet.", set()),
        ("I might get a job as a chef.", set()),
    ],
)
def test_a_new_job_as_a_title_and_a_graduation_say_the_occupation(text: str, expected: set[Fact]) -> None:
    """"I started a new job as a teacher" and "I just graduated!" made no occupation."""
    assert facts(text, attribute="occupation") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I started my own business last year.", {("employer", "self-employed", "positive", "asserted")}),
        ("I've been running my own practice since 2015.", {("employer", "self-employed", "positive", "asserted")}),
        ("I run my own company, Acme.", {("employer", "Acme", "positive", "asserted")}),
        # a plan, a negation, and one's own thing that says no work
        ("I'm starting my own business.", set()),
        ("I don't run my own business.", set()),
        ("I started my own blog.", set()),
        ("I opened my own bakery last year.", set()),  # what, not whether it is one's work
    ],
)
def test_ones_own_business_is_working_for_oneself(text: str, expected: set[Fact]) -> None:
    """"My own business" unnamed is ``self-employed`` (a registry surface of it); named, the
    business is the employer."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Got the job! I'm joining Initech next month.", ("employer", "Initech", datetime(2023, 6, 1, tzinfo=timezone.utc))),
        ("I'm joining Initech as an engineer on 1 June.", ("employer", "Initech", datetime(2023, 6, 1, tzinfo=timezone.utc))),
        ("New job news: I'm joining Initech!", ("plans", "join Initech", None)),
    ],
)
def test_joining_a_company_is_a_start_to_come(text: str, expected: tuple[str, str, datetime | None]) -> None:
    """From the date ahead when the turn says one, a plan when it does not."""
    found = {(f.attribute, f.value, f.valid_from) for f in proposals(text) if f.attribute in ("employer", "plans")}
    assert found == {expected}


@pytest.mark.parametrize(
    "text", ["I'm joining Initech next month.", "I'm joining Melinda for lunch at work.", "I'm joining CrossFit next month."]
)
def test_joining_what_may_be_no_job_makes_nothing(text: str) -> None:
    """Without work in the turn or a role said, joining a name may be a gym or a friend."""
    assert not [f for f in proposals(text) if f.attribute in ("employer", "plans")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've switched careers and now work as a nurse.", ("occupation", "nurse", "positive", "asserted")),
        ("We sold the house and now live in Austin.", ("residence", "Austin", "positive", "asserted")),
    ],
)
def test_a_second_verb_after_and_now_shares_the_subject(text: str, expected: Fact) -> None:
    """"… and now work as a nurse" is read as "I now work as a nurse", also after "I've"."""
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got laid off from Globex last week.",
         {("employer", "Globex", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted")}),
        ("Globex let me go last week.",
         {("employer", "Globex", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted")}),
        # what came next is said: no time out of work is claimed
        ("Globex laid me off and I started at Initech.",
         {("employer", "Globex", "negative", "asserted"), ("employer", "Initech", "positive", "asserted")}),
        ("I got fired from Globex but I joined Initech a week later.",
         {("employer", "Globex", "negative", "asserted"), ("employer", "Initech", "positive", "asserted")}),
        # a job lost, the employer named or a kind of workplace: as "I lost my job" alone
        ("I lost my job at Globex last month.",
         {("employer", "Globex", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted")}),
        ("I lost my job at the bakery in March, so money is tight.",
         {("employer", "bakery", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted")}),
        ("I lost my job at Globex, but I found a new one.", {("employer", "Globex", "negative", "asserted")}),
        ("Melinda lost her job at the bookstore.",  # a kind ``WORKPLACES`` has and the old inline list lacked
         {("employer", "bookstore", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted")}),
        # a job left by choice says nothing of what one does now
        ("I quit Globex.", {("employer", "Globex", "negative", "asserted")}),
        ("I quit my job at Globex.", {("employer", "Globex", "negative", "asserted")}),
        ("I left my job at the bakery.", {("employer", "bakery", "negative", "asserted")}),
    ],
)
def test_a_job_the_employer_ended_leaves_one_out_of_work(text: str, expected: set[Fact]) -> None:
    """"I got laid off" alone was ``unemployed``; with the employer named it only ended that job."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I work for myself now.", {("employer", "self-employed", "positive", "asserted")}),
        ("I've been working for myself since 2020.", {("employer", "self-employed", "positive", "asserted")}),
        ("Melinda works for herself.", {("employer", "self-employed", "positive", "asserted")}),
        ("I went back to work at Globex last month.", {("employer", "Globex", "positive", "asserted")}),
        ("I lost my job at Globex, but I found a new one at Initech.",
         {("employer", "Globex", "negative", "asserted"), ("employer", "Initech", "positive", "asserted")}),
        # a past, a plan, a denial, and "a new one" not about work: no employer
        ("I worked for myself for a while.", set()),
        ("I'm going back to work at Globex next month.", set()),
        ("I don't work for myself.", set()),
        ("I got a new one at the Apple Store.", set()),
    ],
)
def test_work_for_oneself_back_at_work_and_a_new_one(text: str, expected: set[Fact]) -> None:
    """Three ways of saying where one works that were read as nothing."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm no longer working at Globex.", {("employer", "Globex", "negative", "asserted")}),
        ("I'm not working at Globex anymore.", {("employer", "Globex", "negative", "asserted")}),
        ("Melinda is no longer working for Globex.", {("employer", "Globex", "negative", "asserted")}),
        ("I'm not working at Globex today.", set()),  # a day off
    ],
)
def test_no_longer_working_at_an_employer_ends_the_job(text: str, expected: set[Fact]) -> None:
    """"I don't work at Globex anymore" ended the job; the progressive "I'm no longer working at
    Globex" was read as nothing."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lisbon is home now.", {("residence", "Lisbon", "positive", "asserted")}),
        ("Lisbon will always be home.", set()),
        ("Home is where the heart is.", set()),
    ],
)
def test_a_place_that_is_home_now_is_the_residence_said_alone(text: str, expected: set[Fact]) -> None:
    """"Lisbon is my home now" was read, "Lisbon is home now" was not: a part with no "I", "my"
    or person was not read for the speaker at all."""
    assert facts(text, attribute="residence") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got my dream job at Initech!", {("employer", "Initech", "positive", "asserted")}),
        ("I dream of working at Initech.", set()),  # a wish
        ("I left teaching to become a nurse.", {("occupation", "nurse", "positive", "asserted")}),
        ("I quit my job to become a nurse.", {("occupation", "nurse", "positive", "asserted")}),
        ("I quit trying to become a doctor.", set()),
        ("I'm leaving teaching to become a nurse.", set()),  # still ahead
    ],
)
def test_a_dream_job_had_and_a_job_left_for_another(text: str, expected: set[Fact]) -> None:
    """"my dream job" read the whole turn as a wish ("dream" was a hedge word wherever it
    stood), and "I left teaching to become a nurse" made no occupation."""
    assert facts(text, attribute="employer") | facts(text, attribute="occupation") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I took a job at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("I took a new position at Initech as an analyst.", {("employer", "Initech", "positive", "asserted")}),
        # an offer taken is one accepted: a start to come, a plan until it is said
        ("I took the offer from Initech.", {("plans", "start at Initech", "positive", "planned")}),
    ],
)
def test_a_job_taken_is_a_job_got_and_an_offer_taken_is_accepted(text: str, expected: set[Fact]) -> None:
    """"I took a job at Initech" and "I took the offer from Initech" were read as events only."""
    assert facts(text, attribute="employer") | facts(text, attribute="plans") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Initech offered me a job and I took it.", {("plans", "start at Initech", "positive", "planned")}),
        ("Initech offered me a job and I accepted.", {("plans", "start at Initech", "positive", "planned")}),
        ("Initech offered me a job, starting in June, and I took it.", {("employer", "Initech", "positive", "asserted")}),
        ("Initech offered me a job!", set()),  # an offer alone
        ("Initech offered me a job but I didn't take it.", set()),
        ("Tobias offered me a job and I took it.", set()),  # a person, no employer
    ],
)
def test_an_offer_made_to_the_speaker_and_taken_is_accepted(text: str, expected: set[Fact]) -> None:
    """"Initech offered me a job and I took it" was read as nothing (the offer and its
    acceptance are two parts of the sentence): now as "I accepted a job at Initech"."""
    assert facts(text, attribute="employer") | facts(text, attribute="plans") == expected


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I joined a startup called Quillmark last spring.", "Quillmark"),
        ("I left Harbor Bank and joined a design agency named Pixelworks.", "Pixelworks"),
        ("My sister joined a law firm called Holloway Partners.", "Holloway Partners"),
    ],
)
def test_a_workplace_joined_and_introduced_by_its_kind_is_the_employer(text: str, employer: str) -> None:
    assert ("employer", employer, "positive", "asserted") in facts(text, attribute="employer")


@pytest.mark.parametrize("text", ["I joined a band called The Larks.", "I joined a book club named Dog Ears."])
def test_a_club_or_band_joined_by_name_is_no_employer(text: str) -> None:
    assert facts(text, attribute="employer") == set()


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I'm a nurse at St. Jude's now.", "St. Jude's"),
        ("I work at Mt. Sinai as a porter.", "Mt. Sinai"),
    ],
)
def test_an_abbreviated_title_does_not_end_the_sentence_inside_a_name(text: str, employer: str) -> None:
    """The period of "St." ended the clause, so the employer was "St" (found by probing, s39)."""
    assert {f for f in facts(text, attribute="employer") if f[2] == "positive"} == {("employer", employer, "positive", "asserted")}


def test_freelancing_as_a_job_is_self_employed_too() -> None:
    assert facts("I'm freelancing as a translator now.", attribute="employer") == {
        ("employer", "self-employed", "positive", "asserted")
    }


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I own a bakery called Crumbs.", "Crumbs"),
        ("I run a small agency named Pixelworks.", "Pixelworks"),
        ("I've been running a salon called Shear Joy for years.", "Shear Joy"),
    ],
)
def test_a_named_business_one_runs_or_owns_now_is_the_employer(text: str, employer: str) -> None:
    """As "my own bakery, Crumbs" already was; "a bakery called Crumbs" made nothing (s39)."""
    assert facts(text, attribute="employer") == {("employer", employer, "positive", "asserted")}


@pytest.mark.parametrize(
    "text", ["I used to own a bakery called Crumbs.", "I don't own a bakery called Crumbs.", "I went to a bakery called Crumbs."]
)
def test_a_business_owned_once_denied_or_visited_is_no_employer(text: str) -> None:
    assert facts(text, attribute="employer") == set()


@pytest.mark.parametrize(
    "text",
    [
        "Globex let me go this morning.",
        "Globex let me go on Friday.",
        "Globex let me go two weeks ago.",
        "Globex let me go a few days ago.",
        "Globex let me go in March.",
    ],
)
def test_let_go_then_when_it_happened_ends_the_job(text: str) -> None:
    assert facts(text, attribute="employer") == {
        ("employer", "Globex", "negative", "asserted"), ("employer", "unemployed", "positive", "asserted"),
    }


@pytest.mark.parametrize(
    "text", ["Mom let me go on the trip.", "Dad let me go in the pool.", "They let me go early today."]
)
def test_let_go_somewhere_or_early_is_no_job_lost(text: str) -> None:
    assert facts(text, attribute="employer") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("That's not true, I still live in Lyon.", {("residence", "Lyon", "positive", "asserted")}),
        ("That is not right, I live in Lyon.", {("residence", "Lyon", "positive", "asserted")}),
        ("Not anymore, I live in Lyon now.", {("residence", "Lyon", "positive", "asserted")}),
        ("Nope, that's wrong, I work at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("That's old news, I work at Initech now.", {("employer", "Initech", "positive", "asserted")}),
        # the reply does not undo a negation of the clause after it
        ("That's not true, I do not live in Lyon.", {("residence", "Lyon", "negative", "asserted")}),
        ("Not really, I don't work at Initech.", {("employer", "Initech", "negative", "asserted")}),
    ],
)
def test_a_reply_denying_what_another_said_does_not_negate_the_clause_after_its_comma(
    text: str, expected: set[Fact]
) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I just accepted a job offer from Globex.",
        "Just accepted an offer at Globex!",
        "Accepted a job offer from Globex.",
        "I took the job offer from Globex.",
    ],
)
def test_a_job_offer_accepted_is_a_start_to_come(text: str) -> None:
    assert ("plans", "start at Globex", "positive", "planned") in facts(text)


@pytest.mark.parametrize(
    "text", ["I got a job offer from Globex.", "I turned down a job offer from Globex.", "I didn't accept the job offer from Globex."]
)
def test_a_job_offer_not_accepted_is_no_start(text: str) -> None:
    assert facts(text, attribute="plans") == set()
    assert facts(text, attribute="employer") == set()


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work in marketing at Globex.", "Globex"),
        ("I work in customer support for Initech.", "Initech"),
        ("I work in IT at Globex.", "Globex"),
    ],
)
def test_the_field_one_works_in_before_the_employer(text: str, employer: str) -> None:
    assert facts(text, attribute="employer") == {("employer", employer, "positive", "asserted")}


def test_a_resignation_handed_in_ends_the_job() -> None:
    assert facts("I handed in my resignation at Globex.", attribute="employer") == {
        ("employer", "Globex", "negative", "asserted")
    }


@pytest.mark.parametrize(
    ("text", "title", "employer"),
    [("I'm the new manager at Globex.", "manager", "Globex"), ("I'm a new nurse at Mercy Hospital.", "nurse", "Mercy Hospital")],
)
def test_new_at_a_named_workplace_is_the_job_all_the_same(text: str, title: str, employer: str) -> None:
    assert facts(text) == {
        ("occupation", title, "positive", "asserted"), ("employer", employer, "positive", "asserted"),
    }


@pytest.mark.parametrize("text", ["I'm a new mom.", "I'm the new guy at Globex.", "I'm a new driver."])
def test_new_without_a_workplace_or_a_job_is_no_occupation(text: str) -> None:
    assert facts(text, attribute="occupation") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Finally moved out of Austin, we're in Denver now.", {("residence", "Denver", "positive", "asserted")}),
        ("We moved last month, we're now in Denver.", {("residence", "Denver", "positive", "asserted")}),
        ("New apartment! We're in Denver these days.", {("residence", "Denver", "positive", "asserted")}),
        # alone, or with a stay: where one is today
        ("We're in Denver now.", set()),
        ("I'm in Denver now, the flight was fine.", set()),
        ("We moved the meeting, I'm in Denver now for the conference.", set()),
    ],
)
def test_in_a_place_now_is_home_after_a_move(text: str, expected: set[Fact]) -> None:
    assert {f for f in facts(text, attribute="residence") if f[2] == "positive"} == expected


@pytest.mark.parametrize(
    ("text", "employer"),
    [("I'm a nurse with the NHS.", "NHS"), ("I'm an engineer with Acme Corp.", "Acme Corp")],
)
def test_a_job_with_a_named_workplace_is_the_employer(text: str, employer: str) -> None:
    assert ("employer", employer, "positive", "asserted") in facts(text)


@pytest.mark.parametrize("text", ["I'm a teacher with Melinda.", "I'm a teacher with two kids."])
def test_a_job_with_a_person_or_a_thing_names_no_employer(text: str) -> None:
    assert facts(text, attribute="employer") == set()


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I drive for Uber.", "Uber"),
        ("I deliver for DoorDash on weekends.", "DoorDash"),
        ("I wait tables at Rosa's Diner.", "Rosa's Diner"),
        ("I tend bar at the Red Lion.", "Red Lion"),
        ("I've been driving for Uber since May.", "Uber"),
        ("I'm driving for Uber these days.", "Uber"),
    ],
)
def test_gig_and_service_work_names_the_employer(text: str, employer: str) -> None:
    assert facts(text, attribute="employer") == {("employer", employer, "positive", "asserted")}


@pytest.mark.parametrize(
    "text",
    [
        "I'm driving for Uber tonight.",  # a one-off
        "I drive for Uber on Friday.",
        "I drive for Melinda.",  # a person Level 0 knows
        "I used to drive for Uber.",
        "I'd never drive for Uber.",
    ],
)
def test_a_one_off_drive_a_person_or_a_past_is_no_employer(text: str) -> None:
    assert {f for f in facts(text, attribute="employer") if f[2] == "positive"} == set()


@pytest.mark.parametrize(
    "text", ["Just accepted an offer at Globex! I start on Monday.", "I accepted a job at Globex. I start on Monday!"]
)
def test_a_job_accepted_with_a_start_on_a_weekday_is_the_employer_from_that_day(text: str) -> None:
    """The turn is said on Tuesday 9 May 2023: "on Monday" with the present of starting is the
    Monday to come (Level 0 left a bare weekday undated in a sentence with no mark of a plan)."""
    found = [(p.value, p.valid_from) for p in proposals(text) if p.attribute == "employer"]
    assert found == [("Globex", datetime(2023, 5, 15, tzinfo=timezone.utc))]
    assert ("employer", "Globex", "positive", "asserted") in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I started my own consulting business.",
        "I run my own small dog grooming business.",
        "Globex laid me off, so I started my own consulting business.",
    ],
)
def test_ones_own_business_said_with_what_it_does_is_self_employment(text: str) -> None:
    employer = facts(text, attribute="employer")
    assert ("employer", "self-employed", "positive", "asserted") in employer
    assert ("employer", "unemployed", "positive", "asserted") not in employer


@pytest.mark.parametrize(
    ("text", "place"),
    [("My mom moved in with us in Lisbon last month.", "Lisbon"), ("My dad lives with me in Leeds.", "Leeds")],
)
def test_a_relative_living_with_the_speaker_lives_where_said(text: str, place: str) -> None:
    found = [(p.subject, p.value) for p in proposals(text) if p.attribute == "residence"]
    assert len(found) == 1 and found[0][1] == place and found[0][0] != "Cecilia", found
    assert ("residence", place, "positive", "asserted") in facts(text)


@pytest.mark.parametrize(
    ("text", "title"),
    [("I'm a homemaker.", "homemaker"), ("I'm a housewife now.", "housewife"), ("I'm an independent contractor.", "independent contractor")],
)
def test_work_at_home_or_on_contract_is_an_occupation(text: str, title: str) -> None:
    assert facts(text, attribute="occupation") == {("occupation", title, "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work at the hospital.", "hospital"),
        ("I work at a law firm in Chicago.", "law firm"),
        ("My sister works in a hospital.", "hospital"),
        ("I've been working for a nonprofit since May.", "nonprofit"),
        ("I work at a small bakery downtown.", "bakery"),  # "small" says how, not which kind
        ("I work for an insurance company.", "insurance company"),
        ("I work nights at a warehouse.", "warehouse"),
        ("I work part-time at a coffee shop.", "coffee shop"),
        ("I teach at a high school.", "high school"),
        ("I'm a nurse at the local hospital.", "hospital"),
        ("I'm the head chef at a small restaurant.", "restaurant"),
    ],
)
def test_a_workplace_said_by_its_kind_is_the_employer(text: str, employer: str) -> None:
    assert facts(text, attribute="employer") == {("employer", employer, "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I got a job at a bakery!", "bakery"),
        ("I finally found a new job at the hospital.", "hospital"),
        ("I started a new job as a nurse at the local hospital.", "hospital"),
        ("I got hired at a law firm last week.", "law firm"),
        ("I've been hired as a paralegal at a law firm.", "law firm"),
        ("I landed a full-time position at a tech startup.", "tech startup"),
    ],
)
def test_a_new_job_at_a_workplace_said_by_its_kind_is_the_employer(text: str, employer: str) -> None:
    assert facts(text, attribute="employer") == {("employer", employer, "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "title"),
    [("I got hired at a bank as a data analyst!", "data analyst"), ("I got a job at a bakery as a baker.", "baker")],
)
def test_the_job_named_after_a_workplace_said_by_its_kind_is_the_occupation(text: str, title: str) -> None:
    assert facts(text, attribute="occupation") == {("occupation", title, "positive", "asserted")}


def test_a_new_job_by_its_kind_with_a_start_ahead_holds_from_the_start() -> None:
    """Said on 9 May 2023: "starting in June" is 1 June 2023."""
    found = [(p.value, p.valid_from) for p in proposals("I got a job at a bakery, starting in June.")
             if p.attribute == "employer"]
    assert found == [("bakery", datetime(2023, 6, 1, tzinfo=timezone.utc))]


@pytest.mark.parametrize(
    "text",
    [
        "I'm working at the library today.",  # where one is, not where one works
        "We work at the same hospital.",  # whose is said elsewhere
        "I work for a company.",  # says no kind
        "I work at the hospital cafeteria.",  # a kind the rule does not know, not the hospital
        "I used to work at a bank.",
        "I'd love to work at a museum.",
        "I don't work at the hospital anymore.",
        "I'm a student at a community college.",  # a learner, not staff
        "I didn't get the job at the bakery.",
        "I got a job at a company.",
        "I got a job offer at a law firm.",  # an offer is no job
        "I might get a job at a bakery.",
    ],
)
def test_a_place_or_a_past_or_no_kind_is_no_unnamed_employer(text: str) -> None:
    assert {f for f in facts(text, attribute="employer") if f[2] == "positive"} == set()


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("I'm a stay-at-home mom.", "stay-at-home mom"),
        ("I'm a stay at home dad these days.", "stay at home dad"),
        ("My sister is a stay-at-home mother.", "stay-at-home mother"),
        ("I've been a stay-at-home dad since March.", "stay-at-home dad"),
    ],
)
def test_staying_home_with_the_family_is_an_occupation(text: str, title: str) -> None:
    assert facts(text, attribute="occupation") == {("occupation", title, "positive", "asserted")}


@pytest.mark.parametrize(
    "text", ["I've been a stay-at-home dad.", "I was a stay-at-home mom for years.", "I'm not a stay-at-home mom."]
)
def test_staying_home_once_or_denied_is_no_occupation_now(text: str) -> None:
    assert {f for f in facts(text, attribute="occupation") if f[2] == "positive"} == set()


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("I live in a small town in Ohio.", "Ohio"),
        ("We live on a farm outside Austin.", "Austin"),
        ("I live in an apartment in Brooklyn with my sister.", "Brooklyn"),
        ("I live in the suburbs of Chicago.", "Chicago"),
    ],
)
def test_a_kind_of_home_before_its_town_lives_in_the_town(text: str, place: str) -> None:
    assert facts(text, attribute="residence") == {("residence", place, "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "place"),
    [("We moved to a small town in Vermont.", "Vermont"), ("We moved into a house in the suburbs of Denver.", "Denver")],
)
def test_a_move_to_a_kind_of_home_in_a_town_is_a_move_to_the_town(text: str, place: str) -> None:
    assert facts(text, attribute="residence") == {("residence", place, "positive", "asserted")}


@pytest.mark.parametrize(
    "text", ["I live in a house in the woods.", "I live in a small town.", "I used to live in a small town in Ohio."]
)
def test_a_kind_of_home_with_no_town_or_in_the_past_is_no_residence(text: str) -> None:
    assert facts(text, attribute="residence") == set()


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("I'm now the head of marketing at Globex.", "head of marketing"),
        ("I'm the new head of sales at Globex.", "head of sales"),
        ("I'm the chief of staff at Globex.", "chief of staff"),
    ],
)
def test_a_title_said_by_what_one_heads_at_an_employer_is_both(text: str, title: str) -> None:
    assert facts(text) == {("occupation", title, "positive", "asserted"), ("employer", "Globex", "positive", "asserted")}


@pytest.mark.parametrize("text", ["I'm the head of the household.", "I'm the head of my class.", "I'm the head of the PTA."])
def test_heading_a_household_a_class_or_a_club_is_no_job(text: str) -> None:
    assert facts(text, attribute="occupation") == facts(text, attribute="employer") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a stay-at-home dad now.", {("employer", "homemaker", "positive", "asserted"),
                                          ("occupation", "stay-at-home dad", "positive", "asserted")}),
        ("I'm now a stay at home mom.", {("employer", "homemaker", "positive", "asserted"),
                                         ("occupation", "stay at home mom", "positive", "asserted")}),
        ("I became a stay-at-home mom after the twins were born.",
         {("employer", "homemaker", "positive", "asserted"), ("occupation", "stay-at-home mom", "positive", "asserted")}),
        ("I quit my job to be a stay-at-home mom.",
         {("employer", "homemaker", "positive", "asserted"), ("occupation", "stay-at-home mom", "positive", "asserted")}),
        ("I quit Globex to stay home with the kids.",
         {("employer", "homemaker", "positive", "asserted"), ("employer", "Globex", "negative", "asserted")}),
        ("I'm a homemaker now.", {("employer", "homemaker", "positive", "asserted"),
                                  ("occupation", "homemaker", "positive", "asserted")}),
    ],
)
def test_staying_home_with_the_family_now_is_out_of_paid_work(text: str, expected: set[Fact]) -> None:
    """"I'm a stay-at-home dad now" made only the occupation: the job held before kept
    answering "Where does Cecilia work now?"."""
    assert facts(text, attribute="employer") | facts(text, attribute="occupation") == expected


@pytest.mark.parametrize(
    "text",
    [
        "I was a stay-at-home mom for years before Globex.",  # a past
        "I've been a stay-at-home dad.",  # once
        "I'm not a stay-at-home mom.",
        "I'd love to be a stay-at-home dad someday.",
        "I might quit my job to be a stay-at-home mom.",
        "I left work early to stay home with my sick son.",  # a day
        "I left the party early to stay home with the kids.",
        "I left Leeds to stay home with my family.",  # Leeds is no employer held
    ],
)
def test_staying_home_once_wished_or_for_a_day_leaves_the_employer(text: str) -> None:
    assert ("employer", "homemaker", "positive", "asserted") not in facts(text, attribute="employer")


@pytest.mark.parametrize(
    "text",
    [
        "The startup laid everyone off, including me.",
        "The nonprofit laid everyone off, including me.",  # a workplace kind the old inline list lacked
        "Globex laid off the whole team, me included.",
        "The company laid off 200 people, including me.",
        "They let all of us go last week.",
        "They laid us off last week.",
        "We all got laid off last week.",
        "We were both laid off from Globex.",
        "I was one of the people laid off.",
        "I was among those let go in March.",
        "I got caught in the layoffs at Globex.",
        "I was hit by the latest round of layoffs.",
        "I don't have a job right now.",
        "I have no job at the moment.",
        "I'm currently without a job.",
    ],
)
def test_a_layoff_that_took_the_speaker_or_no_job_now_is_out_of_work(text: str) -> None:
    """A layoff of many said to include the speaker, or a job said not to be had, made
    nothing: the job held before kept answering."""
    assert ("employer", "unemployed", "positive", "asserted") in facts(text, attribute="employer")


@pytest.mark.parametrize(
    "text",
    [
        "The startup laid everyone off, but not me.",
        "Globex laid off half the staff.",  # not said to include the speaker
        "They let us go.",  # from where, it does not say
        "They let us go early today.",
        "The police let us go.",
        "Tom let us go early.",
        "We got fired up for the game.",
        "I survived the layoffs at Globex.",
        "I'm job hunting.",  # one may look while employed
        "I'm looking for a new job.",
        "I'm looking for work.",
        "I don't have a job interview yet.",
        "I don't have a job that pays well.",
        "I have no job lined up yet.",
        "I didn't have a job back then.",
        "If I didn't have a job, I'd travel.",
    ],
)
def test_a_layoff_of_others_or_a_job_hunt_is_no_unemployment(text: str) -> None:
    assert ("employer", "unemployed", "positive", "asserted") not in facts(text, attribute="employer")


@pytest.mark.parametrize(
    "text", ["I'm back in Boston now.", "We're back in Boston now, it feels good.", "I'm now back in Boston."]
)
def test_back_in_a_place_now_is_home_again(text: str) -> None:
    assert facts(text, attribute="residence") == {("residence", "Boston", "positive", "asserted")}


@pytest.mark.parametrize(
    "text",
    [
        "I'm back in Boston now for the weekend.",
        "I'm back in Boston now, visiting my parents.",
        "I'm back in Boston now on a business trip.",
        "I'm back in Boston next week.",
        "I'm back in the office now.",
        "Back in Boston, we had a dog.",
    ],
)
def test_back_in_a_place_for_a_visit_or_a_story_is_no_home(text: str) -> None:
    assert {f for f in facts(text, attribute="residence") if f[2] == "positive"} == set()


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I've been with Globex for five years as an engineer.", {("employer", "Globex", "positive", "asserted")}),
        ("I've been with Acme Corp since 2019.", {("employer", "Acme Corp", "positive", "asserted")}),
        ("I've been at Initech for five years.", {("employer", "Initech", "positive", "asserted")}),
        # Level 0 reads a lone name after "with" as a person: a partner as likely as a job.
        ("I've been with Globex since 2019.", set()),
        ("I've been with Tobias for five years.", set()),
        ("I've been with Sam for five years as a couple.", set()),
    ],
)
def test_been_with_an_organisation_for_years_is_the_employer(text: str, employer: set[Fact]) -> None:
    assert facts(text, attribute="employer") == employer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Globex promoted me to team lead!", {("employer", "Globex", "positive", "asserted"),
                                              ("occupation", "team lead", "positive", "asserted")}),
        ("Initech has promoted me to head of sales.", {("employer", "Initech", "positive", "asserted"),
                                                       ("occupation", "head of sales", "positive", "asserted")}),
        ("They just promoted me to senior engineer.", {("occupation", "senior engineer", "positive", "asserted")}),
        ("My boss promoted me to manager last week.", {("occupation", "manager", "positive", "asserted")}),
        ("I got promoted to tech lead.", {("occupation", "tech lead", "positive", "asserted")}),
        # a person who promoted, a promotion denied or wished, no job title: no job
        ("Tobias promoted me to team lead.", {("occupation", "team lead", "positive", "asserted")}),
        ("Globex didn't promote me to team lead.", set()),
        ("Globex might promote me to team lead.", set()),
        ("Globex promoted me to the top of the list.", set()),
        ("I'm the lead singer in a band.", set()),
    ],
)
def test_promoted_by_the_employer_is_the_title_and_the_employer(text: str, expected: set[Fact]) -> None:
    """"Globex promoted me to team lead!" made nothing ("lead" was no job noun either)."""
    assert facts(text, attribute="employer") | facts(text, attribute="occupation") == expected



@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Started my first job at Globex!", {("employer", "Globex", "positive", "asserted")}),
        ("I started my first real job at Initech last week.", {("employer", "Initech", "positive", "asserted")}),
        ("Lost my job today.", {("employer", "unemployed", "positive", "asserted")}),
        ("Lost my keys again.", set()),
    ],
)
def test_a_first_job_started_or_a_job_lost_with_the_i_dropped_is_the_employer(text: str, expected: set[Fact]) -> None:
    """"Started my first job at Globex!" was an event only: the student had no employer."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I moved out and got my own place in Leeds.", {("residence", "Leeds", "positive", "asserted")}),
        ("We have our own flat in Porto now.", {("residence", "Porto", "positive", "asserted")}),
        ("I got my own place in Leeds for the summer.", set()),
        ("I'll get my own place in Leeds next year.", set()),
        ("I don't have my own place in Leeds.", set()),
    ],
)
def test_a_place_of_ones_own_is_where_one_lives(text: str, expected: set[Fact]) -> None:
    """"I moved out and got my own place in Leeds" made no home: "Where does Ana live?" claimed
    nothing."""
    assert facts(text, attribute="residence") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got a new teaching job at Hillview Academy.", {("employer", "Hillview Academy", "positive", "asserted")}),
        ("I landed a sales job at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("I got a new job at Globex.", {("employer", "Globex", "positive", "asserted")}),
        ("I got a job offer from Globex.", set()),  # an offer is no job
    ],
)
def test_a_job_said_with_its_kind_is_the_employer(text: str, expected: set[Fact]) -> None:
    """"I got a new teaching job at Hillview Academy" made no employer: only "a (new) job" was read."""
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We're renting in Lisbon now.", {("residence", "Lisbon", "positive", "asserted")}),
        ("We rent in Porto.", {("residence", "Porto", "positive", "asserted")}),
        ("I'm renting in Lisbon for the summer.", set()),
        ("We're renting a car in Lisbon.", set()),
    ],
)
def test_renting_in_a_place_is_living_there(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="residence") == expected


@pytest.mark.parametrize(
    ("text", "attribute", "expected"),
    [
        # a past tense with its end: held until then, held no longer
        ("I worked at Initech until last year.", "employer", {("employer", "Initech", "negative", "asserted")}),
        ("I worked for Globex for six years until 2023.", "employer",
         {("employer", "Globex", "negative", "asserted")}),
        ("I lived in Leeds until last year.", "residence", {("residence", "Leeds", "negative", "asserted")}),
        ("We lived in Leeds for ten years until 2023.", "residence", {("residence", "Leeds", "negative", "asserted")}),
        # no date of the past after "until": an evening, a childhood
        ("I worked at Initech until midnight.", "employer", set()),
        ("I lived in Leeds until I was ten.", "residence", set()),
        # "now" first, with work talked of in the turn (alone it may be where one stands)
        ("I left Initech. These days I'm at Globex.", "employer", {("employer", "Globex", "positive", "asserted")}),
        ("Now I'm at Globex.", "employer", set()),
        ("Now I'm at Starbucks, want to come?", "employer", set()),
    ],
)  # fmt: skip
def test_a_job_or_home_held_until_a_date_ended_then(text: str, attribute: str, expected: set[Fact]) -> None:
    assert facts(text, attribute=attribute) == expected
