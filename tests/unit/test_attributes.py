"""The attribute registry: canonical values, synonyms, τ sources and question-word lookup."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.attributes import (
    ATTRIBUTES,
    DEFAULT_TAU_SOURCE,
    attributes_for_words,
    canonical_fact,
    canonical_name,
    canonical_value,
    get_attribute,
    tau_from_annual_rate,
    tau_from_median_years,
    value_surfaces,
)
from eywa.models import CandidateFact

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize(
    ("attribute", "value", "polarity", "expected"),
    [
        # negation inside a value moves to the polarity
        ("diet", "no meat", "positive", ("meat", "negative")),
        ("diet", "no meat", "negative", ("meat", "positive")),  # the double negative, read literally
        ("diet", "doesn't eat meat", "positive", ("meat", "negative")),
        ("diet", "without meat", "positive", ("meat", "negative")),
        ("diet", "meat-free", "positive", ("meat", "negative")),
        ("diet", "gluten free", "positive", ("gluten", "negative")),
        # synonyms, with their polarity
        ("diet", "Vegetarian", "positive", ("meat", "negative")),
        ("diet", "not vegetarian", "positive", ("meat", "positive")),
        ("diet", "non-vegetarian", "positive", ("meat", "positive")),
        ("diet", "vegan", "positive", ("animal products", "negative")),
        ("diet", "teetotal", "positive", ("alcohol", "negative")),
        ("dietary_preference", "eating meat", "positive", ("meat", "positive")),
        # cessation inside a value is an ended (negative) value
        ("hobbies", "quit pottery", "positive", ("pottery", "negative")),
        ("hobbies", "used to play the guitar", "positive", ("guitar", "negative")),
        ("partner", "my ex-husband Tom", "positive", ("Tom", "negative")),
        ("relationship_status", "Not married", "positive", ("married", "negative")),
        ("relationship_status", "unmarried", "positive", ("married", "negative")),
        # only values that are states end: an event keeps its words
        ("life_events", "quit my job", "positive", ("quit my job", "positive")),
        ("favourite_team", "former champions", "positive", ("former champions", "positive")),
        ("life_events", "not invited", "positive", ("invited", "negative")),
        # spelling: articles, possessives, leading words, case, punctuation
        ("hobbies", "  Playing the Guitar. ", "positive", ("guitar", "positive")),
        ("employer", "at Google", "positive", ("Google", "positive")),
        ("residence", "in New York City", "positive", ("New York City", "positive")),
        ("occupation", "a Software Engineer", "positive", ("software engineer", "positive")),
        ("occupation", "CEO", "positive", ("CEO", "positive")),
        ("pets", "my dogs", "positive", ("dog", "positive")),
        # names are left alone: a capitalised "Not" or "Work" starts a name
        ("employer", "Not Your Average Co", "positive", ("Not Your Average Co", "positive")),
        ("employer", "Work & Co", "positive", ("Work & Co", "positive")),
        ("likes", "Never Let Me Go", "positive", ("Never Let Me Go", "positive")),
        ("likes", "non-fiction books", "positive", ("non-fiction books", "positive")),
        ("likes", "Not spicy food", "positive", ("spicy food", "negative")),
        ("diet", "no", "positive", ("no", "positive")),
    ],
)
def test_canonical_values(attribute: str, value: str, polarity: str, expected: tuple[str, str]) -> None:
    assert canonical_value(attribute, value, polarity) == expected  # type: ignore[arg-type]


_PREFIXES = st.sampled_from(["", "no ", "Not ", "never ", "ex-", "quit ", "the ", "My ", "non-", "used to ", "Playing "])
_WORDS = st.sampled_from(["meat", "pottery", "Google", "guitar", "vegetarian", "New York", "married", "dog"])


@given(st.sampled_from(sorted(ATTRIBUTES)), st.lists(_PREFIXES, max_size=3), _WORDS,
       st.sampled_from(["positive", "negative"]))  # fmt: skip
def test_canonical_value_is_idempotent_and_never_empties_a_value(
    attribute: str, prefixes: list[str], word: str, polarity: str
) -> None:
    once = canonical_value(attribute, "".join(prefixes) + word, polarity)  # type: ignore[arg-type]
    assert once[0].strip()
    assert canonical_value(attribute, *once) == once


def test_the_same_fact_said_three_ways_is_one_value() -> None:
    said = [("no meat", "positive"), ("vegetarian", "positive"), ("meat", "negative")]
    assert {canonical_value("diet", v, p) for v, p in said} == {("meat", "negative")}  # type: ignore[arg-type]


def test_every_synonym_is_canonical_and_a_surface_of_its_value() -> None:
    for spec in ATTRIBUTES.values():
        for synonym in spec.synonyms:
            assert canonical_value(spec.name, synonym.surface) == (synonym.value, synonym.polarity)
            assert canonical_value(spec.name, synonym.value, synonym.polarity) == (synonym.value, synonym.polarity)
            assert (synonym.surface, "positive") in value_surfaces(spec.name, synonym.value, synonym.polarity)
    assert value_surfaces("diet", "meat", "positive")[:2] == [("meat", "positive"), ("vegetarian", "negative")]


def test_canonical_fact_rewrites_attribute_value_and_polarity_but_not_the_statement() -> None:
    raw = CandidateFact(statement="Priya does not eat meat.", subject="Priya", attribute="dietary_preference",
                        value="no meat", evidence_ids=("e1",))  # fmt: skip
    fact = canonical_fact(raw)
    assert (fact.attribute, fact.value, fact.polarity, fact.statement) == (
        "diet", "meat", "negative", "Priya does not eat meat."
    )
    bare = CandidateFact(statement="Priya likes tea.", subject="Priya", attribute="Job", evidence_ids=("e1",))
    assert canonical_fact(bare).attribute == "employer" and canonical_fact(bare).value is None


def test_aliases_name_one_attribute_each_and_never_another_attribute() -> None:
    seen: dict[str, str] = {}
    for spec in ATTRIBUTES.values():
        for alias in spec.aliases:
            assert alias not in ATTRIBUTES, alias
            assert seen.setdefault(alias, spec.name) == spec.name, alias
            assert canonical_name(alias) == spec.name
    for name in ("employer", "occupation", "residence", "relationship_status", "partner", "children", "pets",
                 "hobbies", "diet", "education", "health", "plans", "life_events", "likes", "dislikes"):
        assert name in ATTRIBUTES
    assert canonical_name("work") == canonical_name("Job") == "employer"
    assert canonical_name("Job Title") == "occupation"
    assert canonical_name("events") == "life_events"
    assert get_attribute("spouse").name == "partner" and get_attribute("married").name == "relationship_status"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Where does Ana work now?", ["employer", "occupation"]),
        ("What is Ana's job?", ["employer", "occupation"]),
        ("Where does Ana live?", ["residence"]),
        ("Which city did Ana move to?", ["residence"]),
        ("Is Priya vegetarian?", ["diet"]),
        ("Does Priya eat meat?", ["diet"]),
        ("Is Ana married?", ["relationship_status", "partner"]),
        ("What are Ana's hobbies?", ["hobbies"]),
        ("Does she have pets or kids?", ["pets", "children"]),
        ("What colour is the sky?", []),
    ],
)
def test_question_words_point_at_registry_attributes(question: str, expected: list[str]) -> None:
    assert attributes_for_words(question.split()) == expected


def test_every_tau_has_a_source_and_the_cited_figures_give_the_stated_taus() -> None:
    for spec in ATTRIBUTES.values():
        assert spec.tau_source and spec.tau_source != DEFAULT_TAU_SOURCE, spec.name
    assert get_attribute("favourite_colour_of_car").tau_source == DEFAULT_TAU_SOURCE
    assert ATTRIBUTES["employer"].tau_days / 365 == pytest.approx(4.1 / math.log(2))
    assert ATTRIBUTES["residence"].tau_days / 365 == pytest.approx(11.4, abs=0.05)
    assert tau_from_annual_rate(1 - math.exp(-1)) == pytest.approx(365.0)
    assert tau_from_median_years(math.log(2)) == pytest.approx(365.0)


def test_the_readme_tau_table_matches_the_registry() -> None:
    rows = dict(re.findall(r"^\| `(\w+)` \| [^|]+ \| ([\d.]+) (?:years|days) \|", README.read_text(), re.MULTILINE))
    assert set(rows) == set(ATTRIBUTES)
    for name, shown in rows.items():
        tau = ATTRIBUTES[name].tau_days
        assert float(shown) == pytest.approx(round(tau / 365, 1) if tau >= 365 else round(tau), abs=1e-9), name
