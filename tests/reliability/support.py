"""What the reliability tests share: a fast deterministic embedder, the corpus, and a
snapshot of everything a memory derived, to compare a recovered store with a clean run.

``HashEmbedder`` stands in for MiniLM so that crash children start in about a second: its
vectors depend only on the text (a SHA-256), so two runs that embed the same texts with the
same context hold the same vectors.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from eywa.batches import SignalDetector
from eywa.bench.synthetic import generate_corpus
from eywa.extraction.base import Extractor
from eywa.extraction.rules import RuleExtractor
from eywa.memory import Memory
from eywa.models import CandidateFact, Evidence, Signal, SignalKind, Turn
from eywa.signals import detect_signals
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


def store_corpus(factory: pytest.TempPathFactory, turns: int) -> Path:
    """A closed store holding ``corpus(turns)`` in ``SPACE``, for a module's crashes to copy."""
    directory = factory.mktemp("stored") / "mem"
    with open_memory(directory) as mem:
        mem.remember(SPACE, corpus(turns))
    return directory


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


def older_detector(
    text: str, observed_at: datetime, speaker: str | None, people: Sequence[str], others: Sequence[str]
) -> tuple[Signal, ...]:
    """Level 0 as an older release detected it: no dates and no people mentioned by name
    (only speakers). Facts anchored on a date then fail validation, and the people a turn
    names are not entities: what the signals version is there to repair."""
    found = detect_signals(text, observed_at, speaker, people, others)
    return tuple(s for s in found if s.kind not in (SignalKind.DATE, SignalKind.PERSON))


def overeager_detector(
    text: str, observed_at: datetime, speaker: str | None, people: Sequence[str], others: Sequence[str]
) -> tuple[Signal, ...]:
    """Level 0 as an older release that took a turn's first capitalised word for a person
    ("My", "Today"): entities, mentions and co-mentions the current release does not make."""
    found = detect_signals(text, observed_at, speaker, people, others)
    first = re.match(r"[A-Z][a-z]+", text)
    if first is None or any(s.start < first.end() for s in found):
        return found
    word = first.group()
    return (Signal(kind=SignalKind.PERSON, text=word, start=0, end=len(word), normalized=word), *found)


