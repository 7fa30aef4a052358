"""Mapping between SQLite rows and domain models, in one place for the embedded store.

Rows read back were validated when they were written (the columns hold exactly what the
models held), so models are built with ``model_construct``: a recall hydrates dozens of
turns with their signals, and validating them again cost more than reading them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from eywa.models import Entity, Evidence, Signal, SignalKind
from eywa.stores.conversions import evidence_fields, signal_fields
from eywa.stores.evidence import RecallTurn


def to_epoch(value: datetime | None) -> float | None:
    """Datetimes are stored as UTC epoch seconds so range queries use plain REAL indexes."""
    return None if value is None else value.timestamp()


def from_epoch(value: float | None) -> datetime | None:
    """The inverse of ``to_epoch``; always timezone-aware UTC."""
    return None if value is None else datetime.fromtimestamp(value, tz=timezone.utc)


def evidence_row(evidence: Evidence) -> dict[str, Any]:
    """Column values of the ``evidence`` table for one turn."""
    return evidence_fields(evidence, to_epoch, json.dumps(evidence.metadata, ensure_ascii=False))


def signal_rows(evidence: Evidence) -> list[dict[str, Any]]:
    """Column values of the ``signals`` table for one turn's signals."""
    return [signal_fields(evidence, index, signal, to_epoch) for index, signal in enumerate(evidence.signals)]


def signal_from_row(row: sqlite3.Row) -> Signal:
    """One ``signals`` row as a ``Signal``."""
    return Signal.model_construct(
        kind=SignalKind(row["kind"]),
        text=row["text"],
        start=row["start"],
        end=row["end"],
        normalized=row["normalized"],
        granularity=row["granularity"],
        window_start=from_epoch(row["window_start"]),
        window_end=from_epoch(row["window_end"]),
    )


def evidence_from_row(row: sqlite3.Row, signals: tuple[Signal, ...]) -> Evidence:
    """One ``evidence`` row (plus its signals) as an ``Evidence``."""
    observed = from_epoch(row["observed_at"])
    recorded = from_epoch(row["recorded_at"])
    assert observed is not None and recorded is not None  # NOT NULL columns
    return Evidence.model_construct(
        id=row["id"],
        space=row["space"],
        session=row["session"],
        seq=row["seq"],
        speaker=row["speaker"],
        role=row["role"],
        text=row["text"],
        observed_at=observed,
        recorded_at=recorded,
        content_hash=row["content_hash"],
        metadata=json.loads(row["metadata"]),
        external_id=row["external_id"],
        author=row["author"],
        signals=signals,
    )


RECALL_TURN_COLUMNS = "id, session, seq, speaker, observed_at, text, metadata"
"""The ``evidence`` columns ``recall_turn_from_tuple`` reads, in its order."""


def recall_turn_from_tuple(row: tuple[Any, ...], mentions: Sequence[str]) -> RecallTurn:
    """The read path's columns of one ``evidence`` row (``RECALL_TURN_COLUMNS``, as a plain
    tuple: ``SqliteDatabase.tuples``), with the entity ids it mentions."""
    turn_id, session, seq, speaker, observed_at, text, metadata = row
    return RecallTurn(
        id=turn_id,
        session=session,
        seq=seq,
        speaker=speaker,
        observed_at=datetime.fromtimestamp(observed_at, tz=timezone.utc),  # a NOT NULL column
        text=text,
        metadata=json.loads(metadata),
        mentions=tuple(mentions),
    )


def entity_from_row(row: sqlite3.Row) -> Entity:
    """One ``entities`` row as an ``Entity``."""
    return Entity.model_construct(
        id=row["id"],
        space=row["space"],
        name=row["name"],
        kind=row["kind"],
        aliases=tuple(json.loads(row["aliases"])),
    )
