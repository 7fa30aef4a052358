"""Scenarios of the Nous layer through the service on a real SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.corrections import accept_merge as accept_or_retry
from eywa.errors import NotFoundError
from eywa.models import Cardinality, Delta, Dimension
from eywa.nous import (
    UNSEEN,
    Observation,
    accept_merge,
    apply_beliefs,
    forget_beliefs,
    get_dimension,
    list_deltas,
    list_dimensions,
    propose_merges,
    set_members,
    undo_merge,
)
from eywa.stores.dimensions import DimensionStore
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore


@dataclass(frozen=True)
class Spec:
    name: str
    cardinality: Cardinality
    tau_days: float
    change_values: tuple[str, ...] = ()  # no value here says the one before ended


SPECS = {
    "employer": Spec("employer", "single", 3 * 365.0),
    "residence": Spec("residence", "single", 4 * 365.0),
    "hobbies": Spec("hobbies", "multi", 2 * 365.0),
}


def spec_for(name: str) -> Spec:
    return SPECS.get(name, Spec(name, "multi", 365.0))


def day(y: int, m: int = 1, d: int = 1) -> datetime:
    return datetime(y, m, d, tzinfo=timezone.utc)


def obs(
    value: str, at: datetime, belief: str, attribute: str = "employer", entity: str = "Cecilia",
    **kw: object,
) -> Observation:  # fmt: skip
    fields: dict[str, object] = {
        "space": "s", "entity": entity, "attribute": attribute, "value": value, "at": at,
        "reliability": 0.9, "belief_id": belief, "evidence_ids": (f"ev_{belief}",),
    }  # fmt: skip
    fields.update(kw)
    return Observation.model_validate(fields)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[DimensionStore]:
    db = SqliteDatabase(tmp_path / "eywa.db")
    yield SqliteDimensionStore(db)
    db.close()


def apply(store: DimensionStore, *observations: Observation) -> list[Delta]:
    return apply_beliefs(store, list(observations), spec_for=spec_for, recorded_at=day(2024))


def dim(store: DimensionStore, attribute: str = "employer", entity: str = "Cecilia",
        as_of: datetime | None = None) -> Dimension:  # fmt: skip
    return get_dimension(store, "s", entity, attribute, as_of, spec_for=spec_for)


def test_a_job_change_flips_the_mode_with_a_high_surprise_delta(store: DimensionStore) -> None:
    apply(store, obs("Google", day(2020), "b1"), obs("google", day(2021), "b2"))
    assert dim(store).mode == "Google"  # "google" matched the known spelling
    (change,) = apply(store, obs("Microsoft", day(2023, 5), "b3", change_signal=True))
    confirmation = list_deltas(store, "s", "Cecilia", "employer", spec_for=spec_for)[1]
    assert dim(store).mode == "Microsoft"
    assert change.surprise_bits > 2.0 > confirmation.surprise_bits
    assert change.hazard >= 0.9
    assert change.prior["Microsoft"] < change.prior["Google"]
    assert change.posterior["Google"] < 0.5 < change.posterior["Microsoft"]


def test_an_old_mention_ingested_late_does_not_undo_the_change(tmp_path: Path) -> None:
    late_db, order_db = SqliteDatabase(tmp_path / "late.db"), SqliteDatabase(tmp_path / "in.db")
    late, in_order = SqliteDimensionStore(late_db), SqliteDimensionStore(order_db)
    first = obs("Google", day(2020), "b1")
    change = obs("Microsoft", day(2023, 5), "b3", change_signal=True)
    old = obs("Google", day(2021, 6), "b2")
    apply(late, first, change)
    (new,) = apply(late, old)
    apply(in_order, first)
    apply(in_order, old)
    apply(in_order, change)
    assert dim(late).mode == "Microsoft"
    assert dim(late) == dim(in_order)
    late_log = list_deltas(late, "s", "Cecilia", "employer", spec_for=spec_for)
    in_order_log = list_deltas(in_order, "s", "Cecilia", "employer", spec_for=spec_for)
    assert [d.belief_id for d in late_log] == ["b1", "b2", "b3"]
    assert [d.model_dump(exclude={"recorded_at"}) for d in late_log] == [
        d.model_dump(exclude={"recorded_at"}) for d in in_order_log
    ]
    assert new.surprise_bits < 1.0  # in its place (2021) it was a confirmation
    late_db.close()
    order_db.close()


def test_applying_the_same_beliefs_again_writes_nothing(store: DimensionStore) -> None:
    batch = [obs("Google", day(2020), "b1"), obs("Microsoft", day(2022), "b2")]
    assert len(apply(store, *batch)) == 2
    before = dim(store)
    assert apply(store, *batch) == []
    assert apply(store, batch[0]) == []
    assert dim(store) == before
    assert len(list_deltas(store, "s", "cecilia", "employer", spec_for=spec_for)) == 2


def test_i_might_move_to_paris_leaves_residence_unchanged(store: DimensionStore) -> None:
    apply(store, obs("Boston", day(2022), "b1", attribute="residence"))
    for i, modality in enumerate(("hedged", "planned", "hypothetical")):
        apply(store, obs("Paris", day(2023, 1 + i), f"p{i}", attribute="residence",
                         modality=modality, reliability=0.55, change_signal=True))  # fmt: skip
        residence = dim(store, "residence")
        assert residence.mode == "Boston"
        assert residence.distribution["Paris"] < residence.distribution["Boston"]
    apply(store, obs("Paris", day(2023, 6), "b9", attribute="residence", change_signal=True))
    assert dim(store, "residence").mode == "Paris"  # the move itself does flip it


def test_a_hypothetical_move_releases_no_confidence(tmp_path: Path) -> None:
    results = []
    for flag in (False, True):
        db = SqliteDatabase(tmp_path / f"{flag}.db")
        store = SqliteDimensionStore(db)
        apply(store, obs("Boston", day(2022), "b1", attribute="residence"),
              obs("Paris", day(2023), "p1", attribute="residence", modality="planned",
                  reliability=0.55, change_signal=flag))  # fmt: skip
        results.append(dim(store, "residence").distribution)
        db.close()
    assert results[0] == results[1]
    assert results[1]["Boston"] > 0.7


def test_a_hedge_alone_does_not_establish_a_value(store: DimensionStore) -> None:
    apply(store, obs("Paris", day(2023), "p1", attribute="residence", modality="hedged",
                     reliability=0.55))  # fmt: skip
    assert dim(store, "residence").mode is None


def test_hobbies_accumulate_and_i_quit_removes_one(store: DimensionStore) -> None:
    for i, hobby in enumerate(("pottery", "hiking", "painting")):
        apply(store, obs(hobby, day(2023, 1 + i), f"h{i}", attribute="hobbies"))
    apply(store, obs("surfing", day(2023, 4), "h9", attribute="hobbies", modality="hedged",
                     reliability=0.55))  # fmt: skip

    def members() -> list[str]:
        deltas = list_deltas(store, "s", "Cecilia", "hobbies", spec_for=spec_for)
        return set_members(dim(store, "hobbies"), deltas)

    assert sorted(members()) == ["hiking", "painting", "pottery"]
    apply(store, obs("Pottery", day(2023, 6), "q1", attribute="hobbies", polarity="negative",
                     change_signal=True))  # fmt: skip
    hobbies = dim(store, "hobbies")
    assert sorted(members()) == ["hiking", "painting"]
    assert hobbies.distribution["pottery"] < 0.5 < hobbies.distribution["hiking"]


def test_decay_raises_entropy_over_a_year_of_silence(store: DimensionStore) -> None:
    apply(store, obs("Google", day(2020), "b1"), obs("Google", day(2022), "b2"))
    now = dim(store)
    a_year = dim(store, as_of=day(2023))
    decade = dim(store, as_of=day(2032))
    assert now.entropy_bits < a_year.entropy_bits < decade.entropy_bits
    assert a_year.mode == "Google" and a_year.as_of == day(2023)
    assert decade.distribution["Google"] == pytest.approx(0.5, abs=0.02)  # near uniform (K = 2)
    assert sum(decade.distribution.values()) == pytest.approx(1.0)


def test_as_of_reads_only_what_was_known_then(store: DimensionStore) -> None:
    apply(store, obs("Google", day(2020), "b1"), obs("Microsoft", day(2023), "b2",
                                                     change_signal=True))  # fmt: skip
    assert dim(store, as_of=day(2021)).mode == "Google"
    assert dim(store, as_of=day(2024)).mode == "Microsoft"
    with pytest.raises(NotFoundError):
        dim(store, as_of=day(2019))
    with pytest.raises(NotFoundError):
        dim(store, "residence")


def test_forgetting_a_belief_rebuilds_the_dimension(store: DimensionStore) -> None:
    apply(store, obs("Google", day(2020), "b1"))
    expected = dim(store)
    apply(store, obs("Microsoft", day(2023), "b2", change_signal=True))
    assert forget_beliefs(store, "s", ["b2"], spec_for=spec_for) == 1
    assert dim(store) == expected
    assert forget_beliefs(store, "s", ["b1"], spec_for=spec_for) == 1
    with pytest.raises(NotFoundError):
        dim(store)


def test_mel_and_melinda_with_matching_dimensions_merge(store: DimensionStore) -> None:
    apply(store,
          obs("Google", day(2022), "m1", entity="Melinda"),
          obs("Boston", day(2022), "m2", entity="Melinda", attribute="residence"),
          obs("Google", day(2023), "m3", entity="Mel"))  # fmt: skip
    (proposal,) = propose_merges(store, "s", ["Mel", "Melinda"], spec_for=spec_for)
    assert proposal.shared_attributes == ("employer",)
    assert proposal.divergence_bits < 0.5
    with pytest.raises(NotFoundError):
        dim(store, "residence", entity="Mel")
    accept_merge(store, "s", proposal.source, proposal.target, proposal.score, at=day(2024))
    assert dim(store, "residence", entity="mel").mode == "Boston"  # reads follow SAME_AS
    assert {d.belief_id for d in list_deltas(store, "s", "Mel", "employer",
                                             spec_for=spec_for)} == {"m1", "m3"}  # fmt: skip
    assert {d.attribute for d in list_dimensions(store, "s", "Mel", spec_for=spec_for)} == {
        "employer", "residence",
    }  # fmt: skip
    assert propose_merges(store, "s", ["Mel", "Melinda"], spec_for=spec_for) == []
    assert undo_merge(store, "s", "Melinda", "Mel")
    with pytest.raises(NotFoundError):
        dim(store, "residence", entity="Mel")


def test_two_people_with_one_first_name_and_conflicting_dimensions_do_not_merge(
    store: DimensionStore,
) -> None:
    apply(store,
          obs("Google", day(2022), "c1", entity="Cecilia"),
          obs("Boston", day(2022), "c2", entity="Cecilia", attribute="residence"),
          obs("Acme", day(2022), "c3", entity="Cecilia Price"),
          obs("Denver", day(2022), "c4", entity="Cecilia Price", attribute="residence"),
          obs("Google", day(2022), "c5", entity="Ned Smith"),
          obs("Google", day(2022), "c6", entity="Ned Baker"))  # fmt: skip
    entities = ["Cecilia", "Cecilia Price", "Ned Smith", "Ned Baker"]
    assert propose_merges(store, "s", entities, spec_for=spec_for) == []


observation_plans = st.lists(
    st.tuples(
        st.sampled_from(("Google", "Acme", "Microsoft")),
        st.sampled_from(("positive", "positive", "negative")),
        st.sampled_from(("asserted", "asserted", "hedged")),
        st.booleans(),
        st.integers(min_value=0, max_value=1500),
    ),
    min_size=2,
    max_size=8,
)


@settings(max_examples=25, deadline=None)
@given(observation_plans, st.randoms(use_true_random=False), st.sampled_from(("employer", "hobbies")))
def test_ingestion_order_is_irrelevant(
    plan: list[tuple[str, str, str, bool, int]], rnd: object, attribute: str
) -> None:
    observations = [
        obs(value, day(2020) + timedelta(days=d), f"b{i}", attribute=attribute,
            polarity=polarity, modality=modality, change_signal=change,
            reliability=0.55 if modality == "hedged" else 0.9)  # fmt: skip
        for i, (value, polarity, modality, change, d) in enumerate(plan)
    ]
    shuffled = list(observations)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    stores = []
    for sequence in (sorted(observations, key=lambda o: o.at), shuffled):
        db = SqliteDatabase(Path(":memory:"))
        store = SqliteDimensionStore(db)
        for o in sequence:
            apply(store, o)
        stores.append((db, store))
    (db_a, a), (db_b, b) = stores
    assert dim(a, attribute) == dim(b, attribute)
    deltas_a = list_deltas(a, "s", "Cecilia", attribute, spec_for=spec_for)
    deltas_b = list_deltas(b, "s", "Cecilia", attribute, spec_for=spec_for)
    assert [d.model_dump() for d in deltas_a] == [d.model_dump() for d in deltas_b]
    if attribute == "employer":
        assert UNSEEN in dim(a).distribution
    db_a.close()
    db_b.close()


@pytest.mark.parametrize(
    ("a", "b", "compatible"),
    [
        ("Mel", "Melinda", True),
        ("Bob", "Robert Jones", True),
        ("Melinda", "Meline", True),
        ("Cecilia", "cecilia  price", True),
        ("Ned Smith", "Ned Baker", False),
        ("Al", "Alice", False),
        ("Cecilia", "Melinda", False),
    ],
)
def test_name_compatibility(a: str, b: str, compatible: bool) -> None:
    from eywa.nous.identity import name_compatibility

    assert (name_compatibility(a, b) > 0.0) is compatible
    assert name_compatibility(a, b) == name_compatibility(b, a)


class SameAsReads:
    """A dimension store that counts its reads of the merges (``same_as``)."""

    def __init__(self, inner: DimensionStore) -> None:
        self.inner = inner
        self.reads = 0

    def same_as(self, *args: object, **kwargs: object) -> object:
        self.reads += 1
        return self.inner.same_as(*args, **kwargs)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def test_proposing_merges_reads_the_merges_once_whatever_the_number_of_entities(store: DimensionStore) -> None:
    """It read them once per pair of entities: N²/2 round trips on Neo4j, so proposals over
    a space of a thousand entities (GET .../merges/proposals) ran for hours."""
    apply(store, *(obs("Google", day(2022), f"p{i}", entity=f"Person {i}") for i in range(12)),
          obs("Google", day(2022), "mel", entity="Melinda"), obs("Google", day(2023), "mel2", entity="Mel"))  # fmt: skip
    accept_merge(store, "s", "Mel", "Melinda", 0.9, at=day(2024))
    counting = SameAsReads(store)
    found = propose_merges(counting, "s", ["Mel", "Melinda"] + [f"Person {i}" for i in range(12)],  # type: ignore[arg-type]
                           spec_for=spec_for)  # fmt: skip
    assert counting.reads == 1
    assert not any({p.source, p.target} == {"Mel", "Melinda"} for p in found)  # merged pairs are still skipped


def test_a_retried_merge_is_found_by_its_key_without_listing_the_merges(store: DimensionStore) -> None:
    """``eywa.corrections.accept_merge`` looked for the call it retries among every merge of
    the space (``same_as``), so each accept cost as much as the space held; it reads the one
    edge of the pair now. A retry answers the edge as it is; another score merges anew."""
    counting = SameAsReads(store)
    first = accept_or_retry(counting, "s", "Mel", "Melinda", 0.9, author="k")  # type: ignore[arg-type]
    assert accept_or_retry(counting, "s", "Mel", "Melinda", 0.9, author="k") == first  # type: ignore[arg-type]
    assert accept_or_retry(counting, "s", "Mel", "Melinda", 0.5, author="k").score == 0.5  # type: ignore[arg-type]
    assert counting.reads == 0 and [e.score for e in store.same_as("s")] == [0.5]
