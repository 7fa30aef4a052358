"""Relationship status, partner, children and pets: positive, negated, hedged and change
forms side by side. A pet's value is its name when the turn gives one, else its species.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.models import CandidateFact
from tests.unit.rules_support import Fact, facts, proposals, refusals, statements, turn


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm married.", {("relationship_status", "married", "positive", "asserted")}),
        # The status, negative (never married, positive): "Is Alice married?" is answered no.
        ("I'm not married.", {("relationship_status", "married", "negative", "asserted")}),
        ("I might get married next year.", set()),
        ("We got engaged last weekend!", {("relationship_status", "engaged", "positive", "asserted")}),
        ("I got divorced last year.", {("relationship_status", "divorced", "positive", "asserted")}),
        ("My husband, Tom, is a chef.", {("relationship_status", "married", "positive", "asserted")}),
        ("If I were married I would live in Paris.", set()),
        ("I'm a widow.", {("relationship_status", "widowed", "positive", "asserted")}),
        ("Tobias and I have been dating for a year.", {("relationship_status", "in a relationship", "positive",
                                                        "asserted")}),
        ("Tobias and I are together.", set()),  # a married couple says it too
    ],
)
def test_relationship_status_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="relationship_status") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My wife and I split up.", {("relationship_status", "single", "positive", "asserted")}),
        ("My husband and I separated last year.", {("relationship_status", "separated", "positive", "asserted")}),
        ("My husband and I got divorced in May.", {("relationship_status", "divorced", "positive", "asserted")}),
        # A separation under way is the status it makes (separated: married, apart), not "married".
        ("My wife and I are separating.", {("relationship_status", "separated", "positive", "asserted")}),
        ("We're separating.", {("relationship_status", "separated", "positive", "asserted")}),
        ("We are separating the recycling.", set()),
        # Not ended yet, or no end at all: the role still says the status.
        ("My wife and I are getting divorced.", {("relationship_status", "married", "positive", "asserted")}),
        ("My wife and I went to Rome.", {("relationship_status", "married", "positive", "asserted")}),
    ],
)
def test_the_partner_one_split_up_with_says_no_status_of_now(text: str, expected: set[Fact]) -> None:
    """"My wife and I split up" names whom the relationship ended with: not "married"."""
    assert facts(text, attribute="relationship_status") == expected


@pytest.mark.parametrize(
    "text",
    [
        "Melinda and I split up last month.",
        "I broke up with Lucia in March.",
        "We broke up, it had been coming for a while.",
        "Melinda broke up with her boyfriend.",
    ],
)
def test_a_breakup_leaves_the_one_who_broke_up_single(text: str) -> None:
    singles = [f for f in proposals(text) if f.attribute == "relationship_status"]
    assert [(f.value, f.polarity, f.modality) for f in singles] == [("single", "positive", "asserted")]
    subject = "Melinda" if text.startswith("Melinda broke") else "Cecilia"
    assert singles[0].subject == subject
    ev = turn(text)
    assert Validator().validate("home", singles[0], {ev.id: ev}).accepted


@pytest.mark.parametrize(
    "text",
    ["We might break up.", "I didn't break up with Lucia.", "If we broke up I would move.", "Did you break up?"],
)
def test_a_breakup_that_did_not_happen_leaves_no_status(text: str) -> None:
    assert facts(text, attribute="relationship_status") == set()


def test_a_wedding_names_the_partner_and_is_dated() -> None:
    found = proposals("Lucia and I got married last Saturday!")
    assert {(f.attribute, f.value, f.valid_from) for f in found if f.attribute != "events"} == {
        ("relationship_status", "married", datetime(2023, 5, 6, tzinfo=timezone.utc)),
        ("partner", "Lucia", datetime(2023, 5, 6, tzinfo=timezone.utc)),
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My husband, Tom, is a chef.", {("partner", "Tom", "positive", "asserted")}),
        ("I married Tobias in 2015.", {("partner", "Tobias", "positive", "asserted")}),
        ("Tobias and I broke up.", {("partner", "Tobias", "negative", "asserted")}),
        ("I broke up with Tobias last month.", {("partner", "Tobias", "negative", "asserted")}),
        # The casual "me" in a subject of two is the speaker.
        ("Me and Tobias broke up last month.", {("partner", "Tobias", "negative", "asserted")}),
        ("Me and Tobias got engaged!", {("partner", "Tobias", "positive", "asserted")}),
        # A status one has with someone names them, as getting it does; one that parts ends them.
        ("Tobias and I are engaged!", {("partner", "Tobias", "positive", "asserted")}),
        ("Tobias and I have been married since 2015.", {("partner", "Tobias", "positive", "asserted")}),
        ("Tobias and I are divorced.", {("partner", "Tobias", "negative", "asserted")}),
        # The subject and its verb: "Tobias and I have been …" (the rule wanted a space before "'ve").
        ("Tobias and I have been dating for a year.", {("partner", "Tobias", "positive", "asserted")}),
        ("Tobias and I aren't together anymore.", {("partner", "Tobias", "negative", "asserted")}),
        ("My ex-husband Tom lives in Leeds.", {("partner", "Tom", "negative", "asserted")}),
        ("We're getting married in June.", set()),  # a plan
        # "we're dating" is with the one met and named before it, unless someone else is named
        # between them: then "we" may be that other.
        ("I met someone! His name is Sam and we're dating.", {("partner", "Sam", "positive", "asserted")}),
        ("I met someone! His name is Sam. Tom and I, we're dating.", set()),
        ("I met a guy named Sam at work, but Tom and I, we're dating.", set()),
    ],
)
def test_partner_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="partner") == expected


def test_a_wedding_that_is_only_planned_is_a_plan() -> None:
    assert facts("We're getting married in June.", attribute="plans") == {
        ("plans", "get married", "positive", "planned")
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have two kids.", {("children", "two kids", "positive", "asserted")}),
        ("I don't have kids.", {("children", "children", "negative", "asserted")}),
        ("My daughter Sara turned five.", {("children", "Sara", "positive", "asserted")}),
        ("We had a baby girl named Ada in March.", {("children", "Ada", "positive", "asserted")}),
        # the baby's place among the children said, and the sex after it with the name
        ("We just had our third baby, a girl named Mia!", {("children", "Mia", "positive", "asserted")}),
        ("We welcomed our second son, named Leo.", {("children", "Leo", "positive", "asserted")}),
        # a boy or a girl adopted or welcomed; not one had in a class, nor a girl's cat
        ("We just adopted a little boy named Theo.", {("children", "Theo", "positive", "asserted")}),
        ("We adopted a 3-year-old boy.", {("children", "boy", "positive", "asserted")}),
        ("I had a girl named Eva in my class.", set()),
        ("We adopted a girl's cat.", set()),
        ("Melinda's kids love painting!", {("children", "children", "positive", "asserted")}),
        ("If I had kids I would live in Paris.", set()),
        # Named with a verb: "is called", "'s name is", a plural kind with a list of names.
        ("Our daughter is called Mia.", {("children", "Mia", "positive", "asserted")}),
        ("My son's name is Leo.", {("children", "Leo", "positive", "asserted")}),
        ("My kids are named Leo and Mia.", {("children", n, "positive", "asserted") for n in ("Leo", "Mia")}),
        ("My kids' names are Leo and Mia.", {("children", n, "positive", "asserted") for n in ("Leo", "Mia")}),
        ("My children are Leo, Sara and Max.", {("children", n, "positive", "asserted") for n in ("Leo", "Sara", "Max")}),
        # A capitalised word after "is" is no name: a nationality names no child.
        # A count with the names: each child, not the count as a member beside them; "we" is the household.
        ("I have two kids, Leo and Mia.", {("children", n, "positive", "asserted") for n in ("Leo", "Mia")}),
        ("We have three children named Leo, Sara and Max.",
         {("children", n, "positive", "asserted") for n in ("Leo", "Sara", "Max")}),
        ("We have two kids.", {("children", "two kids", "positive", "asserted")}),
        ("My son is Canadian.", {("children", "son", "positive", "asserted")}),
        # Which child it is in order of birth does not hide the child.
        ("Our second daughter was born in May.", {("children", "daughter", "positive", "asserted")}),
        ("My first son Leo starts school today.", {("children", "Leo", "positive", "asserted")}),
        ("My kids are Happy and healthy.", {("children", "children", "positive", "asserted")}),
    ],
)
def test_children_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="children") == expected
    if "Melinda" in text:  # the painting is the kids' pastime, not Melinda's
        assert statements(text) == {"Melinda has kids.", "Melinda's children love painting."}
    if text.startswith("My kids are named"):  # each child said in a statement that reads right
        assert statements(text) == {"Cecilia's kids include Leo.", "Cecilia's kids are Leo and Mia."}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a dog named Rex.", {("pets", "Rex", "positive", "asserted")}),
        ("My dog Oliver is the best.", {("pets", "Oliver", "positive", "asserted")}),
        ("I don't have any pets.", {("pets", "pets", "negative", "asserted")}),
        ("We adopted a puppy named Biscuit.", {("pets", "Biscuit", "positive", "asserted")}),
        (
            "I adopted a rescue greyhound called Pickle last Saturday.",
            {("pets", "Pickle", "positive", "asserted")},
        ),
        ("We got a kitten last week.", {("pets", "cat", "positive", "asserted")}),
        ("My old cat Biscuit died on Tuesday.", {("pets", "Biscuit", "negative", "asserted")}),
        ("We had to put our dog down last year.", {("pets", "dog", "negative", "asserted")}),
        ("I had to put my cat Miso down.", {("pets", "Miso", "negative", "asserted")}),
        ("We had to put our dog to sleep.", {("pets", "dog", "negative", "asserted")}),
        # Said in the passive: the pet is gone (the validator found no cessation in "be put down").
        ("Our cat Mochi had to be put down.", {("pets", "Mochi", "negative", "asserted")}),
        ("Our dog Rex has been put to sleep.", {("pets", "Rex", "negative", "asserted")}),
        ("Our dog Rex might have to be put down.", set()),
        ("I rehomed my dog Rex.", {("pets", "Rex", "negative", "asserted")}),
        ("I might get a cat.", set()),
        ("My friend's dog is cute.", set()),
        ("I miss my dog.", set()),
        ("I got this new kitten for you!", set()),  # a present, not a pet
        ("My dog is called Rex.", {("pets", "Rex", "positive", "asserted")}),
        ("Our cat is named Miso.", {("pets", "Miso", "positive", "asserted")}),
        ("My cat's name is Miso.", {("pets", "Miso", "positive", "asserted")}),
        ("My friend's dog is called Rex.", set()),
    ],
)
def test_pet_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="pets") == expected
    # and the validator keeps each (it refused every pet put down or rehomed: no cessation cue)
    proposed = {f.statement for f in proposals(text) if f.attribute == "pets"}
    assert not proposed & refusals(text).keys()


def test_a_new_pet_is_dated_and_its_statement_reads_naturally() -> None:
    found = [f for f in proposals("I adopted a rescue greyhound called Pickle last Saturday.") if f.attribute == "pets"]
    assert [(f.statement, f.valid_from) for f in found] == [
        ("Cecilia adopted a greyhound named Pickle.", datetime(2023, 5, 6, tzinfo=timezone.utc))
    ]


def test_a_lost_pet_fails_no_check_but_polarity() -> None:
    # A loss is a change, not a negation: a validator that reads only negation words refuses
    # it as a (repairable) polarity flip; one that reads change cues accepts it. Nothing else
    # (support, subject, anchors) may fail.
    assert refusals("My old cat Biscuit died on Tuesday.") in ({}, {"Cecilia's cat Biscuit died.": ("polarity_flip",)})


def _conversation(*said: tuple[str, str]) -> list[CandidateFact]:
    """What the rules propose for turns read in order, one session, one batch."""
    turns = [turn(text, speaker).model_copy(update={"id": f"e{i}", "seq": i}) for i, (speaker, text) in enumerate(said)]
    return list(RuleExtractor().propose("home", turns))


def _of(found: list[CandidateFact], evidence_id: str) -> set[Fact]:
    return {(f.attribute or "", f.value, f.polarity, f.modality) for f in found if f.evidence_ids == (evidence_id,)}


def test_a_pet_named_alone_as_the_one_that_died_is_the_pet_the_speaker_named_before() -> None:
    found = _conversation(("Cecilia", "My old dog Rufus sleeps all day."), ("Cecilia", "Rufus passed away on Sunday."))
    assert _of(found, "e1") == {("pets", "Rufus", "negative", "asserted")}
    gone = next(f for f in found if f.evidence_ids == ("e1",) and f.attribute == "pets")
    assert gone.subject == "Cecilia" and gone.statement == "Cecilia's pet Rufus passed away."


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Cecilia: My friend Rufus sleeps all day.", "Cecilia: Rufus passed away on Sunday."),  # a person, not a pet
        ("Melinda: My old dog Rufus sleeps all day.", "Cecilia: Rufus passed away on Sunday."),  # someone else's pet
        ("Cecilia: My old dog Rufus sleeps all day.", "Cecilia: I hope Rufus never dies."),
        ("Cecilia: My old dog Rufus sleeps all day.", "Cecilia: Rufus didn't die, he just hid."),
    ],
)
def test_a_name_ends_a_pet_only_when_it_is_the_speakers_pet_and_the_death_is_asserted(first: str, second: str) -> None:
    said = [tuple(line.split(": ", 1)) for line in (first, second)]
    found = _conversation(*[(speaker, text) for speaker, text in said])
    assert not [f for f in found if f.evidence_ids == ("e1",) and f.attribute == "pets"]


def test_a_pet_named_in_the_next_sentence_by_someone_else_has_that_name() -> None:
    assert facts("We adopted a kitten on Sunday. Melinda named her Poppy.", attribute="pets") == {
        ("pets", "Poppy", "positive", "asserted")
    }
    assert facts("I got a puppy! We called him Rufus.", attribute="pets") == {("pets", "Rufus", "positive", "asserted")}


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("So you're vegan now?", "Vegan, yes. Since March.", {("diet", "vegan", "positive", "asserted"),
                                                              ("diet", "fish", "negative", "asserted"),
                                                              ("diet", "meat", "negative", "asserted")}),
        ("A teacher then?", "Yes, a teacher.", {("occupation", "teacher", "positive", "asserted")}),
        ("Married?", "Married, yep!", {("relationship_status", "married", "positive", "asserted")}),
        ("Is Lucia a teacher now?", "A teacher, yes.", set()),  # about someone else
        ("Did she go vegan?", "Vegan, yes.", set()),
        ("So you're vegan now?", "Vegetarian, yes.", set()),  # not the word asked about
        ("I went vegan last year.", "Vegan, yes.", set()),  # no question to answer
        ("So you're vegan now?", "Vegan? No way.", set()),
    ],
)
def test_a_short_answer_to_a_question_put_to_the_speaker_speaks_for_the_speaker(
    question: str, answer: str, expected: set[Fact]
) -> None:
    found = _conversation(("Melinda", question), ("Cecilia", answer))
    assert _of(found, "e1") == expected
    assert all(f.subject == "Cecilia" for f in found if f.evidence_ids == ("e1",))


def test_a_short_answer_to_ones_own_question_is_not_read() -> None:
    assert _of(_conversation(("Cecilia", "Vegan now?"), ("Cecilia", "Vegan, yes.")), "e1") == set()


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("I also have a cat.", "pets", "cat"),  # an adverb between the subject and "have"
        ("I also have a cat, Miso.", "pets", "Miso"),  # the name after a comma, ending the sentence
        ("I also have two kids.", "children", "two kids"),
    ],
)
def test_an_adverb_or_a_name_in_apposition_does_not_hide_the_fact(text: str, attribute: str, value: str) -> None:
    assert (attribute, value, "positive", "asserted") in facts(text, attribute=attribute)


def test_a_name_after_a_comma_that_opens_another_clause_is_not_the_pet() -> None:
    assert ("pets", "Lucia", "positive", "asserted") not in facts("I have a cat, Lucia has a dog.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a boyfriend named Tobias.", {("partner", "Tobias", "positive", "asserted"),
                                              ("relationship_status", "in a relationship", "positive", "asserted")}),
        ("I've got a wife, Lucia.", {("partner", "Lucia", "positive", "asserted"),
                                     ("relationship_status", "married", "positive", "asserted")}),
        ("I don't have a boyfriend.", set()),
        ("I might have a girlfriend soon.", set()),
    ],
)  # fmt: skip
def test_having_a_partner_names_them_as_my_partner_does(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="partner") | facts(text, attribute="relationship_status") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My sister Melinda works at Initech.", {("siblings", "Melinda", "positive", "asserted")}),
        ("My older brother, Tobias, lives in Oslo.", {("siblings", "Tobias", "positive", "asserted")}),
        ("I have a younger sister named Lucia.", {("siblings", "Lucia", "positive", "asserted")}),
        ("I've got a brother, Tobias.", {("siblings", "Tobias", "positive", "asserted")}),
        ("My mom's name is Melinda.", {("parents", "Melinda", "positive", "asserted")}),
        ("My dad is called Tobias.", {("parents", "Tobias", "positive", "asserted")}),
        ("Our mother Lucia turned seventy.", {("parents", "Lucia", "positive", "asserted")}),
        # No name, an in-law, a relative hoped for, or none at all: no named relative.
        ("My sister works at Initech.", set()),
        ("My brother-in-law Tobias is a chef.", set()),
        ("I wish I had a sister named Lucia.", set()),
        ("I don't have a brother.", set()),
        ("My mom and dad live in Leeds.", set()),
        # Several named at once: each one a relative, the count only where no name is said.
        ("I have two brothers, Tobias and Jake.", {("siblings", "Tobias", "positive", "asserted"),
                                                   ("siblings", "Jake", "positive", "asserted")}),
        ("I have three sisters named Lucia, Mia and Ines.", {("siblings", n, "positive", "asserted")
                                                             for n in ("Lucia", "Mia", "Ines")}),
        ("I have two older brothers.", {("siblings", "two brothers", "positive", "asserted")}),
        ("My brothers Tobias and Jake live in Ohio.", {("siblings", "Tobias", "positive", "asserted"),
                                                       ("siblings", "Jake", "positive", "asserted")}),
        ("My parents, Rosa and Carl, live in Lima.", {("parents", "Rosa", "positive", "asserted"),
                                                      ("parents", "Carl", "positive", "asserted")}),
        ("My sisters are Lucia and Mia.", {("siblings", "Lucia", "positive", "asserted"),
                                           ("siblings", "Mia", "positive", "asserted")}),
        ("My brothers are great.", set()),
        # A second relative of the same sentence: "… and a sister named Eva".
        ("I have a brother named Tobias and a sister named Lucia.", {("siblings", "Tobias", "positive", "asserted"),
                                                                     ("siblings", "Lucia", "positive", "asserted")}),
        ("I have two brothers, Tobias and Jake, and a sister named Lucia.", {
            ("siblings", n, "positive", "asserted") for n in ("Tobias", "Jake", "Lucia")}),
    ],
)
def test_named_relatives(text: str, expected: set[Fact]) -> None:
    """A sibling or parent named in apposition ("my sister Melinda") or as had ("I have a
    sister named Lucia") is a value of the speaker's siblings or parents."""
    assert facts(text, attribute="siblings") | facts(text, attribute="parents") == expected


def test_relatives_named_together_keep_their_relation_in_the_statements() -> None:
    """Which of the siblings is a brother is read from the statements (``eywa.read.relatives``)."""
    said = statements("I have two brothers, Tobias and Jake, and a sister named Lucia.")
    assert {"Cecilia has two brothers, one named Tobias.", "Cecilia's sister is Lucia."} <= said


def test_a_relatives_statement_keeps_the_relation() -> None:
    """The statement says which relative ("sister", not only "sibling"): the read path tells
    "Cecilia's sister" from "Cecilia's brother" by it (``eywa.read.relatives``)."""
    assert {"Cecilia's sister is Melinda.", "Cecilia's brother is Tobias."} <= statements(
        "My sister Melinda and my brother Tobias came over."
    )


def test_a_third_persons_relative_is_theirs() -> None:
    """"Melinda's brother Tobias" said by Cecilia: Tobias is Melinda's sibling, not hers."""
    assert "Melinda's brother is Tobias." in statements("Melinda's brother Tobias is visiting.")


_WIDOWED: Fact = ("relationship_status", "widowed", "positive", "asserted")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A spouse's death ends the partner and leaves one widowed (a boyfriend's, not widowed).
        ("My wife passed away last year.", {("partner", "wife", "negative", "asserted"), _WIDOWED}),
        ("My husband Tobias died in 2020.", {("partner", "Tobias", "negative", "asserted"), _WIDOWED}),
        ("I lost my wife last year.", {("partner", "wife", "negative", "asserted"), _WIDOWED}),
        ("My boyfriend died.", {("partner", "boyfriend", "negative", "asserted")}),
        # The name in apposition, between commas: the one who died is still the partner.
        ("My wife, Lucia, passed away last year.", {("partner", "Lucia", "negative", "asserted"), _WIDOWED}),
        ("My husband, Tobias, died in 2020.", {("partner", "Tobias", "negative", "asserted"), _WIDOWED}),
        # A spouse alive, or another's death: married as before.
        ("My husband is a chef.", {("relationship_status", "married", "positive", "asserted")}),
        ("My wife's mother died.", {("relationship_status", "married", "positive", "asserted")}),
    ],
)
def test_a_partners_death_ends_the_partnership_and_says_no_marriage(text: str, expected: set[Fact]) -> None:
    """"My wife passed away" was read as "Cecilia has a wife": married, now."""
    assert facts(text, attribute="partner") | facts(text, attribute="relationship_status") == expected


