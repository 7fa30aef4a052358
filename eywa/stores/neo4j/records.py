"""Mapping between Neo4j node/relationship properties and domain models, in one place.

Conventions of the server graph (see ``graph_schema/README.md``):

- times are native Neo4j ``DATETIME`` values in UTC, so auditors can compare and format
  them in Cypher; they come back as ``neo4j.time.DateTime`` and are turned into aware
  Python datetimes here. The recall path's queries project them as integer microseconds
  since the epoch instead (``micros``, ``projected``), which ``to_datetime`` reads too: the
  driver builds a ``neo4j.time.DateTime`` in pure Python, a millisecond of CPU per value on
  a loaded machine, and a read of a few hundred rows spent most of its time there. For the
  same reason Level 0 sends a turn's and a signal's times as ``epoch_parts`` (two integers)
  and builds the ``DATETIME`` in Cypher (``from_epoch_parts``): the same stored value;
- what the embedded store keeps as JSON text (metadata, validation reports, candidate
  facts, dimension states and distributions, delta priors/posteriors) is a JSON string
  property; lists of plain strings (aliases, reasons, evidence ids, anchors) are native
  list properties;
- ``None`` is never written (Neo4j drops null properties), so readers use ``.get``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from datetime import datetime, timedelta, timezone
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from eywa.contract import turn_bytes
from eywa.errors import InvalidInputError, StoreError
from eywa.ids import stable_id
from eywa.models import (
    Belief,
    Candidate,
    CandidateFact,
    Delta,
    Entity,
    Evidence,
    ReasonCode,
    Signal,
    SignalKind,
    SupportLink,
    ValidationReport,
    as_utc,
)
from eywa.stores.conversions import evidence_fields, signal_fields
from eywa.stores.beliefs import BeliefCites, BeliefLine, RecallBelief
from eywa.stores.dimensions import DimensionRecord, SameAsEdge
from eywa.stores.evidence import RecallTurn

Props = Mapping[str, Any]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class UnreadableNodeError(StoreError):
    """A node read back lacks a property Eywa writes, or holds a malformed value.

    Either an operator's Cypher wrote it so, or a concurrent transaction deleted it while
    this read went through it: Neo4j reads committed data as it goes, so a node deleted
    between a read's index seek and its property read comes back as an empty or partial
    map. ``rereads`` tells the two apart by reading again."""


def decodes(label: str) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Turn a node that cannot be read back into an ``UnreadableNodeError`` (a
    ``StoreError``) naming its label.

    Eywa writes every property its readers need, but the graph is open to operators' Cypher:
    a node edited or created outside Eywa may lack a property or hold a value of the wrong
    type. Callers must get the store's error, never a bare ``KeyError`` from the mapping.
    """

    def wrap(read: Callable[_P, _R]) -> Callable[_P, _R]:
        @wraps(read)
        def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            try:
                return read(*args, **kwargs)
            except KeyError as exc:
                detail = f"a :{label} node lacks the property {exc} (written outside Eywa?)"
                raise UnreadableNodeError("neo4j", "read", detail) from exc
            except (TypeError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
                detail = f"a :{label} node holds a malformed value (written outside Eywa?): {exc}"
                raise UnreadableNodeError("neo4j", "read", detail) from exc

        return guarded

    return wrap


READ_ATTEMPTS = 3
"""How many times ``rereads`` runs a read that met an unreadable node."""


def rereads(read: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run a store's read again when it met an unreadable node, up to ``READ_ATTEMPTS``.

    A node that an erasure, a retention pass or a dimension replay deletes while the read
    goes through it is read as an empty or partial map (``UnreadableNodeError``): read again,
    it is gone and the answer is what the store holds. A node written malformed outside
    Eywa stays so, and the last attempt's error is the caller's. Only for methods that
    write nothing (running one again changes nothing). Measured before: 1-4 such errors in
    about 20,000 reads of beliefs and dimensions while a space was remembered and
    forgotten, each answered as a 503 by the API.

    Only the outermost such read of a thread retries: a read made inside another (say,
    ``recall_dimensions`` reading each state with ``get``) lets the error through to it,
    so a malformed node costs ``READ_ATTEMPTS`` runs of the outer read rather than that
    many of each nested one multiplied together."""

    @wraps(read)
    def again(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if _REREADING.get():
            return read(*args, **kwargs)
        token = _REREADING.set(True)
        try:
            for _ in range(READ_ATTEMPTS - 1):
                try:
                    return read(*args, **kwargs)
                except UnreadableNodeError:
                    continue
            return read(*args, **kwargs)
        finally:
            _REREADING.reset(token)

    return again


# Whether this thread (or task) is inside a ``rereads`` read already.
_REREADING: ContextVar[bool] = ContextVar("eywa_neo4j_rereading", default=False)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICROSECOND = timedelta(microseconds=1)

EVIDENCE_TIMES = ("observed_at", "recorded_at")
"""The ``DATETIME`` properties of an ``:Evidence`` node, sent apart from ``evidence_props``."""
SIGNAL_TIMES = ("window_start", "window_end")
"""The ``DATETIME`` properties of a ``:Signal`` node, sent apart from ``signal_props``."""


def epoch_parts(value: datetime | None) -> list[int] | None:
    """``value`` as [seconds since the epoch, nanosecond of the second] (a naive value is
    taken to be UTC; null stays null): ``from_epoch_parts`` builds the same ``DATETIME``
    the driver would have sent, at a fraction of the driver's cost (its conversion of a
    Python datetime is pure Python, tens of microseconds a value, and Level 0 sends two or
    three per turn)."""
    if value is None:
        return None
    seconds, micro = divmod((as_utc(value) - _EPOCH) // _MICROSECOND, 1_000_000)
    return [seconds, micro * 1000]


def from_epoch_parts(expr: str) -> str:
    """Cypher for the UTC ``DATETIME`` of the ``epoch_parts`` list ``expr`` (null stays
    null). ``expr`` is a caller's constant."""
    return (
        f"CASE WHEN {expr} IS NULL THEN null"
        f" ELSE datetime({{epochSeconds: {expr}[0], nanosecond: {expr}[1]}}) END"
    )


def micros(expr: str) -> str:
    """Cypher for the ``DATETIME`` ``expr`` as integer microseconds since the epoch (null
    stays null); ``to_datetime`` reads it back exactly (times are written from Python
    datetimes, so they hold no finer part). ``expr`` is a caller's constant."""
    return f"{expr}.epochSeconds * 1000000 + {expr}.microsecond"


def projected(var: str, *times: str) -> str:
    """Cypher for every property of node ``var``, with the ``times`` as ``micros``:
    ``b {.*, recorded_at: <micros>}``. Names are the caller's constants."""
    fields = ", ".join(f"{name}: {micros(f'{var}.{name}')}" for name in times)
    return f"{var} {{.*, {fields}}}"


def to_datetime(value: Any) -> datetime | None:
    """A Neo4j ``DateTime``, a Python datetime or epoch microseconds (``micros``) as an
    aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return _EPOCH + timedelta(microseconds=value)
    native = value.to_native() if hasattr(value, "to_native") else value
    if not isinstance(native, datetime):
        raise TypeError(f"expected a datetime property, got {type(value).__name__}")
    return as_utc(native)


def required_datetime(value: Any) -> datetime:
    """Like :func:`to_datetime` for properties that are always set."""
    converted = to_datetime(value)
    if converted is None:
        raise TypeError("a required datetime property is missing")
    return converted


def dumps(value: Any, what: str) -> str:
    """JSON text of ``value``.

    Raises:
        InvalidInputError: ``value`` is not JSON-serialisable (nothing has been written).
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} is not JSON-serialisable ({exc})") from exc


