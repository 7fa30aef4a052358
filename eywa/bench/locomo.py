"""The trace-level LoCoMo evaluation: did recall bring back the turns the answer rests on?

No LLM answers or judges here. Per question the harness records the plan, the ranked
items, the packed context, and which gold turns (``dia_id``) were among the first ``k``
distinct turns the items cite. That isolates retrieval quality from answer generation and
makes every number traceable to a JSONL line in the output folder.

Example:
    >>> summary = run_locomo_bench(Path("locomo-dev.json"), k=10, out=Path("/tmp/b"))  # doctest: +SKIP
    >>> summary.overall.recall_at_k  # doctest: +SKIP
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from rich.console import Console

from eywa.bench.metrics import (
    CATEGORY_NAMES,
    CategoryStats,
    QuestionScore,
    all_found,
    evidence_recall,
    first_k_turns,
    summarise,
)
from eywa.bench.report import render_summary
from eywa.errors import InvalidInputError, NotFoundError
from eywa.extraction.base import Extractor
from eywa.loaders import LocomoQuestion, load_locomo_questions, load_turns_file
from eywa.models import RecallResult
from eywa.runtime import load_settings, open_memory
from eywa.runtime.ingest import ingest_batches, progress_bar
from eywa.settings import EywaSettings

__all__ = [
    "BenchSummary",
    "MISS_SESSIONS",
    "MISS_STAGES",
    "OUTRANKING",
    "MissStage",
    "QuestionRecord",
    "evaluate_question",
    "gold_ranks",
    "miss_stage",
    "missed_in_session",
    "outranking",
    "run_locomo_bench",
    "summarise_run",
    "write_artefacts",
]

SCORED_CATEGORIES = (1, 2, 3, 4)
# Where a missed gold turn was lost: no route ranked an item citing it (``candidates``), a
# route did but fusion left it out of the fused list the trace keeps (``fusion``: the first
# 3k items), or it was in that list but below the k turns returned (``ranking``).
MissStage = Literal["candidates", "fusion", "ranking"]
MISS_STAGES: tuple[MissStage, ...] = ("candidates", "fusion", "ranking")
MISS_SESSIONS: tuple[str, str] = ("returned session", "other session")
"""``misses_by_session`` keys: a missed gold turn's session reached by the result, or not."""
OUTRANKING: tuple[str, ...] = ("turns", "named speaker", "three routes or more", "rescued", "lost gold's session")
"""``outranked`` keys: the returned turns that are not gold, in questions that lost a gold
turn at ranking, and how many of them are spoken by a person the question names, were
found by three routes or more (the rescue not counted), were brought by the rescue, or are
of the session of a gold turn lost at ranking."""


class QuestionRecord(BaseModel):
    """One line of ``questions.jsonl``: everything needed to see why a question hit or missed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sample_id: str
    question: str
    answer: str
    category: int
    gold: tuple[str, ...]
    skipped_gold: tuple[str, ...]
    retrieved: tuple[str, ...]
    hit: bool | None
    recall: float | None
    tokens: int
    latency_ms: float
    plan: Any
    items: tuple[dict[str, Any], ...]
    context: str
    evidence_strength: float | None = None
    gold_ranks: dict[str, dict[str, int]] = {}
    """Per gold turn: the best rank (from 1) of an item citing it in each route's hits, in
    the fused list (``fused``) and among the returned items (``returned``); absent where
    none cites it."""
    missed: dict[str, MissStage] = {}
    """Per gold turn not retrieved: the stage it was lost at (``miss_stage``)."""
    missed_in_session: dict[str, bool] = {}
    """Per gold turn not retrieved: whether a retrieved turn is of its session (the right
    session found, another of its turns ranked) or none is (the session not reached)
    (``missed_in_session``)."""
    trace: dict[str, Any] = {}
    """What explains a miss: each route's top hits, the fused list, what each post-filter
    changed, routes skipped and stage timings (the recall trace without the plan, which
    has its own field)."""

    def score(self) -> QuestionScore:
        """The subset the summary aggregates."""
        return QuestionScore(
            category=self.category,
            recall=self.recall,
            hit=self.hit,
            tokens=self.tokens,
            latency_ms=self.latency_ms,
        )


class BenchSummary(BaseModel):
    """The result of a run, written as ``summary.json``.

    ``overall`` averages over every question of categories 1-4 (not over categories), the
    convention of published LoCoMo retrieval numbers; category 5 is reported on its own.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    data: str
    k: int
    samples: tuple[str, ...]
    questions: int
    skipped_gold_ids: int
    ingest_turns: int
    ingest_seconds: float
    ingest_turns_per_s: float
    categories: dict[str, CategoryStats]
    overall: CategoryStats
    conversations: dict[str, dict[str, CategoryStats]] = {}
    """Per sample: its categories and its ``overall`` (1-4) row, for ``--by-conversation``."""
    misses: dict[str, dict[str, int]] = {}
    """Per category: the missed gold turns counted by the stage they were lost at."""
    misses_by_session: dict[str, dict[str, int]] = {}
    """Per category: the missed gold turns whose session a retrieved turn is of
    (``returned session``) and those whose session none is (``other session``)."""
    outranked: dict[str, dict[str, int]] = {}
    """Per category: what outranks the gold turns lost at ranking (``outranking``)."""


