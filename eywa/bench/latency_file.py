"""Recall latency on a LoCoMo file's turns in one space, against SQLite FTS5 alone.

Issue #15 asks for the embedded read path to cost at most 6× a bare FTS5 search "on the
same turns": every turn of the file (the development file's 2,760) is remembered into one
space, and each distinct question of the file is asked twice in a row, once through
``Memory.recall`` and once as a BM25 query over an in-memory FTS5 table holding the same
turns' text (the same match expression the keyword route builds, the same number of
candidates). Both are timed in wall time, in the process's CPU time (``cpu``) and in the
CPU time of the thread that asked (``thread``): the machine this runs on is often shared,
and a ratio taken question by question in one run is what survives that; ``load_average``
says how shared it was. The query embedding runs in threads of its own, beside the routes
(``eywa.read.reader``), so ``thread`` is the read path without it and ``cpu`` minus
``thread`` is about what the embedding cost.

Sessions and dialogue ids repeat across a file's samples, so each is prefixed with its
sample id in the one space. No cache is warmed by the measured questions: each text is
asked once (a short warm-up runs other texts first).

Example:
    >>> report = run_file_latency_bench(Path("locomo-dev.json"), queries=200)  # doctest: +SKIP
    >>> report.fts5_ratio["cpu"]["p50"]  # doctest: +SKIP
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict
from rich.console import Console

from eywa.bench.latency import Percentiles
from eywa.errors import InvalidInputError
from eywa.loaders import load_locomo_questions, load_turns_file
from eywa.runtime import load_settings, open_memory
from eywa.runtime.ingest import ingest_batches, progress_bar
from eywa.settings import EywaSettings
from eywa.stores.embedded.keyword import fts_query

__all__ = ["FTS5_RATIO_TARGET", "FileLatencyReport", "one_space_turns", "run_file_latency_bench"]

# Issue #15: recall at most this many times FTS5 alone on the same turns.
FTS5_RATIO_TARGET = 6.0
SPACE = "file-one-space"
WARMUP_QUERIES = 10
# FTS5 alone returns as many candidates as the keyword route asks for at the default k.
FTS5_LIMIT = 50

Clock = Literal["wall", "cpu", "thread"]


class FileLatencyReport(BaseModel):
    """One run: recall and FTS5-alone percentiles (ms) by clock, and their ratios."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    data: str
    turns: int
    queries: int
    recall: dict[Clock, Percentiles]
    stages: dict[str, Percentiles]
    fts5: dict[Clock, Percentiles]
    fts5_ratio: dict[Clock, dict[str, float]]
    target: float
    met: bool
    load_average: dict[str, tuple[float, float, float]]
    sqlite: str
    """The SQLite library both the store and FTS5 alone ran on."""


def run_file_latency_bench(
    data: Path,
    queries: int = 200,
    data_dir: Path | None = None,
    *,
    settings: EywaSettings | None = None,
    console: Console | None = None,
) -> FileLatencyReport:
    """Remember every turn of ``data`` in one space, then time ``queries`` distinct
    questions through recall and through FTS5 alone (see the module docstring).

    ``data_dir`` keeps the store (a second run reuses it: nothing new is written).

    Raises:
        OSError: the file cannot be read.
        InvalidInputError: not a LoCoMo file, no questions, or ``queries`` below 1.
    """
    if queries < 1:
        raise InvalidInputError("queries must be at least 1")
    console = console or Console(stderr=True)
    turns = one_space_turns(data)
    texts = list(dict.fromkeys(q.question for q in load_locomo_questions(data)))
    if not texts:
        raise InvalidInputError(f"{data}: no questions to time")
    warm = min(WARMUP_QUERIES, len(texts) // 4)  # a small file keeps most of its questions to time
    warmup, asked = texts[:warm], _spread(texts[warm:], queries)
    loads = {"start": _load()}
    clocks: tuple[Clock, ...] = get_args(Clock)
    samples: dict[str, list[float]] = {f"{name}.{clock}": [] for name in ("recall", "fts5") for clock in clocks}
    stages: dict[str, list[float]] = {}
    with ExitStack() as stack:
        if data_dir is None:
            data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="eywa-file-latency-")))
        chosen = (settings or load_settings()).model_copy(update={"data_dir": data_dir})
        mem = stack.enter_context(open_memory(chosen))
        ingest_batches(mem, [(SPACE, turns)], console=console)
        fts = stack.enter_context(_fts5_alone([turn["text"] for turn in turns]))
        for text in warmup:
            mem.recall(SPACE, text)
            _fts5_search(fts, text)
        loads["recall"] = _load()
        with progress_bar(console, transient=True) as bar:
            task = bar.add_task("recall and FTS5 alone", total=len(asked))
            for text in asked:
                with _timed(samples, "recall"):
                    result = mem.recall(SPACE, text)
                with _timed(samples, "fts5"):
                    _fts5_search(fts, text)
                for stage, ms in result.trace.get("timings_ms", {}).items():
                    stages.setdefault(stage, []).append(float(ms))
                bar.advance(task)
        loads["end"] = _load()
    recall = {clock: Percentiles.of(samples[f"recall.{clock}"]) for clock in clocks}
    fts5 = {clock: Percentiles.of(samples[f"fts5.{clock}"]) for clock in clocks}
    ratio: dict[Clock, dict[str, float]] = {
        clock: {
            q: round(getattr(recall[clock], q) / getattr(fts5[clock], q), 2) if getattr(fts5[clock], q) > 0 else 0.0
            for q in ("p50", "p95")
        }
        for clock in clocks
    }
    return FileLatencyReport(
        data=str(data),
        turns=len(turns),
        queries=len(asked),
        recall=recall,
        stages={stage: Percentiles.of(values) for stage, values in stages.items()},
        fts5=fts5,
        fts5_ratio=ratio,
        target=FTS5_RATIO_TARGET,
        met=0 < ratio["cpu"]["p50"] <= FTS5_RATIO_TARGET,
        load_average=loads,
        sqlite=sqlite3.sqlite_version,
    )


