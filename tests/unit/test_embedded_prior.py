"""The embedded store's ``prior`` in a small space (no more entities than the batch's
candidate spans): the space's entity rows are read and filtered by name, and only the rows
named become entities (``SqliteEvidenceStore._entities_named``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from eywa.batches import coerce_turns, prepare_batch
from eywa.ids import entity_id
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import open_embedded
from eywa.stores.embedded.records import entity_from_row

AT = datetime(2024, 3, 1, tzinfo=timezone.utc)
TURNS = [
    {"text": "I met Odile and Pavel at the Kestrel Labs office.", "speaker": "Ruth"},
    {"text": "Tomasz moved to Lyon; Ilse stayed in Graz with Bruna.", "speaker": "Odile"},
]


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    bundle = open_embedded(tmp_path / "embedded", 8)
    batch = prepare_batch("home", coerce_turns(TURNS), bundle.evidence, detect_signals, now=AT)
    bundle.evidence.add(batch.new, batch.mentions)
    yield bundle
    bundle.close()


def test_only_the_entities_named_are_built_from_a_small_space(stores: Stores, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every row of the space was made an entity, then filtered by name: in a space of 27
    entities, a batch of the service bench's turns (139 candidate spans) took 168 us for
    the entities' read, 82 us once only the rows named are built (session 41)."""
    stored = stores.evidence.entities("home")
    assert len(stored) >= 8
    built: list[str] = []

    def counting(row: Any) -> Any:
        built.append(row["name"])
        return entity_from_row(row)

    monkeypatch.setattr("eywa.stores.embedded.evidence.entity_from_row", counting)
    spans = ["odile", "kestrel labs", "nobody", *(f"filler {i}" for i in range(40))]
    prior = stores.evidence.prior("home", [], spans, ["default"])
    assert [(e.name, e.id, e.kind) for e in prior.entities] == [
        ("Kestrel Labs", entity_id("home", "Kestrel Labs"), "entity"),
        ("Odile", entity_id("home", "Odile"), "person"),
    ]
    assert sorted(built) == ["Kestrel Labs", "Odile"]