def test_a_child_given_birth_to_is_a_child() -> None:
    assert facts("I gave birth to a baby boy named Leo.", attribute="children") == {
        ("children", "Leo", "positive", "asserted")
    }


@pytest.mark.parametrize("text", ["I married my college sweetheart Tobias.", "I married my best friend, Tobias."])
def test_the_one_married_introduced_by_who_they_were_is_the_partner(text: str) -> None:
    """"I married my college sweetheart Tobias" made nothing ("I married Tobias" did)."""
    assert facts(text, attribute="partner") | facts(text, attribute="relationship_status") == {
        ("partner", "Tobias", "positive", "asserted"), ("relationship_status", "married", "positive", "asserted"),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My dog, Rex, died last week.", {("pets", "Rex", "negative", "asserted")}),
        ("My cat, Luna, ran away.", {("pets", "Luna", "negative", "asserted")}),
        ("My dog, Rex, is so cute.", {("pets", "Rex", "positive", "asserted")}),
    ],
)
def test_a_pet_named_between_commas_that_died_is_gone(text: str, expected: set[Fact]) -> None:
    """"My dog, Rex, died" made nothing (the comma after the name hid the death)."""
    assert facts(text, attribute="pets") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm seeing someone.", {("relationship_status", "in a relationship", "positive", "asserted")}),
        ("I've been dating a guy from work.", {("relationship_status", "in a relationship", "positive", "asserted")}),
        ("We're dating.", {("relationship_status", "in a relationship", "positive", "asserted")}),
        ("I'm in a relationship with Tobias.", {("relationship_status", "in a relationship", "positive", "asserted"),
                                                 ("partner", "Tobias", "positive", "asserted")}),
        ("My divorce was finalized last month.", {("relationship_status", "divorced", "positive", "asserted")}),
        ("Our divorce is final.", {("relationship_status", "divorced", "positive", "asserted")}),
        # Not so: a denial, a hedge, a doctor, a divorce not yet final, a relationship with a thing.
        ("I'm not seeing anyone.", set()),
        ("I might be seeing someone soon.", set()),
        ("I'm seeing a doctor.", set()),
        ("My divorce isn't final yet.", set()),
        ("I have a relationship with food.", set()),
    ],
)
def test_a_relationship_said_without_a_partners_name_is_the_status(text: str, expected: set[Fact]) -> None:
    """"I'm seeing someone", "my divorce was finalized" made nothing: "Is Ana single?" kept
    its earlier answer."""
    assert facts(text, attribute="relationship_status") | facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We have a golden retriever.", {("pets", "dog", "positive", "asserted")}),
        ("My German shepherd Max loves walks.", {("pets", "Max", "positive", "asserted")}),
    ],
)
def test_a_pet_named_by_its_breed_with_a_colour_or_origin_word_is_a_pet(text: str, expected: set[Fact]) -> None:
    """"golden" and "German" stood between "a" and the breed: no pet."""
    assert facts(text, attribute="pets") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have two boys.", {("children", "two boys", "positive", "asserted")}),
        ("We have two girls, Mia and Lucia.", {("children", "Mia", "positive", "asserted"),
                                               ("children", "Lucia", "positive", "asserted")}),
        ("I have two boys in my class.", set()),
    ],
)
def test_children_said_as_boys_or_girls(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="children") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lucia, my sister, works at Initech.", {("siblings", "Lucia", "positive", "asserted"),
                                                 ("employer", "Initech", "positive", "asserted")}),
        ("This is Tobias, my brother.", {("siblings", "Tobias", "positive", "asserted")}),
        ("Tobias, my husband, is a chef.", {("partner", "Tobias", "positive", "asserted"),
                                            ("relationship_status", "married", "positive", "asserted"),
                                            ("occupation", "chef", "positive", "asserted")}),
        ("Lucia, my coworker, got a job at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("Tobias, my ex-husband, is a chef.", set()),
        ("Paris, my favorite city, is lovely.", set()),
    ],
)
def test_a_name_before_who_they_are_between_commas_is_that_person(text: str, expected: set[Fact]) -> None:
    """"Lucia, my sister, works at Initech" made nothing ("my sister Lucia works at Initech" did)."""
    wanted = {"siblings", "partner", "relationship_status", "occupation", "employer"}
    assert {f for f in facts(text) if f[0] in wanted} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We tied the knot in June.", {("relationship_status", "married", "positive", "asserted")}),
        ("Tobias and I tied the knot.", {("relationship_status", "married", "positive", "asserted"),
                                         ("partner", "Tobias", "positive", "asserted")}),
    ],
)
def test_tying_the_knot_is_getting_married(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="relationship_status") | facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tobias and I got back together.", {("relationship_status", "in a relationship", "positive", "asserted"),
                                             ("partner", "Tobias", "positive", "asserted")}),
        ("I'm back together with Tobias.", {("relationship_status", "in a relationship", "positive", "asserted"),
                                            ("partner", "Tobias", "positive", "asserted")}),
        # no one named, a denial, a hedge, a band: nothing
        ("We got back together!", set()),
        ("I am not back together with Tobias.", set()),
        ("Tobias and I might get back together.", set()),
        ("The band got back together.", set()),
    ],
)
def test_back_together_with_someone_is_that_partner_again(text: str, expected: set[Fact]) -> None:
    """"Tobias and I got back together" after a breakup was read as nothing: "Is she single?"
    kept answering yes."""
    assert facts(text, attribute="relationship_status") | facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("I have a girlfriend now, her name is Lucia.", "Lucia"),
        ("My girlfriend's name is Lucia.", "Lucia"),
        ("I have a boyfriend, his name's Tobias.", "Tobias"),
        ("I'm dating a guy named Tobias.", "Tobias"),
        ("I'm seeing someone called Tobias.", "Tobias"),
        ("My boyfriend's name is on the lease.", None),
        ("I'm dating a girl named after a flower.", None),
    ],
)
def test_a_partner_named_after_the_role_is_the_partner(text: str, partner: str | None) -> None:
    """Read as a status with no partner, or as nothing: "Who is she dating?" had no answer."""
    expected = set() if partner is None else {("partner", partner, "positive", "asserted")}
    assert facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We went out for my daughter Ada's birthday.", {("children", "Ada", "positive", "asserted")}),
        ("My son Leo's school is great.", {("children", "Leo", "positive", "asserted")}),
        ("My son's friend Tom came over.", {("children", "son", "positive", "asserted")}),
    ],
)
def test_a_child_named_before_a_possessive_is_named(text: str, expected: set[Fact]) -> None:
    """"my daughter Ada's birthday" made an unnamed daughter: a name followed by "'s" was not
    taken, though it can only be the child's."""
    assert facts(text, attribute="children") == expected


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("Tobias proposed and I said yes!", "Tobias"),
        ("Tobias finally proposed to me last night, and I said yes!", "Tobias"),
        ("I proposed to Lucia and she said yes!", "Lucia"),
        ("Tobias proposed!", None),  # asked, not yet answered
        ("Tobias proposed a plan and I said yes.", None),
    ],
)
def test_a_proposal_said_yes_to_is_an_engagement(text: str, partner: str | None) -> None:
    """A proposal and its yes in one sentence were read as nothing: "Is she engaged?" said single."""
    expected = set() if partner is None else {("relationship_status", "engaged", "positive", "asserted"),
                                               ("partner", partner, "positive", "asserted")}  # fmt: skip
    assert facts(text, attribute="relationship_status") | facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "child"),
    [
        ("We had a baby girl, her name is Rosa.", "Rosa"),
        ("We had a baby boy, his name's Leo.", "Leo"),
        ("We adopted a daughter, her name is Mei.", "Mei"),
    ],
)
def test_a_baby_named_in_the_clause_after_it_is_the_child(text: str, child: str) -> None:
    assert facts(text, attribute="children") == {("children", child, "positive", "asserted")}


