"""Reconciliation: finish what the stage ledger says is pending, and derive job states from it.

Nothing downstream of Level 0 relies on the process that stored a turn surviving: each turn
(and each belief) carries marks for the stages it still owes (``eywa.stores.ledger``), and
whoever can do a stage finishes it from those marks:

- ``finish`` does every stage a process can do for given items (a batch just stored, or a
  batch sent again after a crash: the retry ends with what a clean run gives);
- ``reconcile`` walks the ledger's pending index in bounded passes, stage by stage (on
  open, periodically in the API, in the workers' beat) until a pass completes nothing.

What a process can do is its ``StageWork``: the embed stages need the vector store and an
embedder (the API process, the embedded ``Memory``); ``level1`` and ``nous`` need an
extractor (the embedded ``Memory``, or the Celery workers when the API runs without one).
A stage that fails keeps its marks, records the error and an attempt, and is due again
after an exponential backoff; nothing is lost and a pass never spins on a failing item.

Every stage is idempotent (deterministic ids, stores skip what exists, known deltas are
skipped, marks are cleared only after the stage's writes are durable), so running a pass
twice equals running it once. This module is pure orchestration: the stages themselves are
``eywa.level1.run_level1`` and the embed functions of ``eywa.indexing``.

Jobs: ``record_job`` stores a job record; ``job_status`` derives its state from its turns'
marks (done when none is left, failed past ``max_attempts``), so a job survives a broker
restart and reads the same on every API replica.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from eywa.embedding import Embedder
from eywa.erasure.cascade import resume_erasures
from eywa.errors import ClosedError, EywaError, NotFoundError
from eywa.extraction.base import Extractor
from eywa.extraction.validator import Validator
from eywa.indexing import EmbedStage, embed_pending
from eywa.jobs import JobState, JobStatus
from eywa.level1 import DimensionLock, no_lock, run_level1
from eywa.models import utc_now
from eywa.stores.bundle import GraphStores, Stores
from eywa.stores.ledger import DERIVED_STAGES, EMBED_STAGES, PENDING_STAGES, JobRecord, PendingMark, PendingStage
from eywa.threads import PriorityTurn, lower_priority

__all__ = [
    "ReconcileReport",
    "Reconciler",
    "StageWork",
    "StoreJobBook",
    "backlog_figures",
    "finish",
    "finish_many",
    "job_state",
    "job_status",
    "reconcile",
    "reconcile_pass",
    "record_failure",
    "record_job",
    "retry_delay",
]

T = TypeVar("T")
log = logging.getLogger(__name__)

RETRY_BASE_S = 2.0
RETRY_CAP_S = 600.0


def retry_delay(attempts: int) -> timedelta:
    """How long a failed mark waits before it is due again: 2 s, 4 s, 8 s … capped at 10 min."""
    return timedelta(seconds=min(RETRY_BASE_S * 2 ** max(attempts, 0), RETRY_CAP_S))


@dataclass(frozen=True)
class StageWork:
    """What one process can finish, with what.

    ``vectors`` + ``embedder`` (both or neither) enable the embed stages unless ``embeds`` is
    false (a process that holds the vectors for reads and erasures while another process, the
    Celery workers, embeds what is written); ``extractor`` enables ``level1`` and ``nous``.
    ``dimension_lock`` guards each dimension update (a Redis lease in workers, none
    in-process).
    """

    stores: GraphStores
    validator: Validator
    level1_batch: int
    embed_batch: int
    pass_limit: int = 500
    vectors: Stores | None = None
    embedder: Embedder | None = None
    extractor: Extractor | None = None
    dimension_lock: DimensionLock = no_lock
    embeds: bool = True
    background_unit: int = 32
    """Items per unit of background work (``Reconciler``): waited work takes the turn
    between two units, so it waits for one unit at most, never a whole ``pass_limit``."""

    @property
    def stages(self) -> tuple[PendingStage, ...]:
        """The stages this process finishes, in ledger order."""
        able = set(EMBED_STAGES) if self.embeds and self.vectors is not None and self.embedder is not None else set()
        if self.extractor is not None:
            able |= set(DERIVED_STAGES)
        return tuple(s for s in PENDING_STAGES if s in able)


@dataclass
class ReconcileReport:
    """Marks cleared and groups failed, per stage, over one or more passes."""

    completed: dict[PendingStage, int] = field(default_factory=lambda: defaultdict(int))
    failed: dict[PendingStage, int] = field(default_factory=lambda: defaultdict(int))
    errors: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Marks cleared, all stages."""
        return sum(self.completed.values())

    def merge(self, other: ReconcileReport) -> None:
        """Add ``other``'s counts to this report."""
        for stage, n in other.completed.items():
            self.completed[stage] += n
        for stage, n in other.failed.items():
            self.failed[stage] += n
        self.errors.extend(other.errors[: max(0, 10 - len(self.errors))])

    def summary(self) -> dict[str, Any]:
        """A JSON-friendly summary."""
        return {"completed": dict(self.completed), "failed": dict(self.failed), "errors": list(self.errors)}


