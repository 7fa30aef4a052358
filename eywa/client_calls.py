"""The HTTP API's calls as data: how each client method becomes a request and how its
answer (or problem) becomes ``Memory``'s return type (or error).

``eywa.Client`` and ``eywa.AsyncClient`` only do I/O: each method builds a :class:`Call`
here, sends it with its own httpx client, and hands the JSON back to ``Call.parse``; errors
are mapped by :func:`raise_for` and retries timed by :func:`retry_delay`. One mapping, two
transports, so the two clients cannot drift apart (a test runs one scenario through both).

Whatever comes back is read as untrusted: an answer the API would not send (a proxy's page,
another service at the base URL, a server of another version, a body cut short) becomes a
``StoreError`` naming the call (:func:`read_answer`, :func:`raise_for`), never the JSON
decoder's or a model's own exception; a base URL or key that cannot make a request is
refused when the client is made (:func:`check_connection`).
"""

from __future__ import annotations

import json
import math
import random
import re
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Generic, NoReturn, TypeVar, get_args
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from eywa.contract import check_flag, check_label, check_labels, check_optional_callable, turn_model
from eywa.erasure.plan import ErasureProof, ErasureReport
from eywa.errors import (
    BacklogStage,
    ConfigurationError,
    ConflictError,
    ErasedError,
    EywaError,
    FieldProblem,
    InputCode,
    InvalidInputError,
    InvalidTurnError,
    NotFoundError,
    OverloadedError,
    QuotaExceededError,
    SessionBusyError,
    SpaceNotEmptyError,
    StoreError,
)
from eywa.extraction.pipeline import Explanation
from eywa.ids import check_space
from eywa.jobs import JobStatus
from eywa.models import Belief, BeliefStatus, Candidate, CandidateStatus, Delta, Dimension, Evidence, Policy, RecallResult, Turn
from eywa.nous.identity import MergeProposal
from eywa.portability import ExportHeader, ExportRecord, ImportReport, import_lines, parse_lines
from eywa.stores.corrections import CorrectionRecord
from eywa.stores.dimensions import SameAsEdge
from eywa.stores.keys import ApiKey
from eywa.retry_after import retry_after_seconds
from eywa.values import text_problem

__all__ = [
    "RETRY_STATUSES",
    "Call",
    "TurnLike",
    "accept_candidate",
    "accept_merge",
    "confirm_belief",
    "corrections",
    "dismiss_candidate",
    "merges",
    "propose_merges",
    "retract_belief",
    "undo_merge",
    "beliefs",
    "candidates",
    "deltas",
    "dimension",
    "dimensions",
    "drop_space",
    "erasure_proof",
    "evidence",
    "explain",
    "export_space",
    "import_space",
    "forget",
    "job",
    "check_connection",
    "raise_for",
    "unsendable",
    "read_answer",
    "recall",
    "remember",
    "retry_after_seconds",
    "retry_delay",
    "stats",
]

T = TypeVar("T")
ModelT = TypeVar("ModelT", bound=BaseModel)
TurnLike = Turn | Mapping[str, Any]
RETRY_STATUSES: Final = frozenset({429, 503})
_INPUT_CODES: tuple[InputCode, ...] = get_args(InputCode)


