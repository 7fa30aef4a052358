"""Writing export records into an empty space, as they were exported.

What was derived and validated (beliefs, candidates, dimension states, deltas, merges,
corrections, erasure records) is restored as exported, never extracted again, so an export
of the imported space equals the export it came from. What is derived from the stored rows
by the stores themselves is rebuilt by the ordinary writes: keyword index rows, the
neighbour context of each turn, co-mention weights, belief-entity edges. Vectors are not in
the export: the turns and beliefs are left marked ``embed_*`` in the ledger and the
reconciler embeds them with the importing memory's embedder, as for any new turn.

The target must be empty (no turns, beliefs, candidates, dimensions, merges, corrections
or erasure records): a restore merged into live data could not be undone, and its ids would
collide. Ids are derived from the space name (``eywa.ids``), so an export is imported into
the space it was exported from (moving data under another name would change every id).
Every line is validated before the first write.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from eywa.contract import SpaceQuota, SpaceUsage, check_quota, turn_bytes
from eywa.errors import InvalidInputError, SpaceNotEmptyError
from eywa.ids import check_space, entity_id, stable_id
from eywa.models import Belief, Candidate, Delta, Entity, Evidence, Frozen, utc_now
from eywa.nous.engine import delta_id
from eywa.portability.export import export_records, superseded_first
from eywa.portability.records import (
    BeliefLine,
    CandidateLine,
    CorrectionLine,
    DeltaLine,
    DimensionLine,
    EntityLine,
    ErasureLine,
    ExportHeader,
    ExportRecord,
    MergeLine,
    TurnLine,
    record_json,
)
from eywa.signals.version import current_signals_version
from eywa.stores.bundle import GraphStores
from eywa.stores.corrections import CorrectionRecord
from eywa.stores.dimensions import DimensionRecord, SameAsEdge
from eywa.stores.erasure import ErasureRecord
from eywa.stores.ledger import DERIVED_STAGES

__all__ = ["ImportReport", "restore_records", "space_contents"]


class ImportReport(Frozen):
    """What an import wrote into ``space``: records per kind (``turn``, ``belief``...)."""

    space: str
    counts: dict[str, int]
    pending_embeddings: int
    """Turns and beliefs left for the reconciler to embed (vectors are never exported)."""
    outdated_signals: int = 0
    """Turns whose signals an older release detected (``eywa reprocess`` detects them again)."""
    already_imported: bool = False
    """The space already held this very export, as an import of it leaves it: a retry of an
    import that landed (its answer lost) is answered as done, and nothing is written again."""


@dataclass
class _Parsed:
    turns: list[TurnLine] = field(default_factory=list)
    entities: dict[str, Entity] = field(default_factory=dict)
    beliefs: list[Belief] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    dimensions: dict[tuple[str, str], DimensionRecord] = field(default_factory=dict)
    deltas: dict[tuple[str, str], list[Delta]] = field(default_factory=dict)
    merges: list[SameAsEdge] = field(default_factory=list)
    corrections: list[CorrectionRecord] = field(default_factory=list)
    erasures: list[ErasureRecord] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def space_contents(stores: GraphStores, space: str) -> dict[str, int]:
    """What ``space`` holds, by kind, leaving out kinds with none (empty: the space is empty)."""
    counts = {
        "turns": stores.evidence.count(space),
        "beliefs and candidates": sum(stores.beliefs.counts(space).values()),
        "dimensions": len(stores.dimensions.dimensions(space)),
        "merges": len(stores.dimensions.same_as(space, include_removed=True)),
        "corrections": len(stores.corrections.corrections(space)),
        "erasure records": len(stores.erasure.erasures(space)),
    }
    return {kind: n for kind, n in counts.items() if n}


def restore_records(
    stores: GraphStores,
    space: str,
    header: ExportHeader,
    records: Iterable[ExportRecord],
    quota: SpaceQuota | None = None,
) -> ImportReport:
    """Validate every record, then write them into the empty ``space``.

    An import is a write like any other: with ``quota`` (``EYWA_SPACE_MAX_TURNS`` /
    ``_BYTES``), an export holding more turns or bytes than a space may hold is refused
    before anything is written, as a batch taking the space over its quota is. The space
    is empty (checked), so the export's turns are the whole of what it would hold.

    Raises:
        InvalidInputError: ``space`` is not a valid name or not the space the export holds,
            a record belongs to another space, an id appears twice, a delta has no
            dimension, a turn mentions an entity without a line, or a line is invalid
            (raised while reading ``records``); nothing was written.
        SpaceNotEmptyError: ``space`` already holds data; nothing was written.
        QuotaExceededError: the export's turns exceed ``quota``; nothing was written.
        StoreError: a store failed while writing (the embedded store writes everything in
            one transaction; on Neo4j the space may be left partly restored, and a second
            import refuses it as not empty).
    """
    check_space(space)
    if header.space != space:
        raise InvalidInputError.at(
            "space", f"the export holds space {header.space!r}; ids are derived from the space name, "
            f"so it is imported into {header.space!r}",
        )  # fmt: skip
    records = list(records)
    parsed = _parse(space, records)
    if quota is not None:
        size = sum(turn_bytes(t.evidence.text, t.evidence.metadata) for t in parsed.turns)
        check_quota(space, SpaceUsage(turns=0, bytes=0), len(parsed.turns), size, quota)
    held = space_contents(stores, space)
    landed = bool(held) and _holds_just(stores, space, records)
    if held and not landed:
        raise SpaceNotEmptyError(space, held)
    if not landed:
        with stores.erasure.atomic():
            _write(stores, space, parsed)
    pending = len(parsed.turns) + len(parsed.beliefs)
    outdated = sum(t.signals_version < current_signals_version() for t in parsed.turns)
    return ImportReport(
        space=space, counts=parsed.counts, pending_embeddings=pending, outdated_signals=outdated,
        already_imported=landed,
    )  # fmt: skip


def _holds_just(stores: GraphStores, space: str, records: list[ExportRecord]) -> bool:
    """Whether ``space`` holds exactly ``records``, as importing them leaves it: the
    import of this export landed before (a client retrying after a lost answer, a second
    ``eywa import`` of the same file). The space's own export is compared record by record,
    turns without the stages they still owe (Level 1 and Nous run after an import); a space
    holding anything else (a turn written since, a belief Level 1 derived from an imported
    turn, an import cut short on Neo4j) is not this export, and the import is refused."""
    return _canonical(export_records(stores, space)) == _canonical(records)


def _canonical(records: Iterable[ExportRecord]) -> Counter[str]:
    return Counter(
        record_json(r.model_copy(update={"pending": ()}) if isinstance(r, TurnLine) else r) for r in records
    )


def _parse(space: str, records: Iterable[ExportRecord]) -> _Parsed:
    parsed = _Parsed()
    for record in records:
        parsed.counts[record.kind] = parsed.counts.get(record.kind, 0) + 1
        owner = _space_of(record)
        if owner is not None and owner != space:
            raise InvalidInputError.at(record.kind, f"a record of space {owner!r} in the export of {space!r}")
        match record:
            case TurnLine():
                parsed.turns.append(record)
            case EntityLine(entity=entity):
                parsed.entities[entity.id] = entity
            case BeliefLine(belief=belief):
                parsed.beliefs.append(belief)
            case CandidateLine(candidate=candidate):
                parsed.candidates.append(candidate)
            case DimensionLine(dimension=dimension):
                parsed.dimensions[(dimension.entity_key, dimension.attribute)] = dimension
            case DeltaLine(entity_key=key, attribute=attribute, delta=delta):
                parsed.deltas.setdefault((key, attribute), []).append(delta)
            case MergeLine(edge=edge):
                parsed.merges.append(edge)
            case CorrectionLine(correction=correction):
                parsed.corrections.append(correction)
            case ErasureLine(erasure=erasure):
                parsed.erasures.append(erasure)
    for kind, ids in (
        ("turn", [t.evidence.id for t in parsed.turns]),
        ("belief", [b.id for b in parsed.beliefs]),
        ("candidate", [c.id for c in parsed.candidates]),
        ("delta", [d.id for deltas in parsed.deltas.values() for d in deltas]),
    ):
        twice = sorted(i for i, n in Counter(ids).items() if n > 1)
        if twice:
            raise InvalidInputError.at(kind, f"id {twice[0]!r} appears twice in the export")
    _check_ids_of(space, parsed)
    orphans = sorted(set(parsed.deltas) - set(parsed.dimensions))
    if orphans:
        key, attribute = orphans[0]
        raise InvalidInputError.at("delta", f"deltas of ({key!r}, {attribute!r}) without a dimension line")
    newer = [t for t in parsed.turns if t.signals_version > current_signals_version()]
    if newer:
        raise InvalidInputError.at(
            "turn", f"turn {newer[0].evidence.id!r} was detected by a newer release (signals version "
            f"{newer[0].signals_version}; this release detects version {current_signals_version()}): "
            "import the export with that release or a newer one",
        )  # fmt: skip
    unknown = sorted({m for t in parsed.turns for m in t.mentions} - set(parsed.entities))
    if unknown:
        raise InvalidInputError.at("turn", f"a turn mentions entity {unknown[0]!r}, which has no entity line")
    return parsed


def _check_ids_of(space: str, parsed: _Parsed) -> None:
    """Refuse ids that were not derived from ``space`` (or, for a delta, from its dimension
    and belief: one edited by hand was imported, and the next correction of the space raised
    ``KeyError`` from the replay that looks each delta up by its derived id): an export
    renamed by hand (its
    header and every record's ``space`` edited) kept the ids of the space it came from, and
    was imported "successfully" while every turn, entity and belief whose id the store
    already held under the old name was skipped (the report counted them; the space held
    its dimensions alone). An entity's id is derived from the space and its name, a turn's
    with an external id from the space and that id, so both can be checked before any write.

    Raises:
        InvalidInputError: naming the kind (``entity``, ``turn``, ``delta``) and the first such id.
    """
    for entity in parsed.entities.values():
        if entity.id != entity_id(space, entity.name):
            raise InvalidInputError.at(
                "entity", f"entity {entity.id!r} ({entity.name!r}) was not exported from space {space!r}: "
                "ids are derived from the space name, so an export is imported into the space it came from",
            )  # fmt: skip
    for turn in parsed.turns:
        external = turn.evidence.external_id
        if external is not None and turn.evidence.id != stable_id("ev", space, "external", external):
            raise InvalidInputError.at(
                "turn", f"turn {turn.evidence.id!r} was not exported from space {space!r}: ids are derived "
                "from the space name, so an export is imported into the space it came from",
            )  # fmt: skip
    for delta in (d for deltas in parsed.deltas.values() for d in deltas):
        if delta.id != delta_id(space, delta.entity, delta.attribute, delta.belief_id):
            raise InvalidInputError.at(
                "delta", f"delta {delta.id!r} is not the id of its dimension and belief in space {space!r} "
                "(a delta's id is derived from them; a replay of the dimension looks it up by it)",
            )  # fmt: skip


def _keep_signals_versions(stores: GraphStores, space: str, turns: list[TurnLine]) -> None:
    """Record the signals version each turn was exported with (``add`` stamps the current
    one): signals an older release detected stay outdated, so ``eywa stats`` counts them and
    ``eywa reprocess`` detects them again, as in the store they came from. ``rederive`` with
    no changed turn only records a version."""
    by_version: dict[int, list[str]] = {}
    for turn in turns:
        if turn.signals_version < current_signals_version():
            by_version.setdefault(turn.signals_version, []).append(turn.evidence.id)
    for version, ids in sorted(by_version.items()):
        stores.evidence.rederive(space, [], ids, version, utc_now())


def _space_of(record: ExportRecord) -> str | None:
    match record:
        case TurnLine(evidence=evidence):
            return evidence.space
        case EntityLine(entity=entity):
            return entity.space
        case BeliefLine(belief=belief):
            return belief.space
        case CandidateLine(candidate=candidate):
            return candidate.space
        case DimensionLine(dimension=dimension):
            return dimension.space
        case DeltaLine(delta=delta):
            return delta.space
        case MergeLine(edge=edge):
            return edge.space
        case CorrectionLine(correction=correction):
            return correction.space
        case ErasureLine(erasure=erasure):
            return erasure.space
    return None


def _write(stores: GraphStores, space: str, parsed: _Parsed) -> None:
    turns = sorted(parsed.turns, key=lambda t: (t.evidence.session, t.evidence.seq))
    evidence: list[Evidence] = [t.evidence for t in turns]
    mentions = [(t.evidence.id, parsed.entities[m]) for t in turns for m in t.mentions]
    stores.evidence.add(evidence, mentions)
    _keep_signals_versions(stores, space, turns)
    for stage in DERIVED_STAGES:
        done = [t.evidence.id for t in turns if stage not in t.pending]
        stores.ledger.complete(space, stage, done)
    stores.beliefs.add(superseded_first(parsed.beliefs), parsed.candidates)
    for key, dimension in sorted(parsed.dimensions.items()):
        stores.dimensions.save(dimension, parsed.deltas.get(key, []))
    for edge in parsed.merges:
        stores.dimensions.add_same_as(edge)
    for correction in parsed.corrections:
        stores.corrections.record(correction)
    for erasure in parsed.erasures:
        stores.erasure.begin(erasure)
        if erasure.state == "done":
            # ``begin`` marks the erased ids for the cascade's vector step (their vectors
            # dropped); a done record's step ran where it was exported, and these turns and
            # vectors never existed here: the marks would count as residue and backlog.
            stores.ledger.complete(space, "embed_evidence", [t.evidence_id for t in erasure.turns])
            stores.erasure.finish(erasure.id, erasure.counts, erasure.done_at or erasure.at)
