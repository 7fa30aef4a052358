"""README, Erasure: the record keeps per erased turn "its id and HMAC-SHA256(secret,
content_hash) — never the text, and not the plain content_hash either, which would let
anyone holding the record confirm a guessed short turn". The keyed hash itself was tested on
the pure function (tests/unit/test_erasure_plan.py); this checks what ``Memory.erasures``
and the export hand out (audit of s14)."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from eywa.portability import record_json
from tests.contract.conftest import open_memory

SPACE = "pr-record"


def test_the_erasure_record_and_its_export_hold_a_keyed_hash_never_the_text_or_the_plain_hash(tmp_path: Path) -> None:
    with open_memory(tmp_path / "m") as mem:
        ids = mem.remember(SPACE, [{"text": "yes", "speaker": "Bo"}, {"text": "I live in Lyon.", "speaker": "Ana"}])
        plain = mem.evidence(SPACE, ids[0]).content_hash
        report = mem.forget(SPACE, speaker="Bo")
        secret = bytes.fromhex((tmp_path / "m" / "erasure.key").read_text().strip())  # made when the memory opened
        assert report.counts["turns"] == 1
        (record,) = mem.erasures(SPACE)
        (turn,) = record.turns
        assert turn.evidence_id == ids[0]
        assert turn.content_mac == hmac.new(secret, plain.encode("ascii"), hashlib.sha256).hexdigest()
        exported = "\n".join(record_json(r) for r in mem.export_space(SPACE))
        shown = record.model_dump_json() + report.model_dump_json() + exported
        assert turn.content_mac in exported  # the export carries the record
        assert plain not in shown and hashlib.sha256(b"yes").hexdigest() not in shown
        assert '"yes"' not in shown  # nor the text (the selector names the speaker, by design)


def test_the_proof_counts_the_same_words_kept_by_another_speaker_apart_from_residue(tmp_path: Path) -> None:
    """README, "The proof": it "counts, apart, remaining turns whose keyed content hash equals
    an erased one (``same_text_kept``: someone else said the very same words)"; every residue
    count stays 0. No test looked at ``same_text_kept``."""
    with open_memory(tmp_path / "m") as mem:
        mem.remember(SPACE, [
            {"text": "See you at the gym.", "speaker": "Bo", "session": "s1"},
            {"text": "See you at the gym.", "speaker": "Ana", "session": "s1"},
            {"text": "I live in Lyon.", "speaker": "Bo", "session": "s1"},
        ])  # fmt: skip
        report = mem.forget(SPACE, speaker="Bo")
        proof = mem.erasure_proof(SPACE, report.erasure_id)
        assert report.counts["turns"] == 2 and proof.turns == 2
        assert proof.same_text_kept == 1 and set(proof.residue.values()) == {0}
        other = mem.forget(SPACE, speaker="Ana")
        assert mem.erasure_proof(SPACE, other.erasure_id).same_text_kept == 0