def space_key(space: str) -> str:
    """The space as one full-text token, stored on every ``:Evidence`` and ``:Belief``.

    The keyword indexes hold it beside the text so that a search is filtered by space
    inside Lucene (``+space_key:"…"``). A space name itself would not do: the English
    analyzer splits it at punctuation and stems it. Decimal digits of its SHA-256 (96 bits)
    pass through the analyzer as one unchanged token. Never change it: stored nodes and
    the migration that backfilled them carry it.
    """
    return str(int.from_bytes(hashlib.sha256(space.encode("utf-8")).digest()[:12], "big"))


def session_id(space: str, session: str) -> str:
    """Session node ids embed the space, since session names repeat across spaces."""
    return stable_id("ses", space, session)


def signal_id(evidence_id: str, signal: Signal) -> str:
    """Deterministic signal id from (evidence id, kind, start, end)."""
    return stable_id("sig", evidence_id, signal.kind.value, str(signal.start), str(signal.end))


def dimension_id(space: str, entity_key: str, attribute: str) -> str:
    """Dimension node ids: one per (space, entity, attribute)."""
    return stable_id("dim", space, entity_key, attribute)


# --- evidence ---------------------------------------------------------------------------


def evidence_props(evidence: Evidence, position: int) -> dict[str, Any]:
    """Properties of one ``:Evidence`` node, its ``EVIDENCE_TIMES`` as ``epoch_parts``
    (the writer sets them with ``from_epoch_parts``); ``position`` keeps the batch's
    insertion order."""
    metadata = dumps(evidence.metadata, f"metadata of {evidence.id}")
    size = turn_bytes(evidence.text, evidence.metadata)
    return {
        **evidence_fields(evidence, epoch_parts, metadata),
        "position": position,
        "bytes": size,
        "space_key": space_key(evidence.space),
    }


