"""``Client``: the HTTP API with ``Memory``'s methods and return types.

An agent switches between the embedded memory and a server by changing one line::

    mem = Memory.open("./.eywa")                         # embedded
    mem = Client("http://eywa:8000", api_key="eyw_...")   # server

Every call names its space; the client keeps no per-space state (one client can serve many
agents and spaces concurrently). Requests that get 429 or 503, or fail to connect, are
retried with exponential backoff, honouring ``Retry-After``; every route is safe to retry
(``remember`` is idempotent: a turn sent twice keeps its id and is stored once).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar, get_args
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from eywa.errors import (
    ErasedError,
    ClosedError,
    ConfigurationError,
    ConflictError,
    FieldProblem,
    InputCode,
    InvalidInputError,
    InvalidTurnError,
    NotFoundError,
    QuotaExceededError,
    StoreError,
)
from eywa.contract import turn_model
from eywa.erasure.plan import ErasureProof, ErasureReport
from eywa.extraction.pipeline import Explanation
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
)
from eywa.nous.identity import MergeProposal
from eywa.stores.corrections import CorrectionRecord
from eywa.stores.dimensions import SameAsEdge

__all__ = ["Client"]

ModelT = TypeVar("ModelT", bound=BaseModel)

TurnLike = Turn | Mapping[str, Any]
_RETRY_STATUSES = frozenset({429, 503})
_INPUT_CODES: tuple[InputCode, ...] = get_args(InputCode)
_MAX_RETRY_AFTER_S = 60.0


class Client:
    """A remote Eywa memory over HTTP, with the same methods as ``Memory``.

    Example:
        >>> with Client("http://127.0.0.1:8000", api_key="eyw_...") as mem:  # doctest: +SKIP
        ...     mem.remember("alice", [{"text": "I moved to Lyon", "speaker": "Alice"}])
        ...     mem.recall("alice", "Where does Alice live?").context
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        backoff_s: float = 0.5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._http = httpx.Client(
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

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool; further calls raise ``ClosedError``."""
        if not self._closed:
            self._closed = True
            self._http.close()

    def wait(self) -> list[Any]:
        """Level 1 runs on the server; there is nothing to wait for locally."""
        return []

    # --- write --------------------------------------------------------------------------

    def remember(
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
            ConfigurationError: the key is invalid or lacks ``write`` on ``space``.
            StoreError: the server is unreachable or failing after retries.
        """
        if isinstance(turns, str | bytes) or not isinstance(turns, Sequence):
            raise InvalidInputError.at("turns", "must be a list of turns")
        payload = [turn_model(i, t).model_dump(mode="json") for i, t in enumerate(turns)]
        body = self._request("POST", f"/v1/spaces/{_seg(space)}/turns", json={"turns": payload})
        ids: list[str] = list(body["ids"])
        if progress is not None:
            progress(len(ids))
        return ids

    # --- read ---------------------------------------------------------------------------

    def recall(
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
        body = {"query": query, "k": k, "budget_tokens": budget_tokens, "policy": policy, "as_of": _iso(as_of)}
        return RecallResult.model_validate(self._request("POST", f"/v1/spaces/{_seg(space)}/recall", json=body))

    def evidence(self, space: str, evidence_id: str) -> Evidence:
        """The stored turn ``evidence_id``.

        Raises:
            NotFoundError: no such turn in ``space``.
        """
        return Evidence.model_validate(self._get(f"/v1/spaces/{_seg(space)}/evidence/{_seg(evidence_id)}"))

    def beliefs(
        self,
        space: str,
        subject: str | None = None,
        attribute: str | None = None,
        status: BeliefStatus | None = "active",
    ) -> list[Belief]:
        """Validated beliefs of ``space``, optionally of one subject and attribute."""
        params = {"subject": subject, "attribute": attribute, "status": status or "any"}
        return _list(Belief, self._get(f"/v1/spaces/{_seg(space)}/beliefs", params))

    def candidates(self, space: str, status: CandidateStatus | None = "rejected") -> list[Candidate]:
        """Candidates the validator refused, with their reasons."""
        return _list(Candidate, self._get(f"/v1/spaces/{_seg(space)}/candidates", {"status": status or "any"}))

    def explain(self, space: str, belief_id: str) -> Explanation:
        """Why a belief is held: the belief, its validation report and the cited turns.

        Raises:
            NotFoundError: no such belief in ``space``.
        """
        return Explanation.model_validate(self._get(f"/v1/spaces/{_seg(space)}/beliefs/{_seg(belief_id)}/explain"))

    def dimension(self, space: str, entity: str, attribute: str, as_of: datetime | str | None = None) -> Dimension:
        """The belief state of (entity, attribute).

        Raises:
            NotFoundError: nothing was observed about it (by ``as_of``).
        """
        path = f"/v1/spaces/{_seg(space)}/entities/{_seg(entity)}/dimensions/{_seg(attribute)}"
        return Dimension.model_validate(self._get(path, {"as_of": _iso(as_of)}))

    def dimensions(self, space: str, entity: str | None = None, as_of: datetime | str | None = None) -> list[Dimension]:
        """Every dimension of ``space`` (or of one entity)."""
        params = {"entity": entity, "as_of": _iso(as_of)}
        return _list(Dimension, self._get(f"/v1/spaces/{_seg(space)}/dimensions", params))

    def deltas(self, space: str, entity: str, attribute: str) -> list[Delta]:
        """The update log of one dimension, in event-time order."""
        path = f"/v1/spaces/{_seg(space)}/entities/{_seg(entity)}/dimensions/{_seg(attribute)}/deltas"
        return _list(Delta, self._get(path))

    def stats(self, space: str) -> dict[str, Any]:
        """Counts of a space, as ``Memory.stats``."""
        found: dict[str, Any] = self._get(f"/v1/spaces/{_seg(space)}/stats")
        return found

    def job(self, job_id: str) -> dict[str, Any]:
        """The status of a Level 1 job (``id``, ``status``, ``detail``)."""
        found: dict[str, Any] = self._get(f"/v1/jobs/{_seg(job_id)}")
        return found

    # --- erasure ------------------------------------------------------------------------

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
        """Erase turns and what derives from them, as ``Memory.forget`` (the key needs the
        ``erase`` scope; the server records the key's id as the author, ``author`` is ignored).

        Raises:
            InvalidInputError: no selector or a malformed one; nothing was erased.
            NotFoundError: an id that names no turn; nothing was erased.
            ConfigurationError: the key is invalid or lacks ``erase`` on ``space``.
            StoreError: the server is unreachable or failing after retries.
        """
        body = {
            "evidence_ids": list(evidence_ids) if evidence_ids is not None else None,
            "external_ids": list(external_ids) if external_ids is not None else None,
            "speaker": speaker, "session": session, "before": _iso(before),
        }  # fmt: skip
        found = self._request("POST", f"/v1/spaces/{_seg(space)}/erase", json={k: v for k, v in body.items() if v is not None})
        return ErasureReport.model_validate(found)

    def drop_space(self, space: str, *, author: str | None = None) -> ErasureReport:
        """Erase a whole space, as ``Memory.drop_space`` (``erase`` scope)."""
        return ErasureReport.model_validate(self._request("DELETE", f"/v1/spaces/{_seg(space)}"))

    def erasure_proof(self, space: str, erasure_id: str) -> ErasureProof:
        """The residue of an erasure per kind, as ``Memory.erasure_proof`` (``erase`` scope)."""
        return ErasureProof.model_validate(self._get(f"/v1/spaces/{_seg(space)}/erasures/{_seg(erasure_id)}/proof"))

    # --- corrections --------------------------------------------------------------------

    def retract_belief(self, space: str, belief_id: str, *, reason: str, author: str | None = None) -> CorrectionRecord:
        """Retract a belief, as ``Memory.retract_belief`` (``write`` scope; the server records
        the key's id as the author, ``author`` is ignored).

        Raises:
            InvalidInputError: a blank reason.
            NotFoundError: no such belief.
            ConflictError: the belief is already retracted.
            ConfigurationError: the key lacks ``write`` on ``space``.
        """
        return self._correct(f"beliefs/{_seg(belief_id)}/retract", space, reason)

    def confirm_belief(
        self, space: str, belief_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Confirm a belief, as ``Memory.confirm_belief`` (``write`` scope).

        Raises:
            NotFoundError: no such belief.
            ConflictError: the belief is retracted.
        """
        return self._correct(f"beliefs/{_seg(belief_id)}/confirm", space, reason)

    def accept_candidate(
        self, space: str, candidate_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Accept a refused candidate as a belief, as ``Memory.accept_candidate`` (``write``).

        Raises:
            NotFoundError: no such candidate.
        """
        return self._correct(f"candidates/{_seg(candidate_id)}/accept", space, reason)

    def dismiss_candidate(
        self, space: str, candidate_id: str, *, reason: str | None = None, author: str | None = None
    ) -> CorrectionRecord:
        """Take a candidate out of the repair queue, as ``Memory.dismiss_candidate`` (``write``).

        Raises:
            NotFoundError: no such candidate.
            ConflictError: it is not in the repair queue.
        """
        return self._correct(f"candidates/{_seg(candidate_id)}/dismiss", space, reason)

    def corrections(self, space: str, target_id: str | None = None) -> list[CorrectionRecord]:
        """The correction records of ``space`` (of one belief or candidate), oldest first."""
        return _list(CorrectionRecord, self._get(f"/v1/spaces/{_seg(space)}/corrections", {"target_id": target_id}))

    def _correct(self, what: str, space: str, reason: str | None) -> CorrectionRecord:
        found = self._request("POST", f"/v1/spaces/{_seg(space)}/{what}", json={"reason": reason})
        return CorrectionRecord.model_validate(found)

    # --- identity merges ----------------------------------------------------------------

    def propose_merges(self, space: str) -> list[MergeProposal]:
        """Pairs of entities that look like one, with their KL evidence (``read``)."""
        return _list(MergeProposal, self._get(f"/v1/spaces/{_seg(space)}/merges/proposals"))

    def accept_merge(self, space: str, source: str, target: str, score: float = 1.0) -> SameAsEdge:
        """Record ``source`` SAME_AS ``target``, as ``Memory.accept_merge`` (``write``).

        Raises:
            InvalidInputError: the same entity twice or a bad score.
            NotFoundError: a name that is no entity of ``space``.
        """
        body = {"source": source, "target": target, "score": score}
        return SameAsEdge.model_validate(self._request("POST", f"/v1/spaces/{_seg(space)}/merges", json=body))

    def undo_merge(self, space: str, source: str, target: str) -> bool:
        """Deactivate a merge (``write``); False when the two were not merged directly."""
        try:
            self._request("POST", f"/v1/spaces/{_seg(space)}/merges/undo", json={"source": source, "target": target})
        except NotFoundError:
            return False
        return True

    def merges(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        """The merges of a space (active ones unless ``include_removed``)."""
        found = self._get(f"/v1/spaces/{_seg(space)}/merges", {"include_removed": str(include_removed).lower()})
        return _list(SameAsEdge, found)

    # --- transport ----------------------------------------------------------------------

    def _get(self, path: str, params: Mapping[str, object] | None = None) -> Any:
        clean = {k: v for k, v in (params or {}).items() if v is not None}
        return self._request("GET", path, params=clean)

    def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        """Send with retries on 429/503 and connection failures; map problems to errors.

        Raises:
            ClosedError: the client was closed.
            EywaError: the subclass matching the server's problem (see ``_raise_for``).
            StoreError: the server stayed unreachable or overloaded after the retries.
        """
        if self._closed:
            raise ClosedError("Client")
        if "json" in kwargs:  # escaped JSON: what the server refuses (a lone surrogate, NaN)
            kwargs["content"] = _encode(kwargs.pop("json"))  # travels, and comes back refused
            kwargs["headers"] = {"Content-Type": "application/json"}
        for attempt in range(self._retries + 1):
            last = attempt == self._retries
            try:
                response = self._http.request(method, path, **kwargs)
            except httpx.TransportError as exc:
                if last:
                    raise StoreError("http", f"{method} {path}", str(exc) or type(exc).__name__) from exc
                self._sleep(self._delay(attempt, None))
                continue
            if response.status_code in _RETRY_STATUSES and not last:
                self._sleep(self._delay(attempt, response.headers.get("Retry-After")))
                continue
            if response.is_success:
                return response.json() if response.content else None  # 204: no body
            _raise_for(response, method, path)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after is not None:
            try:
                return min(max(float(retry_after), 0.0), _MAX_RETRY_AFTER_S)
            except ValueError:
                pass
        return float(self._backoff * (2**attempt) * (1 + random.random() / 2))


def _raise_for(response: httpx.Response, method: str, path: str) -> None:
    """Turn a problem+json answer into the ``EywaError`` a ``Memory`` would have raised,
    with the same ``code`` and the problems' field paths (without ``body.``/``path.``).

    Raises:
        InvalidTurnError: an input error naming a turn.
        InvalidInputError: other input errors (422, 400 and 413 with an input code).
        QuotaExceededError: 413 ``quota_exceeded``.
        NotFoundError: 404.
        ConfigurationError: 401 and 403 (the key is wrong for this call).
        ErasedError: 410 ``erased`` (a re-sent erased turn).
        ConflictError: 409 ``conflict`` (a correction that does not apply to the item's state).
        StoreError: 429/503 after retries and other server failures.
    """
    try:
        problem: dict[str, Any] = response.json()
    except ValueError:
        problem = {}
    detail = str(problem.get("detail") or response.reason_phrase)
    status = response.status_code
    code = problem.get("code")
    if code == "quota_exceeded":
        raise QuotaExceededError(
            str(problem.get("space", "")), "bytes" if problem.get("quota") == "bytes" else "turns",
            int(problem.get("limit", 0)), int(problem.get("used", 0)), int(problem.get("wanted", 0)),
        )  # fmt: skip
    if status in (400, 413, 422):
        input_code = _input_code(code)
        problems = [
            FieldProblem(_unlocated(str(e.get("field", ""))), str(e.get("message", "")))
            for e in problem.get("errors") or []
        ]
        for found in problems:
            parts = found.field.split(".")
            if len(parts) >= 2 and parts[0] == "turns" and parts[1].isdigit():
                field = ".".join(parts[2:]) or None
                raise InvalidTurnError(int(parts[1]), found.message, field=field, code=input_code)
        raise InvalidInputError(detail, code=input_code, problems=problems)
    if status == 404:
        segments = path.split("/")
        space = segments[3] if len(segments) > 3 and segments[2] == "spaces" else "*"
        raise NotFoundError("resource", space, segments[-1])
    if status == 409 and code == "conflict":
        segments = path.split("/")
        space = segments[3] if len(segments) > 3 and segments[2] == "spaces" else "*"
        kind = "belief" if "beliefs" in segments else "candidate"
        raise ConflictError(kind, space, segments[-2] if len(segments) > 2 else "*", detail.rpartition(" is ")[2])
    if status in (401, 403):
        raise ConfigurationError(f"{status} {problem.get('code', '')}: {detail}")
    if status == 410 and code == "erased":  # the ids are in the sentence, after the colon
        segments = path.split("/")
        erased = tuple(i.strip() for i in detail.rpartition(":")[2].split(",") if i.strip().startswith("ev_"))
        raise ErasedError(segments[3] if len(segments) > 3 else "*", erased)
    raise StoreError("http", f"{method} {path}", f"{status}: {detail}")


def _input_code(code: object) -> InputCode:
    for known in _INPUT_CODES:
        if known == code:
            return known
    return "invalid_input"


def _unlocated(field: str) -> str:
    """A problem's field path as the core names it (``body.turns.0.text`` → ``turns.0.text``)."""
    head, _, rest = field.partition(".")
    return rest if head in ("body", "path", "query") and rest else field


def _encode(body: object) -> bytes:
    """JSON with non-ASCII escaped: a lone surrogate travels as ``\\ud800`` for the server to
    refuse (httpx's encoder would fail on it here), NaN as ``NaN`` for the same reason.

    Raises:
        InvalidInputError: the body holds something JSON cannot carry at all (an object, a
            document nested too deep to encode).
    """
    try:
        return json.dumps(body, ensure_ascii=True).encode("ascii")
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInputError(f"the request cannot be sent as JSON ({exc})") from None


def _seg(value: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidInputError("path values must be non-empty strings")
    return quote(value, safe="")


def _iso(value: datetime | str | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return value.isoformat()  # its offset travels; the server converts (or refuses) it


def _list(model: type[ModelT], data: Any) -> list[ModelT]:
    """Each element of a JSON list as ``model``.

    Raises:
        StoreError: the server did not answer with a list.
        pydantic.ValidationError: an element does not fit the model.
    """
    if not isinstance(data, list):
        raise StoreError("http", "decode", f"expected a list of {model.__name__}, got {type(data).__name__}")
    return [model.model_validate(item) for item in data]

