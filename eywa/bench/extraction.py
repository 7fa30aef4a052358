"""``eywa bench extraction``: what the offline Level 1 makes of a turn file, and how fast.

Level 1 offline is "propose with the rule extractor, check with the validator". This
harness runs exactly that over the turns of a file (a LoCoMo file or a JSONL of turns) and
reports what it accepted per attribute, what it refused per reason, and the throughput of
extraction plus validation alone: no embedder, no store, so the figure is the cost of the
rules and the checks, not of SQLite or a model.

Level 0 is reproduced in memory first (signals detected turn by turn, with the speakers and
the names earlier turns mentioned as known entities, as one ``remember`` batch does), and is
not timed.

A fixed-seed sample of accepted beliefs, each with the full text of its turn, can be written
as JSONL for hand labelling: the sample is drawn from the beliefs sorted by id, so the same
rules on the same file with the same seed draw the same beliefs.

Example:
    >>> report = measure_extraction(load_evidence(Path("locomo-dev.json")))  # doctest: +SKIP
    >>> report.beliefs, report.turns_per_s  # doctest: +SKIP
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from eywa.attributes import canonical_name
from eywa.extraction.base import Extractor
from eywa.extraction.context import ContextualExtractor, Earlier, named_values
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.ids import content_hash, stable_id
from eywa.loaders import load_turns_file
from eywa.models import CandidateFact, Evidence, SignalKind, Turn, as_utc
from eywa.signals import detect_signals
from eywa.signals.mentions import learn_name

__all__ = [
    "AcceptedBelief",
    "ExtractionReport",
    "level0_evidence",
    "load_evidence",
    "measure_extraction",
    "sample_beliefs",
    "summary_json",
    "write_sample",
]

DEFAULT_SPACE = "bench"


class AcceptedBelief(BaseModel):
    """One accepted candidate, with the turn it cites (for labelling)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    space: str
    statement: str
    subject: str
    attribute: str | None
    value: str | None
    polarity: str
    modality: str
    valid_from: datetime | None
    evidence_id: str
    speaker: str | None
    observed_at: datetime
    turn: str
    label: str = ""
    note: str = ""


