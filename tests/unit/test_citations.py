"""The deltas a state records as citable answer exactly what the whole delta log answers:
the state answer (text, confidence, cited turns), the members of a set and the
"only planned" answer, on random histories far longer than the citations, with case
variants, negations, hedges, several beliefs at one instant and starts stated before the
time said ("since 2015": the delta stating the start a mode reports is cited too)
(``eywa.nous.citations``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.models import Cardinality, Delta
from eywa.nous import engine
from eywa.nous.engine import DimensionState
from eywa.nous.ledger import set_members
from eywa.nous.observations import Observation
from eywa.read.answers import state_answer, unrealised_plan

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
VALUES = ["Lisbon", "lisbon", "Porto", "Berlin", "berlin", "Paris"]
QUESTIONS = ["", "Does Ana live in Lisbon?", "Is Ana in Porto or Berlin?", "Paris?"]

Row = tuple[str, bool, str, int, float, bool, int | None]
rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(VALUES),
        st.booleans(),  # positive
        st.sampled_from(["asserted", "asserted", "hedged", "planned"]),
        st.integers(0, 12),  # day: few days, so several observations share an instant
        st.sampled_from([0.6, 0.75, 0.9, 0.99]),
        st.booleans(),  # change signal
        st.sampled_from([None, None, None, 3, 40, 400]),  # a start stated this many days before it was said
    ),
    min_size=1,
    max_size=60,
)


def observations(rows: list[Row], attribute: str) -> list[Observation]:
    return [
        Observation(
            space="s", entity="Ana", attribute=attribute, value=value,
            polarity="positive" if positive else "negative", modality=modality,  # type: ignore[arg-type]
            at=T0 + timedelta(days=day), reliability=reliability, change_signal=change,
            belief_id=f"b{n}", evidence_ids=(f"e{n}", f"e{n % 7}"),
            valid_from=None if start is None else T0 + timedelta(days=day - start),
        )
        for n, (value, positive, modality, day, reliability, change, start) in enumerate(rows)
    ]  # fmt: skip


def folded(rows: list[Row], cardinality: Cardinality, attribute: str) -> tuple[DimensionState, list[Delta]]:
    state, steps = engine.replay(observations(rows, attribute), cardinality, 30.0)
    deltas = [engine.make_delta(o, r, T0) for o, r in steps]
    return state, sorted(deltas, key=lambda d: (d.at, d.id))


@settings(max_examples=300, deadline=None)
@given(rows=rows_strategy, cardinality=st.sampled_from(["single", "multi"]), days_later=st.sampled_from([None, 0, 40, 4000]))
def test_the_cited_deltas_answer_as_every_delta_does(
    rows: list[Row], cardinality: Cardinality, days_later: int | None
) -> None:
    state, deltas = folded(rows, cardinality, "city")
    assert state.citations is not None
    cited = set(state.citations.ids())
    subset = [d for d in deltas if d.id in cited]
    as_of = None if days_later is None or state.last_at is None else state.last_at + timedelta(days=days_later)
    dimension = engine.to_dimension(engine.decay_to(state, as_of, 30.0), "s", "Ana", "city", as_of)
    for question in QUESTIONS:
        assert state_answer(dimension, subset, question, as_of) == state_answer(dimension, deltas, question, as_of)
    assert set_members(dimension, subset) == set_members(dimension, deltas)
    # The subset is bounded by the values, not the history: at most five roles per value
    # (case-folded) and three for the mode.
    assert len(subset) <= 5 * len({v.casefold() for v in VALUES}) + 3


@settings(max_examples=200, deadline=None)
@given(rows=rows_strategy, plan_rows=rows_strategy, words=st.sampled_from([["Lisbon"], ["porto"], ["Paris"], ["Rome"]]))
def test_the_cited_plan_deltas_answer_an_unrealised_plan_as_every_one_does(
    rows: list[Row], plan_rows: list[Row], words: list[str]
) -> None:
    state, deltas = folded(rows, "single", "city")
    plans, plan_deltas = folded(plan_rows, "multi", "plans")
    assert plans.citations is not None
    subset = [d for d in plan_deltas if d.id in set(plans.citations.ids())]
    dimension = engine.to_dimension(state, "s", "Ana", "city", None)
    answer = state_answer(dimension, deltas, "Did Ana move there?")
    assert unrealised_plan(answer, dimension, subset, words) == unrealised_plan(answer, dimension, plan_deltas, words)


@settings(max_examples=100, deadline=None)
@given(rows=rows_strategy, cut=st.integers(0, 12), cardinality=st.sampled_from(["single", "multi"]))
def test_folding_on_from_a_saved_state_records_the_same_citations(rows: list[Row], cut: int, cardinality: Cardinality) -> None:
    """The ledger's incremental path (load the saved state, fold the newer observations)
    records what a replay from the first delta records."""
    every = observations(rows, "city")
    whole, _ = engine.replay(every, cardinality, 30.0)
    early = [o for o in every if o.at <= T0 + timedelta(days=cut)]
    late = [o for o in every if o.at > T0 + timedelta(days=cut)]
    saved, _ = engine.replay(early, cardinality, 30.0)
    resumed, _ = engine.replay(late, cardinality, 30.0, start=DimensionState.from_json(saved.to_json()))
    assert resumed.citations == whole.citations
    assert resumed.to_json() == whole.to_json()


def test_a_state_saved_before_citations_records_none_until_replayed() -> None:
    state, _ = folded([("Lisbon", True, "asserted", 0, 0.9, False, None)], "single", "city")
    old = {k: v for k, v in state.to_json().items() if k not in ("citations", "cited")}
    assert not DimensionState.has_citations(old)
    loaded = DimensionState.from_json(old)
    later = observations([("Porto", True, "asserted", 5, 0.9, False, None)], "city")
    resumed, _ = engine.replay(later, "single", 30.0, start=loaded)
    assert resumed.citations is None and "cited" not in resumed.to_json()


def test_the_delta_stating_the_start_is_cited_however_often_the_value_is_said_after() -> None:
    """Lisbon said undated, then "since" a year before, then said again and again: the
    answer cites the turn that states the start it reports, read from the cited deltas."""
    rows: list[Row] = [("Lisbon", True, "asserted", 0, 0.9, False, None), ("Lisbon", True, "asserted", 1, 0.9, False, 365),
                       *[("Lisbon", True, "asserted", day, 0.9, False, None) for day in range(2, 9)]]  # fmt: skip
    state, deltas = folded(rows, "single", "city")
    assert state.citations is not None
    subset = [d for d in deltas if d.id in set(state.citations.ids())]
    dimension = engine.to_dimension(state, "s", "Ana", "city", None)
    answer = state_answer(dimension, subset, "")
    assert dimension.since == T0 + timedelta(days=1 - 365)
    assert answer == state_answer(dimension, deltas, "") and answer.evidence_ids[0] == "e1"