def _run_stage(work: StageWork, stage: PendingStage, space: str, ids: Sequence[str]) -> int:
    """Finish ``stage`` for ``ids`` of ``space``; returns the marks cleared.

    Raises:
        EywaError: the stage failed (its marks stay).
    """
    if stage in EMBED_STAGES:
        return _embed_stage(work, stage, {space: ids})
    outcome = run_level1(
        work.stores, space, ids, work.extractor, work.validator,
        batch_size=work.level1_batch, dimension_lock=work.dimension_lock,
    )  # fmt: skip
    return outcome.level1_done + outcome.nous_done


def _embed_stage(work: StageWork, stage: PendingStage, groups: Mapping[str, Sequence[str]]) -> int:
    """Finish an embed stage for the items of several spaces in one embedder pass and one
    upsert (``eywa.indexing.embed_pending``); returns the marks cleared.

    Raises:
        EywaError: the pass failed (every group's marks stay).
    """
    assert work.vectors is not None and work.embedder is not None  # ensured by StageWork.stages
    embed: EmbedStage = "embed_evidence" if stage == "embed_evidence" else "embed_belief"
    return embed_pending(work.vectors, work.embedder, embed, groups, work.embed_batch)


def record_failure(
    stores: GraphStores, space: str, stage: PendingStage, marks: Sequence[PendingMark], exc: EywaError
) -> None:
    """Keep the marks of a failed stage, count an attempt, record the error and push them back
    by ``retry_delay``; ``level1`` and ``nous`` of the same turns fail together.

    Raises:
        StoreError: the store failed too (the marks stay as they were).
    """
    ids = sorted({m.item_id for m in marks})
    attempts = max((m.attempts for m in marks), default=0) + 1
    due = utc_now() + retry_delay(attempts)
    for failing in DERIVED_STAGES if stage in DERIVED_STAGES else (stage,):
        stores.ledger.fail(space, failing, ids, f"{type(exc).__name__}: {exc}", due)


def finish(work: StageWork, space: str, item_ids: Sequence[str]) -> ReconcileReport:
    """Every stage this process can do for ``item_ids`` of ``space`` (a batch just stored or
    sent again), in ledger order; returns what was cleared.

    Raises:
        EywaError: a stage failed; its marks stay (with the error) for a later pass.
    """
    return finish_many(work, {space: item_ids})


def finish_many(work: StageWork, groups: Mapping[str, Sequence[str]]) -> ReconcileReport:
    """``finish`` for the items of several spaces (space -> ids) at once: each embed stage
    is one embedder pass and one upsert over every space's items (the batches of many
    requests together), Level 1 runs space by space. A failing space's stage is recorded and
    the others go on; the first error is raised once everything was tried.

    Raises:
        EywaError: a stage failed; its marks stay (with the error) for a later pass.
    """
    report = ReconcileReport()
    by_stage: dict[PendingStage, dict[str, list[PendingMark]]] = defaultdict(lambda: defaultdict(list))
    for space, item_ids in groups.items():
        for mark in work.stores.ledger.pending_for(space, item_ids):
            by_stage[mark.stage][space].append(mark)
    first: EywaError | None = None
    for stage in work.stages:
        if stage == "nous":
            continue  # done with ``level1``: one derived step per space
        if stage == "embed_belief":  # the beliefs just written, and any others due (e.g. read)
            found = _by_space(work.stores.ledger.pending(stage, limit=work.pass_limit, space=_only(groups)))
        elif stage == "level1":
            found = {sp: by_stage["level1"].get(sp, []) + by_stage["nous"].get(sp, []) for sp in groups}
        else:
            found = dict(by_stage[stage])
        found = {sp: marks for sp, marks in sorted(found.items()) if marks}
        if found and stage in EMBED_STAGES:
            try:
                report.completed[stage] += _embed_stage(work, stage, _ids_by_space(found))
            except EywaError as exc:
                for sp, marks in found.items():
                    record_failure(work.stores, sp, stage, marks, exc)
                first = first or exc
            continue
        for sp, marks in found.items():
            try:
                report.completed[stage] += _run_stage(work, stage, sp, sorted({m.item_id for m in marks}))
            except EywaError as exc:
                record_failure(work.stores, sp, stage, marks, exc)
                first = first or exc
    if first is not None:
        raise first
    return report


