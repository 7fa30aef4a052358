"""Domain models. Frozen pydantic models: what is stored is never mutated in place.

The graph model of the design brief maps onto these one to one: ``Evidence`` nodes carry
``Signal`` children, ``Entity`` nodes are mentioned by evidence, ``Belief`` nodes are
supported by evidence, ``Dimension`` nodes change by ``Delta`` nodes.
"""

from __future__ import annotations

from datetime import datetime, timezone
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from eywa.errors import FieldProblem, InvalidInputError
from eywa.values import json_shape, parse_time, supported_utc, text_problem


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(timezone.utc)


def as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken to be UTC; aware ones are converted to it."""
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


class Frozen(BaseModel):
    """Base for immutable domain values."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class SignalKind(StrEnum):
    """Typed signals that Level 0 detects deterministically in a turn."""

    DATE = "date"
    TIME = "time"
    DURATION = "duration"
    MONEY = "money"
    NUMBER = "number"
    QUANTITY = "quantity"
    URL = "url"
    EMAIL = "email"
    CODE = "code"
    PERSON = "person"
    ENTITY = "entity"
    NEGATION = "negation"
    HEDGE = "hedge"
    DECISION = "decision"
    CORRECTION = "correction"


Granularity = Literal["year", "month", "week", "day", "minute"]


class Signal(Frozen):
    """A typed span of a turn.

    ``normalized`` is the canonical value the validator compares against: an ISO date
    ("2023-05-20", "2023-05", "2022") for dates, "1200.00 USD" for money, a plain decimal
    for numbers, a lower-cased address for emails and URLs, a canonical name for mentions.
    Dates also carry the window they denote (``window_start`` inclusive, ``window_end``
    exclusive) so the temporal route can filter by overlap.
    """

    kind: SignalKind
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    normalized: str = ""
    granularity: Granularity | None = None
    window_start: datetime | None = None
    window_end: datetime | None = None