DiaIdLookup = Callable[[str, str], str | None]
# (space, belief id) → the ids of the turns the belief cites (none for an unknown belief).
BeliefLookup = Callable[[str, str], Sequence[str]]


def _dia_id_of(metadata: dict[str, Any]) -> str | None:
    value = metadata.get("dia_id")
    return str(value) if value else None


def evaluate_question(
    question: LocomoQuestion,
    result: RecallResult,
    k: int,
    latency_ms: float,
    lookup: DiaIdLookup,
    cited_by: BeliefLookup | None = None,
) -> QuestionRecord:
    """Score one recall result against the question's gold turns.

    ``lookup(space, evidence_id)`` resolves a dia_id when an item's provenance lacks the
    caller metadata (it should not, but the metric must not silently depend on it), and the
    dia_ids of the route hits in the trace; ``cited_by`` the turns of the beliefs among
    them (without it, belief hits cite nothing in ``gold_ranks``).
    """
    cited: list[list[str | None]] = []
    items: list[dict[str, Any]] = []
    for item in result.items:
        turns = [
            _dia_id_of(ref.metadata) or lookup(question.sample_id, ref.id) for ref in item.provenance
        ]
        cited.append(turns)
        items.append(
            {
                "kind": item.kind,
                "id": item.id,
                "score": round(item.score, 6),
                "routes": item.routes,
                "dia_ids": turns,
                "speaker": item.provenance[0].speaker if item.kind == "evidence" and item.provenance else None,
                "text": item.text,
            }
        )
    retrieved = first_k_turns(cited, k)

    def hit_turns(hit: Mapping[str, Any]) -> list[str | None]:
        if hit.get("kind") == "evidence":
            return [lookup(question.sample_id, str(hit["id"]))]
        if hit.get("kind") == "belief" and cited_by is not None:
            return [lookup(question.sample_id, e) for e in cited_by(question.sample_id, str(hit["id"]))]
        return []

    rankings = {
        route: [hit_turns(hit) for hit in hits] for route, hits in result.trace.get("routes", {}).items()
    }
    rankings["fused"] = [hit_turns(hit) for hit in result.trace.get("fused", [])]
    rankings["returned"] = cited
    ranks = gold_ranks(question.evidence, rankings)
    return QuestionRecord(
        sample_id=question.sample_id,
        question=question.question,
        answer=question.answer,
        category=question.category,
        gold=question.evidence,
        skipped_gold=question.skipped_evidence,
        retrieved=tuple(retrieved),
        hit=all_found(question.evidence, retrieved),
        recall=evidence_recall(question.evidence, retrieved),
        tokens=result.tokens,
        latency_ms=latency_ms,
        plan=result.trace.get("plan"),
        items=tuple(items),
        context=result.context,
        evidence_strength=result.evidence_strength,
        gold_ranks=ranks,
        missed={g: miss_stage(ranks.get(g, {})) for g in dict.fromkeys(question.evidence) if g not in retrieved},
        missed_in_session=missed_in_session(question.evidence, retrieved),
        trace={key: value for key, value in result.trace.items() if key != "plan"},
    )


def gold_ranks(
    gold: Sequence[str], rankings: Mapping[str, Sequence[Sequence[str | None]]]
) -> dict[str, dict[str, int]]:
    """Per gold turn, the best rank (from 1) in each ranking of an item citing it.

    ``rankings`` maps a name (a route, ``fused``, ``returned``) to the turns each of its
    items cites, in rank order; a gold turn no item of a ranking cites has no entry for it.
    """
    ranks: dict[str, dict[str, int]] = {g: {} for g in dict.fromkeys(gold)}
    for name, items in rankings.items():
        for rank, turns in enumerate(items, start=1):
            for turn in turns:
                if turn in ranks and name not in ranks[turn]:
                    ranks[turn][name] = rank
    return ranks


