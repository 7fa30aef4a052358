"""Erasure replays dimensions: for any subset of turns, a memory that ingests every turn and
forgets the subset holds the same dimensions — distribution, mode, entropy to 1e-9, and the
delta log (values, times, reliabilities, priors, posteriors, surprise) — as a memory that
only ever saw the other turns, given the same extractor output for them (hypothesis)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa import Memory
from eywa.models import CandidateFact, Evidence
from tests.reliability.support import HashEmbedder

SPACE = "replay"
PLACES = ["Lyon", "Porto", "Oslo"]
EMPLOYERS = ["Acme", "Globex", "Initech"]
TURNS = [
    {"text": f"Ana said: I moved to {PLACES[i % 3]} and I work at {EMPLOYERS[(i * 2) % 3]} now, turn {i}.",
     "speaker": "Ana" if i % 2 == 0 else "Bo", "session": f"s{i // 3}", "observed_at": f"2023-0{1 + i // 2}-1{i % 2}T09:00:00"}
    for i in range(10)
]  # fmt: skip


class ScriptedExtractor:
    """One residence and one employer fact per turn, each citing only its turn."""

    name = "scripted"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            i = int(turn.text.rsplit(" ", 1)[1].rstrip("."))
            yield CandidateFact(statement=f"Ana lives in {PLACES[i % 3]}.", subject="Ana", attribute="residence",
                                value=PLACES[i % 3], evidence_ids=(turn.id,))  # fmt: skip
            yield CandidateFact(statement=f"Ana works at {EMPLOYERS[(i * 2) % 3]}.", subject="Ana",
                                attribute="employer", value=EMPLOYERS[(i * 2) % 3], evidence_ids=(turn.id,))  # fmt: skip


def view(mem: Memory) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for dim in mem.dimensions(SPACE):
        deltas = [(d.observed, d.polarity, d.at, round(d.reliability, 12), round(d.surprise_bits, 9),
                   sorted((k, round(v, 9)) for k, v in d.prior.items()),
                   sorted((k, round(v, 9)) for k, v in d.posterior.items()))
                  for d in mem.deltas(SPACE, dim.entity, dim.attribute)]  # fmt: skip
        found[f"{dim.entity}/{dim.attribute}"] = (
            sorted((k, round(v, 9)) for k, v in dim.distribution.items()), dim.mode, round(dim.entropy_bits, 9), deltas,
        )
    return found


def open_memory(directory: Path) -> Memory:
    return Memory.open(directory, embedder=HashEmbedder(), extractor=ScriptedExtractor())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(erased=st.sets(st.integers(min_value=0, max_value=len(TURNS) - 1), min_size=1, max_size=len(TURNS) - 1))
def test_forgetting_equals_never_having_seen(erased: set[int]) -> None:
    kept = [t for i, t in enumerate(TURNS) if i not in erased]
    with tempfile.TemporaryDirectory() as root:
        with open_memory(Path(root) / "all") as everything:
            ids = everything.remember(SPACE, TURNS, wait=True)
            everything.forget(SPACE, evidence_ids=[ids[i] for i in sorted(erased)])
            after = view(everything)
            assert len(after) == 2, after  # residence and employer
        with open_memory(Path(root) / "kept") as never:
            never.remember(SPACE, kept, wait=True)
            assert after == view(never)
