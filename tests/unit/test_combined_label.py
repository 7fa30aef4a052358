"""``combined_label``: the one word the registry has for a combination of values, only when
the state holds every value of it as the word says it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eywa.attributes.lookup import get_attribute
from eywa.attributes.values import combined_label

FOODS = ("meat", "fish", "animal products", "alcohol")


@given(st.dictionaries(st.sampled_from(FOODS), st.floats(min_value=0.0, max_value=1.0)))
def test_a_label_is_given_only_when_every_value_it_means_is_held(membership: dict[str, float]) -> None:
    label = combined_label("diet", membership)
    if label is None:
        return
    spec = get_attribute("diet")
    meant = {(s.value, s.polarity) for s in (*spec.synonyms, *spec.implied) if s.surface == label}
    assert len(meant) >= 2
    for value, polarity in meant:
        assert value in membership
        assert membership[value] > 0.5 if polarity == "positive" else membership[value] < 0.5


def test_the_label_that_says_the_most_wins_and_unknown_attributes_have_none() -> None:
    assert combined_label("diet", {"meat": 0.1, "fish": 0.1}) == "vegetarian"
    assert combined_label("diet", {"meat": 0.1, "fish": 0.1, "animal products": 0.1}) == "vegan"
    assert combined_label("diet", {"meat": 0.1, "fish": 0.9}) == "pescatarian"
    assert combined_label("diet", {"meat": 0.5, "fish": 0.1}) is None  # undecided is not held
    assert combined_label("hobbies", {"hiking": 0.9, "pottery": 0.9}) is None
    assert combined_label("no_such_attribute", {"x": 0.9}) is None