class ExtractionReport(BaseModel):
    """What the offline Level 1 did over a file: counts, refusals and throughput."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    extractor: str
    turns: int
    proposed: int
    accepted: int
    beliefs: int
    seconds: float
    cpu_seconds: float
    by_attribute: dict[str, int]
    by_polarity: dict[str, int]
    by_modality: dict[str, int]
    refused_by_reason: dict[str, int]
    refused_by_attribute: dict[str, int]
    accepted_beliefs: tuple[AcceptedBelief, ...]

    @property
    def turns_per_s(self) -> float:
        """Extraction plus validation throughput in wall time (0.0 when nothing was timed)."""
        return self.turns / self.seconds if self.seconds > 0 else 0.0

    @property
    def turns_per_cpu_s(self) -> float:
        """The same per CPU second of this process: steadier on a shared machine."""
        return self.turns / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def load_evidence(path: Path, space: str = DEFAULT_SPACE) -> dict[str, list[Evidence]]:
    """The turns of ``path`` as Level 0 would store them, per space (one per LoCoMo sample).

    Raises:
        InvalidInputError: the file is not a turn file or a LoCoMo file, or a turn is invalid.
        OSError: the file cannot be read.
    """
    out: dict[str, list[Evidence]] = {}
    for batch_space, raw_turns in load_turns_file(path):
        name = batch_space or space
        out.setdefault(name, []).extend(level0_evidence(name, [Turn.model_validate(t) for t in raw_turns]))
    return out


def level0_evidence(space: str, turns: Sequence[Turn]) -> list[Evidence]:
    """Turns with their Level 0 signals, known names growing turn by turn as in one batch
    (people and non-people apart, as ``eywa.batches.prepare_batch`` keeps them)."""
    people: list[str] = sorted({t.speaker for t in turns if t.speaker})
    others: list[str] = []
    seq: Counter[str] = Counter()
    now = datetime.now(timezone.utc)
    out: list[Evidence] = []
    for index, turn in enumerate(turns):
        session = turn.session or "default"
        observed_at = as_utc(turn.observed_at) if turn.observed_at is not None else now
        signals = detect_signals(turn.text, observed_at, turn.speaker, people, others)
        out.append(
            Evidence(
                id=turn.external_id or stable_id("ev", space, session, str(index)),
                space=space, session=session, seq=seq[session], speaker=turn.speaker, role=turn.role,
                text=turn.text, observed_at=observed_at, recorded_at=now, content_hash=content_hash(turn.text),
                metadata=turn.metadata, external_id=turn.external_id, signals=signals,
            )
        )
        seq[session] += 1
        for signal in signals:
            name = (signal.normalized or signal.text).strip()
            if signal.kind in (SignalKind.PERSON, SignalKind.ENTITY):
                learn_name(name, signal.kind is SignalKind.PERSON, people, others)
    return out


def measure_extraction(
    evidence: Mapping[str, Sequence[Evidence]],
    extractor: Extractor | None = None,
    validator: Validator | None = None,
    batch_size: int = 32,
) -> ExtractionReport:
    """Propose and validate over every turn, timing only those two steps.

    Beliefs are counted once per (subject, attribute, value, polarity, modality, turn),
    as the store would keep them.
    """
    extractor = extractor if extractor is not None else RuleExtractor()
    validator = validator if validator is not None else Validator()
    turns = sum(len(v) for v in evidence.values())
    proposed = accepted = 0
    refused: Counter[str] = Counter()
    refused_attr: Counter[str] = Counter()
    kept: dict[str, tuple[str, CandidateFact]] = {}
    seconds = cpu_seconds = 0.0
    for space, turns_of_space in evidence.items():
        by_id = {t.id: t for t in turns_of_space}
        last_of_session: dict[str, Evidence] = {}
        believed: list[CandidateFact] = []
        for offset in range(0, len(turns_of_space), batch_size):
            chunk = turns_of_space[offset : offset + batch_size]
            started, cpu_started = time.perf_counter(), time.process_time()
            verdicts = []
            if isinstance(extractor, ContextualExtractor):  # what the pipeline reads from the stores
                earlier = Earlier(
                    previous={t.id: last_of_session[t.session] for t in chunk[:1] if t.session in last_of_session},
                    named=named_values(believed),
                )
                proposals = extractor.propose_after(space, chunk, earlier)
            else:
                proposals = extractor.propose(space, chunk)
            for raw in proposals:
                fact = raw if not raw.attribute else raw.model_copy(update={"attribute": canonical_name(raw.attribute)})
                verdicts.append((fact, validator.validate(space, fact, by_id)))
            seconds += time.perf_counter() - started
            cpu_seconds += time.process_time() - cpu_started
            last_of_session.update({t.session: t for t in chunk})
            for fact, report in verdicts:
                proposed += 1
                if report.accepted:
                    accepted += 1
                    believed.append(fact)
                    kept.setdefault(_belief_key(space, fact), (space, fact))
                else:
                    refused.update(str(r) for r in report.reasons)
                    refused_attr[fact.attribute or "-"] += 1
    turn_index = {(space, t.id): t for space, ts in evidence.items() for t in ts}
    beliefs = tuple(
        sorted((_accepted(key, space, fact, turn_index) for key, (space, fact) in kept.items()), key=lambda b: b.id)
    )
    return ExtractionReport(
        extractor=extractor.name, turns=turns, proposed=proposed, accepted=accepted, beliefs=len(beliefs),
        seconds=seconds, cpu_seconds=cpu_seconds,
        by_attribute=_sorted_counts(b.attribute or "-" for b in beliefs),
        by_polarity=_sorted_counts(b.polarity for b in beliefs),
        by_modality=_sorted_counts(b.modality for b in beliefs),
        refused_by_reason=dict(refused.most_common()), refused_by_attribute=dict(refused_attr.most_common()),
        accepted_beliefs=beliefs,
    )


def sample_beliefs(report: ExtractionReport, size: int, seed: int) -> list[AcceptedBelief]:
    """``size`` beliefs drawn with ``random.Random(seed)`` from the beliefs sorted by id."""
    pool = list(report.accepted_beliefs)
    return random.Random(seed).sample(pool, min(size, len(pool)))


def write_sample(beliefs: Iterable[AcceptedBelief], path: Path) -> int:
    """Write beliefs as JSONL (one per line, ``label`` and ``note`` left blank); returns the count.

    Raises:
        OSError: the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(b.model_dump(mode="json"), ensure_ascii=False) for b in beliefs]
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return len(lines)


def _belief_key(space: str, fact: CandidateFact) -> str:
    return stable_id(
        "bel", space, fact.subject.casefold(), fact.attribute or "", (fact.value or "").casefold(),
        fact.polarity, fact.modality, *sorted(fact.evidence_ids),
    )


def _accepted(
    key: str, space: str, fact: CandidateFact, turns: Mapping[tuple[str, str], Evidence]
) -> AcceptedBelief:
    turn = turns[(space, fact.evidence_ids[0])]
    return AcceptedBelief(
        id=key, space=space, statement=fact.statement, subject=fact.subject, attribute=fact.attribute,
        value=fact.value, polarity=fact.polarity, modality=fact.modality, valid_from=fact.valid_from,
        evidence_id=turn.id, speaker=turn.speaker, observed_at=turn.observed_at, turn=turn.text,
    )


def _sorted_counts(values: Iterable[str]) -> dict[str, int]:
    counts: Counter[str] = Counter(values)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def summary_json(report: ExtractionReport) -> dict[str, Any]:
    """The report without the belief list, for ``summary.json``."""
    data = report.model_dump(mode="json", exclude={"accepted_beliefs"})
    data["turns_per_s"] = round(report.turns_per_s, 1)
    data["turns_per_cpu_s"] = round(report.turns_per_cpu_s, 1)
    return data