def miss_stage(ranks: Mapping[str, int]) -> MissStage:
    """Where a gold turn that was not retrieved was lost, from its ``gold_ranks`` entry: in
    the fused list but not returned (``ranking``), found by a route but not in the fused list
    (``fusion``), or by no route (``candidates``)."""
    if "fused" in ranks:
        return "ranking"
    if any(name not in ("fused", "returned") for name in ranks):
        return "fusion"
    return "candidates"


def missed_in_session(gold: Sequence[str], retrieved: Sequence[str]) -> dict[str, bool]:
    """Per gold turn not in ``retrieved``: whether a retrieved turn is of its session.

    A LoCoMo turn id names its session ("D12:3" is turn 3 of session 12). A miss in a
    session the result reached is a neighbouring turn ranked instead of the one that says
    it; a miss in a session it did not reach is evidence spread over sessions the result
    never got to (list and aggregate questions) — two classes that call for different
    mechanisms (issue #15)."""
    sessions = {_session(turn) for turn in retrieved}
    return {g: _session(g) in sessions for g in dict.fromkeys(gold) if g not in retrieved}


def outranking(record: QuestionRecord) -> dict[str, int]:
    """What took the places of the gold turns a question lost at ranking (fused, not
    returned): its returned turns that cite no gold turn, counted by ``OUTRANKING``'s
    classes (all zero when it lost none at ranking). Another speaker's turns, rescued
    neighbours or a session's other turns call for a filter; the named person's own turns
    that several routes agree on call for a reranker (docs/evaluation.md, session 13)."""
    lost = {g for g, stage in record.missed.items() if stage == "ranking"}
    counts = dict.fromkeys(OUTRANKING, 0)
    if not lost:
        return counts
    gold = set(record.gold)
    named = {str(name).casefold() for name in (record.plan or {}).get("entities", ())}
    sessions = {_session(g) for g in lost}
    for item in record.items:
        turns = [t for t in item.get("dia_ids") or () if t]
        if item.get("kind") != "evidence" or gold.intersection(turns):
            continue
        routes = item.get("routes") or {}
        counts["turns"] += 1
        counts["named speaker"] += str(item.get("speaker") or "").casefold() in named
        counts["three routes or more"] += len(set(routes) - {"rescue"}) >= 3
        counts["rescued"] += "rescue" in routes
        counts["lost gold's session"] += any(_session(t) in sessions for t in turns)
    return counts


def _session(dia_id: str) -> str:
    return dia_id.split(":", 1)[0]


def summarise_run(
    data: Path, k: int, samples: Sequence[str], records: Sequence[QuestionRecord], ingest: tuple[int, float]
) -> BenchSummary:
    """Per-category stats and the 1-4 overall row; ``ingest`` is (turns, seconds)."""
    scores = [r.score() for r in records]
    categories = {
        str(cat): summarise(CATEGORY_NAMES.get(cat, f"category {cat}"), [s for s in scores if s.category == cat])
        for cat in sorted({s.category for s in scores})
    }
    overall = summarise("overall (1-4)", [s for s in scores if s.category in SCORED_CATEGORIES])
    conversations = {
        sample: _by_category([r.score() for r in records if r.sample_id == sample])
        for sample in dict.fromkeys(r.sample_id for r in records)
    }
    misses: dict[str, dict[str, int]] = {}
    for cat in sorted({r.category for r in records}):
        lost = [stage for r in records if r.category == cat for stage in r.missed.values()]
        misses[str(cat)] = {stage: lost.count(stage) for stage in MISS_STAGES}
    by_session: dict[str, dict[str, int]] = {}
    for cat in sorted({r.category for r in records}):
        found = [inside for r in records if r.category == cat for inside in r.missed_in_session.values()]
        by_session[str(cat)] = dict(zip(MISS_SESSIONS, (found.count(True), found.count(False)), strict=True))
    outranked: dict[str, dict[str, int]] = {}
    for cat in sorted({r.category for r in records}):
        per_question = [outranking(r) for r in records if r.category == cat]
        outranked[str(cat)] = {key: sum(c[key] for c in per_question) for key in OUTRANKING}
    turns, seconds = ingest
    return BenchSummary(
        data=str(data),
        k=k,
        samples=tuple(samples),
        questions=len(records),
        skipped_gold_ids=sum(len(r.skipped_gold) for r in records),
        ingest_turns=turns,
        ingest_seconds=round(seconds, 3),
        ingest_turns_per_s=round(turns / seconds, 1) if seconds > 0 else 0.0,
        categories=categories,
        overall=overall,
        conversations=conversations,
        misses=misses,
        misses_by_session=by_session,
        outranked=outranked,
    )


