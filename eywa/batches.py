"""Level 0 batches: validate turns, give each its deterministic id, detect signals, link
mentions. Synchronous, no LLM; nothing is written here (``Memory.remember`` hands the
prepared batch to the evidence store, which writes it in one transaction).

Ids: a turn with an ``external_id`` is ``ev_`` + hash(space, external_id); otherwise the
hash of (space, session, speaker, observed_at as given, text, its occurrence in the batch).
Re-sending a turn therefore yields the same id and the store skips it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eywa.contract import Limits, check_turns
from eywa.ids import content_hash, entity_id, entity_key, stable_id
from eywa.models import Entity, EntityKind, Evidence, Signal, SignalKind, Turn, utc_now
from eywa.stores.evidence import EvidenceStore

DEFAULT_SESSION = "default"

SignalDetector = Callable[[str, datetime, str | None, Sequence[str]], tuple[Signal, ...]]


def coerce_turns(turns: Sequence[Turn | Mapping[str, Any]], limits: Limits | None = None) -> list[Turn]:
    """Validate every turn before anything is written (``eywa.contract.check_turns``).

    Raises:
        InvalidInputError: not a non-empty list, or too many turns.
        InvalidTurnError: naming the first bad turn.
    """
    return check_turns(turns, limits or Limits())


def evidence_id(space: str, turn: Turn, occurrence: int) -> str:
    """The deterministic id of a turn (see the module docstring)."""
    if turn.external_id is not None:
        return stable_id("ev", space, "external", turn.external_id)
    observed = turn.observed_at.isoformat() if turn.observed_at else ""
    return stable_id(
        "ev", space, turn.session or DEFAULT_SESSION, turn.speaker or "", observed, turn.text, str(occurrence)
    )


@dataclass(frozen=True)
class PreparedBatch:
    """What Level 0 will write: all turns with ids, the new ones fully built."""

    ids: list[str]
    new: list[Evidence]
    mentions: list[tuple[str, Entity]]


def prepare_batch(
    space: str,
    turns: Sequence[Turn],
    store: EvidenceStore,
    detect: SignalDetector,
    *,
    author: str | None = None,
    now: datetime | None = None,
) -> PreparedBatch:
    """Compute ids, skip what exists, assign positions, detect signals and mentions."""
    recorded_at = now or utc_now()
    occurrences: Counter[tuple[str, str, str, str]] = Counter()
    ids: list[str] = []
    for turn in turns:
        key = (turn.session or DEFAULT_SESSION, turn.speaker or "", str(turn.observed_at), turn.text)
        ids.append(evidence_id(space, turn, occurrences[key]))
        occurrences[key] += 1
    existing = store.existing(space, ids)
    known = [e.name for e in store.entities(space)]
    known += sorted({t.speaker for t in turns if t.speaker})
    next_seq: dict[str, int] = {}
    new: list[Evidence] = []
    mentions: list[tuple[str, Entity]] = []
    seen: set[str] = set()
    for turn, turn_id in zip(turns, ids, strict=True):
        if turn_id in existing or turn_id in seen:
            continue
        seen.add(turn_id)
        session = turn.session or DEFAULT_SESSION
        if session not in next_seq:
            next_seq[session] = store.next_seq(space, session)
        observed_at = turn.observed_at or recorded_at
        signals = detect(turn.text, observed_at, turn.speaker, known)
        evidence = Evidence(
            id=turn_id,
            space=space,
            session=session,
            seq=next_seq[session],
            speaker=turn.speaker,
            role=turn.role,
            text=turn.text,
            observed_at=observed_at,
            recorded_at=recorded_at,
            content_hash=content_hash(turn.text),
            metadata=turn.metadata,
            external_id=turn.external_id,
            author=author,
            signals=tuple(signals),
        )
        next_seq[session] += 1
        new.append(evidence)
        found = _mentioned_entities(space, evidence)
        mentions.extend((turn_id, entity) for entity in found)
        known.extend(e.name for e in found if e.name not in known)  # later turns of the batch see them
    return PreparedBatch(ids=ids, new=new, mentions=mentions)


def _mentioned_entities(space: str, evidence: Evidence) -> list[Entity]:
    """The speaker is always an entity (a person); mention signals add the others."""
    found: dict[str, Entity] = {}
    if evidence.speaker:
        found[entity_key(evidence.speaker)] = Entity(
            id=entity_id(space, evidence.speaker), space=space, name=evidence.speaker, kind="person"
        )
    for signal in evidence.signals_of(SignalKind.PERSON, SignalKind.ENTITY):
        name = (signal.normalized or signal.text).strip()
        if not name or entity_key(name) in found:
            continue
        kind: EntityKind = "person" if signal.kind is SignalKind.PERSON else "entity"
        found[entity_key(name)] = Entity(id=entity_id(space, name), space=space, name=name, kind=kind)
    return list(found.values())