@pytest.mark.parametrize("text", ["I'm seeing someone new, his name is Sam.", "I'm dating a guy, his name's Sam."])
def test_someone_seen_named_in_the_clause_after_is_the_partner(text: str) -> None:
    assert ("partner", "Sam", "positive", "asserted") in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "We got a puppy and named him Max.",
        "We adopted a kitten, her name is Max.",
        "We got a golden retriever puppy, we named him Max.",
        "We got a puppy, it is called Max.",
        "We got a puppy. Named him Max.",
    ],
)
def test_a_new_pet_named_in_the_next_clause_has_that_name(text: str) -> None:
    assert facts(text, attribute="pets") == {("pets", "Max", "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I got a new phone and named it Max.", set()),  # no pet
        ("We got a puppy and called the vet.", {("pets", "dog", "positive", "asserted")}),  # no name
    ],
)
def test_a_name_given_to_no_pet_or_no_name_after_a_pet_names_none(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="pets") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Our baby boy Theo was born on Tuesday.", {("children", "Theo", "positive", "asserted")}),
        ("My little girl Mia starts school tomorrow.", {("children", "Mia", "positive", "asserted")}),
        ("My little boy loves trains.", set()),  # "little boy" alone: no child named, no kind counted
        ("Our baby is due in May.", set()),  # on the way
    ],
)
def test_a_baby_or_little_one_named_is_a_child(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="children") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a son and a daughter.", {"a son", "a daughter"}),
        ("I've got a daughter and a son.", {"a daughter", "a son"}),
        ("We have two sons and a daughter.", {"two sons", "a daughter"}),
        ("I have a son and two daughters.", {"a son", "two daughters"}),
        ("I have a son and daughter.", {"a son", "a daughter"}),
        ("I have a son named Leo and a daughter.", {"Leo", "a daughter"}),
        ("I have two kids and a dog.", {"two kids"}),  # the dog is no child
        ("I have a son and a daughter-in-law.", {"a son"}),
        ("I don't have a son and a daughter.", set()),
    ],
)
def test_each_kind_of_child_in_a_list_is_one(text: str, expected: set[str]) -> None:
    """"I have a son and a daughter" made "a son" alone, and "I've got …" nothing."""
    assert {value for _, value, _, _ in facts(text, attribute="children")} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a brother and a sister.", {"a brother", "a sister"}),
        ("I have two brothers and a sister.", {"two brothers", "a sister"}),
        ("I have a sister and two brothers.", {"a sister", "two brothers"}),
        ("I've got an older brother.", {"a brother"}),
        ("I have a little sister who lives in Rome.", {"a sister"}),
        ("I have a brother and a sister named Eva.", {"a brother", "Eva"}),
        ("I have a sister named Eva.", {"Eva"}),  # by name only
        ("I have a sister company in Oslo.", set()),
        ("I have a brother-in-law.", set()),
        ("I don't have a brother.", set()),
    ],
)
def test_a_sibling_said_by_kind_alone_or_in_a_list_is_one(text: str, expected: set[str]) -> None:
    """"I have a brother and a sister" made no sibling: one unnamed sibling was read in no form,
    and a list only where each was named."""
    assert {value for _, value, _, _ in facts(text, attribute="siblings")} == expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We got a parrot last week, his name is Kiwi.", "Kiwi"),
        ("I got a puppy from the local shelter, her name is Coco.", "Coco"),
        ("We rescued a dog two weeks ago and named him Rex.", "Rex"),
        ("We adopted a cat yesterday. His name is Kiwi.", "Kiwi"),
        ("We got a parrot last week, Tom named his son Kiwi.", None),
        ("We got a parrot on Saturday, my sister's name is Eva.", None),
    ],
)
def test_a_new_pet_named_after_when_or_where_it_came_has_that_name(text: str, name: str | None) -> None:
    """The name was read only right after the pet: "a parrot last week, his name is Kiwi" was a
    parrot with no name."""
    values = {value for _, value, _, _ in facts(text, attribute="pets")}
    assert values == ({name} if name else {"parrot"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm going through a divorce.", {("plans", "get divorced", "positive", "planned")}),
        ("We're in the middle of a messy divorce.", {("plans", "get divorced", "positive", "planned")}),
        ("We're divorcing.", {("plans", "get divorced", "positive", "planned")}),
        ("My wife Eva and I are getting divorced.", {("plans", "get divorced", "positive", "planned"),
                                                     ("relationship_status", "married", "positive", "asserted")}),
        # one divorcing is still married: no status of divorced, nor a partner ended
        ("I'm not going through a divorce.", set()),
    ],
)
def test_a_divorce_under_way_is_a_plan_and_leaves_the_marriage(text: str, expected: set[Fact]) -> None:
    """"I'm going through a divorce" made nothing, as "I'm getting divorced" made the plan."""
    assert {f for f in facts(text) if f[0] in {"plans", "relationship_status", "partner"}} == expected


