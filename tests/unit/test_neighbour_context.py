"""The neighbour-context builder (``eywa.stores.context``) and the co-mention arithmetic
(``eywa.stores.entity_graph``): pure functions both backends' writes, and erasure, rely on.

The property that matters: rewriting only the turns within reach of what changed (turns
appended, or turns erased) leaves every turn's context exactly as a from-scratch derivation
over the resulting session would give it.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eywa.ids import entity_id
from eywa.stores.context import (
    NEIGHBOUR_REACH,
    SessionTurn,
    TurnContext,
    contexts_around,
    read_range,
    turn_context,
    vector_text,
)
from eywa.stores.entity_graph import co_mention_weights, reach_from


def session(*texts: str, start: int = 0) -> dict[int, SessionTurn]:
    return {start + i: SessionTurn(f"t{start + i}", start + i, "Ana" if i % 2 else "Ben", t) for i, t in enumerate(texts)}


def test_a_turn_holds_its_neighbours_words_by_distance_in_seq_order() -> None:
    turns = session("zero", "one", "two", "three", "four", "five", "six")
    assert turn_context(turns, 3) == TurnContext(
        prev_text="two", next_text="four", near_prev="zero one", near_next="five six"
    )
    assert turn_context(turns, 3).near_text == "two four"
    assert turn_context(turns, 3).far_text == "zero one five six"


def test_missing_turns_leave_their_part_empty() -> None:
    turns = session("zero", "one", "two")
    del turns[1]  # erased
    context = turn_context(turns, 0)
    assert context == TurnContext(prev_text="", next_text="", near_prev="", near_next="two")
    assert context.near_text == "" and context.far_text == "two"


def test_a_reply_completes_the_vector_text_of_the_turn_it_answers() -> None:
    question = SessionTurn("a", 0, "Ana", "What did you name the puppy?")
    reply = SessionTurn("b", 1, None, "Biscuit.")
    assert vector_text(question, reply) == "Ana: What did you name the puppy?\nBiscuit."
    assert vector_text(reply, None) == "Biscuit."


def test_read_range_covers_the_neighbours_of_the_neighbours() -> None:
    assert read_range([10, 12]) == (10 - 2 * NEIGHBOUR_REACH, 12 + 2 * NEIGHBOUR_REACH)


texts = st.lists(st.text("abc", min_size=1, max_size=3), min_size=1, max_size=14)


def from_scratch(turns: dict[int, SessionTurn]) -> dict[str, TurnContext]:
    return {t.id: turn_context(turns, seq) for seq, t in turns.items()}


@given(texts, texts)
def test_appending_and_rewriting_what_is_within_reach_equals_a_fresh_derivation(
    stored: list[str], appended: list[str]
) -> None:
    before = session(*stored)
    index = from_scratch(before)  # what the store held
    after = {**before, **session(*appended, start=len(stored))}
    lo, hi = read_range(range(len(stored), len(after)))
    window = {seq: t for seq, t in after.items() if lo <= seq <= hi}  # all a store reads
    index.update(contexts_around(window, range(len(stored), len(after))))
    assert index == from_scratch(after)


@given(texts, st.data())
def test_erasing_and_rewriting_what_is_within_reach_equals_a_fresh_derivation(
    stored: list[str], data: st.DataObject
) -> None:
    before = session(*stored)
    erased = data.draw(st.sets(st.sampled_from(sorted(before)), max_size=len(before)))
    index = {i: c for i, c in from_scratch(before).items() if int(i[1:]) not in erased}
    remaining = {seq: t for seq, t in before.items() if seq not in erased}
    if erased:
        index.update(contexts_around(remaining, erased))
    assert index == from_scratch(remaining)


def test_co_mention_weights_count_each_turn_once_per_pair() -> None:
    weights = co_mention_weights([
        ("s", "e1", "b"), ("s", "e1", "a"), ("s", "e1", "a"),  # a duplicate mention
        ("s", "e2", "a"), ("s", "e2", "b"), ("s", "e2", "c"),
        ("t", "e3", "a"), ("t", "e3", "b"),
    ])  # fmt: skip
    assert weights == {("s", "a", "b"): 2, ("s", "a", "c"): 1, ("s", "b", "c"): 1, ("t", "a", "b"): 1}


def test_a_turn_with_one_entity_adds_no_edge() -> None:
    assert co_mention_weights([("s", "e1", "a")]) == {}


def test_reach_places_turns_by_their_nearest_entity_and_beliefs_by_their_subject() -> None:
    ana, theo, far = entity_id("s", "Ana"), entity_id("s", "Theo"), entity_id("s", "Oslo")
    reach = reach_from(
        "s",
        {ana: 0, theo: 1, far: 2},
        {"e1": [far, theo], "e2": ["ent_unreached"], "e3": [far]},
        {"b1": "theo", "b2": "Nobody"},
    )
    assert reach.evidence == {"e1": 1, "e3": 2}
    assert reach.beliefs == {"b1": 1}  # subjects match by entity key, as entity ids do
