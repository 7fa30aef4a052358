"""Crash injection at each commit boundary of ``remember``: a child process is SIGKILLed at a
named point (``eywa.crashpoints``), the parent reopens the store and sends the same batch
again, and the result must equal a clean run: evidence, signals, beliefs (with statuses and
supersession), candidates, dimensions (distributions to 1e-9), deltas, vectors (every id
present, the same search answers) and an empty backlog.

Before the stage ledger, a crash after the Level 0 commit left the turns and 0 beliefs and 0
dimensions forever (the retry was an idempotent no-op); a crash during Level 1 left the
beliefs of the finished batches and no dimension at all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eywa.embedding import embedder_id
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.reconcile import StageWork, finish
from eywa.stores.embedded.factory import open_embedded
from eywa.stores.ledger import DERIVED_STAGES, PENDING_STAGES, SpaceBacklog
from tests.reliability.support import SPACE, HashEmbedder, corpus, open_memory, snapshot

ROOT = Path(__file__).resolve().parents[2]
TURNS = 200

# (point, occurrence): after the Level 0 commit; after the 2nd of several vector upserts;
# mid Level 1 after 1 and 4 of 7 batches; after every batch but before supersession settled
# for the last; mid Nous after 1 and 6 dimensions; after the dimensions, before their marks
# were cleared; after the belief vectors, before their marks were cleared.
CRASHES = [
    ("level0_committed", 1),
    ("evidence_vectors_upserted", 2),
    ("level1_batch_written", 1),
    ("level1_batch_written", 4),
    ("beliefs_written", 1),
    ("dimension_saved", 1),
    ("dimension_saved", 6),
    ("dimensions_updated", 1),
    ("belief_vectors_upserted", 1),
]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("clean")
    with open_memory(directory) as mem:
        mem.remember(SPACE, corpus(TURNS))
        found = snapshot(mem)
    assert len(found["beliefs"]) > 50 and len(found["dimensions"]) > 10  # the corpus derives plenty
    assert found["backlog"]["level1_backlog"] == 0
    return found


def crash(directory: Path, point: str, occurrence: int, *mode: str) -> None:
    """Run the child until it kills itself at ``point``; fail if it never got there."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    environment["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "tests.reliability.crash_child", str(directory), point, str(occurrence), str(TURNS),
         *mode],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == -signal.SIGKILL, f"the child did not crash at {point} #{occurrence}: {done.stderr[-2000:]}"


@pytest.mark.parametrize(("point", "occurrence"), CRASHES, ids=[f"{p}-{n}" for p, n in CRASHES])
def test_a_crash_then_reopen_and_retry_equals_a_clean_run(
    tmp_path: Path, clean: dict[str, Any], point: str, occurrence: int
) -> None:
    directory = tmp_path / "mem"
    crash(directory, point, occurrence)
    with open_memory(directory) as mem:
        recovered = snapshot(mem)  # reconciled on open
        ids = mem.remember(SPACE, corpus(TURNS))  # the client's retry
        retried = snapshot(mem)
    assert sorted(ids) == clean["evidence"]
    assert recovered == clean
    assert retried == clean


@pytest.mark.parametrize(("point", "occurrence"), [("level0_committed", 1), ("level1_batch_written", 2)])
def test_the_retried_batch_alone_finishes_what_the_crash_left(
    tmp_path: Path, clean: dict[str, Any], point: str, occurrence: int
) -> None:
    """Without reconciliation on open: ``finish`` over the re-sent batch's ids (what
    ``remember`` runs for a retry) leaves nothing pending, so open finds nothing to do."""
    directory = tmp_path / "mem"
    crash(directory, point, occurrence)
    embedder = HashEmbedder()
    stores = open_embedded(directory, embedder.dim, embedder_id(embedder))
    try:
        ids = stores.evidence.ids(SPACE)
        assert stores.ledger.level1_backlog() > 0
        work = StageWork(stores=stores, validator=Validator(), level1_batch=32, embed_batch=64, vectors=stores,
                         embedder=embedder, extractor=RuleExtractor())  # fmt: skip
        finish(work, SPACE, ids)
        assert stores.ledger.level1_backlog() == 0
        assert sum(stores.ledger.backlog().values()) == 0
    finally:
        stores.close()
    with open_memory(directory) as mem:
        assert snapshot(mem) == clean


@pytest.mark.parametrize(
    ("point", "occurrence"),
    [("level0_committed", 1), ("evidence_vectors_upserted", 2), ("level1_batch_written", 4), ("dimensions_updated", 1)],
)
def test_the_backlog_counts_match_the_marks_after_a_crash(tmp_path: Path, point: str, occurrence: int) -> None:
    """The per-space counts change in the transaction of the marks they count: a SIGKILL at
    any commit boundary leaves them equal to a full count (read before anything reconciles)."""
    directory = tmp_path / "mem"
    crash(directory, point, occurrence)
    embedder = HashEmbedder()
    stores = open_embedded(directory, embedder.dim, embedder_id(embedder))
    try:
        marks = [m for stage in PENDING_STAGES for m in stores.ledger.pending(stage, limit=100_000, space=SPACE)]
        assert marks  # the crash left work behind
        embed = sum(1 for m in marks if m.stage == "embed_evidence")
        level1 = len({m.item_id for m in marks if m.stage in DERIVED_STAGES})
        assert stores.ledger.space_backlog(SPACE) == SpaceBacklog(embed=embed, level1=level1)
    finally:
        stores.close()
