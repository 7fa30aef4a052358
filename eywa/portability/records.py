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

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Annotated, Final, Literal

from pydantic import Field, TypeAdapter, ValidationError

from eywa.errors import FieldProblem, InvalidInputError
from eywa.models import Belief, Candidate, Delta, Entity, Evidence, Frozen
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


def parse_lines(lines: Iterable[str | bytes]) -> tuple[ExportHeader, Iterator[ExportRecord]]:
    """The header of an export and an iterator over its records, each line validated.

    Blank lines are skipped. Line numbers count from 1 (the header).

    Raises:
        InvalidInputError: the first line is not an ``eywa-export`` version 1 header, or a
            line is not one valid record (the problem's field is ``line.<number>``); raised
            by the iterator for a record line.
    """
    numbered = ((n, line) for n, line in enumerate(lines, start=1) if line.strip())
    first = next(numbered, None)
    if first is None:
        raise InvalidInputError.at("line.1", "the export is empty: expected an eywa-export header")
    try:
        header = ExportHeader.model_validate_json(first[1])
    except ValidationError as exc:
        raise _refused(first[0], exc) from exc

    def records() -> Iterator[ExportRecord]:
        for number, line in numbered:
            try:
                yield _RECORD.validate_json(line)
            except ValidationError as exc:
                raise _refused(number, exc) from exc

    return header, records()
