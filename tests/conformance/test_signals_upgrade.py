"""Level 0 has a version (``eywa.signals.version``): turns an older release detected are
detected again by ``reprocess`` on every backend, with everything Level 0 derived from their
signals (mentions, entities and their kinds, co-mention edges) and then their Level 1, so the
space equals a fresh ingest of the same turns: signals, mentions, beliefs, dimensions and
recall results. Each case writes one space with an older detector and one fresh, side by side."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.batches import SignalDetector
from eywa.embedding import Embedder
from eywa.errors import InvalidInputError
from eywa.portability import record_json
from eywa.signals.version import current_signals_version
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


def exported_lines(mem: Memory, space: str) -> list[str]:
    return [record_json(r) for r in mem.export_space(space)]


def turn_versions(lines: Sequence[str]) -> set[int]:
    return {json.loads(line)["signals_version"] for line in lines if json.loads(line)["kind"] == "turn"}


def test_an_export_carries_each_turns_signals_version(open_memory: MemoryFactory) -> None:
    """The export says which turns an older release detected, read from either backend."""
    mem = open_memory()
    with detected_by_an_older_release():
        remembered(mem, "old", BATCHES[:1])
    remembered(mem, "old", BATCHES[1:])
    lines = exported_lines(mem, "old")
    versions = [json.loads(line)["signals_version"] for line in lines if json.loads(line)["kind"] == "turn"]
    assert sorted(versions) == [0] * 15 + [current_signals_version()] * 30
    mem.reprocess("old")
    assert turn_versions(exported_lines(mem, "old")) == {current_signals_version()}


def test_an_imported_export_of_an_older_release_is_upgraded_by_reprocess(
    open_memory: MemoryFactory, embedder: Embedder, tmp_path: Path
) -> None:
    """Importing keeps the signals an older release detected marked as outdated (they are
    not passed off as current), so ``reprocess`` on the copy ends as a fresh ingest does."""
    source = Memory.open(tmp_path / "source", embedder=embedder)
    try:
        with detected_by_an_older_release():
            remembered(source, "old", BATCHES)
        lines = exported_lines(source, "old")
    finally:
        source.close()
    mem = open_memory()
    remembered(mem, "fresh", BATCHES)
    report = mem.import_space("old", lines, wait=True)
    assert report.outdated_signals == 45 and mem.stats("old")["outdated_signals"] == 45
    assert turn_versions(exported_lines(mem, "old")) == {0}  # the copy exports what it was given

    assert mem.reprocess("old") > 0
    assert derived(mem, "old", QUERIES) == derived(mem, "fresh", QUERIES)
    assert mem.stats("old")["outdated_signals"] == 0


def test_an_export_from_before_versions_travelled_counts_as_outdated(embedder: Embedder, tmp_path: Path) -> None:
    with Memory.open(tmp_path / "source", embedder=embedder) as source:
        remembered(source, "s", BATCHES[:1])
        lines = exported_lines(source, "s")
    older = [_without_version(line) for line in lines]
    with Memory.open(tmp_path / "copy", embedder=embedder) as copy:
        assert copy.import_space("s", older, wait=True).outdated_signals == 15
        assert copy.stats("s")["outdated_signals"] == 15


def test_an_export_of_a_newer_release_is_refused_and_writes_nothing(embedder: Embedder, tmp_path: Path) -> None:
    with Memory.open(tmp_path / "source", embedder=embedder) as source:
        remembered(source, "s", BATCHES[:1])
        lines = exported_lines(source, "s")
    last_turn = max(i for i, line in enumerate(lines) if json.loads(line)["kind"] == "turn")
    newer = [_with_version(line, current_signals_version() + 1) if i == last_turn else line for i, line in enumerate(lines)]
    with Memory.open(tmp_path / "copy", embedder=embedder) as copy:
        with pytest.raises(InvalidInputError, match="newer release"):
            copy.import_space("s", newer, wait=True)
        assert copy.stats("s")["evidence"] == 0


def _without_version(line: str) -> str:
    record = json.loads(line)
    record.pop("signals_version", None)
    return json.dumps(record)


def _with_version(line: str, version: int) -> str:
    record = json.loads(line)
    assert record["kind"] == "turn"
    return json.dumps(record | {"signals_version": version})