@pytest.mark.parametrize(
    ("text", "ex"),
    [
        ("I'm divorced from Eva.", "Eva"),
        ("I'm separated from Tobias now.", "Tobias"),
        ("I've been divorced from Eva for two years.", "Eva"),
        ("I'm divorced from reality.", None),
        ("I'm not divorced from Eva.", None),
    ],
)
def test_divorced_from_a_named_spouse_ends_that_partner(text: str, ex: str | None) -> None:
    """"I'm divorced from Eva" made the status alone: "Who is Ana's wife?" still answered Eva."""
    expected = {("partner", ex, "negative", "asserted")} if ex else set()
    assert facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My wife is Eva.", {("partner", "Eva", "positive", "asserted")}),
        ("My husband is Tobias.", {("partner", "Tobias", "positive", "asserted")}),
        ("My girlfriend is Eva, she's a nurse.", {("partner", "Eva", "positive", "asserted")}),
        ("My sister is Lucia.", {("siblings", "Lucia", "positive", "asserted")}),
        ("My brother is Tobias and he lives in Rome.", {("siblings", "Tobias", "positive", "asserted")}),
        # what someone is, not who: no name
        ("My wife is Italian.", set()),
        ("My husband is Catholic.", set()),
        ("My dad is Irish.", set()),
        ("My sister is Canadian.", set()),
        ("My wife is Vietnamese.", set()),
        ("My sister is Lucia's age.", set()),
        ("My husband is Tom Smith.", set()),
    ],
)
def test_a_partner_or_relative_said_to_be_a_name_is_that_person(text: str, expected: set[Fact]) -> None:
    """"My wife is Eva." named no partner ("my wife Eva" and "my wife is called Eva" did), so
    "Who is Ana's wife?" claimed nothing."""
    assert {f for f in facts(text) if f[0] in {"partner", "siblings", "parents"}} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We had a baby boy last week, Leo.", "Leo"),
        ("We had a baby girl on Monday, her name is Ada.", "Ada"),
        ("We had a baby girl last week.", "baby girl"),
        ("We had a baby boy last week, Leo's brother.", "baby boy"),
    ],
)
def test_a_baby_named_after_when_it_came_is_that_child(text: str, expected: str) -> None:
    assert {value for _, value, _, _ in facts(text, attribute="children")} == {expected}


