"""Hobbies, likes and dislikes, diet, education, health and possessions: positive, negated,
hedged and change forms side by side. The same fact said three ways is one value, and no
value carries a negation ("I don't eat meat" is diet "meat", negative).
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from tests.unit.rules_support import Fact, facts, statements, turn


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I play volleyball twice a week now.", {("hobbies", "volleyball", "positive", "asserted")}),
        ("I joined a volleyball club in September.", {("hobbies", "volleyball", "positive", "asserted")}),
        ("I stopped playing volleyball.", {("hobbies", "volleyball", "negative", "asserted")}),
        ("I don't play volleyball anymore.", {("hobbies", "volleyball", "negative", "asserted")}),
        ("I quit pottery.", {("hobbies", "pottery", "negative", "asserted")}),
        ("I took up pottery this year.", {("hobbies", "pottery", "positive", "asserted")}),  # a time after it
        ("I've taken up the cello.", {("hobbies", "cello", "positive", "asserted")}),
        ("Melinda has taken up golf.", {("hobbies", "golf", "positive", "asserted")}),
        ("I've taken up too much of your time.", set()),
        ("I run half marathons for charity.", {("hobbies", "running", "positive", "asserted")}),
        ("I swim laps before work.", {("hobbies", "swimming", "positive", "asserted")}),
        ("I run a small bakery.", set()),
        ("I started painting this fence.", set()),  # a verb with its object
        ("Took up climbing this summer, obsessed.", {("hobbies", "climbing", "positive", "asserted")}),  # dropped "I"
        ("I signed up for a knitting class yesterday.", {("hobbies", "knitting", "positive", "asserted")}),
        ("I might take up pottery.", set()),
        ("I go hiking every weekend.", {("hobbies", "hiking", "positive", "asserted")}),
        ("I'm an avid hiker.", {("hobbies", "hiking", "positive", "asserted")}),
        ("Painting is my passion.", {("hobbies", "painting", "positive", "asserted")}),
        ("I love painting landscapes.", {("hobbies", "painting", "positive", "asserted")}),
        ("I'm learning to play the guitar.", {("hobbies", "guitar", "positive", "asserted")}),
        ("When I was a kid I played the violin.", set()),
        ("I love it!", set()),
    ],
)
def test_hobby_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="hobbies") == expected


def test_one_pastime_said_three_ways_is_one_value() -> None:
    said = ["I play volleyball on Tuesdays.", "I joined a volleyball club.", "I love playing volleyball."]
    assert {v for text in said for (_, v, _, _) in facts(text, attribute="hobbies")} == {"volleyball"}


def test_hobby_statements_keep_the_verb_that_was_said() -> None:
    assert statements("I stopped playing volleyball.") >= {"Cecilia stopped playing volleyball."}
    assert statements("I quit climbing.") >= {"Cecilia quit climbing."}
    assert statements("I'm really into pottery.") == {"Cecilia is really into pottery."}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I hate traffic.", {("dislikes", "traffic", "positive", "asserted")}),
        ("I don't like crowds.", {("likes", "crowds", "negative", "asserted")}),
        ("I love vegan ice cream.", {("likes", "vegan ice cream", "positive", "asserted")}),
        ("My favourite food is lasagna.", {("likes", "lasagna", "positive", "asserted")}),
        ("I'm a huge fan of the Beatles.", {("likes", "Beatles", "positive", "asserted")}),
        # When one is into it is not part of what one is into.
        ("I'm a massive fan of jazz these days.", {("likes", "jazz", "positive", "asserted")}),
        ("I'm into old films right now.", {("likes", "old films", "positive", "asserted")}),
        ("I love you guys.", set()),
        ("I love Melinda.", set()),  # a person recognised by Level 0 is not a taste
    ],
)
def test_likes_and_dislikes(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="likes") | facts(text, attribute="dislikes") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm vegetarian.", {("diet", "vegetarian", "positive", "asserted"), ("diet", "fish", "negative", "asserted")}),
        ("I'm pescatarian.", {("diet", "pescatarian", "positive", "asserted"), ("diet", "fish", "positive", "asserted")}),
        ("I'm not vegetarian.", {("diet", "vegetarian", "negative", "asserted")}),
        ("I went vegan at the start of the month.", {("diet", "vegan", "positive", "asserted"),
                                                     ("diet", "fish", "negative", "asserted"),
                                                     ("diet", "meat", "negative", "asserted")}),
        ("I don't eat meat anymore.", {("diet", "meat", "negative", "asserted")}),
        ("I stopped eating meat in January.", {("diet", "meat", "negative", "asserted")}),
        ("I haven't eaten meat in four weeks.", {("diet", "meat", "negative", "asserted")}),
        ("I'm not vegan anymore.", {("diet", "vegan", "negative", "asserted")}),
        ("I eat fish again.", {("diet", "fish", "positive", "asserted")}),
        ("I might go vegan.", set()),
        ("I made a vegan cake.", set()),
        # Drinks given up, and sobriety: no coffee, no alcohol.
        ("I gave up coffee.", {("diet", "coffee", "negative", "asserted")}),
        ("I stopped drinking coffee last month.", {("diet", "coffee", "negative", "asserted")}),
        ("I stopped drinking alcohol.", {("diet", "alcohol", "negative", "asserted")}),
        ("I've been sober for two years.", {("diet", "alcohol", "negative", "asserted")}),
        ("I'm sober now.", {("diet", "alcohol", "negative", "asserted")}),
        ("I've been sober.", set()),  # once, not now
        ("I was sober enough to drive.", set()),
    ],
)
def test_diet_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="diet") == expected


def test_no_meat_said_three_ways_is_one_value_with_negative_polarity() -> None:
    said = ["I don't eat meat.", "I stopped eating meat in January.", "I haven't eaten meat in weeks."]
    assert {f for text in said for f in facts(text, attribute="diet")} == {("diet", "meat", "negative", "asserted")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I enrolled in a part-time master's in urban planning at Halloway University.",
            {("education", "urban planning", "positive", "asserted"),
             ("education", "Halloway University", "positive", "asserted")},
        ),
        ("I graduated from Ferrow College in January.", {("education", "Ferrow College", "positive", "asserted")}),
        ("I'm finally done with my nursing degree.", {("education", "nursing", "positive", "asserted")}),
        ("I dropped out of college.", {("education", "college", "negative", "asserted")}),
        ("I'm learning German.", {("education", "German", "positive", "asserted")}),
        ("I'm in my second year at Leeds Uni.", {("education", "Leeds Uni", "positive", "asserted")}),
        ("I'm in my first year at Initech.", set()),  # a school by its name only: this may be a job
        ("I might do a PhD.", set()),
    ],
)
def test_education_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="education") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to cats.", {("health", "cats allergy", "positive", "asserted")}),
        ("I was diagnosed with asthma last year.", {("health", "asthma", "positive", "asserted")}),
        ("I broke my wrist last week.", {("health", "broken wrist", "positive", "asserted")}),
        ("I hurt my knee playing football.", {("health", "knee injury", "positive", "asserted")}),
        ("I've recovered from my knee injury.", {("health", "knee injury", "negative", "asserted")}),
        ("I'm not allergic to anything.", set()),
        # a diagnosis or a condition from long ago is still had; an acronym is the condition
        ("I was diagnosed with asthma as a kid.", {("health", "asthma", "positive", "asserted")}),
        ("I was diagnosed with PTSD.", {("health", "ptsd", "positive", "asserted")}),
        ("I have ADHD.", {("health", "adhd", "positive", "asserted")}),
        ("I've had asthma since I was a kid.", {("health", "asthma", "positive", "asserted")}),
        ("I've had anxiety all my life.", {("health", "anxiety", "positive", "asserted")}),
        ("I've had the flu twice this winter.", set()),  # had and gone
        ("I haven't had migraines for years.", set()),
        ("Maybe I've had asthma for years.", set()),
        # a condition by its adjective: the condition of the lexicon it is a form of
        ("I'm diabetic.", {("health", "diabetes", "positive", "asserted")}),
        ("I'm asthmatic and I run anyway.", {("health", "asthma", "positive", "asserted")}),
        ("I'm a type 1 diabetic.", {("health", "diabetes", "positive", "asserted")}),
        ("I'm celiac.", {("health", "celiac disease", "positive", "asserted")}),
        ("I'm not diabetic.", set()),
        ("I'm a diabetic nurse.", set()),  # a job, not a condition of the speaker
        ("I'm so ecstatic!", set()),
        ("I'm depressed about the game.", set()),  # a mood's adjective, not a condition's
    ],
)
def test_health_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="health") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I just bought a new car.", {("possessions", "car", "positive", "asserted")}),
        ("I have a laptop.", {("possessions", "laptop", "positive", "asserted")}),
        ("I don't have a car.", set()),
        # a car sold by its make, as "I drive a Honda" has it (not the make's shares)
        ("I sold my Honda.", {("possessions", "Honda", "negative", "asserted")}),
        ("I sold my old Volvo last month.", {("possessions", "Volvo", "negative", "asserted")}),
        ("I sold my Honda shares.", set()),
        # the car or the house sold said with "the" ("we sold the Tesla" once left it held)
        ("We sold the Tesla and got a Subaru.", {("possessions", "Tesla", "negative", "asserted"),
                                                 ("possessions", "Subaru", "positive", "asserted")}),
        ("We sold the house last year.", {("possessions", "house", "negative", "asserted")}),
        ("I sold the car to my neighbour.", {("possessions", "car", "negative", "asserted")}),
        ("We got rid of the boat.", {("possessions", "boat", "negative", "asserted")}),
        ("I sold the Tesla stock.", set()),
        ("I sold the idea to my boss.", set()),
        # a car got in a trade ("I traded in my Toyota for a Tesla"), as one bought; the one
        # traded in is no cessation the validator reads, so it is not ended
        ("I traded in my Toyota for a Tesla.", {("possessions", "Tesla", "positive", "asserted")}),
        ("We swapped the car for a Volvo.", {("possessions", "Volvo", "positive", "asserted")}),
        ("I traded my guitar for a Tesla poster.", set()),
        ("I didn't trade in my Toyota for a Tesla.", set()),
        # the "I" dropped, as chat drops it
        ("Just bought a Toyota!", {("possessions", "Toyota", "positive", "asserted")}),
        ("Sold my Honda last week.", {("possessions", "Honda", "negative", "asserted")}),
    ],
)
def test_possession_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="possessions") == expected


def test_an_adverb_between_the_subject_and_have_does_not_hide_a_condition() -> None:
    assert ("health", "asthma", "positive", "asserted") in facts("I also have asthma.", attribute="health")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I study at Leeds University.", {("education", "Leeds University", "positive", "asserted")}),
        ("Melinda goes to Hillview Academy.", {("education", "Hillview Academy", "positive", "asserted")}),
        ("My daughter attends Oak School.", {("education", "Oak School", "positive", "asserted")}),
        ("Melinda goes to Starbucks every day.", set()),  # no school named as one
    ],
)
def test_a_school_attended_is_education(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="education") == expected


def test_a_child_starting_at_a_school_starts_school_not_a_job() -> None:
    """"My son Leo started at Hillview Academy this fall" made Hillview Academy Leo's employer."""
    text = "My son Leo started at Hillview Academy this fall."
    assert facts(text, attribute="education") == {("education", "Hillview Academy", "positive", "asserted")}
    assert facts(text, attribute="employer") == set()
    # The speaker's own start there may be a teacher's: an employer, as before.
    assert facts("I started at Hillview Academy this fall.", attribute="employer") == {
        ("employer", "Hillview Academy", "positive", "asserted")
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm studying at Leeds University.", {("education", "Leeds University", "positive", "asserted")}),
        ("I'm a sophomore at Leeds University.", {("education", "Leeds University", "positive", "asserted")}),
        ("I'm a first-year at Leeds University.", {("education", "Leeds University", "positive", "asserted")}),
        # A school's name shortened to its last word but one ("… High School" → "… High").
        ("I'm a junior at Oakwood High.", {("education", "Oakwood High", "positive", "asserted")}),
        ("I'm a student at Riverside Middle.", {("education", "Riverside Middle", "positive", "asserted")}),
        ("I graduated from Oakwood High last year.", {("education", "Oakwood High", "positive", "asserted")}),
        ("I'm a senior at Globex.", set()),  # no school by its name: a job's seniority
        # where, when or how one studies is no field of study
        ("I'm studying at the library.", set()),
        ("I'm studying at home tonight.", set()),
        ("I'm studying hard for exams.", set()),
        ("I'm studying for my finals.", set()),
        ("I'm studying tonight.", set()),
        ("I study computer science.", {("education", "computer science", "positive", "asserted")}),
    ],
)
def test_studying_at_a_school_and_not_at_the_library(text: str, expected: set[Fact]) -> None:
    """"I'm studying at Leeds University" and "a sophomore at …" were read as nothing, while
    "I'm studying at the library" made the education "at the library" (and "studying tonight",
    "tonight")."""
    assert facts(text, attribute="education") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We welcomed our son Leo last month.", {("children", "Leo", "positive", "asserted")}),
        ("We had a baby girl, Mia.", {("children", "Mia", "positive", "asserted")}),
        ("We had a baby girl Monday.", {("children", "baby girl", "positive", "asserted")}),
    ],
)
def test_a_child_named_right_after_the_birth_is_one_child(text: str, expected: set[Fact]) -> None:
    """"We welcomed our son Leo" made two children, "son" and "Leo"; "a baby girl, Mia" one
    unnamed "baby girl"."""
    assert facts(text, attribute="children") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I enjoy running my own café.", set()),
        ("I love running a business.", set()),
        ("I love running a marathon.", {("hobbies", "running", "positive", "asserted")}),
        ("I love running the occasional half marathon.", {("hobbies", "running", "positive", "asserted")}),
        ("I love running in the rain.", {("hobbies", "running", "positive", "asserted")}),
    ],
)
def test_running_a_business_is_no_running(text: str, expected: set[Fact]) -> None:
    """"I enjoy running my own café" made the hobby running."""
    assert facts(text, attribute="hobbies") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've been smoke-free for three months.", {("habits", "smoking", "negative", "asserted")}),
        ("I'm vape-free!", {("habits", "vaping", "negative", "asserted")}),
        ("The restaurant is smoke-free.", set()),
        ("I've been smoke-free.", set()),  # once, not now
    ],
)
def test_smoke_free_is_no_smoking_now(text: str, expected: set[Fact]) -> None:
    """"I've been smoke-free for three months" was read as nothing: "Does she smoke?" kept yes."""
    assert facts(text, attribute="habits") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I started smoking again, work has been rough.", {("habits", "smoking", "positive", "asserted")}),
        ("I've started smoking again.", {("habits", "smoking", "positive", "asserted")}),
        ("I'm smoking again.", {("habits", "smoking", "positive", "asserted")}),
        ("I picked up vaping again.", {("habits", "vaping", "positive", "asserted")}),
        ("I'm back on cigarettes.", {("habits", "smoking", "positive", "asserted")}),
        ("I'm back to smoking, sadly.", {("habits", "smoking", "positive", "asserted")}),
        ("I never started smoking again.", set()),
        ("I'm not smoking again, I promise.", set()),
        ("I might start smoking again.", set()),
        ("If I started smoking again, my husband would be furious.", set()),
        ("I'm back to smoking salmon this weekend.", set()),  # food
    ],
)
def test_a_habit_taken_up_again_is_the_habit(text: str, expected: set[Fact]) -> None:
    """"I started smoking again" was read as nothing: after "I quit smoking", "Does she smoke?"
    kept "not smoking"."""
    assert facts(text, attribute="habits") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My daughter Mia is 5.", {("age", "5", "positive", "asserted")}),
        ("My son is 5.", {("age", "5", "positive", "asserted")}),
        ("I'm 5.", set()),  # alone, minutes away as often as years old
        ("My daughter is 5 minutes away.", set()),
        ("My son Leo started college at MIT.", {("education", "MIT", "positive", "asserted")}),
        ("I began grad school at Leeds University last year.", {("education", "Leeds University", "positive", "asserted")}),
        ("I'm starting college at MIT in the fall.", set()),  # still ahead
    ],
)
def test_a_childs_small_age_and_a_school_started(text: str, expected: set[Fact]) -> None:
    """"My daughter Mia is 5" made no age (a bare number under 13 was never one) and "my son Leo
    started college at MIT" no school."""
    assert facts(text, attribute="age") | facts(text, attribute="education") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm 38, turning 39 in August.", [("38", None), ("39", datetime(2023, 8, 1, tzinfo=timezone.utc))]),
        ("I'm turning 39 in August.", [("39", datetime(2023, 8, 1, tzinfo=timezone.utc))]),
        ("I turn 40 next month.", [("40", datetime(2023, 6, 1, tzinfo=timezone.utc))]),
        ("I'll be 40 in June.", [("40", datetime(2023, 6, 1, tzinfo=timezone.utc))]),
        ("I'm turning 39 soon.", []),  # when, it does not say
        ("We're turning the page in June.", []),
        ("Tobias is 38, turning 39 in August.", [("38", None), ("39", datetime(2023, 8, 1, tzinfo=timezone.utc))]),
    ],
)
def test_a_birthday_said_ahead_is_the_age_from_then(text: str, expected: list[tuple[str, datetime | None]]) -> None:
    """"I'm 38, turning 39 in August" made only 38, which stayed the age after August."""
    ev = turn(text)
    accepted = [
        f for f in RuleExtractor().propose("home", [ev])
        if f.attribute == "age" and Validator().validate("home", f, {ev.id: ev}).accepted
    ]  # fmt: skip
    assert sorted((f.value or "", f.valid_from) for f in accepted) == expected
    assert {f.subject for f in accepted} <= {text.split()[0] if text.startswith("Tobias") else "Cecilia"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I run every morning.", {("hobbies", "running", "positive", "asserted")}),
        ("I jog every day.", {("hobbies", "jogging", "positive", "asserted")}),
        ("I ski every winter.", {("hobbies", "skiing", "positive", "asserted")}),
        ("I run a business every day.", set()),
    ],
)
def test_a_short_pastime_verb_said_of_a_routine_is_the_pastime(text: str, expected: set[Fact]) -> None:
    """"I run every morning" was proposed and refused: "run" shares no stem with "running",
    so the validator found no support (the registry's implied surfaces now hold such verbs)."""
    assert facts(text, attribute="hobbies") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I enrolled at Oakwood College.", {("education", "Oakwood College", "positive", "asserted")}),
        ("I've enrolled in Ferrow University.", {("education", "Ferrow University", "positive", "asserted")}),
        ("I never enrolled at Oakwood College.", set()),
        ("I enrolled in a pottery class.", set()),
    ],
)
def test_a_school_enrolled_at_is_education(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="education") == expected


