"""What the reliability tests share: a fast deterministic embedder, the corpus, and a
snapshot of everything a memory derived, to compare a recovered store with a clean run.

``HashEmbedder`` stands in for MiniLM so that crash children start in about a second: its
vectors depend only on the text (a SHA-256), so two runs that embed the same texts with the
same context hold the same vectors.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eywa.bench.synthetic import generate_corpus
from eywa.extraction.base import Extractor
from eywa.extraction.rules import RuleExtractor
from eywa.memory import Memory
from eywa.models import CandidateFact, Evidence
from eywa.settings import EywaSettings

SPACE = "crash"
DIM = 16


class HashEmbedder:
    """Unit vectors from a hash of the text: deterministic, fast, no model to load."""

    def __init__(self, model_id: str = "hash-a") -> None:
        self._model_id = model_id

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dim(self) -> int:
        return DIM

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        rows = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            digest = hashlib.sha256(f"{self._model_id}\0{text}".encode()).digest()
            rows[i] = np.frombuffer(digest, dtype=np.uint8)[:DIM].astype(np.float32) + 1.0
            rows[i] /= np.linalg.norm(rows[i])
        return rows


def corpus(turns: int, seed: int = 3) -> list[dict[str, Any]]:
    """Synthetic multi-speaker chat (``eywa.bench.synthetic``): facts, changes, dates."""
    return [turn for _, turn in generate_corpus(turns, seed=seed)]


def settings(directory: Path, **overrides: Any) -> EywaSettings:
    """Small embedding batches, so a batch of turns takes several vector upserts."""
    return EywaSettings(data_dir=directory, embed_batch_size=16, level1_batch_size=32, **overrides)


def open_memory(
    directory: Path, embedder: HashEmbedder | None = None, extractor: Extractor | None = None, **overrides: Any
) -> Memory:
    return Memory.open(
        directory, settings=settings(directory, **overrides), embedder=embedder or HashEmbedder(), extractor=extractor
    )


class RulesV2:
    """The rule extractor as its next version would be: the same name, the shipped version
    plus one, and it no longer proposes pets (so reprocessing has something to replace and
    dimensions to replay)."""

    name = "rules"
    version = str(int(RuleExtractor.version) + 1)

    def __init__(self) -> None:
        self._rules = RuleExtractor()

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        return [f for f in self._rules.propose(space, evidence) if f.attribute != "pets"]


def snapshot(mem: Memory, space: str = SPACE) -> dict[str, Any]:
    """Everything derived from the turns, in a comparable form (times of recording left out)."""
    stores = mem._stores
    evidence = stores.evidence.ids(space)
    beliefs = stores.beliefs.beliefs(space, status=None)
    dims = stores.dimensions.dimensions(space)
    deltas = {
        (d.entity_key, d.attribute): [
            (x.id, x.at, x.observed, x.polarity, round(x.surprise_bits, 9),
             sorted((k, round(v, 9)) for k, v in x.posterior.items()) if isinstance(x.posterior, dict) else x.posterior)
            for x in stores.dimensions.deltas(space, d.entity_key, d.attribute)
        ]
        for d in dims
    }  # fmt: skip
    probes = HashEmbedder().embed(["Where does Greta live?", "Who has a parrot?", "What did Pablo cook?"])
    return {
        "evidence": sorted(evidence),
        "signals": stores.evidence.count_signals(space),
        "beliefs": sorted((b.id, b.status, b.supersedes, b.statement, b.extractor_version) for b in beliefs),
        "candidates": sorted((c.id, c.status, c.reasons) for c in stores.beliefs.candidates(space, status=None)),
        "dimensions": sorted(
            (d.entity_key, d.attribute, d.mode, sorted((k, round(v, 9)) for k, v in d.distribution.items()))
            for d in dims
        ),
        "deltas": deltas,
        "vectors": {
            "evidence": (stores.vectors.count("evidence", space), stores.vectors.missing("evidence", evidence)),
            "belief": (stores.vectors.count("belief", space), stores.vectors.missing("belief", [b.id for b in beliefs])),
            # Every point's similarity to a few probes, sorted: the same vectors under the same
            # ids (tied scores are sorted by id, not by the order the index returns them in).
            "search": [
                sorted((i, round(s, 6)) for i, s in stores.vectors.search(kind, space, probe, 10_000))
                for probe in probes for kind in ("evidence", "belief")
            ],  # fmt: skip
        },
        "backlog": mem.backlog(),
    }