@pytest.mark.parametrize(
    ("text", "name"),
    [("We got a second cat last week, Miso.", "Miso"), ("We adopted a kitten on Saturday, we named her Miso.", "Miso")],
)
def test_a_pet_named_alone_after_when_it_came_is_that_pet(text: str, name: str) -> None:
    assert {value for _, value, _, _ in facts(text, attribute="pets")} == {name}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tobias is my husband.", ("partner", "Tobias")),
        ("Tobias is my boyfriend, he's a chef.", ("partner", "Tobias")),
        ("Tobias is now my fiancé.", ("partner", "Tobias")),
        ("Lucia is my sister.", ("siblings", "Lucia")),
        ("Lucia is my mom!", ("parents", "Lucia")),
        ("Tobias is my son!", ("children", "Tobias")),
        ("Lucia, our daughter, starts school soon.", ("children", "Lucia")),
    ],
)
def test_a_person_named_before_who_they_are_to_the_speaker(text: str, expected: tuple[str, str]) -> None:
    """"Tobias is my husband." names the partner as "my husband is Tobias" does (Tobias a
    person Level 0 knows)."""
    assert (*expected, "positive", "asserted") in facts(text)


@pytest.mark.parametrize(
    "text", ["Here is my boyfriend!", "Sunday is my husband's day off.", "Tobias is my husband's brother."]
)
def test_a_word_that_points_or_a_clause_that_goes_on_names_no_partner(text: str) -> None:
    assert not facts(text, attribute="partner") and not facts(text, attribute="siblings")


