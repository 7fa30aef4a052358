"""``Memory``: the public entry point. It validates input, shapes output, and delegates to
the write path, the read path and the stores it was built with."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, TypeVar, get_args


from eywa import corrections as correcting
from eywa import crashpoints
from eywa.batches import DEFAULT_SESSION, PreparedBatch, prepare_batch
from eywa.contract import (
    Limits,
    SpaceQuota,
    check_choice,
    check_directory,
    check_flag,
    check_label,
    check_labels,
    check_optional_callable,
    check_optional_label,
    check_params,
    check_plugins,
    check_recall,
    check_retention,
    check_settings,
    check_spaces,
    check_time,
    check_turns,
)
from eywa.embedding import Embedder, embedder_id, query_embedding
from eywa.erasure import ErasureProof, ErasureReport, erase, erasure_proof, selector_of
from eywa.erasure.retention import apply_retention
from eywa.errors import (
    ClosedError,
    ConfigurationError,
    EywaError,
    InvalidInputError,
    NotFoundError,
    OverloadedError,
    SessionBusyError,
    StoreError,
)
from eywa.extraction.base import Extractor, extractor_label
from eywa.extraction.pipeline import Explanation, explain
from eywa.extraction.validator import Validator
from eywa.ids import check_space, entity_key
from eywa.in_flight import InFlight
from eywa.session_locks import NUMBERING_ATTEMPTS, SessionLocks, renumber_pause
from eywa.indexing import embed_evidence, repair_vectors
from eywa.jobs import JobStatus
from eywa.models import (
    Belief,
    BeliefStatus,
    Candidate,
    CandidateStatus,
    Delta,
    Dimension,
    Evidence,
    Policy,
    RecallResult,
    Turn,
    utc_now,
)
from eywa.nous import ledger as nous
from eywa.portability import (
    ExportHeader,
    ExportRecord,
    ImportReport,
    export_records,
    import_lines,
    parse_lines,
    record_json,
    restore_records,
)
from eywa.read.items import BeliefSource, DimensionSource, EvidenceSource
from eywa.read.reader import Reader
from eywa.read.relatives import Relatives
from eywa.read.routes import (
    BeliefRoute,
    EventsRoute,
    FeedbackRoute,
    DimensionRoute,
    GraphRoute,
    InferenceRoute,
    KeywordRoute,
    PersonRoute,
    TemporalRoute,
    VectorRoute,
)
from eywa.rederive import SignalsUpgrade, rederive_signals
from eywa.reconcile import Reconciler, ReconcileReport, StageWork, job_state, job_status, new_job, record_job
from eywa.settings import EywaSettings, load_settings
from eywa.stats import space_stats
from eywa.stores.access import AccessLog
from eywa.stores.audit import AuditResult, AuditSpec, run_audit
from eywa.stores.backup import BackupReport
from eywa.stores.bundle import Stores
from eywa.stores.corrections import CorrectionRecord
from eywa.stores.dimensions import SameAsEdge
from eywa.stores.erasure import ErasureRecord, ErasureSelector
from eywa.stores.ledger import DERIVED_STAGES, SpaceBacklog
from eywa.stores.spaces import SpaceCounts
from eywa.stores.vectors import VECTOR_KINDS, ShardIndex, VectorIndexer, VectorKind
from eywa.warm_up import warm_up

TurnLike = Turn | Mapping[str, Any]

log = logging.getLogger(__name__)


P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

# drop_space's selector: every turn recorded before the end of time.
_DROP = ErasureSelector(recorded_before=datetime.max.replace(tzinfo=timezone.utc))


def _stored_anyway(failed: EywaError, turns: int) -> EywaError:
    """``failed``, raised by what a waited ``remember`` runs after Level 0 committed, saying
    so: the caller would otherwise read "sqlite store failed during commit" as its write
    refused, when its turns are stored and what failed (their vectors, Level 1) is pending,
    retried by the next pass (README, "What survives a crash"). A copy of the same type with
    the same attributes (so the same code: a 503 stays a 503) and longer words; the original,
    which a shared pass may have handed to other waiting callers too, is left as it was."""
    said = type(failed).__new__(type(failed))
    said.__dict__.update(failed.__dict__)
    said.args = (
        f"{failed} (the {turns} turn(s) of this write were stored: what failed after them is pending and "
        "retried in the background; sending the same turns again returns their ids and stores nothing twice)",
    )
    return said


def _earlier(records: Sequence[ErasureRecord], selector: ErasureSelector) -> ErasureRecord | None:
    """The latest of ``records`` whose selector is ``selector``: a ``forget`` sent again after
    its answer was lost (a dropped connection, a restart) is answered by the erasure it made,
    as a retried ``drop_space`` is."""
    return next((r for r in reversed(records) if r.selector == selector), None)


def _report_of(record: ErasureRecord) -> ErasureReport:
    """What ``forget`` / ``drop_space`` answered when ``record`` was made."""
    return ErasureReport(erasure_id=record.id, space=record.space, state=record.state, counts=dict(record.counts))


def _is_drop(selector: ErasureSelector) -> bool:
    """Whether an erasure record's selector is ``drop_space``'s (read back from either store,
    whose clocks may round the end of time: the year is what tells)."""
    only = selector.model_dump(exclude_none=True)
    return set(only) == {"recorded_before"} and selector.recorded_before is not None and selector.recorded_before.year == 9999


def _in_flight(method: Callable[Concatenate[Memory, P], R]) -> Callable[Concatenate[Memory, P], R]:
    """A public method counted as in flight (``eywa.in_flight``): ``close`` waits for it."""

    @functools.wraps(method)
    def call(self: Memory, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self._in_flight.call():
            self._present()
            return method(self, *args, **kwargs)

    return call


def _in_flight_each(
    method: Callable[Concatenate[Memory, P], Iterator[T]],
) -> Callable[Concatenate[Memory, P], Iterator[T]]:
    """A public method returning an iterator, each step of it in flight."""

    @functools.wraps(method)
    def call(self: Memory, /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        return self._in_flight.each(method(self, *args, **kwargs))

    return call


class Memory:
    """Long-term memory for agents: ``remember`` turns, ``recall`` context with provenance.

    Example:
        >>> with Memory.open("/tmp/eywa-doc") as mem:  # doctest: +SKIP
        ...     ids = mem.remember("alice", [{"text": "I moved to Lyon", "speaker": "Alice"}])
        ...     mem.recall("alice", "Where does Alice live?").context
    """

    def __init__(
        self,
        stores: Stores,
        embedder: Embedder,
        settings: EywaSettings,
        extractor: Extractor | None = None,
        *,
        embed_writes: bool = True,
    ) -> None:
        self._stores = stores
        self._embedder = embedder
        self._embed_writes = embed_writes
        self._settings = settings
        self._limits = Limits.from_settings(settings)
        self._extractor = extractor
        self._validator = Validator(support_threshold=settings.validator_support_threshold)
        self._in_flight = InFlight()
        self._session_locks = SessionLocks()
        # Raises StoreError once the embedded directory or a vector shard is gone under this
        # process (``eywa.stores.embedded.presence``): every call refused.
        self._present: Callable[[], None] = stores.present
        self._reconciler = Reconciler(StageWork(
            stores=stores, validator=self._validator, level1_batch=settings.level1_batch_size,
            embed_batch=self._embed_batch, pass_limit=settings.reconcile_batch, vectors=stores,
            embedder=embedder, extractor=extractor, embeds=embed_writes,
            background_unit=settings.level1_batch_size,  # one Level 1 batch: waited work waits for one
        ), background_nice=settings.background_nice)  # fmt: skip
        # Routes of one recall run at once where the backend serves parallel queries.
        self._route_pool = (
            ThreadPoolExecutor(max_workers=stores.read_concurrency, thread_name_prefix="eywa-route")
            if stores.read_concurrency > 1
            else None
        )
        evidence_source = EvidenceSource(stores.evidence)
        self._reader = Reader(
            routes=[
                KeywordRoute(stores.keyword, ("evidence", "belief")),
                VectorRoute(stores.vectors, ("evidence", "belief")),
                TemporalRoute(stores),
                GraphRoute(stores),
                InferenceRoute(stores),
                DimensionRoute(stores),
                BeliefRoute(stores),
                EventsRoute(stores.keyword),
                PersonRoute(stores),
                FeedbackRoute(stores),
            ],
            sources=[
                evidence_source,
                BeliefSource(stores.beliefs),
                DimensionSource(stores.dimensions, stores.evidence),
            ],
            embed_queries=query_embedding(self._embedder),
            entities_named=stores.evidence.entities_named,
            neighbours=evidence_source.neighbours,
            speakers=evidence_source.speakers,
            rrf_k=settings.rrf_k,
            max_k=self._limits.max_k,
            disabled=frozenset(settings.disabled_stages),
            pool=self._route_pool,
            keyword=stores.keyword,
            belief_cites=stores.beliefs.belief_cites,
            relatives=Relatives(stores),
            snapshot=stores.read_snapshot,
        )
        try:
            stores.ledger.switch_embedder(embedder_id(embedder), utc_now())
            self._recovered = self._reconciler.recover()
        except BaseException:
            self._reconciler.close()
            raise

    # --- construction -------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        settings: EywaSettings | None = None,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        embed_writes: bool = True,
    ) -> Memory:
        """Open (or create) an embedded memory in ``path``; no server needed.

        Reopening the same directory sees everything written before. ``extractor`` is any
        object with ``propose(space, evidence)``; without one, settings choose a built-in
        extractor (the offline rule-based one by default; ``EYWA_EXTRACTOR=none`` for none).
        ``embed_writes=False`` leaves new turns' and beliefs' vectors to another process (the
        Celery workers, when they reach the same vector store): this one embeds queries only,
        and the ledger's embed marks wait for the workers. Without ``settings``, they are read
        from ``EYWA_*``. Entry points do not call this
        directly: ``eywa.runtime.open_memory`` picks ``open`` or ``connect`` from settings.

        Raises:
            ConfigurationError: an ``EYWA_*`` variable does not validate.
            InvalidInputError: ``path`` (or ``settings.data_dir``) is no directory path
                (``contract.check_directory``), ``settings`` is no ``EywaSettings``, or
                ``embedder`` / ``extractor`` lacks what is called on it (``check_plugins``).
            StoreError: if the directory or its stores cannot be opened.
        """
        from eywa.embedding import build_embedder
        from eywa.extraction.llm import build_extractor
        from eywa.stores.embedded.factory import open_embedded

        check_plugins(embedder, extractor)
        settings = check_settings(settings) or load_settings()
        directory = check_directory(path, "path") if path is not None else check_directory(settings.data_dir, "data_dir")
        embedder = embedder or build_embedder(settings)
        extractor = extractor if extractor is not None else build_extractor(settings)
        secret = settings.erasure_secret.get_secret_value().encode() if settings.erasure_secret else None
        stores = open_embedded(
            directory, embedder.dim, embedder_id(embedder), erasure_secret=secret, keyword_index=settings.keyword_index
        )
        return _built(cls, stores, embedder, settings, extractor, embed_writes)

    @classmethod
    def connect(
        cls,
        settings: EywaSettings | None = None,
        *,
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        embed_writes: bool = True,
    ) -> Memory:
        """Open a memory on the server backends (Neo4j + Qdrant) named by settings.

        Behaves exactly like ``Memory.open`` (``embed_writes`` too); schema migrations are
        applied on connect.

        Raises:
            ConfigurationError: ``EYWA_NEO4J_URI`` is missing or malformed, or an ``EYWA_*``
                variable does not validate.
            StoreError: a server cannot be reached.
        """
        from eywa.embedding import build_embedder
        from eywa.extraction.llm import build_extractor
        from eywa.stores.server import open_server

        check_plugins(embedder, extractor)
        settings = check_settings(settings) or load_settings()
        embedder = embedder or build_embedder(settings)
        extractor = extractor if extractor is not None else build_extractor(settings)
        stores = open_server(settings, embedder.dim, embedder_id(embedder))
        return _built(cls, stores, embedder, settings, extractor, embed_writes)

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Let the background work in progress end, then flush and close the stores.

        A long reconciliation (say, re-embedding after a change of embedder) stops between two
        passes, and the batches of ``remember(..., wait=False)`` after the bounded drain in
        progress (``EYWA_RECONCILE_BATCH`` turns); what is left stays pending and the next
        open goes on with it (``wait()`` first finishes everything). Further calls raise
        ``ClosedError``. A flush the disk refuses (a full disk) does not stop the close: every
        file and the directory's lock are released, and a warning per refused flush says what
        was not flushed and how the next open recovers it.
        """
        if not self._in_flight.close():  # new calls refused; those in progress end first
            return
        try:
            self._reconciler.close()
        finally:
            if self._route_pool is not None:
                self._route_pool.shutdown(wait=True)
            self._reader.close()
            self._close_stores()

    def _close_stores(self) -> None:
        """Close the stores; a last flush that fails is logged, not raised, so that ``eywa
        serve`` stops with one line instead of a failed shutdown's traceback, and the caller
        of ``close`` is not told its memory is still open when every file and the lock were
        released. Nothing acknowledged is lost by it: on a full disk, SQLite's committed
        writes stay in its WAL (replayed at the next open) and the vectors a shard did not
        flush are counted as lost and embedded again at the next open; when the embedded
        directory was deleted under the process, every call since was refused."""
        try:
            self._stores.close()
        except StoreError as failed:
            try:
                self._present()
            except StoreError as gone:
                log.warning("%s; the stores were closed without their last flush (%s)", gone, failed)
                return
            log.warning("memory closed without its last flush: %s", failed)

    @_in_flight
    def warm_up(self) -> None:
        """Run the store's hot statements once, in a space no user can have, storing nothing,
        so that a server memory's first callers do not wait for Neo4j to plan them (see
        ``eywa.warm_up`` for the cold figures); when this memory embeds its writes, it first
        embeds a batch, so that the first writes do not wait for the embedder to load. The
        embedded store has no statements to warm.

        Raises:
            StoreError: the store failed (serving does not depend on the warm-up: log it).
            EywaError: the embedder failed (likewise).
            ClosedError: the memory was closed.
        """
        embed = self._embedder.embed if self._embed_writes else None
        warm_up(self._stores, self._warm_up_recall, embed, SpaceQuota.of(self._limits))

    def _warm_up_recall(self, space: str, query: str) -> None:
        """A recall of ``space`` without the input checks (which refuse the warm-up's space)."""
        self._reader.recall(space, query, k=10, budget_tokens=None, policy="balanced", as_of=None)

    def wait(self) -> list[ReconcileReport]:
        """Block until background work (``remember(..., wait=False)``, recovery) has finished;
        returns what it did.

        Raises:
            EywaError: the first error a background pass raised (the others are dropped).
        """
        return self._reconciler.wait()

    # --- write --------------------------------------------------------------------------

    @_in_flight
    def remember(
        self,
        space: str,
        turns: Sequence[TurnLike],
        *,
        author: str | None = None,
        progress: Callable[[int], None] | None = None,
        wait: bool | None = None,
    ) -> list[str]:
        """Store turns (Level 0) and return their evidence ids, in order.

        Idempotent: a turn sent again returns the same id and writes nothing. Atomic: if any
        turn is invalid, nothing of the batch is written. Every surface shares these checks
        and limits (``eywa.contract``; ``limits``). With ``wait`` true (default from
        ``EYWA_LEVEL1_WAIT``) the turns are embedded and Level 1 (extraction, validation,
        dimensions) runs before returning. With ``wait`` false it returns once Level 0 is
        committed (turns, signals, mentions, keyword index): embedding and Level 1 run on the
        background thread (``wait()`` joins it), so recall finds the new turns at once by
        keyword, time and graph, and by vector once they are embedded (``progress`` is then
        not called). Every later stage is recorded as pending in the Level 0 transaction and
        cleared when done, so sending a batch again after a crash finishes what the crash
        interrupted (and only that): the retry ends with what a clean run gives. A memory
        opened with ``embed_writes=False`` never embeds the turns: their marks wait for the
        workers, whatever ``wait`` says.

        Raises:
            InvalidTurnError: naming the first invalid turn, its field and the rule's code.
            InvalidInputError: a bad space, ``turns`` not a non-empty list, or more than
                ``max_turns_per_batch`` turns (``too_many_turns``).
            QuotaExceededError: the new turns would take the space over its quota.
            ErasedError: a turn of the batch was erased; nothing was written.
            OverloadedError: the Level 1 backlog is over ``EYWA_MAX_BACKLOG`` (``stage``
                ``level1``), or more turns of the deployment wait for their embedding than
                ``EYWA_MAX_EMBED_BACKLOG`` allows (``stage`` ``embed``); nothing was written.
        """
        ids, _ = self._remember(space, turns, author=author, progress=progress, wait=wait, job=False)
        return ids

    @_in_flight
    def remember_job(
        self,
        space: str,
        turns: Sequence[TurnLike],
        *,
        author: str | None = None,
        request_id: str | None = None,
        wait: bool | None = None,
    ) -> tuple[list[str], JobStatus]:
        """``remember``, with the batch's Level 1 job recorded in the batch's own Level 0
        transaction (``EvidenceStore.add(..., job=)``), and its state (what ``job`` would
        read) derived from the batch: what an API's write answers. On the embedded store the write waits
        once for the connection instead of three times, behind other threads' recalls. With
        ``wait`` the job's state is read after Level 1.

        Raises:
            The errors of ``remember``; StoreError: the store failed.
        """
        ids, job = self._remember(
            space, turns, author=author, progress=None, wait=wait, job=True, request_id=request_id
        )  # fmt: skip
        assert job is not None  # a job was asked for
        return ids, job

    def _remember(
        self,
        space: str,
        turns: Sequence[TurnLike],
        *,
        author: str | None,
        progress: Callable[[int], None] | None,
        wait: bool | None,
        job: bool,
        request_id: str | None = None,
    ) -> tuple[list[str], JobStatus | None]:
        """``remember`` and ``remember_job``; with ``job``, the batch's job is recorded (by
        ``author``, with ``request_id``)."""
        from eywa.signals import detect_signals

        space = check_space(space)
        checked = check_turns(turns, self._limits)
        author = check_optional_label(author, "author", self._limits)
        request_id = check_optional_label(request_id, "request_id", self._limits)
        progress = check_optional_callable(progress, "progress")
        waits = self._settings.level1_wait if wait is None else wait
        status: JobStatus | None = None
        job_id: str | None = None
        self._refuse_overload()
        sessions = {turn.session or DEFAULT_SESSION for turn in checked}
        for attempt in range(1, NUMBERING_ATTEMPTS + 1):
            try:
                # Batches of one session are numbered and written one after the other in
                # this process (``seq`` is read before the write: ``eywa.session_locks``);
                # other sessions' go on beside them. Another process's batch of the session
                # committed in between is found by the store (``numbered``), which writes
                # nothing: the batch is numbered again from a fresh read.
                with self._session_locks.held(space, sessions):
                    batch = prepare_batch(space, checked, self._stores.evidence, detect_signals, author=author)
                    # Checked by the store in the write transaction, after the space's write
                    # lock, so batches sent at the same moment (threads, replicas) are checked
                    # one by one.
                    quota = SpaceQuota.of(self._limits) if batch.new else None
                    # The CPU work above ran without holding the embedded connection, beside
                    # other threads' queries. The job is written in Level 0's own transaction:
                    # one commit per acknowledged write (on Neo4j a second transaction cost a
                    # pooled connection, its check and a commit). The embedded store commits
                    # the batches waiting for its one writing connection together
                    # (``eywa.stores.embedded.group_commit``), so this call holds no store
                    # lock around ``add``: a held connection would serialise them again.
                    record = new_job(space, batch.ids, author=author, request_id=request_id) if job else None
                    self._stores.evidence.add(batch.new, batch.mentions, job=record, quota=quota, numbered=True)
                break
            except SessionBusyError as busy:
                if attempt == NUMBERING_ATTEMPTS:
                    raise SessionBusyError(space, busy.sessions, attempts=attempt) from busy
            time.sleep(renumber_pause(attempt))
        crashpoints.reached("level0_committed")
        if record is not None:
            job_id = record.id
            if not waits:  # read after the commit: its turns' marks are there to be read
                status = self._acknowledged_job(job_id, space, batch)
        if not waits:
            self._reconciler.finish(space, batch.ids, wait=False)  # embeds, then Level 1
            return batch.ids, status
        try:
            if self._embed_writes:
                embed_evidence(self._stores, self._embedder, batch.new, self._embed_batch, progress)
                self._stores.ledger.complete(space, "embed_evidence", [e.id for e in batch.new])
            self._reconciler.finish(space, batch.ids, wait=True)
        except EywaError as failed:
            raise _stored_anyway(failed, len(batch.ids)) from failed
        return batch.ids, None if job_id is None else self.job(job_id)

    def _acknowledged_job(self, job_id: str, space: str, batch: PreparedBatch) -> JobStatus:
        """The state ``job`` reads of a job just recorded, before anything ran: the new turns'
        marks were just created (so it is ``pending``), and only the turns sent again are
        read, for marks left (``pending``) or failed too often (``failed``); none: ``done``."""
        new = {e.id for e in batch.new}
        again = [i for i in dict.fromkeys(batch.ids) if i not in new]
        found = self._stores.ledger.pending_for(space, again) if again else []
        marks = [m for m in found if m.stage in DERIVED_STAGES]
        pending = len(new) + len({m.item_id for m in marks})
        detail: dict[str, Any] = {"space": space, "evidence": len(set(batch.ids)), "pending": pending}
        state = job_state(marks, max_attempts=self._settings.stage_max_attempts, unmarked_pending=bool(new))
        return JobStatus(id=job_id, status=state, detail=detail)

    def _refuse_overload(self) -> None:
        """Backpressure, checked before anything is written: refuse the batch while a bounded
        backlog is over its bound. The embedding bound counts every space's turns (their
        ``embed_evidence`` marks, re-embeddings after a change of embedder included): the
        embedders are one pool for the deployment, so a new turn waits behind all of them.
        The count is read before the write, not in its transaction: batches written at the
        same moment may each pass, so the backlog can exceed the bound by what is in flight
        (at most the concurrent requests times their batch size)."""
        retry = self._settings.backlog_retry_after_s
        limit = self._settings.max_embed_backlog
        if limit > 0:
            unembedded = self._stores.ledger.backlog()["embed_evidence"]
            if unembedded > limit:
                raise OverloadedError(unembedded, limit, retry, stage="embed")
        limit = self._settings.max_backlog
        if limit > 0:
            backlog = self._stores.ledger.level1_backlog()
            if backlog > limit:
                raise OverloadedError(backlog, limit, retry)

    # --- read ---------------------------------------------------------------------------

    @_in_flight
    def recall(
        self,
        space: str,
        query: str,
        k: int = 10,
        budget_tokens: int | None = None,
        policy: Policy = "balanced",
        as_of: datetime | str | None = None,
    ) -> RecallResult:
        """Ranked, provenance-carrying context for ``query``; no LLM is called.

        Raises:
            InvalidInputError: every bad argument at once (``problems``): an empty query,
                k out of range, a bad budget, an unknown policy, an unparseable or
                unsupported ``as_of`` (``invalid_input``); or only limits exceeded — a query
                over ``max_query_chars``, k over ``max_k``, a budget over
                ``max_budget_tokens`` (``limit_exceeded``).
            StoreError: no route could answer (a route whose store fails is skipped and
                named in ``trace["skipped"]``; the others answer).
        """
        space = check_space(space)
        params = check_recall(query, k, budget_tokens, policy, as_of, self._limits)
        # What the vector route and beliefs lack yet, for the trace: read beside the recall
        # where reads run at once (a round trip no longer added to every recall's time).
        # Without a pool it is read in the recall's own snapshot (``Stores.read_snapshot``: the
        # reader's joins it), so the counts are of the state the recall read, and the read
        # costs no read transaction of its own.
        pool = self._route_pool
        backlog = pool.submit(self._stores.ledger.space_backlog, space) if pool is not None else None
        with self._stores.read_snapshot() if backlog is None else nullcontext():
            result = self._reader.recall(
                space, params.query, k=params.k, budget_tokens=params.budget_tokens, policy=params.policy,
                as_of=params.as_of,
            )  # fmt: skip
            pending = backlog.result() if backlog is not None else self._stores.ledger.space_backlog(space)
        return result.model_copy(update={"trace": {**result.trace, "pending": pending.model_dump()}})

    @property
    def limits(self) -> Limits:
        """The input limits every call is checked against (from the settings)."""
        return self._limits

    @_in_flight
    def evidence(self, space: str, evidence_id: str) -> Evidence:
        """The stored turn ``evidence_id`` of ``space``.

        Raises:
            NotFoundError: if no such turn exists in that space.
        """
        found = self._stores.evidence.get(check_space(space), [check_label(evidence_id, "evidence_id", self._limits)])
        if not found:
            raise NotFoundError("evidence", space, evidence_id)
        return found[0]

    @_in_flight
    def beliefs(
        self,
        space: str,
        subject: str | None = None,
        attribute: str | None = None,
        status: BeliefStatus | None = "active",
    ) -> list[Belief]:
        """Validated beliefs of ``space``, optionally of one subject and attribute."""
        space = check_space(space)
        subject = None if subject is None else check_label(subject, "subject", self._limits)
        attribute = None if attribute is None else check_label(attribute, "attribute", self._limits)
        status = check_choice(status, "status", get_args(BeliefStatus))
        return self._stores.beliefs.beliefs(space, subject=subject, attribute=attribute, status=status)

    @_in_flight
    def beliefs_citing(self, space: str, evidence_id: str) -> list[Belief]:
        """The beliefs of any status that cite the turn ``evidence_id`` (one indexed read,
        not a scan of the space's beliefs)."""
        space = check_space(space)
        return self._stores.beliefs.beliefs_citing(space, [check_label(evidence_id, "evidence_id", self._limits)])

    @_in_flight
    def candidates(self, space: str, status: CandidateStatus | None = "rejected") -> list[Candidate]:
        """Candidates the validator refused, each with machine-readable ``reasons``."""
        space = check_space(space)
        return self._stores.beliefs.candidates(space, check_choice(status, "status", get_args(CandidateStatus)))

    @_in_flight
    def explain(self, space: str, belief_id: str) -> Explanation:
        """Why a belief is held: the belief, its validation report and the cited turns.

        Raises:
            NotFoundError: no such belief in ``space``.
        """
        space = check_space(space)
        return explain(self._stores.beliefs, self._stores.evidence, space, check_label(belief_id, "belief_id", self._limits))

    @_in_flight
    def dimension(
        self, space: str, entity: str, attribute: str, as_of: datetime | str | None = None
    ) -> Dimension:
        """The belief state of (entity, attribute), decayed to ``as_of`` when given.

        Raises:
            NotFoundError: nothing was observed about it (by ``as_of``).
        """
        space = check_space(space)
        entity, attribute = check_label(entity, "entity", self._limits), check_label(attribute, "attribute", self._limits)
        return nous.get_dimension(self._stores.dimensions, space, entity, attribute, check_time(as_of, "as_of"))

    @_in_flight
    def dimensions(
        self, space: str, entity: str | None = None, as_of: datetime | str | None = None
    ) -> list[Dimension]:
        """Every dimension of ``space`` (or of one entity)."""
        space = check_space(space)
        entity = None if entity is None else check_label(entity, "entity", self._limits)
        return nous.list_dimensions(self._stores.dimensions, space, entity, check_time(as_of, "as_of"))

    @_in_flight
    def deltas(self, space: str, entity: str, attribute: str) -> list[Delta]:
        """The immutable update log of one dimension, in event-time order."""
        space = check_space(space)
        entity, attribute = check_label(entity, "entity", self._limits), check_label(attribute, "attribute", self._limits)
        return nous.list_deltas(self._stores.dimensions, space, entity, attribute)

    @_in_flight
    def spaces(self) -> list[str]:
        """Every space holding evidence."""
        return self._stores.evidence.spaces()

    @_in_flight
    def space_counts(
        self, spaces: Sequence[str], recorded_from: datetime, recorded_to: datetime
    ) -> dict[str, SpaceCounts]:
        """The counts of each of ``spaces`` in one store read, whatever their number: turns
        (and those recorded in ``[recorded_from, recorded_to)``), beliefs and candidates by
        status, dimensions, erasures and backlog, each as ``stats``, ``erasures`` and
        ``pending`` give it for one space (``eywa.stores.spaces``).

        Raises:
            InvalidInputError: ``spaces`` is no list of names (``None`` was a TypeError, a
                string was read as its characters), a bad space name, or a bound that is no
                supported time (an integer reached the Neo4j driver as an ``OverflowError``).
            StoreError: the store failed.
        """
        checked = check_spaces(spaces, "spaces")
        start, end = check_time(recorded_from, "recorded_from"), check_time(recorded_to, "recorded_to")
        if start is None or end is None:
            raise InvalidInputError.at("recorded_from" if start is None else "recorded_to", "must be a time")
        return self._stores.catalog.counts(checked, start, end)

    @_in_flight
    def stats(self, space: str) -> dict[str, Any]:
        """Counts for ``eywa stats``: evidence, signals, entities, beliefs, candidates by reason."""
        return space_stats(self._stores, check_space(space))

    # --- audit --------------------------------------------------------------------------

    @_in_flight
    def audits(self) -> list[AuditSpec]:
        """The named audits (the same on every backend): purpose, parameters, columns."""
        return self._stores.audit.audits()

    @_in_flight
    def audit(self, name: str, params: Mapping[str, str]) -> AuditResult:
        """Run the named audit read-only, e.g. why a belief is held or what a turn caused.

        Every audit takes ``space`` among its ``params`` (strings; times as ISO-8601) and
        answers alike on every backend: the same columns, rows and value types. Parameters
        declared optional (``AuditParam.optional``, e.g. ``timeline``'s ``speaker``) may be
        left out: they bind to ``''``, which the query reads as "no filter".

        Example:
            >>> mem.audit("why_believed", {"space": "alice", "belief_id": bid}).records()  # doctest: +SKIP

        Raises:
            InvalidInputError: an unknown audit, ``params`` not a mapping, a missing required
                or an undeclared parameter, a value that is not a string, a count or time
                parameter that is not one (``params.<name>``), or a bad space.
            StoreError: the backend failed.
        """
        check_params(params, self._limits)
        return run_audit(self._stores.audit, name, params)

    @property
    def access_log(self) -> AccessLog:
        """The access log of this memory's backend, where the HTTP API and the MCP server
        record who called what (``eywa.stores.access``; the ``access_log`` audit reads it).

        Raises:
            ClosedError: the memory was closed.
        """
        self._check_open()
        return self._stores.access

    # --- maintenance --------------------------------------------------------------------

    @_in_flight
    def reconcile(self, space: str | None = None, *, background: bool = False) -> ReconcileReport:
        """Finish every pending stage this memory can do (of one space, or all); blocks.

        It runs by itself on open, after each batch and (in ``eywa serve``) periodically;
        call it to drain what a crash, a failed extractor or a worker left. Idempotent.
        ``background`` runs it on the background thread, at ``EYWA_BACKGROUND_NICE``
        (``eywa serve``'s periodic pass: no request waits for it).

        Raises:
            StoreError: the ledger cannot be read.
        """
        return self._reconciler.run(check_space(space) if space is not None else None, background=background)

    @property
    def recovered(self) -> ReconcileReport:
        """What the open's own reconciliation pass finished before ``open`` returned (the
        rest of a long backlog goes on in the background: ``wait`` returns it): a crash's
        leftovers, or the vectors an embedded open found lost (``eywa reconcile`` reports
        them with its own work)."""
        return self._recovered

    @_in_flight
    def pending(self, space: str) -> SpaceBacklog:
        """What the turns of ``space`` still owe: how many have no vector yet (the vector
        route cannot find them) and how many are not yet through Level 1 and their dimension
        update (their beliefs are missing). The recall trace's ``pending``, without a recall.

        Raises:
            InvalidInputError: a bad space name.
            StoreError: the ledger cannot be read.
        """
        return self._stores.ledger.space_backlog(check_space(space))

    @_in_flight
    def backlog(self) -> dict[str, int]:
        """Pending marks per stage (``embed_evidence``: turns not yet embedded, which
        ``EYWA_MAX_EMBED_BACKLOG`` bounds), and ``level1_backlog``: the turns not yet through
        Level 1 and their dimension update (``EYWA_MAX_BACKLOG`` bounds it)."""
        figures: dict[str, int] = {str(stage): n for stage, n in self._stores.ledger.backlog().items()}
        figures["level1_backlog"] = self._stores.ledger.level1_backlog()
        return figures

    @_in_flight
    def reprocess(self, space: str, *, wait: bool = True) -> int:
        """Bring the turns of ``space`` up to this release: Level 0, then Level 1.

        First the turns stored under an older ``eywa.signals.version`` have their signals and
        mentions detected again (``rederive_signals``); those whose detection changed owe
        Level 1 again. Then the turns another extractor version read have their ``level1``
        and ``nous`` stages marked pending again. The reconciler then replaces what was
        proposed about them with what the current extractor proposes and replays the touched
        dimensions, so the space equals a fresh ingest of its turns. Resumable (the versions
        and marks persist) and idempotent (a turn already up to date is not marked). Returns
        the turns marked.

        Raises:
            ConfigurationError: this memory has no extractor.
            StoreError: a store failed.
        """
        from eywa.errors import ConfigurationError

        if self._extractor is None:
            raise ConfigurationError("reprocessing needs an extractor (EYWA_EXTRACTOR is none)")
        space = check_space(space)
        upgraded = self.rederive_signals(space, wait=False)
        marked = upgraded.changed + self._stores.ledger.mark_outdated(space, extractor_label(self._extractor), utc_now())
        if wait:
            self._reconciler.run(space)
        return marked

    @_in_flight
    def rederive_signals(self, space: str, *, wait: bool = True) -> SignalsUpgrade:
        """Detect again the signals of the turns of ``space`` stored under an older
        ``eywa.signals.version`` (``eywa.rederive``): their signals, mentions and the entity
        graph are updated, and the turns whose detection changed owe Level 1 again, which the
        reconciler runs (now with ``wait``, else in the background or by a worker). Needs no
        extractor. Resumable, idempotent and crash-safe (one transaction per chunk of turns).

        Raises:
            StoreError: a store failed.
        """
        from eywa.signals import detect_signals

        space = check_space(space)
        upgraded = rederive_signals(self._stores, space, detect_signals)
        if wait and upgraded.changed and self._extractor is not None:
            self._reconciler.run(space)
        return upgraded

    @_in_flight
    def record_job(
        self, space: str, evidence_ids: Sequence[str], *, author: str | None = None, request_id: str | None = None
    ) -> str:
        """Record a Level 1 job for turns already stored; returns its id (``job``).

        Raises:
            StoreError: the store failed.
        """
        space = check_space(space)
        ids = check_labels(evidence_ids, "evidence_ids", self._limits) or []
        author = check_optional_label(author, "author", self._limits)
        request_id = check_optional_label(request_id, "request_id", self._limits)
        return record_job(self._stores, space, ids, author=author, request_id=request_id)

    @_in_flight
    def job(self, job_id: str) -> JobStatus:
        """A job's state, derived from its turns' pending stages (``done``, ``pending`` or
        ``failed`` once a stage failed ``EYWA_STAGE_MAX_ATTEMPTS`` times).

        Raises:
            NotFoundError: no such job.
        """
        job_id = check_label(job_id, "job_id", self._limits)
        return job_status(self._stores, job_id, max_attempts=self._settings.stage_max_attempts)

    @_in_flight
    def repair_vectors(self, space: str | None = None) -> int:
        """Check every turn and belief against the vector store and embed what is missing.

        A full scan, for operators (after touching the vector store by hand, say): ordinary
        drift (a crash between the graph commit and the vector upsert, beliefs a worker wrote)
        is finished from the ledger's embed marks by ``reconcile``, without a scan. Returns
        the number of items embedded.
        """
        spaces = [check_space(space)] if space is not None else self._stores.evidence.spaces()
        return repair_vectors(self._stores, self._embedder, spaces, self._embed_batch)

    @_in_flight
    def vector_index(self) -> tuple[ShardIndex, ...]:
        """The HNSW index state of the embedded vector shards (evidence, belief, entity):
        points, how many a graph holds (the rest are searched exactly), segments.

        Raises:
            ConfigurationError: this memory runs on the server backends (a Qdrant server
                indexes its collections itself).
        """
        return self._indexer().index_state()

    @_in_flight
    def index_vectors(
        self,
        kinds: Sequence[VectorKind] = VECTOR_KINDS,
        on_start: Callable[[ShardIndex], None] | None = None,
    ) -> tuple[ShardIndex, ...]:
        """Build the HNSW graph of the embedded vector shards of ``kinds``; their states after.

        Maintenance, run by an operator after a bulk load (``eywa index-vectors``): on the
        100k-turn benchmark store it cut a 50-hit evidence search from ~11 to ~1 ms with the
        same hits, but the build took 20-45 s for 100,000 points and holds the GIL, so every
        other thread of this process (recalls, writes, the background reconciler) waits
        until it ends (docs/latency.md). A shard of fewer points than its threshold is
        left plain (an exact scan is as fast). ``on_start`` gets each shard's state before
        its build (a progress line). Crash-safe: a process killed mid-build reopens with
        every point and answers exactly.

        Raises:
            ConfigurationError: this memory runs on the server backends.
            InvalidInputError: ``kinds`` is not a list of vector kinds (a bare string is
                not one), or ``on_start`` is not callable; nothing is built.
            StoreError: the vector store failed.
        """
        if isinstance(kinds, str | bytes) or not isinstance(kinds, Sequence):  # "evidence" is no list of kinds
            raise InvalidInputError.at("kinds", f"must be a list of vector kinds ({', '.join(VECTOR_KINDS)})")
        for n, kind in enumerate(kinds):
            if kind not in VECTOR_KINDS:  # None too, which check_choice lets through
                raise InvalidInputError.at(f"kinds.{n}", f"must be one of {', '.join(VECTOR_KINDS)}")
        on_start = check_optional_callable(on_start, "on_start")
        indexer = self._indexer()
        states = {state.kind: state for state in indexer.index_state()}
        built: list[ShardIndex] = []
        for kind in dict.fromkeys(kinds):
            if on_start is not None:
                on_start(states[kind])
            built.append(indexer.build_index(kind))
        return tuple(built)

    def _indexer(self) -> VectorIndexer:
        if self._stores.indexer is None:
            raise ConfigurationError(
                "index-vectors builds the embedded store's HNSW graphs; a Qdrant server indexes its collections itself"
            )
        return self._stores.indexer

    # --- erasure ------------------------------------------------------------------------

    @_in_flight
    def forget(
        self,
        space: str,
        *,
        evidence_ids: Sequence[str] | None = None,
        external_ids: Sequence[str] | None = None,
        speaker: str | None = None,
        session: str | None = None,
        before: datetime | str | None = None,
        author: str | None = None,
    ) -> ErasureReport:
        """Erase the selected turns and everything derived from them (``eywa.erasure``).

        Selectors combine with AND; at least one is required. ``speaker`` selects the turns
        that speaker said; ``before`` compares ``observed_at``. The turns, their signals,
        mentions, keyword rows and vectors go; the neighbours' keyword context and vectors
        are rebuilt without them; beliefs and candidates citing them go
        and the dimensions they changed are replayed without them. An erasure record keeps
        who, when, the selector, counts and keyed hashes (never content); a re-sent erased
        turn is refused (``ErasedError``). Returns counts per kind and the erasure id.

        Raises:
            InvalidInputError: no selector, a bad space or a malformed selector.
            NotFoundError: an evidence id or external id that names no turn, or a space that
                never held a turn (nor was erased); nothing is erased or recorded.
            StoreError: a store failed (an erasure already begun finishes on re-run or next open).
        """
        space = check_space(space)
        limits = self._limits
        selector = selector_of(
            evidence_ids=check_labels(evidence_ids, "evidence_ids", limits),
            external_ids=check_labels(external_ids, "external_ids", limits),
            speaker=check_optional_label(speaker, "speaker", limits),
            session=check_optional_label(session, "session", limits),
            before=check_time(before, "before"),
        )  # fmt: skip
        author = check_optional_label(author, "author", limits)
        return self._reconciler.call(self._forget, space, selector, author)  # checked and erased as one step

    def _forget(self, space: str, selector: ErasureSelector, author: str | None) -> ErasureReport:
        """``forget`` on the reconciler's thread: a space that never held a turn is refused,
        as ``drop_space`` refuses it (no erasure record names a space that never existed);
        a retry of an erasure already done is answered by it (``_earlier``)."""
        if not self._stores.erasure.select(space, selector):  # nothing (left) to erase
            records = self._stores.erasure.erasures(space)
            if not records and self._stores.evidence.usage(space).turns == 0:
                raise NotFoundError("space", "*", space)
            if (done := _earlier(records, selector)) is not None:
                return _report_of(done)  # a retry: records nothing more
        return erase(
            self._stores, space, selector, author, vectors=self._stores, embedder=self._embedder,
            embed_batch=self._embed_batch,
        )  # fmt: skip

    @_in_flight
    def drop_space(self, space: str, *, author: str | None = None) -> ErasureReport:
        """Erase every turn of ``space`` through the same cascade (one erasure record).

        A space that holds no turns is answered by what it was: one whose last erasure was
        a drop answers with that erasure's report and records nothing more, so a drop retried
        after its answer was lost (a dropped connection, a restart) gets the answer it missed
        and the records equal those of one drop; one emptied otherwise (``forget``,
        retention) records a drop of nothing, who asked and when; one that never held a turn
        is refused, so a typo is told rather than recorded, and no erasure record names a
        space that never existed.

        Raises:
            InvalidInputError: a bad space.
            NotFoundError: the space holds no turns and was never erased; nothing is recorded.
            StoreError: a store failed (the erasure finishes on re-run or next open).
        """
        space = check_space(space)
        author = check_optional_label(author, "author", self._limits)
        return self._reconciler.call(self._drop, space, author)  # checked and erased beside no other erasure

    def _drop(self, space: str, author: str | None) -> ErasureReport:
        """``drop_space`` on the reconciler's thread (see there)."""
        if self._stores.evidence.usage(space).turns == 0:
            records = self._stores.erasure.erasures(space)
            if not records:
                raise NotFoundError("space", "*", space)
            if _is_drop(records[-1].selector):
                return _report_of(records[-1])
        return erase(
            self._stores, space, _DROP, author, vectors=self._stores, embedder=self._embedder,
            embed_batch=self._embed_batch,
        )  # fmt: skip

    @_in_flight
    def apply_retention(
        self, policy: Mapping[str, float] | None = None, *, now: datetime | str | None = None
    ) -> list[ErasureReport]:
        """Erase what is older than each space's retention period, measured on ``recorded_at``
        (``eywa.erasure.retention``; ``policy`` defaults to ``EYWA_RETENTION_DAYS``). One
        erasure record per space with something to erase (author ``retention``).

        Raises:
            InvalidInputError: a policy that is no mapping, a bad space name, a period that is
                not a positive number of days, or a bad ``now`` (``contract.check_retention``).
            StoreError: a store failed (an erasure already begun finishes on re-run or next open).
        """
        chosen = check_retention(self._settings.retention_days if policy is None else policy)
        return self._reconciler.call(
            apply_retention, self._stores, chosen, now=check_time(now, "now"), vectors=self._stores,
            embedder=self._embedder, embed_batch=self._embed_batch,
        )  # fmt: skip

    @_in_flight
    def erasures(self, space: str | None = None) -> list[ErasureRecord]:
        """Erasure records (of one space), oldest first: who, when, selector, counts, keyed
        hashes; never content."""
        return self._stores.erasure.erasures(check_space(space) if space is not None else None)

    @_in_flight
    def erasure_proof(self, space: str, erasure_id: str) -> ErasureProof:
        """Residue of one erasure per kind, from the graph, keyword index and vector store
        (``eywa.erasure.proof``); ``total`` 0 proves it.

        Raises:
            NotFoundError: no such erasure in ``space``.
        """
        space = check_space(space)
        return erasure_proof(self._stores, space, check_label(erasure_id, "erasure_id", self._limits), self._stores)

    # --- corrections --------------------------------------------------------------------

    @_in_flight
    def retract_belief(
        self, space: str, belief_id: str, *, reason: str, author: str | None = None
    ) -> CorrectionRecord:
        """Retract a belief: it leaves every read, and each dimension it changed is replayed
        without it (``eywa.corrections``). Audited with ``author`` and ``reason``. The same
        retraction sent again (its answer lost) is answered by its record; so is every
        correction below.

        Raises:
            InvalidInputError: a bad space or id, or a blank reason.
            NotFoundError: no such belief in ``space``.
            ConflictError: the belief is already retracted (by another author or for another
                reason).
            StoreError: a store failed (retracting again finishes it).
        """
        space, belief_id = self._target(space, belief_id, "belief_id", author)
        reason = check_label(reason, "reason", self._limits)
        return self._reconciler.call(correcting.retract_belief, self._stores, space, belief_id, reason=reason, author=author)

    @_in_flight
    def confirm_belief(
        self, space: str, belief_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Confirm a belief: its observations weigh as confirmed (``reliability_before`` →
        ``reliability_after`` in the record) and its dimensions are replayed with them.

        Raises:
            InvalidInputError: a bad space, id or reason.
            NotFoundError: no such belief in ``space``.
            ConflictError: the belief is retracted.
            StoreError: a store failed.
        """
        space, belief_id = self._target(space, belief_id, "belief_id", author)
        reason = None if reason is None else check_label(reason, "reason", self._limits)
        return self._reconciler.call(correcting.confirm_belief, self._stores, space, belief_id, reason=reason, author=author)

    @_in_flight
    def accept_candidate(
        self, space: str, candidate_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Accept a refused candidate as a belief (its repaired form when it has one); the
        record's ``belief_id`` names the belief.

        Raises:
            InvalidInputError: a bad space, id or reason.
            NotFoundError: no such candidate in ``space``.
            ConflictError: the candidate was accepted already (by another author or for
                another reason).
            StoreError: a store failed (accepting again finishes it).
        """
        space, candidate_id = self._target(space, candidate_id, "candidate_id", author)
        reason = None if reason is None else check_label(reason, "reason", self._limits)
        return self._reconciler.call(
            correcting.accept_candidate, self._stores, space, candidate_id, reason=reason, author=author
        )

    @_in_flight
    def dismiss_candidate(
        self, space: str, candidate_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Take a ``repair`` candidate out of the repair queue (kept as ``rejected``).

        Raises:
            InvalidInputError: a bad space, id or reason.
            NotFoundError: no such candidate in ``space``.
            ConflictError: the candidate is not in the repair queue.
            StoreError: a store failed.
        """
        space, candidate_id = self._target(space, candidate_id, "candidate_id", author)
        reason = None if reason is None else check_label(reason, "reason", self._limits)
        return self._reconciler.call(
            correcting.dismiss_candidate, self._stores, space, candidate_id, reason=reason, author=author
        )

    @_in_flight
    def corrections(self, space: str, target_id: str | None = None) -> list[CorrectionRecord]:
        """The correction records of ``space`` (of one belief or candidate), oldest first."""
        target = None if target_id is None else check_label(target_id, "target_id", self._limits)
        return self._stores.corrections.corrections(check_space(space), target_id=target)

    def _target(self, space: str, item_id: str, field: str, author: str | None) -> tuple[str, str]:
        """The checked space and item id of a correction; its ``author`` is checked too."""
        check_optional_label(author, "author", self._limits)
        return check_space(space), check_label(item_id, field, self._limits)

    # --- identity merges ----------------------------------------------------------------

    @_in_flight
    def propose_merges(self, space: str, entities: Sequence[str] | None = None) -> list[nous.MergeProposal]:
        """Pairs of entities (of ``entities``, default every entity with a dimension) that
        look like one, best first, with their evidence: name compatibility and the KL
        divergence (bits) of their shared dimensions. Pairs already merged are skipped."""
        space = check_space(space)
        checked = check_labels(entities, "entities", self._limits) if entities is not None else None
        names = checked if checked is not None else sorted({d.entity for d in self._stores.dimensions.dimensions(space)})
        return nous.propose_merges(self._stores.dimensions, space, names)

    @_in_flight
    def accept_merge(
        self, space: str, source: str, target: str, score: float = 1.0, *, author: str | None = "local"
    ) -> SameAsEdge:
        """Record ``source`` SAME_AS ``target`` by ``author`` (a key id over HTTP and MCP,
        ``cli`` from the shell, ``local`` by default): reads of either entity now see both.
        Sent again (its answer lost), it answers with the merge it made.

        Raises:
            InvalidInputError: a bad space or name, the same entity twice, or a score
                outside [0, 1].
            NotFoundError: a name that is no entity of ``space`` (neither mentioned nor
                with a dimension); nothing is merged.
        """
        space = check_space(space)
        source, target = check_label(source, "source", self._limits), check_label(target, "target", self._limits)
        author = check_optional_label(author, "author", self._limits)
        if entity_key(source) == entity_key(target):
            raise InvalidInputError.at("target", "names the same entity as source")
        if not isinstance(score, (int, float)) or isinstance(score, bool) or not 0.0 <= score <= 1.0:
            raise InvalidInputError.at("score", "must be a number in [0, 1]")
        known = {entity_key(e.name) for e in self._stores.evidence.entities(space)}
        known |= {d.entity_key for d in self._stores.dimensions.dimensions(space)}
        for name in (source, target):
            if entity_key(name) not in known:
                raise NotFoundError("entity", space, name)
        return correcting.accept_merge(self._stores.dimensions, space, source, target, score, author=author)

    @_in_flight
    def undo_merge(self, space: str, source: str, target: str, *, author: str | None = "local") -> bool:
        """Deactivate a merge (kept for audit, ``removed_by`` = ``author``); False when the two
        were not merged directly. Sent again (its answer lost), it answers True, as the undo
        it made did."""
        space = check_space(space)
        source, target = check_label(source, "source", self._limits), check_label(target, "target", self._limits)
        author = check_optional_label(author, "author", self._limits)
        return correcting.undo_merge(self._stores.dimensions, space, source, target, author=author)

    @_in_flight
    def merges(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        """The merges of a space (active ones unless ``include_removed``).

        Raises:
            InvalidInputError: a bad space, or ``include_removed`` that is no bool (``"no"``
                was read by its truth, as all the merges).
        """
        space = check_space(space)
        return self._stores.dimensions.same_as(space, check_flag(include_removed, "include_removed"))

    # --- portability --------------------------------------------------------------------

    @_in_flight_each
    def export_space(self, space: str) -> Iterator[ExportHeader | ExportRecord]:
        """The whole of ``space`` as export records, the header first (``eywa.portability``):
        turns with metadata, signals and mentions, entities, beliefs with their cited spans
        and validation, candidates, dimensions and their deltas with provenance, merges,
        corrections and erasure records (never erased content). Vectors are not exported.

        The records are read on the reconciler's thread, so this process's background work
        does not change the space half-way through the read; the export is held in memory.

        Example:
            >>> lines = [record_json(r) for r in mem.export_space("alice")]  # doctest: +SKIP

        Raises:
            InvalidInputError: a bad space.
            StoreError: a store cannot be read.
        """
        space = check_space(space)
        header = ExportHeader(
            space=space, exported_at=utc_now(), embedder=embedder_id(self._embedder),
            rules_version=None if self._extractor is None else extractor_label(self._extractor),
        )  # fmt: skip
        records = self._reconciler.call(lambda: list(export_records(self._stores, space)))
        yield header
        yield from records

    @_in_flight
    def import_space(
        self,
        space: str,
        source: Iterable[str | bytes | ExportHeader | ExportRecord],
        *,
        wait: bool | None = None,
    ) -> ImportReport:
        """Restore an export into the empty ``space``: JSONL lines (header first) or the
        records ``export_space`` yields.

        Beliefs, candidates, dimensions, deltas, merges, corrections and erasure records are
        written as exported (nothing is extracted again); keyword rows are rebuilt; erased
        turn ids are tombstoned again, so a re-sent erased turn is still refused. The turns
        and beliefs are then embedded by this memory's embedder: before returning with
        ``wait`` true (default ``EYWA_LEVEL1_WAIT``), else in the background (``wait()``).

        Raises:
            InvalidInputError: a bad space, another space's export, ``source`` not lines or
                records, or an invalid line or item (the problem's field is ``line.<number>``);
                nothing was written.
            SpaceNotEmptyError: ``space`` already holds data; nothing was written.
            QuotaExceededError: the export holds more turns or bytes than a space may
                (``EYWA_SPACE_MAX_TURNS`` / ``_BYTES``); nothing was written.
            StoreError: a store failed while writing.
        """
        space = check_space(space)
        header, records = parse_lines(import_lines(source))
        report = self._reconciler.call(
            restore_records, self._stores, space, header, records, SpaceQuota.of(self._limits)
        )
        ids = self._stores.evidence.ids(space)
        self._reconciler.finish(space, ids, wait=self._settings.level1_wait if wait is None else wait)
        return report

    @_in_flight
    def backup(self, dest: str | Path) -> BackupReport:
        """An online backup of the embedded directory into ``dest`` (a new or empty directory),
        consistent while this memory keeps writing (``eywa.stores.embedded.backup``): every
        SQLite file is copied from one snapshot by SQLite's backup API; the vector shard is
        not copied — the copy's ledger marks every turn and belief for embedding, and the
        memory that opens the copy embeds them again.

        Raises:
            InvalidInputError: ``dest`` is no directory path (``contract.check_directory``:
                a NUL, a lone surrogate or a number were a ValueError, UnicodeEncodeError or
                TypeError from the file system), exists and is not an empty directory, lies
                inside the memory's directory, or cannot be created or written (checked before
                a byte is copied: a read-only or impossible path is the caller's, not the
                store's).
            ConfigurationError: this memory runs on the server backends (back up Neo4j with
                ``neo4j-admin database dump`` and Qdrant with its snapshots, or export spaces).
            StoreError: a file of the memory cannot be read, or the copy fails once begun (a
                full disk).
        """
        if self._stores.backup is None:
            raise ConfigurationError(
                "backup copies an embedded directory; on the server backends use neo4j-admin database dump "
                "and Qdrant snapshots, or eywa export per space"
            )
        return self._stores.backup(check_directory(dest, "dest"), utc_now())

    # --- internals ----------------------------------------------------------------------

    @property
    def _embed_batch(self) -> int:
        return max(self._settings.embed_batch_size * 4, 64)

    def _check_open(self) -> None:
        """For what no call counts in flight (``access_log``): refused once closing."""
        if self._in_flight.closing:
            raise ClosedError()


def _built(
    cls: type[Memory],
    stores: Stores,
    embedder: Embedder,
    settings: EywaSettings,
    extractor: Extractor | None,
    embed_writes: bool,
) -> Memory:
    """``cls(...)`` over freshly opened stores, closing them if the memory cannot start."""
    try:
        return cls(stores, embedder, settings, extractor, embed_writes=embed_writes)
    except BaseException:
        stores.close()
        raise