def _only(groups: Mapping[str, object]) -> str | None:
    """The one space of ``groups``, or None (any space) when there are several."""
    return next(iter(groups)) if len(groups) == 1 else None


def _ids_by_space(found: Mapping[str, Sequence[PendingMark]]) -> dict[str, list[str]]:
    return {sp: sorted({m.item_id for m in marks}) for sp, marks in sorted(found.items())}


def reconcile_pass(work: StageWork, *, limit: int, space: str | None = None, grace_s: float = 0.0) -> ReconcileReport:
    """One bounded pass: up to ``limit`` marks of each stage this process can do that have
    been due for ``grace_s`` seconds, grouped by space. Each stage reads the ledger when its
    turn comes, so the beliefs a ``level1`` step just wrote are embedded in the same pass. A
    failing group is recorded and skipped; the others go on.
    """
    report = ReconcileReport()
    _finish_erasures(work, report)
    for stage in work.stages:
        due_before = utc_now() - timedelta(seconds=grace_s)
        marks = work.stores.ledger.pending(stage, limit=limit, space=space, due_before=due_before)
        groups = sorted(_by_space(marks).items())
        if stage in EMBED_STAGES and groups:  # one embedder pass over every space's items
            try:
                report.completed[stage] += _embed_stage(work, stage, _ids_by_space(dict(groups)))
            except EywaError as exc:
                for group_space, group in groups:
                    _failed(work, report, stage, group_space, group, exc)
            continue
        for group_space, group in groups:
            try:
                report.completed[stage] += _run_stage(work, stage, group_space, [m.item_id for m in group])
            except EywaError as exc:
                _failed(work, report, stage, group_space, group, exc)
    return report


def _failed(
    work: StageWork, report: ReconcileReport, stage: PendingStage, space: str, group: Sequence[PendingMark],
    exc: EywaError,
) -> None:  # fmt: skip
    """Record a failed group of a pass (its marks stay, due after a backoff) and report it."""
    record_failure(work.stores, space, stage, group, exc)
    report.failed[stage] += 1
    if len(report.errors) < 10:
        report.errors.append(f"{stage} {space}: {exc}")
    log.warning("reconcile: %s failed for %d item(s) of %s: %s", stage, len(group), space, exc)


def _finish_erasures(work: StageWork, report: ReconcileReport) -> None:
    """Finish the erasures a crash left ``pending`` (``eywa.erasure``), before any stage runs,
    so a pass never embeds or extracts a turn an unfinished erasure is removing."""

    def failed(erasure_id: str, exc: EywaError) -> None:
        if len(report.errors) < 10:
            report.errors.append(f"erasure {erasure_id}: {exc}")
        log.warning("reconcile: erasure %s failed: %s", erasure_id, exc)

    embedder = work.embedder if work.vectors is not None else None
    resume_erasures(work.stores, vectors=work.vectors, embedder=embedder, embed_batch=work.embed_batch, on_error=failed)


def reconcile(
    work: StageWork,
    *,
    limit: int,
    space: str | None = None,
    max_passes: int = 1_000,
    should_stop: Callable[[], bool] = lambda: False,
    run_pass: Callable[..., ReconcileReport] = reconcile_pass,
) -> ReconcileReport:
    """Passes over what is due now until one clears nothing (or ``should_stop``); each pass
    through ``run_pass`` (``Reconciler`` runs each holding its turn, so waited work goes
    between two passes).

    Raises:
        StoreError: the ledger itself cannot be read.
    """
    total = ReconcileReport()
    for _ in range(max_passes):
        if should_stop():
            break
        report = run_pass(work, limit=limit, space=space)
        total.merge(report)
        if report.total == 0:
            break
    return total


def _by_space(marks: Iterable[PendingMark]) -> dict[str, list[PendingMark]]:
    groups: dict[str, list[PendingMark]] = defaultdict(list)
    for mark in marks:
        groups[mark.space].append(mark)
    return groups


