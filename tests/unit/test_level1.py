"""The one Level 1 workflow (``eywa.level1``) on the embedded stores: extraction, then the
Nous update of every non-retracted belief citing the turns, one dimension at a time under
the lock the caller passes; re-running writes nothing; ``Memory`` runs the same function."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.ids import content_hash, entity_key
from eywa.level1 import DimensionKey, run_level1, update_dimensions
from eywa.models import Evidence
from eywa.signals import detect_signals
from eywa.stores.bundle import GraphStores
from eywa.stores.embedded.factory import open_embedded, open_embedded_graph

T0 = datetime(2023, 5, 9, 13, 0, tzinfo=UTC)
SPACE = "home"


def turn(eid: str, text: str, at: datetime, seq: int, speaker: str = "Cecilia") -> Evidence:
    return Evidence(
        id=eid, space=SPACE, session="s1", seq=seq, speaker=speaker, role=None, text=text, observed_at=at,
        recorded_at=at, content_hash=content_hash(text), signals=detect_signals(text, at, speaker=speaker),
    )


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[GraphStores]:
    open_embedded(tmp_path, 8).close()
    bundle = open_embedded_graph(tmp_path)
    bundle.evidence.add(
        [
            turn("a", "I live in Paris.", T0, 0),
            turn("b", "I work at Google now.", T0 + timedelta(days=30), 1),
            turn("c", "I live in Lyon.", T0 + timedelta(days=90), 2),
        ],
        [],
    )
    yield bundle
    bundle.close()


class LockLog:
    """A dimension lock that records which keys were held, and checks none is re-entered."""

    def __init__(self) -> None:
        self.taken: list[DimensionKey] = []
        self.held: set[DimensionKey] = set()

    @contextmanager
    def __call__(self, key: DimensionKey) -> Iterator[None]:
        assert key not in self.held
        self.held.add(key)
        self.taken.append(key)
        try:
            yield
        finally:
            self.held.discard(key)


def test_level1_writes_beliefs_and_updates_each_dimension_under_its_lock(stores: GraphStores) -> None:
    locks = LockLog()
    outcome = run_level1(
        stores, SPACE, ["a", "b", "c"], RuleExtractor(), Validator(), batch_size=2, dimension_lock=locks
    )
    assert outcome.report is not None and outcome.report.accepted >= 3
    assert outcome.beliefs == len(stores.beliefs.beliefs_citing(SPACE, ["a", "b", "c"]))
    assert outcome.deltas
    keys = {(d.space, entity_key(d.entity), d.attribute) for d in outcome.deltas}
    assert sorted(set(locks.taken)) == sorted(keys) and len(locks.taken) == len(keys)
    assert ("home", "cecilia", "residence") in keys


def test_rerunning_level1_writes_nothing_new(stores: GraphStores) -> None:
    first = run_level1(stores, SPACE, ["a", "b", "c"], RuleExtractor(), Validator(), batch_size=8)
    beliefs = stores.beliefs.beliefs(SPACE, status=None)
    again = run_level1(stores, SPACE, ["a", "b", "c"], RuleExtractor(), Validator(), batch_size=8)
    assert first.deltas and first.level1_done == 3 and first.nous_done == 3
    # The ledger says the turns are done: the second pass reads nothing and writes nothing.
    assert again.deltas == () and again.report is None and (again.level1_done, again.nous_done) == (0, 0)
    assert stores.beliefs.beliefs(SPACE, status=None) == beliefs
    assert stores.ledger.pending_for(SPACE, ["a", "b", "c"]) == [] or {
        m.stage for m in stores.ledger.pending_for(SPACE, ["a", "b", "c"])
    } == {"embed_evidence"}


def test_without_an_extractor_the_beliefs_already_stored_still_reach_their_dimensions(stores: GraphStores) -> None:
    """A crash between the two steps: beliefs written (their turns' ``level1`` cleared in the
    same transaction), dimensions not; the re-run applies them."""
    from eywa.extraction.pipeline import extract_beliefs

    extract_beliefs(
        space=SPACE, evidence_ids=["a", "c"], evidence_store=stores.evidence, belief_store=stores.beliefs,
        extractor=RuleExtractor(), validator=Validator(), complete_stage=True,
    )  # fmt: skip
    assert stores.dimensions.dimensions(SPACE) == []
    outcome = run_level1(stores, SPACE, ["a", "c"], None, Validator(), batch_size=8)
    assert outcome.report is None and outcome.beliefs >= 2
    assert {r.attribute for r in stores.dimensions.dimensions(SPACE)} >= {"residence"}


def test_retracted_beliefs_observe_nothing(stores: GraphStores) -> None:
    from eywa.extraction.pipeline import extract_beliefs

    report = extract_beliefs(
        space=SPACE, evidence_ids=["a"], evidence_store=stores.evidence, belief_store=stores.beliefs,
        extractor=RuleExtractor(), validator=Validator(), complete_stage=True,
    )  # fmt: skip
    stores.beliefs.set_status(SPACE, [b.id for b in report.beliefs], "retracted")
    outcome = run_level1(stores, SPACE, ["a"], None, Validator(), batch_size=8)
    assert (outcome.beliefs, outcome.deltas, outcome.nous_done) == (0, (), 1)
    assert update_dimensions(stores, SPACE, []) == []