def test_a_child_named_before_who_they_are_is_that_child_not_another() -> None:
    """"Tobias is my son" is one son, Tobias: not also a son besides him."""
    assert {f[1] for f in facts("Tobias is my son!", attribute="children")} == {"Tobias"}


def test_a_partner_one_is_separating_from_is_the_partner_no_longer() -> None:
    assert ("partner", "Tobias", "negative", "asserted") in facts("Tobias and I are separating.")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("I got a puppy, a golden retriever named Sunny.", {"Sunny"}),
        ("We adopted a cat, a tabby called Milo.", {"Milo"}),
        ("We have two dogs, a beagle named Rex and a pug named Moo.", {"Rex", "Moo"}),
        ("I got a puppy, a friend named Sunny helped.", {"dog"}),  # a friend is no breed
    ],
)
def test_a_pet_named_after_its_breed_between_commas(text: str, names: set[str]) -> None:
    assert {f[1] for f in facts(text, attribute="pets")} == names


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the verb says what "got divorced" says: divorced, and the one divorced the partner no longer
        ("Lucia and I divorced last year.", {("relationship_status", "divorced", "positive", "asserted"),
                                             ("partner", "Lucia", "negative", "asserted")}),
        ("I divorced Lucia in 2019.", {("relationship_status", "divorced", "positive", "asserted"),
                                       ("partner", "Lucia", "negative", "asserted")}),
        ("We divorced two years ago.", {("relationship_status", "divorced", "positive", "asserted")}),
        ("I divorced him, and I'm happier now.", {("relationship_status", "divorced", "positive", "asserted")}),
        # no status: a figure of speech, an object that is no spouse
        ("I divorced myself from social media.", set()),
        ("They divorced the two issues.", set()),
        # dating someone named, for a while or from a time
        ("I've been seeing Tobias for a few months.", {("partner", "Tobias", "positive", "asserted"),
                                                       ("relationship_status", "in a relationship", "positive",
                                                        "asserted")}),
        ("I started seeing Tobias in March.", {("partner", "Tobias", "positive", "asserted"),
                                               ("relationship_status", "in a relationship", "positive", "asserted")}),
        # no length, a place and a habit, a doctor
        ("I've been seeing Tobias a lot lately.", set()),
        ("I started seeing Tobias at the gym on Mondays.", set()),
        ("I've been seeing Dr. Patel for my back.", set()),
        ("I've been seeing a therapist for years.", set()),
    ],
)  # fmt: skip
def test_a_divorce_and_a_partner_said_with_the_verb(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="relationship_status") | facts(text, attribute="partner") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I don't have the dog anymore.", {("pets", "dog", "negative", "asserted")}),
        ("We no longer have our cat.", {("pets", "cat", "negative", "asserted")}),
        ("I don't have my puppy any more.", {("pets", "dog", "negative", "asserted")}),
        ("Tobias doesn't have the rabbit anymore.", {("pets", "rabbit", "negative", "asserted")}),
        ("I don't have a dog.", set()),  # may never have had one: nothing ended
        ("I don't have the dog walker anymore.", set()),
        ("I might not have the dog anymore.", set()),
    ],
)  # fmt: skip
def test_a_pet_no_longer_had_is_negative(text: str, expected: set[Fact]) -> None:
    # The bare no to "Do you still have the dog?" is read as the first of these.
    assert facts(text, attribute="pets") == expected