def _same(data: Any) -> Any:
    return data


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API and how to read its answer."""

    method: str
    path: str
    params: Mapping[str, object] = field(default_factory=dict)
    body: object | None = None
    parse: Callable[[Any], T] = _same
    content_type: str = "application/json"
    """The body's media type; a ``bytes`` body is sent as it is (an NDJSON import)."""
    text: bool = False
    """Hand ``parse`` the answer's text rather than its JSON (an NDJSON export)."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Headers of this call, the same on each of its retries (a creation's ``Idempotency-Key``)."""

    def request_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``httpx.Client.request`` (and the async one) for this call.

        The body is JSON with non-ASCII escaped: a lone surrogate travels as ``\\ud800`` and
        NaN as ``NaN``, for the server to refuse with its code (httpx's encoder would fail
        on them here).

        Raises:
            InvalidInputError: the body holds something JSON cannot carry at all, or a
                query parameter is not text a URL carries (``_param``).
        """
        params = {name: _param(value, name) for name, value in self.params.items() if value is not None}
        kwargs: dict[str, Any] = {"params": params}
        headers = dict(self.headers)
        if self.body is not None:
            kwargs["content"] = self.body if isinstance(self.body, bytes) else _encode(self.body)
            headers["Content-Type"] = self.content_type
        if headers:
            kwargs["headers"] = headers
        return kwargs


# RFC 6750's b64token: what a bearer credential may hold (Eywa's keys are ``eyw_<id>_<secret>``).
_BEARER_TOKEN: Final = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
# What a failed decode or a model that does not fit an answer raises (pydantic's
# ValidationError and json's JSONDecodeError are ValueErrors).
_UNREADABLE: Final = (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError)


def check_connection(base_url: object, api_key: object, timeout: object, retries: object, backoff_s: object) -> None:
    """Refuse, when a client is made, what could not make a request: the first call would
    raise from inside httpx (a key with a non-ASCII character cannot be a header) or fail
    as if the server were down (a base URL without a scheme), long after the mistake.

    Raises:
        InvalidInputError: naming each bad argument (``base_url``, ``api_key``, ``timeout``,
            ``retries``, ``backoff_s``).
    """
    problems: list[FieldProblem] = []
    url = _url(base_url)
    if url is None or url.scheme not in ("http", "https") or not url.host:
        problems.append(FieldProblem("base_url", "must be an http:// or https:// URL with a host"))
    if not isinstance(api_key, str) or _BEARER_TOKEN.fullmatch(api_key) is None:
        problems.append(FieldProblem("api_key", "must be a bearer token: letters, digits and - . _ ~ + / (an eyw_ key)"))
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
        problems.append(FieldProblem("timeout", "must be a positive number of seconds"))
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        problems.append(FieldProblem("retries", "must be an integer >= 0"))
    if isinstance(backoff_s, bool) or not isinstance(backoff_s, (int, float)) or not 0 <= backoff_s < float("inf"):
        problems.append(FieldProblem("backoff_s", "must be a number of seconds >= 0"))
    if problems:
        raise InvalidInputError(
            "the client cannot be made: " + "; ".join(f"{p.field} {p.message}" for p in problems), problems=problems
        )


def _url(value: object) -> httpx.URL | None:
    """``value`` parsed as a URL, or None when it is not a string httpx can parse."""
    if not isinstance(value, str):
        return None
    try:
        return httpx.URL(value)
    except (httpx.InvalidURL, TypeError, ValueError):
        return None


def read_answer(call: Call[T], response: httpx.Response) -> T:
    """The value of ``call`` from its successful ``response`` (see the module docstring).

    Raises:
        StoreError: the answer is not the JSON (or text) this call gets from the API.
    """
    try:
        if call.text:
            return call.parse(response.text)
        return call.parse(response.json() if response.content else None)  # 204: no body
    except StoreError:  # a parser's own "not the shape it reads" (``_object``, ``_lister``)
        raise
    except (EywaError, *_UNREADABLE) as exc:  # EywaError: an export line the parser refuses
        raise _not_the_api(call.method, call.path, exc) from exc


def _not_the_api(method: str, path: str, exc: BaseException) -> StoreError:
    return StoreError("http", f"{method} {path}", f"the answer is not the Eywa API's ({type(exc).__name__}: {exc})")


def retry_delay(attempt: int, retry_after: str | None, backoff_s: float, now: datetime | None = None) -> float:
    """Seconds to wait before retry ``attempt + 1``: the server's ``Retry-After`` (seconds or
    a date, ``retry_after_seconds``) when it gave a usable one, else exponential backoff with
    jitter."""
    if (seconds := retry_after_seconds(retry_after, now)) is not None:
        return seconds
    return float(backoff_s * (2**attempt) * (1 + random.random() / 2))


def settle(
    call: Call[Any], attempt: int, retries: int, backoff_s: float, sent: httpx.Response | httpx.RequestError
) -> httpx.Response | float:
    """What one attempt of ``call`` came to, for the clients' retry loops (the same for the
    blocking and the asyncio client, which differ only in how they send and wait): the
    response to answer with, or the seconds to wait before attempt ``attempt + 1``.

    Raises:
        EywaError: the subclass matching the server's problem (``raise_for``).
        StoreError: the server stayed unreachable, overloaded after the last of ``retries``
            retries, or answered with bytes that cannot be decoded (not retried).
    """
    last = attempt == retries
    where = f"{call.method} {call.path}"
    if isinstance(sent, httpx.TransportError):
        if last:
            raise StoreError("http", where, str(sent) or type(sent).__name__) from sent
        return retry_delay(attempt, None, backoff_s)
    if isinstance(sent, httpx.RequestError):  # the answer came but cannot be decoded
        raise StoreError("http", where, str(sent) or type(sent).__name__) from sent
    if sent.status_code in RETRY_STATUSES and not last:
        return retry_delay(attempt, sent.headers.get("Retry-After"), backoff_s)
    if sent.is_success:
        return sent
    raise_for(sent, call.method, call.path)


# --- write ----------------------------------------------------------------------------


def remember(space: str, turns: Sequence[TurnLike], progress: object = None) -> Call[list[str]]:
    """``POST /v1/spaces/{space}/turns``; each turn checked here as ``Memory`` checks it
    first, and the caller's ``progress`` too (it is called once the turns are stored: one
    that is no callable raised ``TypeError`` after the write).

    Raises:
        InvalidInputError: ``turns`` is not a list, or ``progress`` is no callable.
        InvalidTurnError: a turn is malformed.
    """
    check_optional_callable(progress, "progress")
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence):
        raise InvalidInputError.at("turns", "must be a list of turns")
    payload = [turn_model(i, t).model_dump(mode="json") for i, t in enumerate(turns)]
    path = f"/v1/spaces/{_seg(space, 'space')}/turns"
    return Call("POST", path, body={"turns": payload}, parse=_ids_for(len(payload)))


# --- read -----------------------------------------------------------------------------


def recall(
    space: str, query: str, k: int, budget_tokens: int | None, policy: Policy, as_of: datetime | str | None
) -> Call[RecallResult]:
    """``POST /v1/spaces/{space}/recall``."""
    body = {"query": query, "k": k, "budget_tokens": budget_tokens, "policy": policy, "as_of": _iso(as_of, "as_of")}
    return Call("POST", f"/v1/spaces/{_seg(space, 'space')}/recall", body=body, parse=RecallResult.model_validate)


def evidence(space: str, evidence_id: str) -> Call[Evidence]:
    """``GET /v1/spaces/{space}/evidence/{id}``."""
    path = f"/v1/spaces/{_seg(space, 'space')}/evidence/{_seg(evidence_id, 'evidence_id')}"
    return Call("GET", path, parse=Evidence.model_validate)


def beliefs(space: str, subject: str | None, attribute: str | None, status: BeliefStatus | None) -> Call[list[Belief]]:
    """``GET /v1/spaces/{space}/beliefs`` (``status`` None: any)."""
    params = {"subject": subject, "attribute": attribute, "status": status or "any"}
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/beliefs", params, parse=_lister(Belief))


def candidates(space: str, status: CandidateStatus | None) -> Call[list[Candidate]]:
    """``GET /v1/spaces/{space}/candidates`` (``status`` None: any)."""
    path = f"/v1/spaces/{_seg(space, 'space')}/candidates"
    return Call("GET", path, {"status": status or "any"}, parse=_lister(Candidate))


def explain(space: str, belief_id: str) -> Call[Explanation]:
    """``GET /v1/spaces/{space}/beliefs/{id}/explain``."""
    path = f"/v1/spaces/{_seg(space, 'space')}/beliefs/{_seg(belief_id, 'belief_id')}/explain"
    return Call("GET", path, parse=Explanation.model_validate)


def dimension(space: str, entity: str, attribute: str, as_of: datetime | str | None) -> Call[Dimension]:
    """``GET /v1/spaces/{space}/entities/{entity}/dimensions/{attribute}``."""
    path = (
        f"/v1/spaces/{_seg(space, 'space')}/entities/{_seg(entity, 'entity')}"
        f"/dimensions/{_seg(attribute, 'attribute')}"
    )
    return Call("GET", path, {"as_of": _iso(as_of, "as_of")}, parse=Dimension.model_validate)


def dimensions(space: str, entity: str | None, as_of: datetime | str | None) -> Call[list[Dimension]]:
    """``GET /v1/spaces/{space}/dimensions``."""
    params = {"entity": entity, "as_of": _iso(as_of, "as_of")}
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/dimensions", params, parse=_lister(Dimension))


def deltas(space: str, entity: str, attribute: str) -> Call[list[Delta]]:
    """``GET …/dimensions/{attribute}/deltas``."""
    path = (
        f"/v1/spaces/{_seg(space, 'space')}/entities/{_seg(entity, 'entity')}"
        f"/dimensions/{_seg(attribute, 'attribute')}/deltas"
    )
    return Call("GET", path, parse=_lister(Delta))


def stats(space: str) -> Call[dict[str, Any]]:
    """``GET /v1/spaces/{space}/stats``."""
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/stats", parse=_object)


def job(job_id: str) -> Call[JobStatus]:
    """``GET /v1/jobs/{id}``: the ``JobStatus`` ``Memory.job`` answers."""
    return Call("GET", f"/v1/jobs/{_seg(job_id, 'job_id')}", parse=JobStatus.model_validate)


# --- keys -----------------------------------------------------------------------------


def _created_key(data: Any) -> tuple[ApiKey, str]:
    return ApiKey.model_validate(data["key"]), str(data["secret"])


def create_key(
    spaces: Sequence[str], scopes: Sequence[str], name: str | None, expires_at: datetime | str | None
) -> Call[tuple[ApiKey, str]]:
    """``POST /v1/keys`` with a fresh ``Idempotency-Key``: the call is built once and sent
    again as it is on a retry, so a creation whose answer was lost makes one key, answered
    with a new secret (``eywa.stores.keys``)."""
    expiry = expires_at.isoformat() if isinstance(expires_at, datetime) else expires_at
    # Lists of names, checked for their shape (the server checks the names): ``list("alice")``
    # made a key for the spaces a, l, i, c and e, and a number was a TypeError.
    body = {"spaces": check_labels(spaces, "spaces", None), "scopes": check_labels(scopes, "scopes", None),
            "name": name, "expires_at": expiry}  # fmt: skip
    return Call("POST", "/v1/keys", body=body, parse=_created_key, headers={"Idempotency-Key": uuid.uuid4().hex})


# --- portability ----------------------------------------------------------------------


def _export_records(text: str) -> list[ExportHeader | ExportRecord]:
    # NDJSON lines end at "\n" alone: str.splitlines also breaks at NEL, U+2028 and U+2029,
    # which the export writes raw inside its JSON strings (as JSON allows).
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()  # the newline that ends the last record
    header, records = parse_lines(lines)
    return [header, *records]


def export_space(space: str) -> Call[list[ExportHeader | ExportRecord]]:
    """``GET /v1/spaces/{space}/export`` (NDJSON), read back into records."""
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/export", parse=_export_records, text=True)


def import_space(
    space: str, source: Iterable[str | bytes] | Iterable[ExportHeader | ExportRecord]
) -> Call[ImportReport]:
    """``POST /v1/spaces/{space}/import`` with the export as NDJSON (lines, or records).

    ``source`` is checked as ``Memory.import_space`` checks it (``import_lines``); a ``bytes``
    line travels as it is, for the server to refuse by its number if it is not UTF-8 (it was
    a UnicodeDecodeError here).

    Raises:
        InvalidInputError: ``source`` is no iterable of lines or records, an item is
            neither, or a line holds a lone surrogate (field ``line.<number>``).
    """
    body = bytearray()
    for number, line in enumerate(import_lines(source), start=1):
        if isinstance(line, str):
            if (problem := text_problem(line)) is not None:
                raise InvalidInputError.at(f"line.{number}", problem)
            line = line.encode("utf-8")
        body += line if line.endswith(b"\n") else line + b"\n"
    path = f"/v1/spaces/{_seg(space, 'space')}/import"
    return Call("POST", path, body=bytes(body), parse=ImportReport.model_validate, content_type="application/x-ndjson")


# --- erasure --------------------------------------------------------------------------


def forget(
    space: str,
    evidence_ids: Sequence[str] | None,
    external_ids: Sequence[str] | None,
    speaker: str | None,
    session: str | None,
    before: datetime | str | None,
) -> Call[ErasureReport]:
    """``POST /v1/spaces/{space}/erase`` with the selectors given."""
    body = {
        "evidence_ids": check_labels(evidence_ids, "evidence_ids", None),
        "external_ids": check_labels(external_ids, "external_ids", None),
        "speaker": speaker, "session": session, "before": _iso(before, "before"),
    }  # fmt: skip
    chosen = {k: v for k, v in body.items() if v is not None}
    return Call("POST", f"/v1/spaces/{_seg(space, 'space')}/erase", body=chosen, parse=ErasureReport.model_validate)


def drop_space(space: str) -> Call[ErasureReport]:
    """``DELETE /v1/spaces/{space}``."""
    return Call("DELETE", f"/v1/spaces/{_seg(space, 'space')}", parse=ErasureReport.model_validate)


def erasure_proof(space: str, erasure_id: str) -> Call[ErasureProof]:
    """``GET /v1/spaces/{space}/erasures/{id}/proof``."""
    path = f"/v1/spaces/{_seg(space, 'space')}/erasures/{_seg(erasure_id, 'erasure_id')}/proof"
    return Call("GET", path, parse=ErasureProof.model_validate)


# --- answers --------------------------------------------------------------------------


# --- corrections (the server records the key's id as the author) ------------------------


def _correct(space: str, what: str, reason: str | None) -> Call[CorrectionRecord]:
    return Call("POST", f"/v1/spaces/{_seg(space, 'space')}/{what}", body={"reason": reason},
                parse=CorrectionRecord.model_validate)  # fmt: skip


def retract_belief(space: str, belief_id: str, reason: str) -> Call[CorrectionRecord]:
    """``POST /v1/spaces/{space}/beliefs/{id}/retract`` (``write``)."""
    return _correct(space, f"beliefs/{_seg(belief_id, 'belief_id')}/retract", reason)


def confirm_belief(space: str, belief_id: str, reason: str | None) -> Call[CorrectionRecord]:
    """``POST /v1/spaces/{space}/beliefs/{id}/confirm`` (``write``)."""
    return _correct(space, f"beliefs/{_seg(belief_id, 'belief_id')}/confirm", reason)


def accept_candidate(space: str, candidate_id: str, reason: str | None) -> Call[CorrectionRecord]:
    """``POST /v1/spaces/{space}/candidates/{id}/accept`` (``write``)."""
    return _correct(space, f"candidates/{_seg(candidate_id, 'candidate_id')}/accept", reason)


def dismiss_candidate(space: str, candidate_id: str, reason: str | None) -> Call[CorrectionRecord]:
    """``POST /v1/spaces/{space}/candidates/{id}/dismiss`` (``write``)."""
    return _correct(space, f"candidates/{_seg(candidate_id, 'candidate_id')}/dismiss", reason)


def corrections(space: str, target_id: str | None) -> Call[list[CorrectionRecord]]:
    """``GET /v1/spaces/{space}/corrections`` (``read``)."""
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/corrections", {"target_id": target_id},
                parse=_lister(CorrectionRecord))  # fmt: skip


# --- identity merges --------------------------------------------------------------------


def propose_merges(space: str) -> Call[list[MergeProposal]]:
    """``GET /v1/spaces/{space}/merges/proposals`` (``read``)."""
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/merges/proposals", parse=_lister(MergeProposal))


def accept_merge(space: str, source: str, target: str, score: float) -> Call[SameAsEdge]:
    """``POST /v1/spaces/{space}/merges`` (``write``)."""
    body = {"source": source, "target": target, "score": score}
    return Call("POST", f"/v1/spaces/{_seg(space, 'space')}/merges", body=body, parse=SameAsEdge.model_validate)


def undo_merge(space: str, source: str, target: str) -> Call[None]:
    """``POST /v1/spaces/{space}/merges/undo`` (``write``; 204, or 404 when not merged)."""
    body = {"source": source, "target": target}
    return Call("POST", f"/v1/spaces/{_seg(space, 'space')}/merges/undo", body=body, parse=lambda _: None)


def merges(space: str, include_removed: bool) -> Call[list[SameAsEdge]]:
    """``GET /v1/spaces/{space}/merges`` (``read``)."""
    check_flag(include_removed, "include_removed")  # str(...) would send "no" as itself, read as false
    return Call("GET", f"/v1/spaces/{_seg(space, 'space')}/merges",
                {"include_removed": str(include_removed).lower()}, parse=_lister(SameAsEdge))  # fmt: skip


def raise_for(response: httpx.Response, method: str, path: str) -> NoReturn:
    """Turn a problem+json answer into the ``EywaError`` a ``Memory`` would have raised,
    with the same ``code`` and the problems' field paths (without ``body.``/``path.``).

    Raises:
        InvalidTurnError: an input error naming a turn.
        InvalidInputError: other input errors (422, 400 and 413 with an input code).
        QuotaExceededError: 413 ``quota_exceeded``.
        NotFoundError: 404.
        ConfigurationError: 401 and 403 (the key is wrong for this call).
        ErasedError: 410 ``erased`` (a re-sent erased turn).
        ConflictError: 409 ``conflict`` (a correction that does not apply to the item's state;
            ``SpaceNotEmptyError`` for an import into a space that holds data).
        OverloadedError: 503 ``overloaded`` after the retries (a backlog over its bound;
            nothing was written), with the server's ``stage``, ``backlog`` and ``limit``.
        SessionBusyError: 503 ``session_busy`` after the retries (other writers kept adding
            turns to the batch's session; nothing was written), with its space and sessions.
        StoreError: 429 and other 503s after retries, and other server failures.
    """
    try:
        body = response.json()
    except (ValueError, RecursionError):  # not JSON (a proxy's page, say): the status still says what happened
        body = None
    problem: dict[str, Any] = body if isinstance(body, dict) else {}
    detail = str(problem.get("detail") or response.reason_phrase)
    status = response.status_code
    code = problem.get("code")
    if code == "quota_exceeded":
        raise QuotaExceededError(
            str(problem.get("space", "")), "bytes" if problem.get("quota") == "bytes" else "turns",
            _int(problem.get("limit")), _int(problem.get("used")), _int(problem.get("wanted")),
        )  # fmt: skip
    if status == 503 and code == "overloaded":
        stage: BacklogStage = "embed" if problem.get("stage") == "embed" else "level1"
        retry = retry_after_seconds(response.headers.get("Retry-After"))
        raise OverloadedError(
            _int(problem.get("backlog")), _int(problem.get("limit")),
            _int(problem.get("retry_after_s", 1 if retry is None else math.ceil(retry))), stage=stage,
        )  # fmt: skip
    if status == 503 and code == "session_busy":
        sessions = problem.get("sessions")
        raise SessionBusyError(
            str(problem.get("space", "")), [str(s) for s in sessions] if isinstance(sessions, list) else [],
            attempts=_int(problem.get("attempts")) or 1,
        )  # fmt: skip
    if status in (400, 413, 422):
        input_code = _input_code(code)
        listed = problem.get("errors")
        problems = [
            FieldProblem(_unlocated(str(e.get("field", ""))), str(e.get("message", "")))
            for e in (listed if isinstance(listed, list) else [])
            if isinstance(e, dict)
        ]
        for found in problems:
            parts = found.field.split(".")
            if len(parts) >= 2 and parts[0] == "turns" and parts[1].isascii() and parts[1].isdigit():
                field_path = ".".join(parts[2:]) or None
                raise InvalidTurnError(int(parts[1]), found.message, field=field_path, code=input_code)
        raise InvalidInputError(detail, code=input_code, problems=problems)
    if status == 404:
        # The server names what was not found (``kind``, ``space``, ``item_id``): the error
        # reads as Memory's ("space 'x' not found"). A 404 without them (a route that does
        # not exist, an older server) is named by the path: it said "resource 'erase' not
        # found in space 's'" for an unknown space's forget, the server's words lost.
        kind, item = problem.get("kind"), problem.get("item_id")
        if isinstance(kind, str) and isinstance(item, str) and isinstance(problem.get("space"), str):
            raise NotFoundError(kind, str(problem["space"]), item)
        segments = path.split("/")
        space = segments[3] if len(segments) > 3 and segments[2] == "spaces" else "*"
        raise NotFoundError("resource", space, segments[-1])
    if status == 409 and code == "conflict":
        segments = path.split("/")
        space = segments[3] if len(segments) > 3 and segments[2] == "spaces" else "*"
        if segments[-1] == "import":
            raise SpaceNotEmptyError(space, {})
        kind = "belief" if "beliefs" in segments else "candidate"
        raise ConflictError(kind, space, segments[-2] if len(segments) > 2 else "*", detail.rpartition(" is ")[2])
    if status in (401, 403):
        raise ConfigurationError(f"{status} {problem.get('code', '')}: {detail}")
    if status == 410 and code == "erased":  # the ids are in the sentence, after the colon
        segments = path.split("/")
        erased = tuple(i.strip() for i in detail.rpartition(":")[2].split(",") if i.strip().startswith("ev_"))
        raise ErasedError(segments[3] if len(segments) > 3 else "*", erased)
    raise StoreError("http", f"{method} {path}", f"{status}: {detail}")


def _int(value: object) -> int:
    """An integer member of a problem, 0 when missing or malformed (an older server)."""
    try:
        return int(str(value))
    except ValueError:
        return 0


def _input_code(code: object) -> InputCode:
    for known in _INPUT_CODES:
        if known == code:
            return known
    return "invalid_input"


def _unlocated(path: str) -> str:
    """A problem's field path as the core names it (``body.turns.0.text`` → ``turns.0.text``)."""
    head, _, rest = path.partition(".")
    return rest if head in ("body", "path", "query") and rest else path


def unsendable(call: Call[Any], exc: httpx.InvalidURL) -> InvalidInputError:
    """The error of a call whose URL httpx refuses to build (``InvalidURL``, raised from
    inside the client before anything is sent): a path or query value past httpx's 65,536
    characters of URL, which the server would refuse too (``limit_exceeded``)."""
    return InvalidInputError(
        f"{call.method} {call.path[:80]}: the request cannot be sent ({exc}): a path or query value is too long "
        "to travel in a URL", code="limit_exceeded",
    )  # fmt: skip


def _encode(body: object) -> bytes:
    """JSON with non-ASCII escaped (see ``Call.request_kwargs``).

    Raises:
        InvalidInputError: the body holds something JSON cannot carry at all (an object, a
            document nested too deep to encode).
    """
    try:
        return json.dumps(body, ensure_ascii=True).encode("ascii")
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInputError(f"the request cannot be sent as JSON ({exc})") from None


def _param(value: object, name: str) -> str:
    """A query parameter's value as ``Memory`` takes it: text (a number was sent as its
    digits, where ``Memory`` refuses it), and valid Unicode (a lone surrogate was a
    UnicodeEncodeError from httpx).

    Raises:
        InvalidInputError: naming the parameter.
    """
    if not isinstance(value, str):
        raise InvalidInputError.at(name, f"must be a string, got {type(value).__name__}")
    if (problem := text_problem(value)) is not None:
        raise InvalidInputError.at(name, problem)
    return value


def _seg(value: str, field: str) -> str:
    """``value`` as one path segment, checked as ``Memory`` checks it first (``check_space``,
    or ``check_label`` without the limits, which are the server's).

    A segment ``.`` or ``..`` travels as ``%2E``: written as dots, httpx resolved it as a
    dot-segment, and the space ``..`` (valid in ``Memory``) reached another route (404, or
    405 for ``.``). A ``/`` cannot travel at all: the server decodes ``%2F`` before routing,
    so the call reached no route and read as a ``NotFoundError`` of the call itself.

    Raises:
        InvalidInputError: naming ``field``: not a string, blank, holding what no URL
            carries (a lone surrogate was a UnicodeEncodeError from ``quote``), or a ``/``.
    """
    checked = check_space(value) if field == "space" else check_label(value, field, None)
    if "/" in checked:
        raise InvalidInputError.at(field, "contains '/', which the HTTP API cannot take in a path; use Memory")
    segment = quote(checked, safe="")
    return segment.replace(".", "%2E") if segment in (".", "..") else segment


def _iso(value: object, field: str) -> str | None:
    """A time argument as ISO-8601 text: a datetime's offset travels and the server converts
    (or refuses) it, as ``Memory`` does.

    Raises:
        InvalidInputError: neither text nor a datetime (a number was an AttributeError).
    """
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, datetime):
        raise InvalidInputError.at(field, f"must be an ISO-8601 datetime, got {type(value).__name__}")
    return value.isoformat()


