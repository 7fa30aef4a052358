"""``AsyncClient``: ``eywa.Client`` for agents built on asyncio (``httpx.AsyncClient``).

Same methods, arguments, return types and errors as ``Client``, each awaited::

    async with AsyncClient("http://eywa:8000", api_key="eyw_...") as mem:
        await mem.remember("alice", [{"text": "I moved to Lyon", "speaker": "Alice"}])
        result = await mem.recall("alice", "Where does Alice live?")

Requests are built and answers read by ``eywa.client_calls``, as in ``Client``; only the I/O
differs. Retries on 429/503 and connection failures sleep with ``asyncio.sleep``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx

from eywa import client_calls as calls
from eywa.client_calls import Call, TurnLike, check_connection, read_answer, settle
from eywa.erasure.plan import ErasureProof, ErasureReport
from eywa.errors import ClosedError, NotFoundError, StoreError
from eywa.extraction.pipeline import Explanation
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
)
from eywa.nous.identity import MergeProposal
from eywa.portability import ExportHeader, ExportRecord, ImportReport
from eywa.stores.corrections import CorrectionRecord
from eywa.stores.dimensions import SameAsEdge
from eywa.stores.keys import ApiKey

__all__ = ["AsyncClient"]

T = TypeVar("T")


class AsyncClient:
    """A remote Eywa memory over HTTP for asyncio: ``Client``'s methods, awaited.

    Example:
        >>> async with AsyncClient("http://127.0.0.1:8000", api_key="eyw_...") as mem:  # doctest: +SKIP
        ...     await mem.recall("alice", "Where does Alice live?")
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        backoff_s: float = 0.5,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        check_connection(base_url, api_key, timeout, retries, backoff_s)
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}", "User-Agent": "eywa-client/0.1"},
            timeout=timeout,
            transport=transport,
        )
        self._retries = retries
        self._backoff = backoff_s
        self._sleep = sleep
        self._closed = False

    # --- lifecycle ----------------------------------------------------------------------

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection pool; further calls raise ``ClosedError``."""
        if not self._closed:
            self._closed = True
            await self._http.aclose()

    async def wait(self) -> list[Any]:
        """Level 1 runs on the server; there is nothing to wait for locally."""
        return []

    # --- write --------------------------------------------------------------------------

    async def remember(
        self,
        space: str,
        turns: Sequence[TurnLike],
        *,
        author: str | None = None,
        progress: Callable[[int], None] | None = None,
        wait: bool | None = None,
    ) -> list[str]:
        """Store turns and return their evidence ids, in order.

        The server records the calling key's id as the author; ``author`` and ``wait`` are
        accepted for compatibility with ``Memory.remember`` and otherwise ignored.

        Each turn is checked against the ``Turn`` model here (``eywa.contract.turn_model``,
        the check ``Memory`` runs first), so a malformed turn is refused with the same code
        without a round trip; the configured limits are the server's.

        Raises:
            InvalidTurnError: a turn is malformed, or the server refused one (nothing was
                written).
            InvalidInputError: a limit or another input check failed.
            QuotaExceededError: the batch would take the space over its quota.
            OverloadedError: a backlog stayed over its bound through the retries (each
                waited the server's ``Retry-After``); nothing was written.
            ConfigurationError: the key is invalid or lacks ``write`` on ``space``.
            StoreError: the server is unreachable or failing after retries.
        """
        ids = await self._send(calls.remember(space, turns, progress))
        if progress is not None:
            progress(len(ids))
        return ids

    # --- read ---------------------------------------------------------------------------

    async def recall(
        self,
        space: str,
        query: str,
        k: int = 10,
        budget_tokens: int | None = None,
        policy: Policy = "balanced",
        as_of: datetime | str | None = None,
    ) -> RecallResult:
        """Ranked, provenance-carrying context for ``query``.

        Raises:
            InvalidInputError: a bad query, k, budget, policy or ``as_of``.
            ConfigurationError: the key is invalid or lacks ``read`` on ``space``.
            StoreError: the server is unreachable or failing after retries.
        """
        return await self._send(calls.recall(space, query, k, budget_tokens, policy, as_of))

    async def evidence(self, space: str, evidence_id: str) -> Evidence:
        """The stored turn ``evidence_id``.

        Raises:
            NotFoundError: no such turn in ``space``.
        """
        return await self._send(calls.evidence(space, evidence_id))

    async def beliefs(
        self,
        space: str,
        subject: str | None = None,
        attribute: str | None = None,
        status: BeliefStatus | None = "active",
    ) -> list[Belief]:
        """Validated beliefs of ``space``, optionally of one subject and attribute."""
        return await self._send(calls.beliefs(space, subject, attribute, status))

    async def candidates(self, space: str, status: CandidateStatus | None = "rejected") -> list[Candidate]:
        """Candidates the validator refused, with their reasons."""
        return await self._send(calls.candidates(space, status))

    async def explain(self, space: str, belief_id: str) -> Explanation:
        """Why a belief is held: the belief, its validation report and the cited turns.

        Raises:
            NotFoundError: no such belief in ``space``.
        """
        return await self._send(calls.explain(space, belief_id))

    async def dimension(self, space: str, entity: str, attribute: str, as_of: datetime | str | None = None) -> Dimension:
        """The belief state of (entity, attribute).

        Raises:
            NotFoundError: nothing was observed about it (by ``as_of``).
        """
        return await self._send(calls.dimension(space, entity, attribute, as_of))

    async def dimensions(self, space: str, entity: str | None = None, as_of: datetime | str | None = None) -> list[Dimension]:
        """Every dimension of ``space`` (or of one entity)."""
        return await self._send(calls.dimensions(space, entity, as_of))

    async def deltas(self, space: str, entity: str, attribute: str) -> list[Delta]:
        """The update log of one dimension, in event-time order."""
        return await self._send(calls.deltas(space, entity, attribute))

    async def stats(self, space: str) -> dict[str, Any]:
        """Counts of a space, as ``Memory.stats``."""
        return await self._send(calls.stats(space))

    async def job(self, job_id: str) -> JobStatus:
        """The status of a Level 1 job (``id``, ``status``, ``detail``), as ``Memory.job``."""
        return await self._send(calls.job(job_id))

    # --- erasure ------------------------------------------------------------------------

    async def forget(
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
        """Erase turns and what derives from them, as ``Memory.forget`` (the key needs the
        ``erase`` scope; the server records the key's id as the author, ``author`` is ignored).

        Raises:
            InvalidInputError: no selector or a malformed one; nothing was erased.
            NotFoundError: an id that names no turn; nothing was erased.
            ConfigurationError: the key is invalid or lacks ``erase`` on ``space``.
            StoreError: the server is unreachable or failing after retries.
        """
        return await self._send(calls.forget(space, evidence_ids, external_ids, speaker, session, before))

    async def drop_space(self, space: str, *, author: str | None = None) -> ErasureReport:
        """Erase a whole space, as ``Memory.drop_space`` (``erase`` scope)."""
        return await self._send(calls.drop_space(space))

    async def erasure_proof(self, space: str, erasure_id: str) -> ErasureProof:
        """The residue of an erasure per kind, as ``Memory.erasure_proof`` (``erase`` scope)."""
        return await self._send(calls.erasure_proof(space, erasure_id))

    # --- keys ---------------------------------------------------------------------------

    async def create_key(
        self,
        spaces: Sequence[str],
        scopes: Sequence[str],
        *,
        name: str | None = None,
        expires_at: datetime | str | None = None,
    ) -> tuple[ApiKey, str]:
        """``Client.create_key``, awaited: one key per call, its ``Idempotency-Key`` kept across
        the call's retries (a lost answer is answered again with a new secret)."""
        return await self._send(calls.create_key(spaces, scopes, name, expires_at))

    # --- portability --------------------------------------------------------------------

    async def export_space(self, space: str) -> list[ExportHeader | ExportRecord]:
        """The whole space as export records, the header first, as ``Memory.export_space``
        (the key needs ``admin`` on the space: an export hands over everything)."""
        return await self._send(calls.export_space(space))

    async def import_space(
        self, space: str, source: Iterable[str | bytes] | Iterable[ExportHeader | ExportRecord]
    ) -> ImportReport:
        """Restore an export into the empty ``space``, as ``Memory.import_space`` (``write``).

        Raises:
            InvalidInputError: another space's export or an invalid line (``line.<n>``).
            SpaceNotEmptyError: the space holds data other than just this export (HTTP 409;
                this export again is answered as done, ``already_imported``); nothing was written.
        """
        return await self._send(calls.import_space(space, source))

    # --- corrections --------------------------------------------------------------------

    async def retract_belief(self, space: str, belief_id: str, *, reason: str, author: str | None = None) -> CorrectionRecord:
        """Retract a belief, as ``Memory.retract_belief`` (``write`` scope; the server records
        the key's id as the author, ``author`` is ignored).

        Raises:
            InvalidInputError: a blank reason.
            NotFoundError: no such belief.
            ConflictError: the belief is already retracted.
            ConfigurationError: the key lacks ``write`` on ``space``.
        """
        return await self._send(calls.retract_belief(space, belief_id, reason))

    async def confirm_belief(
        self, space: str, belief_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Confirm a belief, as ``Memory.confirm_belief`` (``write`` scope).

        Raises:
            NotFoundError: no such belief.
            ConflictError: the belief is retracted.
        """
        return await self._send(calls.confirm_belief(space, belief_id, reason))

    async def accept_candidate(
        self, space: str, candidate_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Accept a refused candidate as a belief, as ``Memory.accept_candidate`` (``write``).

        Raises:
            NotFoundError: no such candidate.
        """
        return await self._send(calls.accept_candidate(space, candidate_id, reason))

    async def dismiss_candidate(
        self, space: str, candidate_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Take a candidate out of the repair queue, as ``Memory.dismiss_candidate`` (``write``).

        Raises:
            NotFoundError: no such candidate.
            ConflictError: it is not in the repair queue.
        """
        return await self._send(calls.dismiss_candidate(space, candidate_id, reason))

    async def corrections(self, space: str, target_id: str | None = None) -> list[CorrectionRecord]:
        """The correction records of ``space`` (of one belief or candidate), oldest first."""
        return await self._send(calls.corrections(space, target_id))

    # --- identity merges ----------------------------------------------------------------

    async def propose_merges(self, space: str) -> list[MergeProposal]:
        """Pairs of entities that look like one, with their KL evidence (``read``)."""
        return await self._send(calls.propose_merges(space))

    async def accept_merge(self, space: str, source: str, target: str, score: float = 1.0) -> SameAsEdge:
        """Record ``source`` SAME_AS ``target``, as ``Memory.accept_merge`` (``write``).

        Raises:
            InvalidInputError: the same entity twice or a bad score.
            NotFoundError: a name that is no entity of ``space``.
        """
        return await self._send(calls.accept_merge(space, source, target, score))

    async def undo_merge(self, space: str, source: str, target: str) -> bool:
        """Deactivate a merge (``write``); False when the two were not merged directly."""
        try:
            await self._send(calls.undo_merge(space, source, target))
        except NotFoundError:
            return False
        return True

    async def merges(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        """The merges of a space (active ones unless ``include_removed``)."""
        return await self._send(calls.merges(space, include_removed))

    # --- transport ----------------------------------------------------------------------

    async def _send(self, call: Call[T]) -> T:
        """Send ``call`` (see ``_request``) and read its answer.

        Raises:
            ClosedError: the client was closed.
            EywaError: the subclass matching the server's problem (``client_calls.raise_for``).
            StoreError: the server stayed unreachable or overloaded after the retries.
        """
        return read_answer(call, await self._request(call))

    async def _request(self, call: Call[Any]) -> httpx.Response:
        """Send with retries on 429/503 and connection failures; map problems to errors.

        Raises:
            ClosedError: the client was closed.
            EywaError: the subclass matching the server's problem (``client_calls.raise_for``).
            StoreError: the server stayed unreachable or overloaded after the retries.
        """
        if self._closed:
            raise ClosedError("AsyncClient")
        kwargs = call.request_kwargs()
        for attempt in range(self._retries + 1):
            try:
                sent: httpx.Response | httpx.RequestError = await self._http.request(call.method, call.path, **kwargs)
            except httpx.InvalidURL as exc:  # built before anything is sent: not retried
                raise calls.unsendable(call, exc) from None
            except httpx.RequestError as exc:
                sent = exc
            step = settle(call, attempt, self._retries, self._backoff, sent)
            if isinstance(step, httpx.Response):
                return step
            await self._sleep(step)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
