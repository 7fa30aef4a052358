"""``eywa bench erasure``: erase one speaker from a synthetic space and prove zero residue.

A corpus of ``turns`` synthetic turns (``eywa.bench.synthetic``, several speakers) is stored
in one space with the configured extractor (beliefs and dimensions included); then every
turn of one speaker is erased with ``Memory.forget(speaker=…)``. The report gives the time of
the erasure, what it removed, and the proof's residue per kind (must be 0), with the load
average, since the machine is shared. The embedder is the cheap hash embedder unless
``real_embedder``: the erasure re-embeds only the few turns next to erased ones, but
ingesting 10k turns with the real model dominates the run.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape

from eywa.bench.synthetic import generate_corpus
from eywa.embedding import Embedder
from eywa.runtime import open_memory
from eywa.settings import EywaSettings

__all__ = ["ErasureBenchReport", "run_erasure_bench"]

Backend = Literal["embedded", "server"]
SPACE = "erasure-bench"


class HashVectors:
    """Deterministic unit vectors from a hash of the text (no model to load)."""

    model_id = "bench-hash-384"
    dim = 384

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
            rows[i] = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            rows[i] /= np.linalg.norm(rows[i])
        return rows


class ErasureBenchReport(BaseModel):
    """What one run measured."""

    backend: Backend
    turns: int
    speaker: str
    speaker_turns: int
    ingest_seconds: float
    erase_seconds: float
    counts: dict[str, int]
    residue: dict[str, int]
    residue_total: int
    load: tuple[float, float, float]


def run_erasure_bench(
    turns: int, backend: Backend, settings: EywaSettings, console: Console, *, real_embedder: bool = False,
    batch_size: int = 500,
) -> ErasureBenchReport:
    """Ingest, erase the most talkative speaker but one, prove; returns the figures.

    Raises:
        EywaError: a store or the embedder failed.
    """
    corpus = [turn for _, turn in generate_corpus(turns, seed=0)]
    by_speaker = Counter(str(t.get("speaker")) for t in corpus)
    speaker, speaker_turns = by_speaker.most_common()[1]
    embedder: Embedder | None = None if real_embedder else HashVectors()
    with tempfile.TemporaryDirectory(prefix="eywa-bench-erasure-") as root:
        scoped = settings.model_copy(update={"data_dir": Path(root), "qdrant_path": None})
        with open_memory(scoped, backend=backend, embedder=embedder) as mem:
            began = time.perf_counter()
            for start in range(0, len(corpus), batch_size):
                mem.remember(SPACE, corpus[start : start + batch_size], wait=True)
            ingest = time.perf_counter() - began
            console.print(f"{backend}: {turns} turns stored in {ingest:.1f} s; erasing {escape(speaker)} ({speaker_turns} turns)")
            began = time.perf_counter()
            report = mem.forget(SPACE, speaker=speaker, author="bench")
            erase = time.perf_counter() - began
            proof = mem.erasure_proof(SPACE, report.erasure_id)
    return ErasureBenchReport(
        backend=backend, turns=turns, speaker=speaker, speaker_turns=speaker_turns, ingest_seconds=round(ingest, 2),
        erase_seconds=round(erase, 3), counts=report.counts, residue=proof.residue, residue_total=proof.total,
        load=os.getloadavg(),
    )  # fmt: skip