@contextmanager
def detected_by_an_older_release(detector: SignalDetector = older_detector) -> Iterator[None]:
    """Turns remembered inside are detected by ``detector`` (``older_detector``) and stored
    as signals version 0, as a store written before this release holds them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("eywa.signals.detect_signals", detector)
        patch.setattr("eywa.signals.version.SIGNALS_VERSION", 0)
        yield


def stored_turns(mem: Memory, space: str) -> list[list[Turn]]:
    """The turns of ``space`` as they were sent, batch by batch (a batch: the turns recorded
    at one time), in the order they were stored: what a fresh ingest sends again."""
    stored = mem._stores.evidence.get(space, mem._stores.evidence.ids(space))
    batches: dict[datetime, list[Evidence]] = {}
    for e in sorted(stored, key=lambda e: (e.recorded_at, e.session, e.seq)):
        batches.setdefault(e.recorded_at, []).append(e)
    return [
        [Turn(text=e.text, speaker=e.speaker, role=e.role, session=e.session, observed_at=e.observed_at,
              metadata=e.metadata, external_id=e.external_id) for e in batch]
        for batch in batches.values()
    ]  # fmt: skip


def derived(mem: Memory, space: str, queries: Sequence[str] = ()) -> dict[str, Any]:
    """What Level 0 and Level 1 derived from the turns of ``space``, named without ids or
    the space (so two spaces, or two stores, holding the same turns compare equal): each
    turn's signals and the names it mentions, the entities, the co-mention edges, beliefs,
    candidates, dimensions and the texts ``recall`` returns for ``queries``."""
    stores = mem._stores
    turns = sorted(stores.evidence.get(space, stores.evidence.ids(space)), key=lambda e: (e.session, e.seq))
    entities = {e.id: e for e in stores.evidence.entities(space)}
    mentions = stores.evidence.mentions(space, [t.id for t in turns])
    names = {t.id: (t.session, t.seq) for t in turns}
    edges = {
        (entities[e].name, entities[n].name)
        for e in entities
        for n, hops in stores.graph.neighbours(space, [e], 1, 10_000).entities.items()
        if hops == 1 and n in entities
    }
    return {
        "signals": {
            names[t.id]: sorted((s.kind.value, s.start, s.end, s.normalized, str(s.window_start)) for s in t.signals)
            for t in turns
        },
        "mentions": {names[i]: sorted(entities[e].name for e in es) for i, es in mentions.items()},
        "entities": sorted((e.name, e.kind) for e in entities.values()),
        "co_mentioned": sorted(edges),
        "beliefs": sorted((b.statement, b.status, b.extractor_version) for b in mem.beliefs(space, status=None)),
        "candidates": sorted((c.fact.statement, c.status, c.reasons) for c in mem.candidates(space, status=None)),
        "dimensions": sorted(
            (d.entity, d.attribute, d.mode, sorted((k, round(v, 9)) for k, v in d.distribution.items()))
            for d in mem.dimensions(space)
        ),
        # Ranked by score; items of one score (to 4 places) by text, not by id: the ids
        # hash the space, so two spaces break ties in other orders.
        "recall": {
            q: sorted(((-round(i.score, 4), i.text) for i in mem.recall(space, q, k=8).items)) for q in queries
        },
    }


# --- corrections and merges under a crash (test_corrections_crash_s52k) ---------------------

CORRIGIBLE = [
    {"text": "I work at Globex as an engineer.", "speaker": "Priya", "session": "c1", "observed_at": "2023-02-01T09:00:00"},
    {"text": "Priyah works at Globex too, she said.", "speaker": "Tom", "session": "c1",
     "observed_at": "2023-02-01T09:01:00"},
    {"text": "I work at Initech now.", "speaker": "Priya", "session": "c2", "observed_at": "2023-04-01T09:00:00"},
    {"text": "I don't enjoy fencing at all.", "speaker": "Priya", "session": "c2", "observed_at": "2023-04-01T09:01:00"},
    {"text": "I never play squash, honestly.", "speaker": "Priya", "session": "c2",
     "observed_at": "2023-04-01T09:02:00"},
]  # fmt: skip
"""Turns whose ``Slips`` facts give a superseded employer to retract, a second name to merge,
and two facts that contradict their turn's negation (``repair`` candidates: one to accept,
one to dismiss)."""

_SLIPS: dict[str, dict[str, Any]] = {
    "work at Globex as": {"statement": "Priya works at Globex.", "subject": "Priya", "attribute": "employer",
                          "value": "Globex"},
    "Priyah works at Globex": {"statement": "Priyah works at Globex.", "subject": "Priyah", "attribute": "employer",
                               "value": "Globex"},
    "work at Initech": {"statement": "Priya works at Initech.", "subject": "Priya", "attribute": "employer",
                        "value": "Initech"},
    "enjoy fencing": {"statement": "Priya enjoys fencing.", "subject": "Priya", "attribute": "hobby", "value": "fencing"},
    "play squash": {"statement": "Priya plays squash.", "subject": "Priya", "attribute": "hobby", "value": "squash"},
}  # fmt: skip


class Slips:
    """The rule extractor plus the fixed facts of ``CORRIGIBLE`` (an LLM's slips included)."""

    name = "slips"
    version = "1"

    def __init__(self) -> None:
        self._rules = RuleExtractor()

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        yield from self._rules.propose(space, evidence)
        for turn in evidence:
            for key, fact in _SLIPS.items():
                if key in turn.text:
                    yield CandidateFact(evidence_ids=(turn.id,), **fact)


def remember_corrigible(mem: Memory, turns: int) -> None:
    """The corpus, then ``CORRIGIBLE``: what ``correct`` corrects."""
    mem.remember(SPACE, corpus(turns))
    mem.remember(SPACE, CORRIGIBLE)


def targets(mem: Memory) -> dict[str, str]:
    """The ids ``correct`` corrects, read from the store before any correction (a client
    retrying sends the ids it sent the first time)."""
    beliefs = mem.beliefs(SPACE, status=None)
    candidates = {c.fact.value: c.id for c in mem.candidates(SPACE, status=None)}
    return {
        "retract": next(b.id for b in beliefs if b.value == "Initech"),
        "confirm": min(b.id for b in beliefs if b.attribute and b.value != "Initech"),
        "accept": candidates["fencing"],
        "dismiss": candidates["squash"],
    }


def correct(mem: Memory, ids: dict[str, str]) -> None:
    """Six corrections a person makes, in order, each the call a client would send again
    after losing its answer: retract, confirm, accept, dismiss, merge, undo the merge."""
    mem.retract_belief(SPACE, ids["retract"], reason="Priya never worked there", author="key_1")
    mem.confirm_belief(SPACE, ids["confirm"], reason="checked", author="key_1")
    mem.accept_candidate(SPACE, ids["accept"], reason="the repair is right", author="key_2")
    mem.dismiss_candidate(SPACE, ids["dismiss"], author="key_2")
    mem.accept_merge(SPACE, "Priya", "Priyah", 0.9, author="key_3")
    mem.undo_merge(SPACE, "Priya", "Priyah", author="key_3")


def corrected(mem: Memory) -> dict[str, Any]:
    """``snapshot`` with the correction records and merges, times and record ids left out."""
    return {
        **snapshot(mem),
        "corrections": [
            (c.kind, c.target_id, c.author, c.reason, c.belief_id, c.reliability_before, c.reliability_after)
            for c in mem.corrections(SPACE)
        ],
        "merges": sorted(
            (e.source, e.target, e.score, e.author, e.active, e.removed_by) for e in mem.merges(SPACE, True)
        ),
    }
