"""``SIGNALS_VERSION`` is bumped whenever what Level 0 detects changes.

A stored turn keeps the signals and mentions it was detected with; only a bump of
``eywa.signals.version.SIGNALS_VERSION`` makes ``eywa reprocess`` detect them again, so a
detection change shipped without one leaves every upgraded store answering otherwise than a
fresh ingest of its turns, silently. This test stores the held-out set's 650 turns
(``tests/fixtures/heldout``: ordinary conversation, dates, names, places) through the
public Level 0 path and pins a digest of every turn's signals and mentions to the version.
When detection changes, the digest does: bump the version and record the new digest with it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from eywa import Memory
from eywa.batches import mentioned_entities
from eywa.loaders import locomo_samples, locomo_turns
from eywa.settings import EywaSettings
from eywa.signals.version import SIGNALS_VERSION
from tests.contract.conftest import HashEmbedder

HELDOUT = Path(__file__).resolve().parents[1] / "fixtures" / "heldout" / "heldout-v1.json"

PINNED = (14, "9ee85e3c4f8cb0799e9c2a5d2e4162d6063b9991fd82c46cf7332bf79dd7f86a")
"""(``SIGNALS_VERSION``, the digest of the held-out turns' detection under it)."""


def detection_digest(directory: Path) -> tuple[str, int, int]:
    """sha256 over every held-out turn's signals and mentions as Level 0 stores them, each
    conversation sent session by session in order (as an agent would); with the numbers of
    signals and mentions it covers."""
    digest, signal_count, mention_count = hashlib.sha256(), 0, 0
    with Memory.open(directory, settings=EywaSettings(data_dir=directory), embedder=HashEmbedder(), extractor=None,
                     embed_writes=False) as mem:  # fmt: skip
        for sample in locomo_samples(HELDOUT):
            space = sample["sample_id"]
            turns = locomo_turns(HELDOUT, sample)
            for session in dict.fromkeys(t["session"] for t in turns):
                mem.remember(space, [t for t in turns if t["session"] == session], wait=False)
            stored = mem._stores.evidence.get(space, mem._stores.evidence.ids(space))
            for turn in sorted(stored, key=lambda e: e.seq):
                signals = [s.model_dump(mode="json") for s in turn.signals]
                mentions = sorted((e.name, e.kind) for e in mentioned_entities(space, turn))
                digest.update(json.dumps([turn.text, signals, mentions], sort_keys=True).encode())
                signal_count, mention_count = signal_count + len(signals), mention_count + len(mentions)
    return digest.hexdigest(), signal_count, mention_count


def test_detection_changes_come_with_a_signals_version(tmp_path: Path) -> None:
    found, signal_count, mention_count = detection_digest(tmp_path / "mem")
    assert signal_count > 500 and mention_count > 300  # the digest covers real detection
    version, pinned = PINNED
    assert (SIGNALS_VERSION, found) == (version, pinned), (
        "what Level 0 detects in the held-out turns changed (or SIGNALS_VERSION did): bump "
        f"eywa.signals.version.SIGNALS_VERSION if detection changed, and set PINNED = ({SIGNALS_VERSION}, {found!r})"
    )
