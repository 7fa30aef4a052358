"""The export format: one JSON object per line, a header first, then one record per item.

Every line carries ``kind``; the records are a pydantic discriminated union on it, so a line
of an unknown kind or with a missing field is refused with its line number before anything
is written. Each record wraps the domain model it carries (``Evidence``, ``Belief``,
``Delta``...) unchanged, so the export says exactly what the store holds and an import
writes it back as it was.

What travels: turns (metadata, signals, the entities they mention, the later stages still
pending for them), entities, beliefs (cited evidence ids, spans, validation report,
supersession), refused candidates, dimension states and their deltas (with the belief and
evidence they came from), identity merges (undone ones too), corrections, and erasure
records — never the erased content (a record holds ids and keyed hashes only), and the
erased ids travel as the records' tombstones. What does not travel: vectors (re-embedded
by the importing memory's embedder) and keyword index rows (rebuilt by the stores).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from typing import Annotated, Final, Literal

from pydantic import Field, TypeAdapter, ValidationError

from eywa.errors import FieldProblem, InvalidInputError
from eywa.json_text import loads_unique
from eywa.values import json_shape, supported_utc
from eywa.models import Belief, Candidate, Delta, Entity, Evidence, Frozen
from eywa.nous.state_json import state_problem
from eywa.stores.corrections import CorrectionRecord
from eywa.stores.dimensions import DimensionRecord, SameAsEdge
from eywa.stores.erasure import ErasureRecord
from eywa.stores.ledger import PendingStage

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "BeliefLine",
    "CandidateLine",
    "CorrectionLine",
    "DeltaLine",
    "DimensionLine",
    "EntityLine",
    "ErasureLine",
    "ExportHeader",
    "ExportRecord",
    "MergeLine",
    "TurnLine",
    "import_lines",
    "parse_lines",
    "record_json",
]

EXPORT_FORMAT: Final = "eywa-export"
_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**63 - 1
EXPORT_VERSION: Final = 1


class ExportHeader(Frozen):
    """The first line: what the file is, which space it holds, and what made it.

    ``embedder`` names the embedder of the exporting memory (vectors are not exported; the
    importing memory embeds the turns again with its own); ``rules_version`` is the
    extractor (``name@version``) the exporting memory runs, None without one.
    """

    kind: Literal["header"] = "header"
    format: Literal["eywa-export"] = EXPORT_FORMAT
    version: Literal[1] = EXPORT_VERSION
    space: str
    exported_at: datetime
    embedder: str
    rules_version: str | None = None


class TurnLine(Frozen):
    """A turn with its metadata and signals, the entity ids it mentions, and the later
    stages (Level 1, Nous) it still owed when exported."""

    kind: Literal["turn"] = "turn"
    evidence: Evidence
    mentions: tuple[str, ...] = ()
    pending: tuple[PendingStage, ...] = ()
    signals_version: int = Field(default=0, ge=0)
    """The ``eywa.signals.version`` its signals and mentions were detected under; 0 in
    exports written before the version travelled (their turns count as detected by an older
    release, so ``eywa reprocess`` detects them again after the import)."""


class EntityLine(Frozen):
    """An entity of the space (name, kind, aliases)."""

    kind: Literal["entity"] = "entity"
    entity: Entity


class BeliefLine(Frozen):
    """A belief with its support links (evidence ids, spans, scores), validation report and
    the belief it supersedes."""

    kind: Literal["belief"] = "belief"
    belief: Belief


class CandidateLine(Frozen):
    """A candidate the validator refused (or a repair-queue one), with its reasons."""

    kind: Literal["candidate"] = "candidate"
    candidate: Candidate


class DimensionLine(Frozen):
    """The materialised state of one (entity, attribute)."""

    kind: Literal["dimension"] = "dimension"
    dimension: DimensionRecord


class DeltaLine(Frozen):
    """One update of a dimension with its provenance (``belief_id``, ``evidence_ids``);
    ``entity_key`` and ``attribute`` name the dimension it belongs to."""

    kind: Literal["delta"] = "delta"
    entity_key: str
    attribute: str
    delta: Delta


class MergeLine(Frozen):
    """An identity merge (a ``SAME_AS`` edge); an undone one keeps its ``removed_at``."""

    kind: Literal["merge"] = "merge"
    edge: SameAsEdge


class CorrectionLine(Frozen):
    """One audited correction a person made."""

    kind: Literal["correction"] = "correction"
    correction: CorrectionRecord


class ErasureLine(Frozen):
    """An erasure record: ids, keyed hashes and counts, never content. Its turn ids are
    tombstoned by the import, so a re-sent erased turn is still refused."""

    kind: Literal["erasure"] = "erasure"
    erasure: ErasureRecord


ExportRecord = Annotated[
    TurnLine | EntityLine | BeliefLine | CandidateLine | DimensionLine | DeltaLine | MergeLine | CorrectionLine
    | ErasureLine,
    Field(discriminator="kind"),
]
"""Any line after the header."""

_RECORD: Final[TypeAdapter[ExportRecord]] = TypeAdapter(ExportRecord)


def record_json(record: ExportHeader | ExportRecord) -> str:
    """One line of the export (no newline), the same bytes for the same record."""
    return record.model_dump_json()


# What ``import_lines`` takes as a record: the header and every kind of line after it.
_RECORD_TYPES: Final = (ExportHeader, TurnLine, EntityLine, BeliefLine, CandidateLine, DimensionLine, DeltaLine,
                        MergeLine, CorrectionLine, ErasureLine)  # fmt: skip


def import_lines(source: object) -> Iterator[str | bytes]:
    """The lines of what ``Memory.import_space`` is given: JSONL lines (``str`` or ``bytes``,
    a file's lines) as they are, the records ``export_space`` yields as their JSON line.

    Checked here so that a wrong argument is refused like a wrong line, not met as an
    ``AttributeError`` from deep in the import.

    Raises:
        InvalidInputError: ``source`` is not an iterable of lines or records (a bare string
            or bytes is one text, not its lines), or an item is neither (field ``line.<number>``,
            counted from 1 like ``parse_lines``); raised by the iterator for an item.
    """
    if isinstance(source, str | bytes) or not isinstance(source, Iterable):
        raise InvalidInputError.at("source", "must be an iterable of JSONL lines or export records")

    def lines() -> Iterator[str | bytes]:
        for number, item in enumerate(source, start=1):
            if isinstance(item, str | bytes):
                yield item
            elif isinstance(item, _RECORD_TYPES):
                yield record_json(item)
            else:
                raise InvalidInputError.at(
                    f"line.{number}", f"must be a JSONL line or an export record, not {type(item).__name__}"
                )

    return lines()


def _refused(number: int, exc: ValidationError) -> InvalidInputError:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return InvalidInputError.of([FieldProblem(f"line.{number}", message)])


def _check_storable(number: int, record: ExportHeader | ExportRecord) -> None:
    """Refuse a line whose values no store can write: a time that has no UTC instant in
    Python's calendar (a turn observed at ``0001-01-01T00:00:00+01:00`` was a ValueError,
    "year 0 is out of range", from the write), an integer beyond 64 bits (a ``seq`` of
    2**70 was SQLite's OverflowError) or a number that is not finite (a delta's NaN
    ``surprise_bits`` was SQLite's NOT NULL failure, a 503 ``store_unavailable`` over HTTP;
    a NaN confidence or probability was stored). (Times elsewhere may lie at the calendar's edge: a
    space's erasure selects ``recorded_before`` 9999-12-31T23:59:59.999999Z.)

    Raises:
        InvalidInputError: naming ``line.<number>`` and the value's path in the record.
    """
    stack: list[tuple[object, str]] = [(record.model_dump(), "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            stack.extend((inner, f"{path}.{key}" if path else str(key)) for key, inner in value.items())
        elif isinstance(value, list | tuple | set | frozenset):
            stack.extend((inner, f"{path}.{index}") for index, inner in enumerate(value))
        elif isinstance(value, datetime):
            try:
                value.astimezone(timezone.utc)
            except (OverflowError, ValueError):
                raise InvalidInputError.at(f"line.{number}", f"{path}: {value.isoformat()} is no UTC instant") from None
        elif isinstance(value, int) and not isinstance(value, bool) and not _INT_MIN <= value <= _INT_MAX:
            raise InvalidInputError.at(f"line.{number}", f"{path}: integer does not fit in 64 bits")
        elif isinstance(value, float) and not math.isfinite(value):
            raise InvalidInputError.at(f"line.{number}", f"{path}: {value} is not a JSON number (NaN and Infinity are refused)")


def _check_turn(number: int, evidence: Evidence) -> None:
    """A turn's times and metadata follow the rules of a turn sent to ``remember``
    (``eywa.values``): its times in the supported range, its metadata what JSON returns
    unchanged (NaN was stored, where ``remember`` refuses it).

    Raises:
        InvalidInputError: naming ``line.<number>`` and the field.
    """
    for name in ("observed_at", "recorded_at"):
        try:
            supported_utc(getattr(evidence, name))
        except ValueError as exc:
            raise InvalidInputError.at(f"line.{number}", f"evidence.{name}: {exc}") from None
    if (shape := json_shape(evidence.metadata)).problem is not None:
        raise InvalidInputError.at(f"line.{number}", f"evidence.metadata: {shape.problem}")


def _check_dimension(number: int, dimension: DimensionRecord) -> None:
    """A dimension's state is one the engine can read back (``eywa.nous.state_json``): a
    state of the wrong shape was stored, and every later read of the space that folded or
    listed it (a recall, ``dimensions``, ``stats``, the next ``remember``) raised a
    ``TypeError``, ``ValueError`` or pydantic's ``ValidationError`` from inside the engine.

    Raises:
        InvalidInputError: naming ``line.<number>`` and the state's field.
    """
    if (problem := state_problem(dimension.state, dimension.cardinality)) is not None:
        raise InvalidInputError.at(f"line.{number}", f"dimension.state.{problem}")


def _once_each(number: int, line: str | bytes) -> str | bytes:
    """``line``, refused when one of its objects names a key twice: pydantic's parser keeps
    the last value (a turn line saying ``"speaker"`` twice was restored as the second
    speaker's), where every surface refuses such JSON (``eywa.json_text``). A line that is
    no JSON is left to the record's own validation, which says why.

    Raises:
        InvalidInputError: naming ``line.<number>`` and the key's path in the line.
    """
    try:
        loads_unique(line)
    except InvalidInputError as exc:
        problem = exc.problems[0]
        raise InvalidInputError.at(f"line.{number}", f"{problem.field}: {problem.message}") from None
    except (ValueError, RecursionError):
        pass
    return line


def _without_mark(line: str | bytes) -> str | bytes:
    """``line`` without a leading UTF-8 byte order mark (as text, or its three bytes)."""
    return line.removeprefix(b"\xef\xbb\xbf") if isinstance(line, bytes) else line.removeprefix("\ufeff")


def parse_lines(lines: Iterable[str | bytes]) -> tuple[ExportHeader, Iterator[ExportRecord]]:
    """The header of an export and an iterator over its records, each line validated.

    Blank lines are skipped. Line numbers count from 1 (the header). A UTF-8 byte order mark
    before the header (an export saved again by a Windows editor; ``eywa ingest`` skips one
    too) is skipped: it made the header ``Invalid JSON`` on every surface.

    Raises:
        InvalidInputError: the first line is not an ``eywa-export`` version 1 header, or a
            line is not one valid record or names a key twice in one object (the problem's
            field is ``line.<number>``); raised by the iterator for a record line.
    """
    numbered = ((n, line) for n, line in enumerate(lines, start=1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise InvalidInputError.at("line.1", "the export is empty: expected an eywa-export header")
    try:
        header = ExportHeader.model_validate_json(_once_each(first[0], _without_mark(first[1])))
    except ValidationError as exc:
        raise _refused(first[0], exc) from exc
    _check_storable(first[0], header)

    def records() -> Iterator[ExportRecord]:
        for number, line in numbered:
            try:
                record = _RECORD.validate_json(_once_each(number, line))
            except ValidationError as exc:
                raise _refused(number, exc) from exc
            _check_storable(number, record)
            if isinstance(record, TurnLine):
                _check_turn(number, record.evidence)
            elif isinstance(record, DimensionLine):
                _check_dimension(number, record.dimension)
            yield record

    return header, records()