@pytest.mark.parametrize(
    ("text", "pastime"),
    [
        ("I'm learning to knit.", "knitting"),
        ("I've been learning how to paint.", "painting"),
        ("I'm training for a marathon.", "marathons"),
        ("I'm training for my first half marathon.", "marathons"),
        ("I'm training for my first triathlon.", "triathlons"),
    ],
)
def test_learning_or_training_for_a_pastime_is_the_pastime(text: str, pastime: str) -> None:
    assert facts(text, attribute="hobbies") == {("hobbies", pastime, "positive", "asserted")}


@pytest.mark.parametrize(
    "text", ["I'm training for the job.", "I'm not training for a marathon.", "I'm learning to cook it."]
)
def test_training_for_something_else_or_denied_is_no_pastime(text: str) -> None:
    assert {f for f in facts(text, attribute="hobbies") if f[2] == "positive"} == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The value is read where its own word is: "fish" in the first clause, not through the
        # "not vegetarian" of the second (a longer surface of fish, eaten), which refused it.
        ("I started eating fish again, so I'm not vegetarian anymore.",
         {("diet", "fish", "positive", "asserted"), ("diet", "vegetarian", "negative", "asserted")}),
        ("I gave up being vegetarian.", {("diet", "vegetarian", "negative", "asserted")}),
        ("I quit being vegan last month.", {("diet", "vegan", "negative", "asserted")}),
        ("I didn't give up being vegan.", set()),
        # The state ended said first, its "I'm" dropped: the speaker's, and the clause after it
        # is no longer read as negated (both made nothing).
        ("Not vegetarian anymore, I started eating fish again.",
         {("diet", "fish", "positive", "asserted"), ("diet", "vegetarian", "negative", "asserted")}),
        ("No longer vegan, I eat cheese again.",
         {("diet", "cheese", "positive", "asserted"), ("diet", "vegan", "negative", "asserted")}),
        ("Not a vegetarian anymore, I eat fish again.",
         {("diet", "fish", "positive", "asserted"), ("diet", "vegetarian", "negative", "asserted")}),
        # Alone, whose state it is the turn does not say (a reply about someone else may be).
        ("Not vegetarian anymore.", set()),
        ("Not sure, I think I'm vegan.", set()),
    ],
)
def test_a_diet_given_up_ends_the_label(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="diet") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I haven't smoked in six months.", {("habits", "smoking", "negative", "asserted")}),
        ("I haven't had a cigarette since May.", {("habits", "smoking", "negative", "asserted")}),
        ("I've not vaped for a year.", {("habits", "vaping", "negative", "asserted")}),
        ("I haven't smoked in a while.", set()),  # says nothing of now
        ("I haven't smoked salmon in years.", set()),
    ],
)
def test_not_smoking_for_a_time_is_no_smoking_now(text: str, expected: set[Fact]) -> None:
    """"I haven't smoked in six months" made nothing: "Does Ana smoke?" still answered yes."""
    assert facts(text, attribute="habits") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm on a keto diet now.", {("diet", "keto", "positive", "asserted")}),
        ("I'm on the paleo diet.", {("diet", "paleo", "positive", "asserted")}),
        ("I'm on a keto diet for a week.", set()),  # a trial
        ("I'm not on a keto diet.", {("diet", "keto", "negative", "asserted")}),  # said of now: not keto
        ("I'm on a diet.", set()),  # which, it does not say
    ],
)
def test_on_a_named_diet_is_that_diet(text: str, expected: set[Fact]) -> None:
    """"I'm on a keto diet now" made nothing, as "I'm keto now" made keto."""
    assert facts(text, attribute="diet") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've started drinking again.", {("diet", "alcohol", "positive", "asserted")}),
        ("I'm drinking wine again.", {("diet", "alcohol", "positive", "asserted")}),
        ("I'm not drinking again.", set()),
        ("I started drinking water again.", set()),
    ],
)
def test_drinking_again_is_alcohol_back_in_the_diet(text: str, expected: set[Fact]) -> None:
    """"I've started drinking again" made nothing: "Does Ana drink?" kept "not alcohol"."""
    assert facts(text, attribute="diet") == expected
