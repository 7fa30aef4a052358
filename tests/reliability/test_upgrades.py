"""Upgrades are a failure mode too: a store written by the previous format is migrated on
open with its data intact, and a change of embedder re-embeds everything in the background
while searches see only vectors of the current embedder (never two vector spaces mixed)."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from eywa.embedding import embedder_id
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.stores.context import vector_windows
from eywa.models import utc_now
from eywa.reconcile import StageWork, reconcile_pass
from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import DATABASE_FILE, open_embedded
from eywa.stores.embedded.migrations import FORMAT_VERSION
from eywa.memory import Memory
from eywa.models import Turn
from eywa.rederive import SignalsUpgrade
from tests.reliability.support import (
    SPACE,
    HashEmbedder,
    corpus,
    derived,
    detected_by_an_older_release,
    open_memory,
    snapshot,
    stored_turns,
)
from tests.reliability.test_crash_recovery import crash

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "formats" / "embedded-v1.sqlite3.gz"


def legacy_store(directory: Path) -> Path:
    directory.mkdir(parents=True)
    with gzip.open(FIXTURE) as packed, (directory / DATABASE_FILE).open("wb") as out:
        shutil.copyfileobj(packed, out)
    return directory


def user_version(directory: Path) -> int:
    with sqlite3.connect(directory / DATABASE_FILE) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_a_store_of_the_previous_format_is_migrated_on_open_with_its_data_intact(tmp_path: Path) -> None:
    directory = legacy_store(tmp_path / "legacy")
    assert user_version(directory) == 1 < FORMAT_VERSION
    with open_memory(directory) as mem:
        stats = mem.stats("legacy")
        assert (stats["evidence"], stats["entities"], stats["dimensions"]) == (24, 5, 5)
        assert stats["beliefs"] == {"belief_active": 8}
        before = {(b.id, b.statement) for b in mem.beliefs("legacy")}
        assert {b.extractor_version for b in mem.beliefs("legacy")} == {None}  # unknown: written before versions
        dims = {(d.entity, d.attribute): d.distribution for d in mem.dimensions("legacy")}
        # No vectors came with it; the change of embedder (none recorded → hash-a) rebuilt them.
        assert mem._stores.vectors.count("evidence", "legacy") == 24
        assert mem._stores.vectors.count("belief", "legacy") == 8
        assert mem.backlog()["embed_evidence"] == 0
        hits = mem.recall("legacy", "Who is a librarian?", k=5).items
        assert any("librarian" in item.text for item in hits)
        # The old beliefs' version is unknown, and so is the signals version of its turns:
        # reprocessing detects every turn's signals again and reads every turn again. The
        # facts are those of a fresh ingest of the same turns, now stamped with the rule
        # extractor's version: the same as before but one, whose day ("on Sunday") this
        # release's Level 0 places (session 27), and the same dimensions.
        assert mem.stats("legacy")["outdated_signals"] == 24
        assert mem.reprocess("legacy") == 24
        assert mem.stats("legacy")["outdated_signals"] == 0
        with open_memory(tmp_path / "fresh") as fresh:
            for batch in stored_turns(mem, "legacy"):
                fresh.remember("legacy", batch)
            assert derived(mem, "legacy", QUERIES) == derived(fresh, "legacy", QUERIES)
        after_ids = {(b.id, b.statement) for b in mem.beliefs("legacy")}
        assert len(after_ids - before) == len(before - after_ids) == 1
        assert {b.extractor_version for b in mem.beliefs("legacy")} == {RuleExtractor.version}
        after = {(d.entity, d.attribute): d.distribution for d in mem.dimensions("legacy")}
        assert after.keys() == dims.keys()
        changed = [key for key in dims if after[key].keys() != dims[key].keys()]
        assert len(changed) == 1  # the dimension of the fact whose day is now placed
        for key, distribution in dims.items():
            if key not in changed:
                assert after[key] == pytest.approx(distribution, abs=1e-9)
        assert mem.reprocess("legacy") == 0
    assert user_version(directory) == FORMAT_VERSION


def own_vector_hits(stores: Stores, embedder: HashEmbedder, evidence_ids: list[str]) -> dict[str, float]:
    """For each turn, search with the vector ``embedder`` gives its text: the turn's own point
    comes first with cosine 1 exactly when its stored vector is ``embedder``'s."""
    found: dict[str, float] = {}
    for turn in stores.evidence.get("crash", evidence_ids):
        near = {n.seq: n for n in stores.evidence.neighbours("crash", turn.id, 1, 1)}
        total = embedder.embed(list(vector_windows(turn, near.get(turn.seq - 1), near.get(turn.seq + 1)))).sum(axis=0)
        vector = total / np.linalg.norm(total)
        hits = stores.vectors.search("evidence", "crash", vector, 1)
        found[turn.id] = hits[0][1] if hits and hits[0][0] == turn.id else 0.0
    return found


