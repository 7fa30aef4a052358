"""The per-space backlog counts (``StageLedger.space_backlog``) are kept at write time, in the
transaction of the marks they count, and always equal a full count of the marks: after any
sequence of marks set and cleared (by the ledger, by Level 0 and by tombstones, overlapping
items and stages, several spaces), on every backend.

``embed`` is the space's ``embed_evidence`` marks; ``level1`` its distinct items with
``level1`` or ``nous`` pending (an item with both counts once, and stays counted until its
last such mark goes)."""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from datetime import datetime, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa.batches import coerce_turns, prepare_batch
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.ledger import DERIVED_STAGES, PENDING_STAGES, SpaceBacklog

AT = datetime(2024, 3, 2, 10, 0, tzinfo=timezone.utc)
_SPACES = ("s1", "s2")
_ITEMS = ("a", "b", "c", "d")
_EXAMPLES = itertools.count()

_items = st.lists(st.sampled_from(_ITEMS), min_size=1, max_size=4)
_step = st.one_of(
    st.tuples(st.just("mark"), st.sampled_from(_SPACES), st.sampled_from(PENDING_STAGES), _items),
    st.tuples(st.just("complete"), st.sampled_from(_SPACES), st.sampled_from(PENDING_STAGES), _items),
    st.tuples(st.just("tombstone"), st.sampled_from(_SPACES), st.just("level1"), _items),
    st.tuples(st.just("level0"), st.sampled_from(_SPACES), st.just("embed_evidence"), _items),
)


def full_count(stores: Stores, space: str) -> SpaceBacklog:
    """What the counts must equal: every mark of ``space`` read and counted."""
    marks = [m for stage in PENDING_STAGES for m in stores.ledger.pending(stage, limit=10_000, space=space)]
    embed = sum(1 for m in marks if m.stage == "embed_evidence")
    level1 = len({m.item_id for m in marks if m.stage in DERIVED_STAGES})
    return SpaceBacklog(embed=embed, level1=level1)


def run_step(stores: Stores, space: str, op: str, stage: str, items: list[str]) -> None:
    if op == "mark":
        stores.ledger.mark(space, stage, items, "reprocess", AT)  # type: ignore[arg-type]
    elif op == "complete":
        stores.ledger.complete(space, stage, items)  # type: ignore[arg-type]
    elif op == "tombstone":  # clears the derived marks of the items, in the tombstones' transaction
        stores.tombstones.add_tombstones(space, items, AT)
    else:  # Level 0: new turns (a turn whose text was sent before is not new, and marks nothing)
        batch = prepare_batch(space, coerce_turns([{"text": f"Turn {i} here.", "speaker": "Ana"} for i in items]),
                              stores.evidence, detect_signals)  # fmt: skip
        if not stores.tombstones.tombstoned(space, batch.ids):
            stores.evidence.add(batch.new, batch.mentions)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_step, min_size=1, max_size=10))
def test_counts_equal_a_full_count_after_any_sequence(stores: Stores, steps: list[tuple[str, str, str, list[str]]]) -> None:
    example = next(_EXAMPLES)  # the store outlives the examples: each gets its own spaces
    spaces = {s: f"{s}-{example}" for s in _SPACES}
    for op, space, stage, items in steps:
        run_step(stores, spaces[space], op, stage, items)
        for name in spaces.values():
            assert stores.ledger.space_backlog(name) == full_count(stores, name), (op, space, stage, items)
    totals = Counter[str]()
    for stage in DERIVED_STAGES:
        for m in stores.ledger.pending(stage, limit=100_000):
            totals[f"{m.space}/{m.item_id}"] += 1
    assert stores.ledger.level1_backlog() == len(totals)


def test_a_space_without_marks_counts_zero_and_others_are_untouched(stores: Stores) -> None:
    stores.ledger.mark("home", "embed_evidence", ["a", "b"], "new", AT)
    stores.ledger.mark("home", "level1", ["a", "b"], "new", AT)
    stores.ledger.mark("home", "nous", ["b", "c"], "new", AT)
    assert stores.ledger.space_backlog("home") == SpaceBacklog(embed=2, level1=3)
    assert stores.ledger.space_backlog("elsewhere") == SpaceBacklog()
    stores.ledger.complete("home", "level1", ["b"])  # b still owes nous: still counted
    assert stores.ledger.space_backlog("home") == SpaceBacklog(embed=2, level1=3)
    stores.ledger.complete("home", "nous", ["b", "c"])
    stores.ledger.complete("home", "embed_evidence", ["a", "zz"])
    assert stores.ledger.space_backlog("home") == SpaceBacklog(embed=1, level1=1)
    assert stores.ledger.level1_backlog() == 1


def test_concurrent_changes_of_the_same_marks_keep_the_counts(stores: Stores) -> None:
    """Four threads marking and clearing the same items' stages at once (a batch re-sent
    while in flight, Level 1 and an erasure clearing one turn's stages): the counts still
    equal a full count, because a space's mark changes take its counter's lock in turn."""
    items = [f"t{i}" for i in range(20)]
    stages = ("embed_evidence", "level1", "nous")
    errors: list[BaseException] = []

    def churn(offset: int) -> None:
        try:
            for round_ in range(6):
                stage = stages[(offset + round_) % len(stages)]
                stores.ledger.mark("busy", stage, items, "new", AT)  # type: ignore[arg-type]
                stores.ledger.complete("busy", stages[(offset + round_ + 1) % len(stages)], items[offset::2])  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=churn, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert stores.ledger.space_backlog("busy") == full_count(stores, "busy")
