"""The embedded keyword index's two plans: a store whose only space is the one searched ranks
row ids alone (no per-row space test), a store of several spaces filters each row first.
Both must serve the same turns in the same order, and never a row of another space."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from eywa.batches import coerce_turns, prepare_batch
from eywa.models import Belief, CheckScore, ValidationReport
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.embedded import keyword
from eywa.stores.embedded.factory import open_embedded

AT = datetime(2024, 3, 1, tzinfo=timezone.utc)


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    bundle = open_embedded(tmp_path / "embedded", 8)
    yield bundle
    bundle.close()


def write(stores: Stores, space: str, turns: list[dict[str, Any]]) -> list[str]:
    batch = prepare_batch(space, coerce_turns(turns), stores.evidence, detect_signals, now=AT)
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids


def belief(bid: str, space: str, value: str, evidence: str) -> Belief:
    return Belief(
        id=bid, space=space, statement=f"Ana paddles a {value}.", subject="Ana", attribute="hobby",
        value=value, polarity="positive", modality="asserted", valid_from=AT, valid_to=None,
        recorded_at=AT, status="active", extractor="rules", evidence_ids=(evidence,),
        report=ValidationReport(accepted=True, score=0.9, checks=(CheckScore(name="support", score=0.9, passed=True),)),
    )  # fmt: skip


def kayak_turns(speaker: str, n: int) -> list[dict[str, Any]]:
    # Identical texts in separate sessions score alike: the order between ties is tested too.
    return [{"text": "My kayak is red.", "speaker": speaker, "session": f"s{i}"} for i in range(n)] + [
        {"text": "Kayak, kayak: the kayak club meets on Sunday.", "speaker": speaker, "session": "club"},
    ]


def ids_of(hits: list[tuple[str, str, float]]) -> list[str]:
    return [item_id for _, item_id, _ in hits]


def test_one_space_and_many_spaces_rank_a_space_alike(stores: Stores) -> None:
    ana = write(stores, "ana", kayak_turns("Ana", 4))
    alone = stores.keyword.search("ana", "kayak", 10)
    assert set(ids_of(alone)) == set(ana) and ids_of(alone)[0] == ana[-1]
    assert ids_of(alone)[1:] == ana[:-1]  # ties in the order the turns were written

    zed = write(stores, "zed", kayak_turns("Zed", 6))  # now the filtered plan runs
    crowded = stores.keyword.search("ana", "kayak", 10)
    assert ids_of(crowded) == ids_of(alone)  # one term: the other space rescales, never reorders
    assert not set(ids_of(stores.keyword.search("ana", "kayak", 50))) & set(zed)
    assert ids_of(stores.keyword.search("zed", "kayak", 3)) == [zed[-1], *zed[:2]]


def test_beliefs_of_another_space_are_never_served(stores: Stores) -> None:
    (ana,) = write(stores, "ana", [{"text": "I paddle a kayak.", "speaker": "Ana"}])
    stores.beliefs.add([belief("bel_ana", "ana", "kayak", ana)], [])
    assert ids_of(stores.keyword.search("ana", "kayak", 5, kinds=("belief",))) == ["bel_ana"]
    (zed,) = write(stores, "zed", [{"text": "I paddle a kayak too.", "speaker": "Zed"}])
    stores.beliefs.add([belief("bel_zed", "zed", "kayak kayak", zed)], [])
    assert ids_of(stores.keyword.search("ana", "kayak", 5, kinds=("belief",))) == ["bel_ana"]
    assert ids_of(stores.keyword.search("zed", "kayak", 5, kinds=("belief",))) == ["bel_zed"]


def test_a_row_of_another_space_read_back_falls_back_to_the_filtered_plan(
    stores: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As if the other space were written between the check and the search: the sole-space
    # plan returns its rows, the spaces read back give it away, the filtered plan answers.
    zed = write(stores, "zed", kayak_turns("Zed", 3))
    (ana,) = write(stores, "ana", [{"text": "I sold my old kayak.", "speaker": "Ana", "session": "s1"}])
    expected = stores.keyword.search("ana", "kayak", 2)
    never = "SELECT 0 WHERE ? = ?"
    monkeypatch.setattr(keyword, "_OTHER_SPACE", {"evidence": never, "belief": never})
    assert stores.keyword.search("ana", "kayak", 2) == expected
    assert ids_of(expected) == [ana] and ana not in zed


def test_an_index_row_whose_turn_is_gone_does_not_shorten_the_ranking(stores: Stores, tmp_path: Path) -> None:
    # Erasure rewrites the index with the turns; should an index row outlive its turn all the
    # same, the sole-space plan must not count it among the best rows it looks up.
    ids = write(stores, "ana", kayak_turns("Ana", 3))
    with sqlite3.connect(tmp_path / "embedded" / "eywa.sqlite3") as conn:
        conn.execute("DELETE FROM evidence WHERE id = ?", (ids[-1],))  # the best match's turn only
    assert ids_of(stores.keyword.search("ana", "kayak", 2)) == ids[:2]


def test_the_sole_space_plan_serves_beliefs_as_the_filtered_plan_does(
    stores: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sole-space plan reads a belief's id and space from the FTS table's content rows:
    # the same beliefs, scores and tie order as the filtered plan reading the virtual table.
    turns = write(stores, "ana", [{"text": f"I paddle a kayak, day {i}.", "speaker": "Ana"} for i in range(6)])
    values = ["kayak", "red kayak", "kayak", "canoe", "kayak kayak", "kayak"]  # ties among them
    stores.beliefs.add([belief(f"bel_{i}", "ana", v, t) for i, (v, t) in enumerate(zip(values, turns))], [])
    filtered = dict(keyword._FILTERED)
    # The sole-space plan must answer alone: the filtered plan would fail.
    monkeypatch.setattr(keyword, "_FILTERED", {kind: "SELECT * FROM no_such_table" for kind in filtered})
    sole = stores.keyword.search("ana", "kayak paddles", 10, kinds=("belief",))
    assert ids_of(sole)[:1] == ["bel_4"] and len(sole) == 6
    always = "SELECT 1 WHERE ? = ?"
    monkeypatch.setattr(keyword, "_FILTERED", filtered)
    monkeypatch.setattr(keyword, "_OTHER_SPACE", {"evidence": always, "belief": always})
    assert stores.keyword.search("ana", "kayak paddles", 10, kinds=("belief",)) == sole
