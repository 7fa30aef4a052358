"""DimensionStore contract, on every backend: exact round trips, event-time order, delta
replacement that keeps ``recorded_at``, erasure, isolation and reversible SAME_AS edges."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from eywa.models import Delta
from eywa.stores.bundle import Stores
from eywa.stores.dimensions import DimensionMoved, DimensionRecord, SameAsEdge

T0 = datetime(2023, 5, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)


def delta(ident: str, at: datetime, space: str = "s", belief: str = "b1", **kw: object) -> Delta:
    fields: dict[str, object] = {
        "id": ident, "space": space, "entity": "Cecilia", "attribute": "employer",
        "observed": "Google", "prior": {"Google": 0.5, "__unseen__": 0.5},
        "posterior": {"Google": 0.9, "__unseen__": 0.1}, "surprise_bits": 1.0, "hazard": 0.0,
        "reliability": 0.9, "at": at, "recorded_at": T0, "belief_id": belief,
        "evidence_ids": ("ev_1", "ev_2"),
    }  # fmt: skip
    fields.update(kw)
    return Delta.model_validate(fields)


def record(space: str = "s", entity_key: str = "cecilia", attribute: str = "employer", **kw: object) -> DimensionRecord:
    fields: dict[str, object] = {
        "space": space, "entity_key": entity_key, "entity": "Cecilia", "attribute": attribute,
        "cardinality": "single", "state": {"cardinality": "single", "probabilities": {"Google": 1.0}},
        "distribution": {"Google": 0.9, "__unseen__": 0.1}, "mode": "Google", "entropy_bits": 0.47,
        "updated_at": T0, "recorded_at": T0, "delta_count": 1,
    }  # fmt: skip
    fields.update(kw)
    return DimensionRecord.model_validate(fields)


def test_state_and_deltas_round_trip_exactly(stores: Stores) -> None:
    original = delta("d1", T0, change_signal=True, modality="hedged", polarity="negative")
    stores.dimensions.save(record(), [original])
    assert stores.dimensions.deltas("s", "cecilia", "employer") == [original]
    assert stores.dimensions.get("s", "cecilia", "employer") == record()
    assert stores.dimensions.existing_deltas("s", ["d1", "d2"]) == {"d1"}
    assert stores.dimensions.get("s", "cecilia", "city") is None
    empty = record(attribute="hobby", mode=None, updated_at=None, distribution={}, delta_count=0)
    stores.dimensions.save(empty, [])
    assert stores.dimensions.get("s", "cecilia", "hobby") == empty


def test_deltas_are_in_event_time_order_ties_by_id(stores: Stores) -> None:
    later, tie_b, tie_a = delta("d3", T0 + timedelta(days=2)), delta("d2", T0), delta("d1", T0)
    stores.dimensions.save(record(delta_count=3), [later, tie_b, tie_a])
    assert [d.id for d in stores.dimensions.deltas("s", "cecilia", "employer")] == ["d1", "d2", "d3"]
    assert [d.id for d in stores.dimensions.deltas_of_beliefs("s", ["b1"])] == ["d1", "d2", "d3"]


def test_saving_a_delta_again_replaces_it_but_keeps_recorded_at(stores: Stores) -> None:
    stores.dimensions.save(record(), [delta("d1", T0)])
    recomputed = delta("d1", T0, surprise_bits=3.5, posterior={"Acme": 1.0}, recorded_at=T0 + timedelta(hours=5))
    stores.dimensions.save(record(mode="Acme", recorded_at=T0 + timedelta(hours=5)), [recomputed])
    (stored,) = stores.dimensions.deltas("s", "cecilia", "employer")
    assert stored.surprise_bits == 3.5 and stored.posterior == {"Acme": 1.0}
    assert stored.recorded_at == T0
    assert stores.dimensions.get("s", "cecilia", "employer").mode == "Acme"  # type: ignore[union-attr]


def test_listing_removal_and_isolation(stores: Stores) -> None:
    stores.dimensions.save(record(attribute="employer"), [delta("d1", T0)])
    stores.dimensions.save(record(attribute="city"), [delta("d2", T0, attribute="city", belief="b2")])
    stores.dimensions.save(record(entity_key="mel"), [delta("d3", T0, entity="Mel")])
    stores.dimensions.save(record(space="t"), [delta("d9", T0, space="t")])
    listed = [(d.entity_key, d.attribute) for d in stores.dimensions.dimensions("s")]
    assert listed == [("cecilia", "city"), ("cecilia", "employer"), ("mel", "employer")]
    assert [d.attribute for d in stores.dimensions.dimensions("s", "cecilia")] == ["city", "employer"]
    assert stores.dimensions.existing_deltas("s", ["d9"]) == set()
    assert stores.dimensions.deltas_of_beliefs("t", ["b2"]) == []
    assert stores.dimensions.remove_deltas("s", ["d2", "d9", "nope"]) == 1
    assert stores.dimensions.deltas("s", "cecilia", "city") == []
    assert stores.dimensions.existing_deltas("t", ["d9"]) == {"d9"}
    stores.dimensions.delete_dimension("s", "cecilia", "city")
    assert stores.dimensions.get("s", "cecilia", "city") is None
    assert stores.dimensions.get("t", "cecilia", "employer") is not None


def test_a_checked_delete_removes_only_the_state_its_caller_read(stores: Stores) -> None:
    """The erasure's replay deletes a state it found without deltas only if no save came
    between (``DimensionMoved``, as for ``save``): a Nous update landing there is kept."""
    read = record()
    stores.dimensions.save(read, [delta("d1", T0)])
    later = record(mode="Acme", recorded_at=T0 + timedelta(hours=1), delta_count=2)
    stores.dimensions.save(later, [delta("d2", T0 + timedelta(days=1), observed="Acme")], read=read)
    with pytest.raises(DimensionMoved):
        stores.dimensions.delete_dimension("s", "cecilia", "employer", read=read)
    assert stores.dimensions.get("s", "cecilia", "employer") == later
    stores.dimensions.delete_dimension("s", "cecilia", "city", read=None)  # none read, none stored
    stores.dimensions.delete_dimension("s", "cecilia", "employer", read=later)
    assert stores.dimensions.get("s", "cecilia", "employer") is None


def test_same_as_edges_are_reversible_and_scoped(stores: Stores) -> None:
    edge = SameAsEdge(space="s", source="mel", target="melinda", score=0.8, at=T0)
    stores.dimensions.add_same_as(edge)
    stores.dimensions.add_same_as(SameAsEdge(space="t", source="a", target="b", score=0.5, at=T0))
    assert stores.dimensions.same_as("s") == [edge]
    assert stores.dimensions.remove_same_as("s", "melinda", "mel", T0 + timedelta(days=1)) is True
    assert stores.dimensions.remove_same_as("s", "mel", "melinda", T0 + timedelta(days=2)) is False
    assert stores.dimensions.same_as("s") == []
    (removed,) = stores.dimensions.same_as("s", include_removed=True)
    assert removed.removed_at == T0 + timedelta(days=1) and not removed.active
    stores.dimensions.add_same_as(edge)  # re-activate
    assert stores.dimensions.same_as("s") == [edge]
    assert [e.source for e in stores.dimensions.same_as("t")] == ["a"]


def test_recall_dimensions_reads_edges_states_and_deltas_at_once(stores: Stores) -> None:
    dims = stores.dimensions
    dims.save(record(), [delta("d2", T0 + timedelta(days=1)), delta("d1", T0 + timedelta(days=1))])
    dims.save(record(attribute="city", mode="Oslo"), [delta("d3", T0, attribute="city", observed="Oslo")])
    dims.save(record(entity_key="ben", attribute="city"), [delta("d4", T0, entity="Ben", attribute="city")])
    dims.save(record(space="t"), [delta("d9", T0, space="t")])
    dims.add_same_as(SameAsEdge(space="s", source="mel", target="melinda", score=0.8, at=T0 + timedelta(days=1)))
    dims.add_same_as(SameAsEdge(space="s", source="ceci", target="cecilia", score=0.7, at=T0))
    dims.add_same_as(SameAsEdge(space="s", source="x", target="y", score=0.7, at=T0))
    dims.remove_same_as("s", "x", "y", T0 + timedelta(days=2))
    dims.add_same_as(SameAsEdge(space="t", source="a", target="b", score=0.5, at=T0))
    pairs = [("cecilia", "employer"), ("cecilia", "pets"), ("ben", "city"), ("zoe", "city"), ("cecilia", "employer")]
    view = dims.recall_dimensions("s", ["cecilia", "zoe", "cecilia"], pairs)
    # What the single reads give, and nothing else.
    assert view.same_as == dims.same_as("s") and [e.source for e in view.same_as] == ["ceci", "mel"]
    assert view.dimensions == {"cecilia": dims.dimensions("s", "cecilia"), "zoe": []}
    assert [r.attribute for r in view.dimensions["cecilia"]] == ["city", "employer"]
    assert view.deltas == {pair: dims.deltas("s", *pair) for pair in pairs}
    assert [d.id for d in view.deltas[("cecilia", "employer")]] == ["d1", "d2"]  # event time, ties by id
    assert [d.id for d in view.deltas[("ben", "city")]] == ["d4"] and view.deltas[("zoe", "city")] == []
    other = dims.recall_dimensions("t", ["cecilia"], [("cecilia", "employer")])
    assert [d.id for d in other.deltas[("cecilia", "employer")]] == ["d9"] and len(other.same_as) == 1
    assert dims.recall_dimensions("s", [], []) == type(view)(same_as=dims.same_as("s"))
