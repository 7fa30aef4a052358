"""README promises of "Python API" and "Erasure" that no test showed (audit52, session 52).

- "Python API": a turn's ``observed_at`` is "ISO-8601 string or datetime; default now". Every
  test gave a time, or left it out without looking at the time stored.
- "Backpressure": the embedding bound is deployment-wide, not per space (below).
- "Erasure": "The report gives counts per kind and the erasure id, never erased content",
  and "An erasure by evidence ids (``forget(evidence_ids=...)``) names no speaker". The
  record test (test_readme_promises_erasure_record.py) erases by speaker, whose name the
  selector keeps by design; nothing showed that an erasure by ids leaves the speaker's name
  and the turn's words out of the report, the record, the proof and the export.

Through ``Memory``, on the embedded store with the contract suite's hashing embedder.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa.errors import OverloadedError
from eywa.memory import Memory
from eywa.models import RecallResult
from eywa.portability import record_json
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder, open_memory


def test_a_turn_sent_without_observed_at_is_observed_when_it_was_sent(memory: Memory) -> None:
    before = datetime.now(timezone.utc)
    (sent,) = memory.remember("observed-now", [{"text": "I repaint the shed this weekend.", "speaker": "Priya"}])
    after = datetime.now(timezone.utc)
    (dated,) = memory.remember("observed-now", [{"text": "The shed is blue.", "speaker": "Priya",
                                                 "observed_at": "2021-06-01T08:00:00Z"}])  # fmt: skip

    stored = memory.evidence("observed-now", sent)
    assert before <= stored.observed_at <= after
    assert memory.evidence("observed-now", dated).observed_at == datetime(2021, 6, 1, 8, tzinfo=timezone.utc)
    # "now" is the time it was sent, so a recall as of a minute before does not see it
    earlier = (before - timedelta(minutes=1)).isoformat()
    assert sent not in _cited(memory.recall("observed-now", "repaint the shed", as_of=earlier))
    assert sent in _cited(memory.recall("observed-now", "repaint the shed"))


def _cited(result: RecallResult) -> set[str]:
    return {ref.id for item in result.items for ref in item.provenance}


ERASED = "Nadia"
WORDS = ("Zanzibar", "saxophone", "Quillfeather")
SAID = f"I moved to {WORDS[0]} to study the {WORDS[1]} with {WORDS[2]}."


def test_an_erasure_by_ids_leaves_no_speaker_and_no_erased_word_in_what_it_hands_out(tmp_path: Path) -> None:
    with open_memory(tmp_path / "m") as mem:
        ids = mem.remember("by-ids", [
            {"text": SAID, "speaker": ERASED, "session": "s1", "observed_at": "2024-02-01T10:00:00Z"},
            {"text": "Good luck with the move!", "speaker": "Tom", "session": "s1", "observed_at": "2024-02-01T10:01:00Z"},
        ])  # fmt: skip

        report = mem.forget("by-ids", evidence_ids=[ids[0]])

        assert report.counts["turns"] == 1 and report.erasure_id.startswith("er_")
        (record,) = mem.erasures("by-ids")
        assert record.selector.speaker is None and tuple(record.selector.evidence_ids or ()) == (ids[0],)
        proof = mem.erasure_proof("by-ids", report.erasure_id)
        assert proof.total == 0
        exported = "\n".join(record_json(r) for r in mem.export_space("by-ids"))
        for handed_out in (report.model_dump_json(), record.model_dump_json(), proof.model_dump_json(), exported):
            assert ERASED not in handed_out  # the record says which turns went, not whose
            assert not [word for word in WORDS if word.lower() in handed_out.lower()]
        assert "Tom" in exported  # the turn that stays is exported as it was


class _HeldEmbedder(HashEmbedder):
    """The hashing embedder, except that a text about the garden waits for ``release``."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if any("garden" in t for t in texts) and not self.release.wait(timeout=60):
            raise AssertionError("the held turns were embedded before the test released them")
        return super().embed(texts)


def test_the_embedding_bound_is_the_deployments_so_a_backlog_of_one_space_refuses_another(tmp_path: Path) -> None:
    """README, "Backpressure": "The bound is deployment-wide, not per space, because the
    embedders are one pool". The bound's tests refused a second batch of the space that
    held the backlog; a space with nothing waiting is refused as well."""
    gate = _HeldEmbedder()
    settings = EywaSettings(data_dir=tmp_path / "m", max_embed_backlog=1, extractor="none")
    with Memory.open(tmp_path / "m", settings=settings, embedder=gate) as mem:
        try:
            mem.remember("garden", [{"text": "I planted tulips in the garden.", "speaker": "Priya"},
                                    {"text": "The garden needs a fence.", "speaker": "Priya"}], wait=False)  # fmt: skip
            with pytest.raises(OverloadedError) as refused:
                mem.remember("kitchen", [{"text": "I bought a new kettle.", "speaker": "Bo"}], wait=False)
            assert (refused.value.stage, refused.value.backlog, refused.value.limit) == ("embed", 2, 1)
            assert mem.stats("kitchen")["evidence"] == 0 and mem.pending("kitchen").embed == 0
        finally:
            gate.release.set()
        mem.wait()
        (kettle,) = mem.remember("kitchen", [{"text": "I bought a new kettle.", "speaker": "Bo"}], wait=False)
        mem.wait()
        assert mem.evidence("kitchen", kettle).text == "I bought a new kettle."