def _ids_for(count: int) -> Callable[[Any], list[str]]:
    def ids_of(data: Any) -> list[str]:
        """The evidence ids of a write's answer, one per turn sent, in order.

        Raises:
            StoreError: the answer is not ``{"ids": [str, ...]}`` with ``count`` ids (the
                caller pairs them with its turns by position).
        """
        ids = data.get("ids") if isinstance(data, dict) else None
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or len(ids) != count:
            raise StoreError("http", "decode", f'expected {{"ids": [{count} evidence ids]}}')
        return ids

    return ids_of


def _object(data: Any) -> dict[str, Any]:
    """A JSON object as a dict.

    Raises:
        StoreError: the server did not answer with an object.
    """
    if not isinstance(data, dict):
        raise StoreError("http", "decode", f"expected an object, got {type(data).__name__}")
    return data


def _lister(model: type[ModelT]) -> Callable[[Any], list[ModelT]]:
    def parse(data: Any) -> list[ModelT]:
        """Each element of a JSON list as ``model``.

        Raises:
            StoreError: the server did not answer with a list.
            pydantic.ValidationError: an element does not fit the model.
        """
        if not isinstance(data, list):
            raise StoreError("http", "decode", f"expected a list of {model.__name__}, got {type(data).__name__}")
        return [model.model_validate(item) for item in data]

    return parse