def test_a_change_of_embedder_re_embeds_and_searches_never_mix_two_embedders(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    old, new = HashEmbedder("hash-a"), HashEmbedder("hash-b")
    with open_memory(directory, old) as mem:
        ids = mem.remember("crash", corpus(40))
        beliefs = len(mem.beliefs("crash", status=None))
    stores = open_embedded(directory, new.dim, embedder_id(new))
    try:
        assert stores.ledger.switch_embedder(embedder_id(new), utc_now()) == 40 + beliefs
        probe = new.embed(["Where does Greta live?"])[0]
        assert stores.vectors.search("evidence", "crash", probe, 100) == []  # hash-a points are not searched
        assert stores.vectors.count("evidence", "crash") == 40  # … but are still there until replaced
        work = StageWork(stores=stores, validator=Validator(), level1_batch=32, embed_batch=64, vectors=stores,
                         embedder=new)  # fmt: skip
        reconcile_pass(work, limit=10)  # part of the way, as a background pass stopped by close()
        searchable = {i for i, _ in stores.vectors.search("evidence", "crash", probe, 100)}
        assert 10 <= len(searchable) < 40
        assert stores.ledger.backlog()["embed_evidence"] == 40 - len(searchable)
        scores = own_vector_hits(stores, new, sorted(searchable))
        assert all(abs(score - 1.0) < 1e-5 for score in scores.values()), scores
    finally:
        stores.close()
    with open_memory(directory, new, reconcile_batch=5) as mem:
        mem.wait()  # open did one pass of 5 per stage; the rest went on in the background
        assert mem.backlog()["embed_evidence"] == mem.backlog()["embed_belief"] == 0
        assert mem._stores.ledger.embedder() == embedder_id(new)
        assert len(mem._stores.vectors.search("belief", "crash", probe, 1000)) == beliefs
        scores = own_vector_hits(mem._stores, new, ids)
        assert all(abs(score - 1.0) < 1e-5 for score in scores.values()), scores


def test_a_store_of_format_4_gets_its_backlog_counts_from_its_marks(tmp_path: Path) -> None:
    """Format 5 keeps per-space backlog counts with triggers; a store written before has marks
    and no counts, and its migration counts them (then the triggers keep them)."""
    directory, at = tmp_path / "mem", utc_now()
    stores = open_embedded(directory, 8)
    stores.ledger.mark("home", "embed_evidence", ["e1", "e2", "e3"], "new", at)
    stores.ledger.mark("home", "level1", ["e1", "e2"], "new", at)
    stores.ledger.mark("home", "nous", ["e2", "e4"], "new", at)
    stores.ledger.mark("work", "nous", ["e9"], "new", at)
    kept = {space: stores.ledger.space_backlog(space) for space in ("home", "work")}
    stores.close()
    with sqlite3.connect(directory / DATABASE_FILE) as conn:  # what format 4 had: the marks alone
        conn.execute("DROP TRIGGER pending_stages_counted_insert")
        conn.execute("DROP TRIGGER pending_stages_counted_delete")
        conn.execute("DROP TABLE space_backlog")
        conn.execute("PRAGMA user_version = 4")
    stores = open_embedded(directory, 8)
    try:
        assert user_version(directory) == FORMAT_VERSION
        assert {space: stores.ledger.space_backlog(space) for space in ("home", "work")} == kept
        assert kept["home"].embed == 3 and kept["home"].level1 == 3
        stores.ledger.complete("home", "nous", ["e2"])  # the triggers keep counting from there
        assert stores.ledger.space_backlog("home").level1 == 3
        stores.ledger.complete("home", "level1", ["e2"])
        assert stores.ledger.space_backlog("home").level1 == 2
    finally:
        stores.close()


def ana_said(text: str, at: str) -> dict[str, str]:
    """A turn of Ana's, said at ``at`` in that day's session."""
    return {"text": text, "speaker": "Ana", "session": at[:10], "observed_at": at}


def test_a_store_of_format_5_reads_its_deltas_and_new_ones_carry_their_stated_start(tmp_path: Path) -> None:
    """Format 6 records the start a delta's belief states (``Delta.valid_from``). A store
    written before has no such column: it is added, empty, so the old deltas read as they
    did (since when they were said) and a new delta reports the start its turn states."""
    directory = tmp_path / "mem"

    with open_memory(directory) as mem:
        mem.remember("home", [ana_said("We moved to York last week.", "2023-08-01T10:00:00")])
        [york] = mem.deltas("home", "Ana", "residence")
        assert york.valid_from is not None
    with sqlite3.connect(directory / DATABASE_FILE) as conn:  # what format 5 had: no valid_from
        conn.execute("ALTER TABLE nous_deltas DROP COLUMN valid_from")
        conn.execute("PRAGMA user_version = 5")
    with open_memory(directory) as mem:
        assert user_version(directory) == FORMAT_VERSION
        [old] = mem.deltas("home", "Ana", "residence")
        assert old == york.model_copy(update={"valid_from": None})
        mem.remember("home", [ana_said("We moved to Bath last week.", "2024-05-10T10:00:00")])
        bath = mem.dimension("home", "Ana", "residence", as_of="2024-06-01T00:00:00")
        [*_, new] = mem.deltas("home", "Ana", "residence")
        assert new.valid_from is not None and new.valid_from < new.at
        assert (bath.mode, bath.since, bath.previous) == ("Bath", new.valid_from, "York")
        assert mem.dimension("home", "Ana", "residence", as_of="2023-09-01T00:00:00").since == old.at


# --- Level 0 versions: signals detected by an older release --------------------------------

QUERIES = ("What did Pablo cook?", "Where does Greta live?", "When did Greta move?")


def remembered(mem: Memory, space: str, batches: Sequence[Sequence[Turn | dict[str, Any]]]) -> None:
    for batch in batches:
        mem.remember(space, batch)


def test_turns_detected_by_an_older_release_are_detected_again_and_equal_a_fresh_ingest(tmp_path: Path) -> None:
    batches = [corpus(60)[i : i + 20] for i in range(0, 60, 20)]
    with open_memory(tmp_path / "fresh") as mem:
        remembered(mem, SPACE, batches)
        fresh = derived(mem, SPACE, QUERIES)
    with open_memory(tmp_path / "old") as mem:
        with detected_by_an_older_release():
            remembered(mem, SPACE, batches)
        old = derived(mem, SPACE, QUERIES)
        assert old["signals"] != fresh["signals"] and old["entities"] != fresh["entities"]
        assert old["beliefs"] != fresh["beliefs"]  # the older signals made other facts
        assert mem.stats(SPACE)["outdated_signals"] == 60
    with open_memory(tmp_path / "old") as mem:  # upgraded in place: this release opens it
        assert derived(mem, SPACE, QUERIES) == old  # nothing re-derived behind the operator's back
        assert mem.reprocess(SPACE) > 0
        assert derived(mem, SPACE, QUERIES) == fresh
        assert mem.stats(SPACE)["outdated_signals"] == 0
        assert mem.backlog()["level1"] == 0
        assert mem.reprocess(SPACE) == 0  # idempotent
        assert derived(mem, SPACE, QUERIES) == fresh


def test_a_store_of_the_current_release_has_nothing_to_rederive(tmp_path: Path) -> None:
    with open_memory(tmp_path / "mem") as mem:
        mem.remember(SPACE, corpus(30))
        before = derived(mem, SPACE)
        assert mem.stats(SPACE)["outdated_signals"] == 0
        assert mem.rederive_signals(SPACE) == SignalsUpgrade(rederived=0, changed=0)
        assert derived(mem, SPACE) == before


UPGRADE_BATCHES = [corpus(40)[i : i + 10] for i in range(0, 40, 10)]


@pytest.fixture(scope="module")
def clean_ingest(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh ingest of ``UPGRADE_BATCHES`` by this release: everything derived."""
    with open_memory(tmp_path_factory.mktemp("clean-ingest")) as mem:
        remembered(mem, SPACE, UPGRADE_BATCHES)
        return snapshot(mem), derived(mem, SPACE, QUERIES)


@pytest.mark.parametrize(
    ("point", "occurrence"),
    [("signals_rederived", 1), ("signals_rederived", 3), ("level1_batch_written", 1), ("dimension_saved", 2)],
)
def test_a_crash_while_rederiving_signals_is_finished_by_the_next_pass(
    tmp_path: Path, clean_ingest: tuple[dict[str, Any], dict[str, Any]], point: str, occurrence: int
) -> None:
    """A SIGKILL after a chunk of turns was re-detected (seven per chunk: 40 turns in six), or
    during the Level 1 the changed turns then owe: the next open and ``reprocess`` end where
    a fresh ingest of the same turns does."""
    directory = tmp_path / "mem"
    with open_memory(directory) as mem, detected_by_an_older_release():
        remembered(mem, SPACE, UPGRADE_BATCHES)
    crash(directory, point, occurrence, "rederive")
    with open_memory(directory) as mem:
        if point == "signals_rederived":  # some chunks done, the rest still outdated
            assert 0 < mem.stats(SPACE)["outdated_signals"] < 40
        mem.reprocess(SPACE)
        assert mem.stats(SPACE)["outdated_signals"] == 0
        assert (snapshot(mem), derived(mem, SPACE, QUERIES)) == clean_ingest
        assert mem.reprocess(SPACE) == 0


def test_a_store_of_format_7_gets_its_usage_counts_from_its_turns(tmp_path: Path) -> None:
    """Format 8 keeps per-space usage counts (the turns and bytes the quotas count) with
    triggers; a store written before has turns and no counts, and its migration counts them
    (then the triggers keep them)."""
    directory = tmp_path / "mem"
    with open_memory(directory) as mem:
        mem.remember("home", [{"text": f"Turn {i}: café ☕ " * (i + 1), "speaker": "Ana", "metadata": {"i": i}}
                              for i in range(5)])  # fmt: skip
        mem.remember("work", [{"text": "Standup at nine.", "speaker": "Ben"}])
        kept = {space: mem._stores.evidence.usage(space) for space in ("home", "work", "none")}
    assert kept["home"].turns == 5 and kept["work"].turns == 1 and kept["none"].turns == 0
    with sqlite3.connect(directory / DATABASE_FILE) as conn:  # what format 7 had: the turns alone
        for trigger in ("insert", "delete", "update"):
            conn.execute(f"DROP TRIGGER evidence_usage_{trigger}")
        conn.execute("DROP TABLE space_usage")
        conn.execute("PRAGMA user_version = 7")
    with open_memory(directory) as mem:
        assert user_version(directory) == FORMAT_VERSION
        evidence = mem._stores.evidence
        assert {space: evidence.usage(space) for space in ("home", "work", "none")} == kept
        mem.remember("work", [{"text": "Retro on Friday.", "speaker": "Ben"}])  # the triggers count on
        assert evidence.usage("work") == evidence.counted_usage("work") and evidence.usage("work").turns == 2


def test_a_store_of_format_8_reads_its_deltas_and_new_ones_carry_the_day_said(tmp_path: Path) -> None:
    """Format 9 records when a start said ahead was said (``Delta.said_at``). A store written
    before has no such column: it is added, empty, so its deltas read as they did, and a new
    one keeps the day said, which a dimension replayed from the deltas (an ``as_of`` before a
    later change) reports as "last said"."""
    directory = tmp_path / "mem"

    with open_memory(directory) as mem:
        mem.remember("home", [ana_said("I work at Globex.", "2024-01-10T10:00:00")])
        [globex] = mem.deltas("home", "Ana", "employer")
    with sqlite3.connect(directory / DATABASE_FILE) as conn:  # what format 8 had: no said_at
        conn.execute("ALTER TABLE nous_deltas DROP COLUMN said_at")
        conn.execute("PRAGMA user_version = 8")
    with open_memory(directory) as mem:
        assert user_version(directory) == FORMAT_VERSION
        assert mem.deltas("home", "Ana", "employer") == [globex]
        mem.remember("home", [ana_said("Big news at work: I'm joining Initech next month.", "2024-06-10T10:00:00"),
                              ana_said("Yesterday was my last day at Initech.", "2024-09-13T10:00:00")])  # fmt: skip
        joined = next(d for d in mem.deltas("home", "Ana", "employer") if d.observed == "Initech" and d.polarity == "positive")
        assert (joined.at.date().isoformat(), joined.said_at) == ("2024-07-01", datetime(2024, 6, 10, 10, tzinfo=UTC))
        replayed = mem.dimension("home", "Ana", "employer", as_of="2024-07-15T00:00:00")
        assert replayed.last_observed is not None and replayed.last_observed.said_at == joined.said_at



def test_a_store_of_turn_with_reply_vectors_is_re_embedded_in_two_windows_on_open(tmp_path: Path) -> None:
    """Before session 37 a turn's vector was the turn with its reply, and the stamp named the
    model and width only: such a store is re-embedded, every turn in two windows, when a
    memory opens it (README, Embedding model)."""
    directory = tmp_path / "mem"
    embedder = HashEmbedder("hash-a")
    with open_memory(directory, embedder) as mem:
        ids = mem.remember("crash", corpus(12))
        mem.wait()
        beliefs = len(mem.beliefs("crash", status=None))
    with sqlite3.connect(directory / DATABASE_FILE) as db:  # what the code before recorded
        db.execute("UPDATE store_meta SET value = ? WHERE key = 'embedder'", (f"{embedder.model_id}/{embedder.dim}",))
    stores = open_embedded(directory, embedder.dim, embedder_id(embedder))
    try:
        assert stores.ledger.switch_embedder(embedder_id(embedder), utc_now()) == 12 + beliefs
    finally:
        stores.close()
    with open_memory(directory, embedder) as mem:
        mem.wait()
        assert mem.backlog()["embed_evidence"] == 0
        scores = own_vector_hits(mem._stores, embedder, ids)
        assert all(abs(score - 1.0) < 1e-5 for score in scores.values()), scores
