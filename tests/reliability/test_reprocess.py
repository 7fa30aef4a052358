"""Reprocessing: a new extractor version helps the turns already stored. ``reprocess`` marks
the turns another version read, and the reconciler replaces what that version proposed with
what the current one proposes and replays the touched dimensions: the result equals a clean
run with the new version, reprocessing again does nothing, and a crash in the middle is
finished on reopen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.reliability.support import SPACE, RulesV2, corpus, open_memory, snapshot
from tests.reliability.test_crash_recovery import TURNS, crash


@pytest.fixture(scope="module")
def clean_v2(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("clean-v2")
    with open_memory(directory, extractor=RulesV2()) as mem:
        mem.remember(SPACE, corpus(TURNS))
        return snapshot(mem)


def stored_by_v1(directory: Path) -> dict[str, Any]:
    with open_memory(directory) as mem:
        mem.remember(SPACE, corpus(TURNS))
        return snapshot(mem)


def test_reprocessing_equals_a_clean_run_of_the_new_version(tmp_path: Path, clean_v2: dict[str, Any]) -> None:
    directory = tmp_path / "mem"
    v1 = stored_by_v1(directory)
    pets = [b for b in v1["beliefs"] if " named " in b[3] or "has a " in b[3]]
    assert pets and v1 != clean_v2  # the versions differ: pets, and every belief's version
    with open_memory(directory, extractor=RulesV2()) as mem:
        assert mem.reprocess(SPACE) == TURNS
        assert snapshot(mem) == clean_v2
        assert {b[4] for b in snapshot(mem)["beliefs"]} == {RulesV2.version}
        assert mem.reprocess(SPACE) == 0  # idempotent: every turn was read by this version
        assert snapshot(mem) == clean_v2
    with open_memory(directory) as mem:  # back to version 1: the same mechanism, the other way
        assert mem.reprocess(SPACE) == TURNS
        assert snapshot(mem) == v1


@pytest.mark.parametrize(("point", "occurrence"), [("level1_batch_written", 3), ("dimension_saved", 4)])
def test_a_crash_during_reprocessing_is_finished_on_reopen(
    tmp_path: Path, clean_v2: dict[str, Any], point: str, occurrence: int
) -> None:
    directory = tmp_path / "mem"
    stored_by_v1(directory)
    crash(directory, point, occurrence, "reprocess")
    with open_memory(directory, extractor=RulesV2()) as mem:
        assert snapshot(mem) == clean_v2
        assert mem.reprocess(SPACE) == 0