class Reconciler:
    """One process's reconciliation threads: one for work a caller waits for, one, at a
    lowered priority, for work nobody waits for.

    Stage work never runs twice at once: every unit holds one turn (``_turn``, an
    ``eywa.threads.PriorityTurn``), so two passes never update a dimension together without
    a lock (in-process there is none), and a batch's Level 1 waits for the recovery that
    opening started. Background work runs in units of ``StageWork.background_unit`` items
    (drains and passes alike), and waiting work a caller waits for takes the turn before the
    next unit: a waited write, erasure or correction waits for one unit, not for a drain of
    ``pass_limit`` turns (a unit never stops half-way; what is not done stays in the ledger,
    each unit finishing the marks it read). Which thread runs a unit
    is about priority (``eywa.threads``): batches finished without waiting (writes
    acknowledged after Level 0), the recovery a pass on open leaves, and the API's periodic
    pass run on the background thread, which lowers its nice value to ``background_nice``
    so the request threads get the cores first; a batch finished with ``wait``, an erasure or
    correction (``call``), the first pass on open and ``run`` keep the caller's priority, as
    a thread that lowered itself cannot raise itself back.

    Batches finished without waiting are coalesced: they queue their ids, and one drain
    finishes up to ``pass_limit`` of them together (``finish_many``), so while a pass runs
    the batches of every request pile up and then go through the embedder in one pass and
    one upsert, not one model call and one vector-store flush per 4-turn request. A drain
    that leaves ids queued submits the next one, so waited work takes its turn between two
    bounded drains (of ``background_unit`` ids each). ``close`` asks a running pass or drain
    to stop at its end (what is left stays pending, for the next open) and joins the
    threads: a process stopped during a long backlog stops within one bounded unit.
    """

    def __init__(self, work: StageWork, *, background_nice: int = 0) -> None:
        self._work = work
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="eywa-reconcile")
        self._background = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="eywa-background", initializer=lower_priority, initargs=(background_nice,)
        )  # fmt: skip
        self._turn = PriorityTurn()  # held by each unit of stage work, on either thread
        unit = max(1, min(work.background_unit, work.pass_limit))
        self._unit_work = replace(work, pass_limit=unit)  # what one background unit takes on
        self._unit_passes = 1_000 * -(-work.pass_limit // unit)  # as many marks per loop as before
        self._futures: list[Future[ReconcileReport]] = []
        self._lock = threading.Lock()
        self._stopping = False
        self._queued: dict[str, dict[str, None]] = {}  # space -> ids of batches not yet finished
        self._drain_queued = False

    @property
    def work(self) -> StageWork:
        """What this process finishes."""
        return self._work

    def finish(self, space: str, item_ids: Sequence[str], *, wait: bool) -> ReconcileReport | None:
        """``finish`` the items; with ``wait``, block and return its report, else queue them
        for the background thread.

        A process that can do none of the stages (an API whose workers embed and run Level 1)
        returns at once: its writes never queue behind a reconciliation pass.

        Raises:
            EywaError: with ``wait``, the error a stage raised (its marks stay pending).
        """
        if not self._work.stages:
            return ReconcileReport() if wait else None
        if wait:
            return self._submit(self._exclusive, finish, self._work, space, list(item_ids)).result()
        with self._lock:
            self._queued.setdefault(space, {}).update(dict.fromkeys(item_ids))
            if self._drain_queued:
                return None  # the drain already queued takes these too
            self._drain_queued = True
        self._submit(self._finish_queued, background=True)
        return None

    def _finish_queued(self) -> ReconcileReport:
        """Finish up to ``background_unit`` of the ids queued since the last drain,
        together (``finish_many``): the batches that arrived while a pass ran go through the
        embedder in one pass. What is left is the next drain's, submitted before this one returns.
        Once ``close`` began, nothing more is started: the ledger keeps the marks of what was
        queued, and the next open (or reconciliation) finishes it."""
        with self._lock:
            if self._stopping:
                self._queued, self._drain_queued = {}, False
                return ReconcileReport()
            taken: dict[str, list[str]] = {}
            room = self._unit_work.pass_limit
            for space in list(self._queued):
                ids = list(self._queued[space])[:room]
                taken[space] = ids
                room -= len(ids)
                left = self._queued[space]
                for item in ids:
                    del left[item]
                if not left:
                    del self._queued[space]
                if room <= 0:
                    break
            more = bool(self._queued)
            self._drain_queued = more
        try:
            return self._yielding(finish_many, self._unit_work, taken)
        finally:
            if more:
                self._submit(self._finish_queued, background=True)

    def call(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` on the reconciler's (full-priority) thread, never beside stage work,
        and wait for it: work that must never run at the same time as a pass (an erasure)
        goes through here.

        Raises:
            ClosedError: the memory closed before ``fn`` could be queued.
            Exception: whatever ``fn`` raised.
        """
        future: Future[T] = self._submitted(self._executor, self._exclusive, fn, *args, **kwargs)
        return future.result()

    def recover(self) -> ReconcileReport:
        """On open: one pass over what is due, here and now; what a full pass leaves (a change
        of embedder re-embedding everything, a long backlog) goes on in the background.

        Raises:
            StoreError: the ledger cannot be read.
        """
        report = self._submit(self._exclusive, reconcile_pass, self._work, limit=self._work.pass_limit).result()
        if any(self._work.stores.ledger.pending(s, limit=1, due_before=utc_now()) for s in self._work.stages):
            self._submit(self._loop, None, True, background=True)
        return report

    def run(self, space: str | None = None, *, background: bool = False) -> ReconcileReport:
        """Reconcile what is due (of one space) until a pass clears nothing; blocks. With
        ``background``, the passes run on the background thread (the API's periodic pass:
        its caller waits, no request does).

        Raises:
            StoreError: the ledger cannot be read.
        """
        return self._submit(self._loop, space, background, background=background, track=False).result()

    def _loop(self, space: str | None = None, background: bool = False) -> ReconcileReport:
        """Passes until one clears nothing, each holding the turn (waited work goes between);
        in the background, passes of one unit each, yielding to waiting work."""
        if background:
            return reconcile(
                self._unit_work, limit=self._unit_work.pass_limit, space=space, max_passes=self._unit_passes,
                should_stop=lambda: self._stopping, run_pass=partial(self._yielding, reconcile_pass),
            )  # fmt: skip
        return reconcile(
            self._work, limit=self._work.pass_limit, space=space, should_stop=lambda: self._stopping,
            run_pass=partial(self._exclusive, reconcile_pass),
        )  # fmt: skip

    def wait(self) -> list[ReconcileReport]:
        """Join the work submitted without waiting (background recovery, ``wait=False``
        batches, the drains they submit in turn) until none is left; returns the reports of
        what was still unjoined, in order.

        Raises:
            EywaError: the first error one of them raised (the others are joined, then dropped).
        """
        reports: list[ReconcileReport] = []
        first: BaseException | None = None
        while True:
            with self._lock:
                futures, self._futures = self._futures, []
            if not futures:
                break
            for future in futures:
                try:
                    reports.append(future.result())
                except BaseException as exc:  # noqa: BLE001 - re-raised below, once all are joined
                    first = first or exc
        if first is not None:
            raise first
        return reports

    def close(self) -> None:
        """Stop between passes and drains (what is left stays pending), join the threads;
        later submissions are refused by the caller."""
        self._stopping = True
        try:
            self.wait()
        finally:
            self._background.shutdown(wait=True)
            self._executor.shutdown(wait=True)

    def _exclusive(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn`` holding the turn: no other unit of stage work runs meanwhile; it goes
        before any background unit not yet started."""
        with self._turn.hold(urgent=True):
            return fn(*args, **kwargs)

    def _yielding(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn`` holding the turn once no urgent unit waits for it (one background unit)."""
        with self._turn.hold(urgent=False):
            return fn(*args, **kwargs)

    def _submitted(self, executor: ThreadPoolExecutor, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """``executor.submit``, with a memory closed meanwhile a ``ClosedError``: a call that
        passed ``Memory``'s open check just before another thread closed it met the shut-down
        pool's ``RuntimeError`` ("cannot schedule new futures after shutdown").

        Raises:
            ClosedError: the pool was shut down by ``close``.
        """
        try:
            return executor.submit(fn, *args, **kwargs)
        except RuntimeError:
            if self._stopping:
                raise ClosedError() from None
            raise

    def _submit(
        self, fn: Callable[..., ReconcileReport], /, *args: Any, background: bool = False, track: bool | None = None,
        **kwargs: Any,
    ) -> Future[ReconcileReport]:  # fmt: skip
        """Run ``fn`` on the background or the full-priority thread (``fn`` takes the turn:
        ``_exclusive``, ``_finish_queued``, ``_loop``). Background work is tracked for
        ``wait`` (``track`` overrides); work on the other thread is waited for by its caller."""
        future = self._submitted(self._background if background else self._executor, fn, *args, **kwargs)
        if background if track is None else track:
            with self._lock:  # joined ones that succeeded are dropped: memory stays bounded
                self._futures = [f for f in self._futures if not f.done() or f.exception() is not None]
                self._futures.append(future)
        return future


# --- jobs -------------------------------------------------------------------------------


def record_job(
    stores: GraphStores,
    space: str,
    evidence_ids: Sequence[str],
    *,
    author: str | None = None,
    request_id: str | None = None,
    job_id: str | None = None,
) -> str:
    """Store a Level 1 job for ``evidence_ids`` of ``space``; returns its id.

    Raises:
        StoreError: the store failed.
    """
    record = new_job(space, evidence_ids, author=author, request_id=request_id, job_id=job_id)
    stores.jobs.add_job(record)
    return record.id


def new_job(
    space: str,
    evidence_ids: Sequence[str],
    *,
    author: str | None = None,
    request_id: str | None = None,
    job_id: str | None = None,
) -> JobRecord:
    """The record ``record_job`` stores (a new id unless ``job_id``), for a caller that
    stores it in its own transaction (``EvidenceStore.add(..., job=)``)."""
    return JobRecord(
        id=job_id or "job_" + uuid.uuid4().hex, space=space, evidence_ids=tuple(dict.fromkeys(evidence_ids)),
        submitted_at=utc_now(), author=author, request_id=request_id,
    )  # fmt: skip


def job_status(stores: GraphStores, job_id: str, *, max_attempts: int) -> JobStatus:
    """The job's state from its turns' marks: ``done`` when no ``level1``/``nous`` mark is left,
    ``failed`` once a mark has failed ``max_attempts`` times (it is still retried), else
    ``pending``. ``detail`` names the space, the turns, what is left and the last error.

    Raises:
        NotFoundError: no such job.
        StoreError: the store failed.
    """
    record = stores.jobs.get_job(job_id)
    if record is None:
        raise NotFoundError("job", "*", job_id)
    marks = [m for m in stores.ledger.pending_for(record.space, record.evidence_ids) if m.stage in DERIVED_STAGES]
    detail: dict[str, Any] = {
        "space": record.space, "evidence": len(record.evidence_ids),
        "submitted_at": record.submitted_at.isoformat(), "pending": len({m.item_id for m in marks}),
    }  # fmt: skip
    if record.author is not None:
        detail["author"] = record.author
    errors = sorted((m for m in marks if m.error), key=lambda m: m.due_at)
    if errors:
        detail["error"] = errors[-1].error
        detail["attempts"] = max(m.attempts for m in errors)
    return JobStatus(id=job_id, status=job_state(marks, max_attempts=max_attempts), detail=detail)


def job_state(marks: Sequence[PendingMark], *, max_attempts: int, unmarked_pending: bool = False) -> JobState:
    """A job's state from its turns' ``level1``/``nous`` marks: ``failed`` once one has failed
    ``max_attempts`` times (it is still retried), ``pending`` while any is left (or
    ``unmarked_pending``: turns whose marks the caller knows exist without reading them, as
    an acknowledgement knows of the marks its write just made), else ``done``."""
    if any(m.attempts >= max_attempts for m in marks):
        return "failed"
    return "pending" if marks or unmarked_pending else "done"


class StoreJobBook:
    """A ``JobBook`` over a store bundle: what ``Memory`` does for jobs, for a process that
    holds only the graph stores."""

    def __init__(self, stores: GraphStores, *, max_attempts: int) -> None:
        self._stores = stores
        self._max_attempts = max_attempts

    def record_job(
        self, space: str, evidence_ids: Sequence[str], *, author: str | None = None, request_id: str | None = None
    ) -> str:
        """Record a job; returns its id.

        Raises:
            StoreError: the store failed.
        """
        return record_job(self._stores, space, evidence_ids, author=author, request_id=request_id)

    def job(self, job_id: str) -> JobStatus:
        """The job's derived state.

        Raises:
            NotFoundError: no such job.
        """
        return job_status(self._stores, job_id, max_attempts=self._max_attempts)


def backlog_figures(stores: GraphStores) -> Mapping[str, object]:
    """Marks per stage and the Level 1 backlog (distinct turns), for probes and metrics.

    Raises:
        StoreError: the store failed.
    """
    return {"stages": stores.ledger.backlog(), "level1": stores.ledger.level1_backlog()}