class Turn(BaseModel):
    """One conversation turn as a caller sends it to ``Memory.remember``.

    The model refuses what no store can keep (``eywa.values``): lone surrogates in any
    text, times outside the supported range, metadata that JSON would not return
    unchanged. The configured limits (lengths, metadata depth and size) are checked by
    ``eywa.contract`` on top.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    speaker: str | None = None
    role: str | None = None
    session: str | None = None
    observed_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    external_id: str | None = None

    if not TYPE_CHECKING:  # type checkers keep the fields' own signature

        def __init__(self, **data: Any) -> None:
            """Build a turn, refusing it as every surface does: an ``InvalidInputError``
            (code ``invalid_turn``, a problem per field) instead of pydantic's
            ``ValidationError``, which ``eywa.Turn(text="\\ud800")`` raised to the caller."""
            try:
                super().__init__(**data)
            except ValidationError as exc:
                problems = [
                    FieldProblem(".".join(str(p) for p in e["loc"]) or "turn", e["msg"].removeprefix("Value error, "))
                    for e in exc.errors(include_input=False, include_url=False)
                ]
                raise InvalidInputError.of(problems, code="invalid_turn") from None

        # Marked as pydantic's own ``__init__``, so validation (``model_validate``, which
        # ``eywa.contract`` and the loaders use and whose errors they locate) does not call
        # it: pydantic calls an overridden ``__init__`` from validation otherwise.
        __init__.__pydantic_base_init__ = True

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text must not be empty")
        return value

    @field_validator("text", "speaker", "role", "session", "external_id")
    @classmethod
    def _valid_unicode(cls, value: str | None) -> str | None:
        if value is not None and (problem := text_problem(value)) is not None:
            raise ValueError(problem)
        return value

    @field_validator("observed_at", mode="before")
    @classmethod
    def _iso_8601(cls, value: object) -> object:
        """Text is read by ``values.parse_time``, the parser of a query's time (``as_of``),
        so that a string is a time for a turn exactly when it is one for a query, and the
        same instant. Pydantic's own parsing took Unix seconds as text and refused the basic
        (``20240101T000000``) and week-date forms that a query accepted. A number is no
        time either (the README: an ISO-8601 string or a datetime): pydantic read it as Unix
        seconds, or milliseconds above 2e10, where a query's ``as_of`` refused it."""
        return value if value is None else parse_time(value)

    @field_validator("observed_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else supported_utc(value)

    @field_validator("metadata")
    @classmethod
    def _json_document(cls, value: dict[str, Any]) -> dict[str, Any]:
        shape = json_shape(value)
        if shape.problem is not None and not shape.too_deep:  # depth is a limit: eywa.contract
            raise ValueError(shape.problem)
        return value


class Evidence(Frozen):
    """A stored turn. Immutable; its id is deterministic (see ``eywa.batches``)."""

    id: str
    space: str
    session: str
    seq: int
    speaker: str | None
    role: str | None
    text: str
    observed_at: datetime
    recorded_at: datetime
    content_hash: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    external_id: str | None = None
    author: str | None = None
    signals: tuple[Signal, ...] = ()

    def signals_of(self, *kinds: SignalKind) -> tuple[Signal, ...]:
        """The signals of the given kinds, in span order."""
        return tuple(s for s in self.signals if s.kind in kinds)


EntityKind = Literal["person", "entity"]


class Entity(Frozen):
    """Someone or something mentioned in a space. Identity merges are edges, not rewrites."""

    id: str
    space: str
    name: str
    kind: EntityKind = "entity"
    aliases: tuple[str, ...] = ()


class EvidenceRef(Frozen):
    """Provenance: which stored turn an item rests on, with the caller's own metadata."""

    id: str
    session: str
    speaker: str | None
    observed_at: datetime
    metadata: dict[str, Any] = Field(default_factory=dict)


ItemKind = Literal["evidence", "belief", "dimension", "entity"]


class RecallItem(Frozen):
    """One ranked item of a recall result."""

    kind: ItemKind
    id: str
    text: str
    score: float
    routes: dict[str, int] = Field(default_factory=dict)
    provenance: tuple[EvidenceRef, ...] = ()
    session: str | None = None
    observed_at: datetime | None = None


Policy = Literal["strict", "balanced", "advanced"]

RouteName = Literal[
    "keyword", "vector", "temporal", "graph", "inference", "dimension", "beliefs", "events", "person", "feedback"
]
"""The retrieval routes of the read path (``eywa.read.routes``)."""

PostFilter = Literal["boost", "specific", "demotion", "sessions", "rescue", "addressed", "dedupe", "latest", "floor"]
"""The post-fusion stages of the read path (``eywa.read.adjust``)."""

Stage = Literal[
    "keyword", "vector", "temporal", "graph", "inference", "dimension", "beliefs", "events", "person", "feedback",
    "boost", "specific", "demotion", "sessions", "rescue", "addressed", "dedupe", "latest", "floor",
]  # fmt: skip
"""What ``EYWA_DISABLED_STAGES`` may switch off: a route or a post-filter."""


class RecallResult(Frozen):
    """What ``Memory.recall`` returns. ``answer_instructions`` never leaks into ``context``.

    ``evidence_strength`` (0 to 1) is how likely the evidence found answers the question (a
    logistic model of the nearest evidence's cosine and of whether the asked-about words and
    the nearest hits are the named person's or someone else's, ``eywa.read.strength``): low
    values mean the memory probably does not hold the answer, so an answering model may say
    "not in memory".
    """

    query: str
    items: tuple[RecallItem, ...]
    context: str
    answer_instructions: str
    trace: dict[str, Any]
    tokens: int
    evidence_strength: float = 0.0


# --- Level 1: candidates, beliefs -------------------------------------------------------

Polarity = Literal["positive", "negative"]
Modality = Literal["asserted", "hedged", "planned", "hypothetical"]
BeliefStatus = Literal["active", "superseded", "retracted"]
CandidateStatus = Literal["rejected", "repair"]


class ReasonCode(StrEnum):
    """Why the validator refused a candidate."""

    UNSUPPORTED = "unsupported"
    ANCHOR_MISMATCH = "anchor_mismatch"
    SUBJECT_MISSING = "subject_missing"
    POLARITY_FLIP = "polarity_flip"
    MODALITY_LOST = "modality_lost"
    BAD_CITATION = "bad_citation"


class CandidateFact(BaseModel):
    """A fact an extractor proposes. It becomes a belief only if the validator accepts it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statement: str
    subject: str
    attribute: str | None = None
    value: str | None = None
    polarity: Polarity = "positive"
    modality: Modality = "asserted"
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    evidence_ids: tuple[str, ...]
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)


class CheckScore(Frozen):
    """One validator check: its name, score in [0, 1], whether it passed, and why."""

    name: str
    score: float
    passed: bool
    detail: str = ""


class SupportLink(Frozen):
    """A ``SUPPORTED_BY`` edge: the matched span of a cited turn and the anchors it matched."""

    evidence_id: str
    span: tuple[int, int] | None
    score: float
    anchors: tuple[str, ...] = ()


class ValidationReport(Frozen):
    """The validator's verdict on one candidate."""

    accepted: bool
    score: float
    checks: tuple[CheckScore, ...]
    reasons: tuple[ReasonCode, ...] = ()
    support: tuple[SupportLink, ...] = ()
    repairable: bool = False


class Belief(Frozen):
    """A validated fact, linked to the evidence that supports it."""

    id: str
    space: str
    statement: str
    subject: str
    attribute: str | None
    value: str | None
    polarity: Polarity
    modality: Modality
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    status: BeliefStatus
    extractor: str
    evidence_ids: tuple[str, ...]
    support: tuple[SupportLink, ...] = ()
    report: ValidationReport | None = None
    supersedes: str | None = None
    event_at: datetime | None = None
    extractor_version: str | None = None


class Candidate(Frozen):
    """A refused candidate, kept for audit and repair."""

    id: str
    space: str
    fact: CandidateFact
    status: CandidateStatus
    reasons: tuple[ReasonCode, ...]
    report: ValidationReport
    extractor: str
    recorded_at: datetime
    extractor_version: str | None = None


# --- Nous: dimensions and deltas --------------------------------------------------------

Cardinality = Literal["single", "multi"]


class ObservedValue(Frozen):
    """One observation of a dimension as the delta log keeps it: what was said, when, where."""

    value: str
    polarity: Polarity
    modality: Modality
    at: datetime
    """Event time of the observation."""
    belief_id: str
    evidence_ids: tuple[str, ...]
    """The turns that support it."""
    said_at: datetime | None = None
    """When the turns that support it were said, where the event time is a start still ahead
    ("I got a job at Initech! Starting next Monday." said on 1 Mar is at 4 Mar, said 1 Mar);
    None when it is the event time, or in a state saved before it was kept."""


class Dimension(Frozen):
    """The belief state of one (entity, attribute), as of some time.

    Besides the distribution at ``as_of`` it answers "as of the last evidence": the last
    observation (``last_observed``, whatever its value) and, for the mode, since when it has
    been held (``since``) and the value it replaced (``previous``; for a multi-valued
    dimension, ``since`` is when the mode became a member and ``previous`` is None). ``since``
    is the start the evidence states when it states one ("I have worked at Google since
    2015", said in 2023: 2015; see ``Delta.valid_from``), else the event time of the change
    point; ``changed_at`` is that event time in either case (single-valued only: when the
    change was said, or dated). All of it is computed from the delta log up to ``as_of``.
    """

    space: str
    entity: str
    attribute: str
    cardinality: Cardinality
    distribution: dict[str, float]
    mode: str | None
    entropy_bits: float
    updated_at: datetime | None
    as_of: datetime | None = None
    last_observed: ObservedValue | None = None
    since: datetime | None = None
    previous: str | None = None
    changed_at: datetime | None = None


class Delta(Frozen):
    """One immutable update of a dimension. Replaying deltas in event time rebuilds it."""

    id: str
    space: str
    entity: str
    attribute: str
    observed: str
    polarity: Polarity = "positive"
    modality: Modality = "asserted"
    change_signal: bool = False
    prior: dict[str, float]
    """What the observation was scored against: the state decayed to ``at`` (a
    single-valued dimension: with every value new at that instant split in; a multi-valued
    one: the observed member's mean before it). Observations of one instant share it
    (single-valued; ``eywa.nous.engine.fold_instant``)."""
    posterior: dict[str, float]
    """The state after the update: for a single-valued dimension, after every observation
    of the instant (they enter together), so one instant's deltas record the same one."""
    surprise_bits: float
    """−log2 of the probability the prior gave this observation: its own surprise, whatever
    else was said at that instant."""
    hazard: float
    """The change hazard the prior was decayed by: the instant's, on each of its deltas
    (single-valued); a member's, on its first observation of the instant (multi-valued)."""
    reliability: float
    at: datetime
    recorded_at: datetime
    belief_id: str
    evidence_ids: tuple[str, ...]
    valid_from: datetime | None = None
    """The start the belief states when it is before ``at`` ("since 2015", "last week"),
    else None. ``at`` stays the time said (``eywa.nous.observations``): decay and replay run
    on it; only the ``since`` a dimension reports reads this (``eywa.nous.engine.Held``)."""
    said_at: datetime | None = None
    """When the cited turns were said, when before ``at`` (a start said ahead: "I'm joining
    Initech next month" said on 10 Jun is at 1 Jul), else None: a dimension replayed from its
    deltas (an earlier ``as_of``, merged entities) reports "last said" on the day it was said,
    as the stored state does (``ObservedValue.said_at``)."""