def signal_props(evidence: Evidence) -> list[dict[str, Any]]:
    """Properties of the ``:Signal`` nodes of one turn (duplicate spans collapse), their
    ``SIGNAL_TIMES`` as ``epoch_parts`` (the writer sets them with ``from_epoch_parts``)."""
    rows: dict[str, dict[str, Any]] = {}
    for index, signal in enumerate(evidence.signals):
        sid = signal_id(evidence.id, signal)
        rows.setdefault(sid, {"id": sid, **signal_fields(evidence, index, signal, epoch_parts)})
    return list(rows.values())


@decodes("Signal")
def signal_from_props(props: Props) -> Signal:
    """One ``:Signal`` node as a ``Signal``."""
    return Signal(
        kind=SignalKind(props["kind"]),
        text=props["text"],
        start=props["start"],
        end=props["end"],
        normalized=props.get("normalized", ""),
        granularity=props.get("granularity"),
        window_start=to_datetime(props.get("window_start")),
        window_end=to_datetime(props.get("window_end")),
    )


@decodes("Evidence")
def evidence_from_props(props: Props, signals: list[Props]) -> Evidence:
    """One ``:Evidence`` node and its signal nodes (any order) as an ``Evidence``."""
    ordered = sorted(signals, key=lambda s: s["idx"])
    return Evidence(
        id=props["id"],
        space=props["space"],
        session=props["session"],
        seq=props["seq"],
        speaker=props.get("speaker"),
        role=props.get("role"),
        text=props["text"],
        observed_at=required_datetime(props["observed_at"]),
        recorded_at=required_datetime(props["recorded_at"]),
        content_hash=props["content_hash"],
        metadata=json.loads(props.get("metadata") or "{}"),
        external_id=props.get("external_id"),
        author=props.get("author"),
        signals=tuple(signal_from_props(s) for s in ordered),
    )


def _present(value: Any, name: str) -> Any:
    """``value``, or the ``KeyError`` ``decodes`` reports when the node lacks ``name``."""
    if value is None:
        raise KeyError(name)
    return value


@decodes("Evidence")
def recall_turn_from_values(values: Sequence[Any]) -> RecallTurn:
    """A turn's recall columns (``evidence.recall_values``: id, session, seq, speaker,
    observed_at as ``micros``, text, metadata, mentions) as a ``RecallTurn``."""
    turn_id, session, seq, speaker, observed_at, text, metadata, mentions = values
    return RecallTurn(
        id=_present(turn_id, "id"),
        session=_present(session, "session"),
        seq=_present(seq, "seq"),
        speaker=speaker,
        observed_at=required_datetime(_present(observed_at, "observed_at")),
        text=_present(text, "text"),
        metadata=json.loads(metadata or "{}"),
        mentions=tuple(sorted(mentions or ())),
    )


@decodes("Belief")
def recall_belief_from_values(values: Sequence[Any]) -> RecallBelief:
    """A belief's recall columns (id, statement, subject, evidence ids, cited turns as
    ``recall_turn_from_values`` reads them) as a ``RecallBelief``, cited in its order."""
    belief_id, statement, subject, evidence_ids, cited = values
    turns = {t.id: t for t in map(recall_turn_from_values, cited)}
    return RecallBelief(
        id=_present(belief_id, "id"),
        statement=_present(statement, "statement"),
        subject=_present(subject, "subject"),
        cited=tuple(turns[i] for i in evidence_ids or () if i in turns),
    )


@decodes("Belief")
def belief_cites_from_values(values: Sequence[Any]) -> BeliefCites:
    """A belief's id, subject, evidence ids and the ids of those still stored as a
    ``BeliefCites``, cited in its order."""
    belief_id, subject, evidence_ids, stored = values
    present = set(stored or ())
    return BeliefCites(
        id=_present(belief_id, "id"),
        subject=_present(subject, "subject"),
        cited=tuple(i for i in evidence_ids or () if i in present),
    )