@pytest.mark.parametrize(
    ("text", "health", "pets"),
    [
        ("I have a cat allergy.", {("health", "cat allergy", "positive", "asserted")}, set()),
        ("I've got a bad peanut allergy.", {("health", "peanut allergy", "positive", "asserted")}, set()),
        ("Tobias has a dog allergy.", {("health", "dog allergy", "positive", "asserted")}, set()),
        ("I have a lot of allergies.", set(), set()),
        ("I have seasonal allergies.", set(), set()),
        ("I don't have a cat allergy.", set(), set()),
        ("I have a cat.", set(), {("pets", "cat", "positive", "asserted")}),
    ],
)  # fmt: skip
def test_a_pet_word_before_an_allergy_says_what_the_allergy_is_of(text: str, health: set[Fact], pets: set[Fact]) -> None:
    # "I have a cat allergy" made a pet cat, and no condition.
    assert facts(text, attribute="health") == health
    assert facts(text, attribute="pets") == pets


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a cat named Miso and a dog allergy.",
         {("pets", "Miso", "positive", "asserted"), ("health", "dog allergy", "positive", "asserted")}),
        ("I have a dog allergy and a cat named Miso.",
         {("pets", "Miso", "positive", "asserted"), ("health", "dog allergy", "positive", "asserted")}),
        ("I have a dog and a cat allergy.",
         {("pets", "dog", "positive", "asserted"), ("health", "cat allergy", "positive", "asserted")}),
        ("We have two kids, a dog and a parrot.", {("pets", "dog", "positive", "asserted"),
                                                 ("pets", "parrot", "positive", "asserted")}),
        ("I have asthma and a dog named Rex.",
         {("pets", "Rex", "positive", "asserted"), ("health", "asthma", "positive", "asserted")}),
        ("I have two kids, a husband and a severe shellfish allergy.", {("health", "shellfish allergy", "positive", "asserted")}),
        ("I have a dog walker.", set()),
        ("I have a question, a dog walker asked me.", set()),
        ("I have to say, a dog is great company.", set()),
        ("I have no idea, a cat allergy maybe.", set()),
        ("I don't have a job and a dog.", set()),
        ("I have always wanted a dog and a cat.", set()),  # no list of what one has
        ("I have a brother who has a dog and a cat.", set()),  # the brother's
    ],
)  # fmt: skip
def test_each_member_of_a_list_of_what_one_has_is_read_by_its_kind(text: str, expected: set[Fact]) -> None:
    """A kind right before "allergy" is the allergy's wherever it stands in the list; the others
    are pets, wherever they stand (``eywa.extraction.rules.lists``)."""
    assert {f for f in facts(text) if f[0] in {"pets", "health"}} == expected
