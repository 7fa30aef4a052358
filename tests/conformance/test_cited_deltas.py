"""``recall_dimensions(..., deltas="cited")`` on every backend: a dimension whose history is
far longer than what a state answer can cite reads only the cited deltas, and the answers a
recall gives from them (value, probability, cited turns; the "only planned" answer) are the
ones every delta gives. Merged entities and answers as of an earlier time still read every
delta; a state saved before citations existed reads every delta, and its next write records
them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from eywa.errors import NotFoundError
from eywa.nous import ledger as nous
from eywa.nous.observations import Observation
from eywa.read.answers import StateAnswer, state_answer, unrealised_plan
from eywa.read.dimension_reads import DimensionReads
from eywa.stores.bundle import Stores
from eywa.stores.dimensions import SameAsEdge

T0 = datetime(2023, 1, 1, tzinfo=timezone.utc)
CITIES = ["Lisbon", "Porto", "lisbon", "Berlin"]


def history(space: str, entity: str, attribute: str, values: list[str], n: int, start: int = 0) -> list[Observation]:
    """``n`` observations cycling through ``values``, every third one negative, two a day."""
    return [
        Observation(
            space=space, entity=entity, attribute=attribute, value=values[(i * 7 // 3) % len(values)],
            polarity="negative" if i % 3 == 2 else "positive",
            modality="planned" if attribute == "plans" and i % 4 else "asserted",
            at=T0 + timedelta(days=i // 2), reliability=0.8 + (i % 5) / 50, change_signal=i % 11 == 0,
            belief_id=f"b{attribute}{i}", evidence_ids=(f"e{attribute}{i}",),
        )
        for i in range(start, start + n)
    ]  # fmt: skip


def answer(reads: DimensionReads, space: str, entity: str, attribute: str, question: str, as_of: datetime | None) -> StateAnswer | None:
    """What the dimension route answers (``DimensionSource.answer``'s reads)."""
    try:
        dimension = nous.get_dimension(reads, space, entity, attribute, as_of)
    except NotFoundError:
        return None
    deltas = [d for d in nous.list_deltas(reads, space, entity, attribute) if as_of is None or d.at <= as_of]
    return state_answer(dimension, deltas, question, as_of)


def both(stores: Stores, as_of: datetime | None, pairs: list[tuple[str, str]]) -> tuple[DimensionReads, DimensionReads]:
    full, cited = DimensionReads(stores.dimensions), DimensionReads(stores.dimensions, cited_as_of=as_of)
    for reads in (full, cited):
        reads.prefetch("s", ["Ana"], sorted({a for _, a in pairs}))
    return full, cited


QUESTIONS = ["Where does Ana live now?", "Does Ana still live in Lisbon?", "What are Ana's hobbies?", "Does Ana play chess?"]


def test_cited_deltas_answer_as_every_delta_does_on_a_long_history(stores: Stores) -> None:
    dims = stores.dimensions
    nous.apply_beliefs(dims, history("s", "Ana", "city", CITIES, 120))
    nous.apply_beliefs(dims, history("s", "Ana", "hobbies", ["chess", "piano", "Chess", "climbing", "yoga"], 150))
    nous.apply_beliefs(dims, history("s", "Ana", "plans", ["move to Rome", "move to Oslo"], 40))
    nous.apply_beliefs(dims, history("other", "Ana", "city", ["Oslo"], 30))  # another space: never read
    view = dims.recall_dimensions("s", ["ana"], [("ana", "residence"), ("ana", "hobbies"), ("ana", "plans")], "cited")
    assert view.cited == {("ana", "residence"), ("ana", "hobbies"), ("ana", "plans")}
    for (key, attribute), cited in view.deltas.items():
        every = dims.deltas("s", key, attribute)
        record = dims.get("s", key, attribute)
        assert record is not None and record.cited is not None
        assert [d.id for d in cited] == [d.id for d in every if d.id in set(record.cited)]  # event-time order
        assert cited == [d for d in every if d.id in set(record.cited)]
        assert len(cited) < len(every) / 4  # at most a few per value, however long the history
    assert dims.recall_dimensions("s", ["ana"], [("ana", "residence")]).deltas[("ana", "residence")] == dims.deltas("s", "ana", "residence")
    for as_of in (None, T0 + timedelta(days=400)):
        full, cited_reads = both(stores, as_of, [("Ana", "city"), ("Ana", "hobbies"), ("Ana", "plans")])
        for attribute in ("city", "hobbies"):
            for question in QUESTIONS:
                expected = answer(full, "s", "Ana", attribute, question, as_of)
                assert expected is not None and expected.evidence_ids
                assert answer(cited_reads, "s", "Ana", attribute, question, as_of) == expected
        city = answer(full, "s", "Ana", "city", "Did Ana move to Rome?", as_of)
        dimension = nous.get_dimension(full, "s", "Ana", "city", as_of)
        assert city is not None
        for words in (["Rome"], ["Oslo"], ["Lisbon"]):
            expected_plan = unrealised_plan(city, dimension, nous.list_deltas(full, "s", "Ana", "plans"), words)
            got = unrealised_plan(city, dimension, nous.list_deltas(cited_reads, "s", "Ana", "plans"), words)
            assert got == expected_plan
        assert len(nous.list_deltas(cited_reads, "s", "Ana", "hobbies")) < len(nous.list_deltas(full, "s", "Ana", "hobbies"))


def test_merged_entities_and_earlier_times_read_every_delta(stores: Stores) -> None:
    dims = stores.dimensions
    nous.apply_beliefs(dims, history("s", "Ana", "city", CITIES, 60))
    earlier = T0 + timedelta(days=10)  # before the state's last event: replayed from the deltas
    full, cited = both(stores, earlier, [("Ana", "city")])
    assert cited.deltas("s", "ana", "residence") == dims.deltas("s", "ana", "residence")
    for question in QUESTIONS[:2]:
        assert answer(cited, "s", "Ana", "city", question, earlier) == answer(full, "s", "Ana", "city", question, earlier)
    nous.apply_beliefs(dims, history("s", "Annie", "city", ["Porto"], 5, start=200))
    dims.add_same_as(SameAsEdge(space="s", source="annie", target="ana", score=0.9, at=T0))
    full, cited = both(stores, None, [("Ana", "city")])
    assert cited.deltas("s", "ana", "residence") == dims.deltas("s", "ana", "residence")
    for question in QUESTIONS[:2]:
        assert answer(cited, "s", "Ana", "city", question, None) == answer(full, "s", "Ana", "city", question, None)


def test_a_state_saved_before_citations_reads_every_delta_until_its_next_write(stores: Stores) -> None:
    dims = stores.dimensions
    nous.apply_beliefs(dims, history("s", "Ana", "city", CITIES, 30))
    record = dims.get("s", "ana", "residence")
    assert record is not None and record.cited is not None
    old_state = {k: v for k, v in record.state.items() if k not in ("citations", "cited")}
    dims.save(record.model_copy(update={"state": old_state}), [])
    view = dims.recall_dimensions("s", [], [("ana", "residence")], "cited")
    assert view.cited == frozenset() and view.deltas[("ana", "residence")] == dims.deltas("s", "ana", "residence")
    nous.apply_beliefs(dims, history("s", "Ana", "city", CITIES, 1, start=100))  # the next write replays
    rewritten = dims.get("s", "ana", "residence")
    assert rewritten is not None and rewritten.cited is not None
    assert dims.recall_dimensions("s", [], [("ana", "residence")], "cited").cited == {("ana", "residence")}