@decodes("Belief")
def belief_line_from_values(values: Sequence[Any]) -> BeliefLine:
    """A belief's line columns (id, subject, attribute, statement, value, evidence ids) as
    a ``BeliefLine``."""
    belief_id, subject, attribute, statement, value, evidence_ids = values
    return BeliefLine(
        id=_present(belief_id, "id"),
        subject=_present(subject, "subject"),
        attribute=attribute,
        statement=_present(statement, "statement"),
        value=value,
        evidence_ids=tuple(evidence_ids or ()),
    )


def entity_props(entity: Entity) -> dict[str, Any]:
    """Properties of one ``:Entity`` node."""
    return {
        "id": entity.id,
        "space": entity.space,
        "name": entity.name,
        "kind": entity.kind,
        "aliases": sorted(set(entity.aliases)),
    }


@decodes("Entity")
def entity_from_props(props: Props) -> Entity:
    """One ``:Entity`` node as an ``Entity``."""
    return Entity(
        id=props["id"],
        space=props["space"],
        name=props["name"],
        kind=props.get("kind", "entity"),
        aliases=tuple(props.get("aliases") or ()),
    )


# --- beliefs and candidates -------------------------------------------------------------


def belief_props(belief: Belief) -> dict[str, Any]:
    """Properties of one ``:Belief`` node (support links become edges, see below)."""
    return {
        "id": belief.id,
        "space": belief.space,
        "space_key": space_key(belief.space),
        "statement": belief.statement,
        "subject": belief.subject,
        "subject_key": belief.subject.casefold(),
        "attribute": belief.attribute,
        "value": belief.value,
        "polarity": belief.polarity,
        "modality": belief.modality,
        "valid_from": belief.valid_from,
        "valid_to": belief.valid_to,
        "event_at": belief.event_at,
        "recorded_at": belief.recorded_at,
        "status": belief.status,
        "extractor": belief.extractor,
        "extractor_version": belief.extractor_version,
        "evidence_ids": list(belief.evidence_ids),
        "report": None if belief.report is None else belief.report.model_dump_json(),
    }


def support_props(link: SupportLink) -> dict[str, Any]:
    """Properties of one ``SUPPORTED_BY`` edge: span as ``[start, end]``, score, anchors."""
    return {
        "evidence_id": link.evidence_id,
        "span": None if link.span is None else list(link.span),
        "score": link.score,
        "anchors": list(link.anchors),
    }


@decodes("SUPPORTS")
def support_from_props(props: Props) -> SupportLink:
    """One ``SUPPORTED_BY`` edge (with its evidence id) as a ``SupportLink``."""
    span = props.get("span")
    return SupportLink(
        evidence_id=props["evidence_id"],
        span=None if span is None else (int(span[0]), int(span[1])),
        score=props["score"],
        anchors=tuple(props.get("anchors") or ()),
    )


@decodes("Belief")
def belief_from_props(props: Props, support: list[Props], supersedes: str | None) -> Belief:
    """One ``:Belief`` node, its support edges and the belief it supersedes."""
    links = sorted((support_from_props(s) for s in support), key=lambda link: link.evidence_id)
    report = props.get("report")
    return Belief(
        id=props["id"],
        space=props["space"],
        statement=props["statement"],
        subject=props["subject"],
        attribute=props.get("attribute"),
        value=props.get("value"),
        polarity=props["polarity"],
        modality=props["modality"],
        valid_from=to_datetime(props.get("valid_from")),
        valid_to=to_datetime(props.get("valid_to")),
        recorded_at=required_datetime(props["recorded_at"]),
        status=props["status"],
        extractor=props["extractor"],
        evidence_ids=tuple(props.get("evidence_ids") or ()),
        support=tuple(links),
        report=None if report is None else ValidationReport.model_validate_json(report),
        supersedes=supersedes,
        event_at=to_datetime(props.get("event_at")),
        extractor_version=props.get("extractor_version"),
    )


def candidate_props(candidate: Candidate) -> dict[str, Any]:
    """Properties of one ``:Candidate`` node; statement and subject are copied for audits."""
    return {
        "id": candidate.id,
        "space": candidate.space,
        "status": candidate.status,
        "reasons": [str(r) for r in candidate.reasons],
        "statement": candidate.fact.statement,
        "subject": candidate.fact.subject,
        "attribute": candidate.fact.attribute,
        "value": candidate.fact.value,
        "score": candidate.report.score,
        "evidence_ids": list(dict.fromkeys(candidate.fact.evidence_ids)),
        "fact": candidate.fact.model_dump_json(),
        "report": candidate.report.model_dump_json(),
        "extractor": candidate.extractor,
        "extractor_version": candidate.extractor_version,
        "recorded_at": candidate.recorded_at,
    }


