"""Level 0 has a version (``eywa.signals.version``): turns an older release detected are
detected again by ``reprocess`` on every backend, with everything Level 0 derived from their
signals (mentions, entities and their kinds, co-mention edges) and then their Level 1, so the
space equals a fresh ingest of the same turns: signals, mentions, beliefs, dimensions and
recall results. Each case writes one space with an older detector and one fresh, side by side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from eywa import Memory
from eywa.batches import SignalDetector
from tests.conformance.conftest import MemoryFactory
from tests.reliability.support import corpus, derived, detected_by_an_older_release, older_detector, overeager_detector

QUERIES = ("What did Pablo cook?", "Where does Greta live?", "When did Greta move?", "Who has a parrot?")
BATCHES = [corpus(45)[i : i + 15] for i in range(0, 45, 15)]


def remembered(mem: Memory, space: str, batches: Sequence[Sequence[dict[str, Any]]]) -> None:
    for batch in batches:
        mem.remember(space, list(batch))


@pytest.mark.parametrize("detector", [older_detector, overeager_detector], ids=["missed", "overeager"])
def test_reprocess_makes_turns_of_an_older_detector_equal_a_fresh_ingest(
    open_memory: MemoryFactory, detector: SignalDetector
) -> None:
    mem = open_memory()
    remembered(mem, "fresh", BATCHES)
    with detected_by_an_older_release(detector):
        remembered(mem, "old", BATCHES)
    fresh, old = derived(mem, "fresh", QUERIES), derived(mem, "old", QUERIES)
    assert old["signals"] != fresh["signals"] and old["entities"] != fresh["entities"]
    assert old["co_mentioned"] != fresh["co_mentioned"]
    assert mem.stats("old")["outdated_signals"] == 45 and mem.stats("fresh")["outdated_signals"] == 0

    assert mem.reprocess("old") > 0
    # Both read now: keyword scores count every space's statements (the old space's beliefs
    # just changed), so a reading taken before would differ in the scores alone.
    assert derived(mem, "old", QUERIES) == derived(mem, "fresh", QUERIES)
    assert mem.stats("old")["outdated_signals"] == 0
    assert mem.backlog()["level1"] == 0
    assert mem.reprocess("old") == 0
    assert derived(mem, "old", QUERIES) == derived(mem, "fresh", QUERIES)


def test_rederiving_signals_updates_level0_at_once_and_level1_through_the_reconciler(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    with detected_by_an_older_release():
        remembered(mem, "old", BATCHES)
    remembered(mem, "fresh", BATCHES)
    upgraded = mem.rederive_signals("old", wait=False)
    assert upgraded.rederived == 45 and 0 < upgraded.changed <= 45
    assert mem.rederive_signals("old", wait=False).rederived == 0
    fresh = derived(mem, "fresh", QUERIES)
    now = derived(mem, "old", QUERIES)
    assert {k: now[k] for k in ("signals", "mentions", "entities", "co_mentioned")} == {
        k: fresh[k] for k in ("signals", "mentions", "entities", "co_mentioned")
    }
    mem.reconcile()
    assert derived(mem, "old", QUERIES) == derived(mem, "fresh", QUERIES)