def one_space_turns(data: Path) -> list[dict[str, Any]]:
    """Every turn of a LoCoMo file for one space: sessions and dialogue ids prefixed with
    their sample id, since both repeat from one sample to the next.

    Raises:
        OSError: the file cannot be read.
        InvalidInputError: the file is not LoCoMo.
    """
    batches = load_turns_file(data)
    if not batches or any(sample is None for sample, _ in batches):
        raise InvalidInputError(f"{data}: not a LoCoMo file")
    turns: list[dict[str, Any]] = []
    for sample, batch in batches:
        for turn in batch:
            moved = {**turn, "session": f"{sample}/{turn.get('session', 'session')}"}
            if "external_id" in turn:
                moved["external_id"] = f"{sample}/{turn['external_id']}"
            turns.append(moved)
    return turns


def _spread(texts: Sequence[str], count: int) -> list[str]:
    """``count`` texts taken evenly over the whole list (every conversation, every kind)."""
    if count >= len(texts):
        return list(texts)
    step = len(texts) / count
    return [texts[int(i * step)] for i in range(count)]


@contextmanager
def _fts5_alone(texts: Sequence[str]) -> Iterator[sqlite3.Connection]:
    """An in-memory FTS5 table of the texts (porter, as the keyword index), nothing else."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE turns USING fts5(text, tokenize='porter unicode61')")
        conn.executemany("INSERT INTO turns(text) VALUES (?)", [(t,) for t in texts])
        yield conn
    finally:
        conn.close()


def _fts5_search(conn: sqlite3.Connection, question: str) -> list[tuple[int, float]]:
    """The keyword route's match expression, BM25-ranked, ``FTS5_LIMIT`` rows."""
    match = fts_query(question)
    if match is None:
        return []
    rows = conn.execute(
        "SELECT rowid, bm25(turns) AS rank FROM turns WHERE turns MATCH ? ORDER BY rank LIMIT ?",
        (match, FTS5_LIMIT),
    ).fetchall()
    return [(int(rowid), float(rank)) for rowid, rank in rows]


@contextmanager
def _timed(samples: dict[str, list[float]], name: str) -> Iterator[None]:
    """Adds the block's wall, process-CPU and thread-CPU milliseconds to
    ``samples[name.wall|cpu|thread]``."""
    wall, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
    yield
    samples[f"{name}.thread"].append((time.thread_time() - thread) * 1000.0)
    samples[f"{name}.cpu"].append((time.process_time() - cpu) * 1000.0)
    samples[f"{name}.wall"].append((time.perf_counter() - wall) * 1000.0)


def _load() -> tuple[float, float, float]:
    """The 1/5/15-minute load average: other jobs on the machine skew wall time."""
    try:
        return os.getloadavg()
    except OSError:  # pragma: no cover - platforms without it
        return (0.0, 0.0, 0.0)