@decodes("Candidate")
def candidate_from_props(props: Props) -> Candidate:
    """One ``:Candidate`` node as a ``Candidate``."""
    return Candidate(
        id=props["id"],
        space=props["space"],
        status=props["status"],
        reasons=tuple(ReasonCode(r) for r in props.get("reasons") or ()),
        fact=CandidateFact.model_validate_json(props["fact"]),
        report=ValidationReport.model_validate_json(props["report"]),
        extractor=props["extractor"],
        recorded_at=required_datetime(props["recorded_at"]),
        extractor_version=props.get("extractor_version"),
    )


# --- dimensions, deltas, SAME_AS --------------------------------------------------------


def dimension_props(record: DimensionRecord) -> dict[str, Any]:
    """Properties of one ``:Dimension`` node (``entropy`` mirrors ``entropy_bits`` for audits)."""
    return {
        "id": dimension_id(record.space, record.entity_key, record.attribute),
        "space": record.space,
        "entity_key": record.entity_key,
        "entity": record.entity,
        "attribute": record.attribute,
        "cardinality": record.cardinality,
        "state": dumps(record.state, "dimension state"),
        "distribution": dumps(record.distribution, "dimension distribution"),
        "mode": record.mode,
        "entropy_bits": record.entropy_bits,
        "entropy": record.entropy_bits,
        "updated_at": record.updated_at,
        "recorded_at": record.recorded_at,
        "delta_count": record.delta_count,
        # What ``recall_dimensions(..., deltas="cited")`` reads by id (null before citations).
        "cited": None if record.cited is None else list(record.cited),
    }


@decodes("Dimension")
def dimension_from_props(props: Props) -> DimensionRecord:
    """One ``:Dimension`` node as a ``DimensionRecord``."""
    return DimensionRecord(
        space=props["space"],
        entity_key=props["entity_key"],
        entity=props["entity"],
        attribute=props["attribute"],
        cardinality=props["cardinality"],
        state=json.loads(props["state"]),
        distribution=json.loads(props["distribution"]),
        mode=props.get("mode"),
        entropy_bits=props["entropy_bits"],
        updated_at=to_datetime(props.get("updated_at")),
        recorded_at=required_datetime(props["recorded_at"]),
        delta_count=props["delta_count"],
    )


def delta_props(delta: Delta, entity_key: str) -> dict[str, Any]:
    """Properties of one ``:Delta`` node."""
    return {
        "id": delta.id,
        "space": delta.space,
        "entity_key": entity_key,
        "entity": delta.entity,
        "attribute": delta.attribute,
        "observed": delta.observed,
        "polarity": delta.polarity,
        "modality": delta.modality,
        "change_signal": delta.change_signal,
        "reliability": delta.reliability,
        "prior": dumps(delta.prior, "delta prior"),
        "posterior": dumps(delta.posterior, "delta posterior"),
        "surprise_bits": delta.surprise_bits,
        "hazard": delta.hazard,
        "at": delta.at,
        "recorded_at": delta.recorded_at,
        "belief_id": delta.belief_id,
        "evidence_ids": list(delta.evidence_ids),
        "valid_from": delta.valid_from,  # None: no property (deltas stored before it have none)
        "said_at": delta.said_at,  # likewise
    }


@decodes("Delta")
def delta_from_props(props: Props) -> Delta:
    """One ``:Delta`` node as a ``Delta``."""
    return Delta(
        id=props["id"],
        space=props["space"],
        entity=props["entity"],
        attribute=props["attribute"],
        observed=props["observed"],
        polarity=props["polarity"],
        modality=props["modality"],
        change_signal=props["change_signal"],
        prior=json.loads(props["prior"]),
        posterior=json.loads(props["posterior"]),
        surprise_bits=props["surprise_bits"],
        hazard=props["hazard"],
        reliability=props["reliability"],
        at=required_datetime(props["at"]),
        recorded_at=required_datetime(props["recorded_at"]),
        belief_id=props["belief_id"],
        evidence_ids=tuple(props.get("evidence_ids") or ()),
        valid_from=to_datetime(props.get("valid_from")),
        said_at=to_datetime(props.get("said_at")),
    )


@decodes("SAME_AS")
def same_as_from_props(props: Props) -> SameAsEdge:
    """One ``SAME_AS`` relationship as a ``SameAsEdge``."""
    return SameAsEdge(
        space=props["space"],
        source=props["source"],
        target=props["target"],
        score=props["score"],
        at=required_datetime(props["at"]),
        removed_at=to_datetime(props.get("removed_at")),
        author=props.get("author"),
        removed_by=props.get("removed_by"),
    )