def _by_category(scores: Sequence[QuestionScore]) -> dict[str, CategoryStats]:
    """One sample's rows: each category present, then ``overall`` over categories 1-4."""
    rows = {
        str(cat): summarise(CATEGORY_NAMES.get(cat, f"category {cat}"), [s for s in scores if s.category == cat])
        for cat in sorted({s.category for s in scores})
    }
    rows["overall"] = summarise("overall (1-4)", [s for s in scores if s.category in SCORED_CATEGORIES])
    return rows


def run_locomo_bench(
    data: Path,
    k: int = 10,
    out: Path | None = None,
    memory_dir: Path | None = None,
    *,
    settings: EywaSettings | None = None,
    extractor: Extractor | None = None,
    samples: Sequence[str] | None = None,
    console: Console | None = None,
    by_conversation: bool = False,
) -> BenchSummary:
    """Ingest a LoCoMo file (one space per sample), recall every question, score, report.

    The memory is the one the settings name (``eywa.runtime``): embedded in ``memory_dir``,
    which defaults to a fresh temporary directory so a run never mixes with a user's memory
    (pass one to keep the store for inspection; re-ingest is a no-op then, which makes the
    ingest rate meaningless), or the Neo4j server of ``EYWA_NEO4J_URI``, one space per
    sample. ``samples`` restricts the run to those ids; ``by_conversation`` also prints the
    per-sample table (``summary.json`` always holds it).

    Raises:
        OSError: the data file cannot be read or ``out`` cannot be written.
        InvalidInputError: the file is not LoCoMo, ``k`` < 1, or ``samples`` names none of it.
    """
    if k < 1:
        raise InvalidInputError("k must be at least 1")
    console = console or Console()
    batches = [(s, t) for s, t in load_turns_file(data) if samples is None or s in samples]
    questions = [q for q in load_locomo_questions(data) if samples is None or q.sample_id in samples]
    if not batches:
        raise InvalidInputError(f"{data}: no LoCoMo sample to evaluate")
    sample_ids = [s for s, _ in batches if s is not None]
    records: list[QuestionRecord] = []
    with ExitStack() as stack:
        if memory_dir is None:
            memory_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="eywa-bench-")))
        chosen = (settings or load_settings()).model_copy(update={"data_dir": memory_dir})
        mem = stack.enter_context(open_memory(chosen, extractor=extractor))
        report = ingest_batches(mem, batches, console=console)
        cache: dict[tuple[str, str], str | None] = {}

        def lookup(space: str, evidence_id: str) -> str | None:
            if (space, evidence_id) not in cache:
                try:
                    cache[(space, evidence_id)] = _dia_id_of(mem.evidence(space, evidence_id).metadata)
                except NotFoundError:
                    cache[(space, evidence_id)] = None
            return cache[(space, evidence_id)]

        beliefs: dict[str, dict[str, tuple[str, ...]]] = {}

        def cited_by(space: str, belief_id: str) -> Sequence[str]:
            if space not in beliefs:
                beliefs[space] = {b.id: b.evidence_ids for b in mem.beliefs(space, status=None)}
            return beliefs[space].get(belief_id, ())

        with progress_bar(console) as bar:
            task = bar.add_task("recall", total=len(questions))
            for question in questions:
                began = time.perf_counter()
                result = mem.recall(question.sample_id, question.question, k=k)
                latency_ms = (time.perf_counter() - began) * 1000.0
                records.append(evaluate_question(question, result, k, latency_ms, lookup, cited_by))
                bar.advance(task)
    summary = summarise_run(data, k, sample_ids, records, (report.turns, report.seconds))
    if out is not None:
        write_artefacts(out, summary, records)
    render_summary(summary, console, by_conversation=by_conversation)
    return summary


def write_artefacts(out: Path, summary: BenchSummary, records: Sequence[QuestionRecord]) -> None:
    """``questions.jsonl`` (one line per question) and ``summary.json`` in ``out``.

    Raises:
        OSError: the folder cannot be created or written.
    """
    out.mkdir(parents=True, exist_ok=True)
    with (out / "questions.jsonl").open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(record.model_dump_json() + "\n")
    (out / "summary.json").write_text(json.dumps(summary.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
